"""Clue: Doctor Who: the board with its nine locations round the TARDIS, movers and weapons,
the dice, the rumour being made, the hand, and the notebook as a grid (one column per seat)
with the deducer's envelope odds, which the player may hide.

After a roll every reachable location and square is a control; naming a card is done from
the notebook's rows; showing a card from the hand's cards.
"""

from __future__ import annotations

from typing import Any

from timelord.core.action import Action
from timelord.games.clue import notebook
from timelord.games.clue.actions import (
    Accuse,
    Move,
    NameCard,
    PlayCard,
    ShowCard,
    Target,
    UsePassage,
)
from timelord.games.clue.board import FIRST_SQUARE, TARDIS, cards_data
from timelord.games.clue.game import ClueGame
from timelord.server.boards.common import (
    SEAT_COLOURS,
    Snapshot,
    act_attrs,
    card,
    claimer,
    esc,
    explain_attr,
    frame,
    result_panel,
    seat_chip,
)

CATEGORY = ("Who", "What", "Where")
#: What each engine phase asks of the seat to move (keys are the engine's phase ids).
PHASE_TEXT = {
    "start": "Start of your turn: play a card or power, take a passage, or roll.",
    "move": "Choose where to move: click a glowing location or square.",
    "name": "Name the cards: click a row of the notebook.",
    "answer": "Show one of your cards that matches the rumour.",
    "centre": "In the TARDIS: click it to accuse, or end your turn.",
    "offer": "Draw an intrigue card, or pass.",
    "peek": "Look at the card just shown to another player, or pass.",
    "second": "Use your power to have a second player answer, or pass.",
    "side": "Look at one of the cards set aside.",
    "teleport": "Teleport: click the location to go to.",
    "slip": "Time Slip: click the location to go to.",
    "scan": "Choose whose hand to scan.",
    "bell": "The Cloister Bell: click the location to move to.",
}

#: The phase in words for the status line, so no engine id shows on screen.
PHASE_WORDS = {
    "start": "start of turn",
    "move": "moving",
    "name": "naming a rumour",
    "answer": "answering a rumour",
    "centre": "in the TARDIS",
    "offer": "intrigue card offered",
    "peek": "peeking at a shown card",
    "second": "a second answer",
    "side": "looking at a set-aside card",
    "teleport": "teleporting",
    "slip": "Time Slip",
    "scan": "scanning a hand",
    "bell": "the Cloister Bell",
    "over": "over",
}


#: What the player confirms before an accusation starts: it cannot be withdrawn (C-5.1) and
#: a wrong one puts the player out of the game (C-5.3).
ACCUSE_CONFIRM = (
    "Accuse now? You will name a suspect, a weapon and a location, and look in the envelope."
    " Once begun it cannot be taken back (C-5.1). If any of the three is wrong, you are out"
    " of the game: no more turns, only answering rumours (C-5.3)."
)


def _confirm(action: Action) -> str:
    return ACCUSE_CONFIRM if isinstance(action, Accuse) else ""


def _intrigue_names() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in cards_data().get("intrigue", [])}


def render(snap: Snapshot) -> str:
    """The Clue board for one seat."""
    game = snap.game
    assert isinstance(game, ClueGame)
    view = snap.view
    snap.confirm = _confirm
    take = claimer(snap.legal)

    seats = _seats(snap, game, view, take)
    board = _map(snap, game, view, take)
    hand = _hand(snap, game, view, take)
    book = _notebook(snap, game, view, take)
    roll = view.get("roll") or []
    # The first die has "?" for its 1 (C-3.1): it draws an intrigue card and counts no steps.
    dice = "".join(
        f'<span class="die" aria-label="die {"?" if i == 0 and d == 0 else d}">'
        f"{'?' if i == 0 and d == 0 else esc(d)}</span>"
        for i, d in enumerate(roll)
    )
    info = (
        f'<p class="stat">Turn {esc(view["turn"])} · '
        + (
            "the game is over"
            if snap.over
            else (
                "your" if view["current"] == snap.seat else f"{snap.table_name(view['current'])}'s"
            )
            + f" turn · {esc(PHASE_WORDS.get(view['phase'], view['phase']))}"
        )
        + (
            f" · dice {dice} = {esc(view['steps'])} step{'' if view['steps'] == 1 else 's'}"
            if roll and not snap.over
            else ""
        )
        + f" · intrigue pile {esc(view['pile_size'])}</p>"
    )
    if snap.my_turn:
        hint = PHASE_TEXT.get(view["phase"], "")
        if view["phase"] != "centre" and any(isinstance(a, Accuse) for a in snap.legal):
            hint += " Or click the TARDIS to accuse (only when you are sure: a wrong guess"
            hint += " puts you out)."
        naming = view.get("naming") or []
        if view["phase"] == "name":
            hint += f" You are naming for {'an' if view['purpose'] == 'accuse' else 'a'}"
            hint += f" {'accusation' if view['purpose'] == 'accuse' else 'rumour'}."
        if naming:
            hint += " Named so far: " + ", ".join(game.card_names[c] for c in naming) + "."
        if hint:
            info += f'<p class="phase-hint">{esc(hint)}</p>'
    controls = _controls(snap, take(lambda a: True))
    winner = view.get("winner")
    winners = [winner] if isinstance(winner, int) and winner >= 0 else []
    scores = [1 if s in winners else 0 for s in range(int(view["players"]))]
    result = result_panel(snap, scores if snap.over else None, winners)
    envelope = view.get("envelope")
    if snap.over and envelope:
        result = result.replace(
            "</section>",
            "<p>The envelope held: "
            + esc(", ".join(game.card_names[c] for c in envelope))
            + "</p></section>",
        )
    body = (
        f'<div class="clue">{seats}{info}{controls}<div class="clue-main">'
        f"<div>{board}{hand}</div><div>{book}</div></div></div>"
    )
    return frame(snap, "Clue: Doctor Who", body, result)


def _seats(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> str:
    parts = []
    for s in range(int(view["players"])):
        who = game.suspects[view["characters"][s]]
        out = view["out"][s]
        acts = take(lambda a, s=s: isinstance(a, Target) and a.seat == s)
        cls = "seat-box to-move" if s == snap.to_move and not snap.over else "seat-box"
        if acts:
            cls += " can-act"
        parts.append(
            f'<div class="{cls}" data-seat="{s}"{act_attrs(snap, acts, "Target")}>'
            f'{seat_chip(snap, s)}<span class="stat">plays {esc(who)} · '
            f"{esc(view['hand_sizes'][s])} cards · {esc(view['kept_counts'][s])} intrigue"
            + (f" · out ({esc(out)})" if out else "")
            + "</span></div>"
        )
    return f'<div class="seats">{"".join(parts)}</div>'


def _map(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> str:
    b = game.board
    mover_at: dict[int, list[int]] = {}
    for ch, node in enumerate(view["movers"]):
        mover_at.setdefault(node, []).append(ch)
    weapon_at: dict[int, list[int]] = {}
    for w, node in enumerate(view["weapons"]):
        weapon_at.setdefault(node, []).append(w)
    seat_of = {c: s for s, c in enumerate(view["characters"])}
    items = []
    # rooms: one element over each location's squares
    boxes: dict[int, list[int]] = {}
    doors: list[tuple[int, int]] = []
    letters = b.room_of_letter
    for r, line in enumerate(b.lines):
        for c, square in enumerate(line):
            if square.isalpha():
                room = letters[square.upper()]
                box = boxes.setdefault(room, [r, c, r, c])
                box[0], box[1] = min(box[0], r), min(box[1], c)
                box[2], box[3] = max(box[2], r), max(box[3], c)
                if square.islower():
                    doors.append((r, c))
    for room, (r0, c0, r1, c1) in sorted(boxes.items()):
        name = "the TARDIS" if room == TARDIS else game.locations[room]
        acts = take(
            lambda a, room=room: (
                getattr(a, "to", None) == room
                or (isinstance(a, UsePassage) and a.location == room)
                # the accusation starts from the TARDIS at the centre (C-5.1), as does its
                # alternative, ending the turn there
                or (room == TARDIS and type(a).__name__ in ("Accuse", "EndTurn"))
            )
        )
        tokens = _tokens(snap, game, mover_at.get(room, []), seat_of)
        arms = " · ".join(game.weapons[w] for w in weapon_at.get(room, []))
        cls = "room tardis" if room == TARDIS else "room"
        if acts:
            cls += " can-act"
        items.append(
            f'<div class="{cls}" data-tile="R{room}" style="grid-area:{r0 + 1}/{c0 + 1}/'
            f'{r1 + 2}/{c1 + 2}"{act_attrs(snap, acts, name)}'
            f'{explain_attr(snap, acts, Move(room))}><span class="room-name">'
            f"{esc(name)}</span>{tokens}"
            + (f'<span class="arms">⚒ {esc(arms)}</span>' if arms else "")
            + "</div>"
        )
    for r, c in doors:
        side = _door_side(b.lines, r, c)
        items.append(
            f'<div class="door door-{side}" style="grid-area:{r + 1}/{c + 1}" title="door"></div>'
        )
    for i, (r, c) in enumerate(b.cell):
        node = FIRST_SQUARE + i
        acts = take(lambda a, node=node: getattr(a, "to", None) == node)
        cls = "sq"
        mark = ""
        if node in b.intrigue:
            cls += " intrigue"
            mark = "?"
        if b.lines[r][c] == "+":
            cls += " centre"
        if acts:
            cls += " can-act"
        tokens = _tokens(snap, game, mover_at.get(node, []), seat_of)
        items.append(
            f'<div class="{cls}" data-tile="{node}" style="grid-area:{r + 1}/{c + 1}"'
            f' title="{esc(b.square_name(node))}"{act_attrs(snap, acts, b.square_name(node))}>'
            f"{tokens or mark}</div>"
        )
    return (
        f'<div class="clue-map" style="grid-template-columns:repeat({b.width},1fr);'
        f'grid-template-rows:repeat({b.height},minmax(24px,auto))">{"".join(items)}</div>'
        '<p class="stat">Tokens show a character\'s initial (★: yours); ? squares draw '
        "intrigue; a yellow bar on a room's edge marks its door; glowing places are where "
        "you can move.</p>"
    )


def _door_side(lines: list[str], r: int, c: int) -> str:
    """The side of a door square that opens onto the corridor (n, s, w or e)."""
    for side, (dr, dc) in (("s", (1, 0)), ("n", (-1, 0)), ("w", (0, -1)), ("e", (0, 1))):
        rr, cc = r + dr, c + dc
        if 0 <= rr < len(lines) and 0 <= cc < len(lines[rr]) and not lines[rr][cc].isalpha():
            return side
    return "s"


def _tokens(snap: Snapshot, game: ClueGame, chars: list[int], seat_of: dict[int, int]) -> str:
    out = []
    for ch in chars:
        seat = seat_of.get(ch)
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat is not None else "#666"
        initial = "★" if seat is not None and seat == snap.seat else game.suspects[ch][:1]
        out.append(
            f'<span class="mover" style="background:{colour}" title="{esc(game.suspects[ch])}">'
            f"{esc(initial)}</span>"
        )
    return "".join(out)


def _hand(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> str:
    if snap.seat is None:
        return ""
    cards = []
    for c in view.get("hand") or []:
        acts = take(lambda a, c=c: isinstance(a, ShowCard) and a.card == c)
        cat = next(i for i, cat in enumerate(view["categories"]) if c in cat)
        cards.append(
            card(
                snap,
                game.card_names[c],
                CATEGORY[cat],
                actions=acts,
                css=f"cat-{cat} small",
                data={"card": c},
            )
        )
    intrigue = _intrigue_names()
    for cid in view.get("kept") or []:
        info = intrigue.get(cid, {})
        acts = take(lambda a, cid=cid: isinstance(a, PlayCard) and a.card == cid)
        cards.append(
            card(
                snap,
                info.get("name", cid),
                "Intrigue",
                text=info.get("text", ""),
                actions=acts,
                css="cat-intrigue small",
            )
        )
    return (
        '<h3 class="section-title">Your cards</h3>'
        f'<div class="hand" data-hand>{"".join(cards)}</div>'
    )


def _notebook(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> str:
    if snap.seat is None and not (snap.over and view.get("envelope")):
        # a notebook is a player's own; a spectator learns the envelope at the end
        return (
            '<h3 class="section-title">Notebook</h3><p class="muted">Each player keeps their'
            " own notebook of who holds what; a spectator sees the envelope when the game"
            " ends.</p>"
        )
    certain = notebook.certain(view) if snap.seat is not None else {}
    odds = notebook.envelope_odds(view)
    players = int(view["players"])
    head = "".join(f"<th>{'you' if s == snap.seat else f'S{s}'}</th>" for s in range(players))
    rows = []
    for cat_i, cat in enumerate(view["categories"]):
        rows.append(f'<tr class="cat"><th colspan="{players + 3}">{CATEGORY[cat_i]}?</th></tr>')
        for c in cat:
            where = certain.get(c, "")
            cells = []
            for s in range(players):
                has = (s == snap.seat and where == "hand") or where == f"seat {s}"
                cells.append(f'<td data-known="{s}:{c}">✓</td>' if has else "<td></td>")
            note = {"face up": "•", "aside": "•", "envelope": "★"}.get(where, "")
            pct = "" if odds is None else f"{round(100 * odds.get(c, 0.0))}%"
            acts = take(lambda a, c=c: isinstance(a, NameCard) and a.card == c)
            name_cell = (
                f'<button class="name-card"{act_attrs(snap, acts, "Name")}>'
                f"{esc(game.card_names[c])}</button>"
                if acts
                else esc(game.card_names[c])
            )
            crossed = " crossed" if where and where != "envelope" else ""
            rows.append(
                f'<tr class="nb-row{crossed}"><td class="nb-name">{name_cell}</td>'
                f'{"".join(cells)}<td class="nb-note">{note}</td><td class="odds">{pct}</td></tr>'
            )
    # The deducer's odds give the game away to a person: off until the player turns them on
    # (the page remembers the choice); a spectator sees them once the game is over.
    default = "on" if snap.seat is None else "off"
    return (
        f'<h3 class="section-title" data-odds-default="{default}">Notebook'
        ' <button class="toggle-odds" data-toggle="odds" type="button" aria-pressed="false">'
        "show the deducer's odds (n)</button></h3>"
        f'<table class="notebook"><tr><th>card</th>{head}<th title="face up or in the envelope">'
        '•/★</th><th class="odds">envelope odds</th></tr>'
        f"{''.join(rows)}</table>"
        '<p class="stat">✓ a seat holds it · • face up · ★ in the envelope · % the deducer\'s'
        " chance it is in the envelope</p>"
    )


def _controls(snap: Snapshot, rest: list[Action]) -> str:
    if not rest:
        return ""
    buttons = "".join(f"<button{act_attrs(snap, [a])}>{esc(snap.label(a))}</button>" for a in rest)
    return f'<div class="turn-controls">{buttons}</div>'
