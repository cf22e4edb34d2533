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
    Model,
    Snapshot,
    act_attrs,
    action_buttons,
    card,
    claimer,
    explain_attrs,
    frame,
    result_panel,
    seat_chip,
    seat_colour,
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
    board_map = _map(snap, game, view, take)
    hand = _hand(snap, game, view, take)
    book = _notebook(snap, game, view, take)
    roll = view.get("roll") or []
    # The first die has "?" for its 1 (C-3.1): it draws an intrigue card and counts no steps.
    dice = ["?" if i == 0 and d == 0 else str(d) for i, d in enumerate(roll)]
    if snap.over:
        turn = "the game is over"
    else:
        current = view["current"]
        whose = "your" if snap.is_you(current) else f"{snap.table_name(current)}'s"
        turn = f"{whose} turn · {PHASE_WORDS.get(view['phase'], view['phase'])}"
        if snap.to_move is not None and snap.to_move != current:
            # another seat answers inside this turn (shows a card): say who acts now, so
            # this line agrees with the status line's "Your turn" / "X to move"
            turn += f" · {'you answer' if snap.is_you(snap.to_move) else _answers(snap)}"
    steps = view["steps"]
    hint = ""
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
    controls = action_buttons(snap, take(lambda a: True))
    winner = view.get("winner")
    winners = [winner] if isinstance(winner, int) and winner >= 0 else []
    scores = [1 if s in winners else 0 for s in range(int(view["players"]))]
    envelope = view.get("envelope")
    held = ""
    if snap.over and envelope:
        held = "The envelope held: " + ", ".join(game.card_names[c] for c in envelope)
    result = result_panel(snap, scores if snap.over else None, winners, held)
    board = {
        "seats": seats,
        "turn_no": view["turn"],
        "turn": turn,
        "dice": dice if roll and not snap.over else [],
        "marks": [
            {"mark": character_mark(game, ch), "name": who} for ch, who in enumerate(game.suspects)
        ],
        "steps": f"{steps} step{'' if steps == 1 else 's'}",
        "pile": view["pile_size"],
        "hint": hint,
        "controls": controls,
        "map": board_map,
        "hand": hand,
        "book": book,
    }
    return frame(snap, "Clue: Doctor Who", "clue.html", board, result)


def _seats(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> list[Model]:
    out = []
    for s in range(int(view["players"])):
        who = game.suspects[view["characters"][s]]
        gone = view["out"][s]
        acts = take(lambda a, s=s: isinstance(a, Target) and a.seat == s)
        cls = "seat-box to-move" if s == snap.to_move and not snap.over else "seat-box"
        if acts:
            cls += " can-act"
        text = (
            f"plays {who} · {view['hand_sizes'][s]} cards · {view['kept_counts'][s]} intrigue"
            + (f" · out ({gone})" if gone else "")
        )
        out.append(
            {
                "cls": cls,
                "seat": s,
                "attrs": act_attrs(snap, acts, "Target"),
                "chip": seat_chip(snap, s),
                "text": text,
            }
        )
    return out


def _map(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> Model:
    b = game.board
    mover_at: dict[int, list[int]] = {}
    for ch, node in enumerate(view["movers"]):
        mover_at.setdefault(node, []).append(ch)
    weapon_at: dict[int, list[int]] = {}
    for w, node in enumerate(view["weapons"]):
        weapon_at.setdefault(node, []).append(w)
    seat_of = {c: s for s, c in enumerate(view["characters"])}
    rooms = []
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
        cls = "room tardis" if room == TARDIS else "room"
        if acts:
            cls += " can-act"
        attrs = {
            "class": cls,
            "data-tile": f"R{room}",
            "style": f"grid-area:{r0 + 1}/{c0 + 1}/{r1 + 2}/{c1 + 2}",
        }
        attrs |= act_attrs(snap, acts, name) | explain_attrs(snap, acts, Move(room))
        rooms.append(
            {
                "attrs": attrs,
                "name": name,
                "tokens": _tokens(snap, game, mover_at.get(room, []), seat_of),
                "arms": " · ".join(game.weapons[w] for w in weapon_at.get(room, [])),
            }
        )
    door_list = [{"side": _door_side(b.lines, r, c), "area": f"{r + 1}/{c + 1}"} for r, c in doors]
    squares = []
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
        attrs = {
            "class": cls,
            "data-tile": str(node),
            "style": f"grid-area:{r + 1}/{c + 1}",
            "title": b.square_name(node),
        }
        attrs |= act_attrs(snap, acts, b.square_name(node))
        squares.append(
            {
                "attrs": attrs,
                "tokens": _tokens(snap, game, mover_at.get(node, []), seat_of),
                "mark": mark,
            }
        )
    return {
        "width": b.width,
        "height": b.height,
        "rooms": rooms,
        "doors": door_list,
        "squares": squares,
    }


def _door_side(lines: list[str], r: int, c: int) -> str:
    """The side of a door square that opens onto the corridor (n, s, w or e)."""
    for side, (dr, dc) in (("s", (1, 0)), ("n", (-1, 0)), ("w", (0, -1)), ("e", (0, 1))):
        rr, cc = r + dr, c + dc
        if 0 <= rr < len(lines) and 0 <= cc < len(lines[rr]) and not lines[rr][cc].isalpha():
            return side
    return "s"


def _tokens(
    snap: Snapshot, game: ClueGame, chars: list[int], seat_of: dict[int, int]
) -> list[Model]:
    out = []
    for ch in chars:
        seat = seat_of.get(ch)
        colour = seat_colour(seat) if seat is not None else "#666"
        initial = "★" if seat is not None and seat == snap.seat else character_mark(game, ch)
        out.append({"colour": colour, "name": game.suspects[ch], "initial": initial})
    return out


def _answers(snap: Snapshot) -> str:
    assert snap.to_move is not None
    return f"{snap.table_name(snap.to_move)} answers"


def character_mark(game: ClueGame, ch: int) -> str:
    """A character token's mark, unique among the suspects so two grey tokens can be told
    apart without pointing at them (a touch screen has no hover): the initial ("J"), the
    initials of its words where two share one ("CS" Commander Strax, "CO" Clara Oswald),
    else the initial and the character's number."""
    names = game.suspects

    def initial(name: str) -> str:
        return name[:1].upper()

    def words(name: str) -> str:
        return "".join(w[:1].upper() for w in name.split() if w[:1].isalpha())[:2]

    for mark in (initial, words):
        if [mark(n) for n in names].count(mark(names[ch])) == 1:
            return mark(names[ch])
    return f"{initial(names[ch])}{ch + 1}"


def _hand(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> list[Model] | None:
    """The seat's cards and kept intrigue cards (None for a spectator)."""
    if snap.seat is None:
        return None
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
    return cards


def _notebook(snap: Snapshot, game: ClueGame, view: dict[str, Any], take: Any) -> Model | None:
    """The notebook grid, or None where a spectator has none (until the end)."""
    if snap.seat is None and not (snap.over and view.get("envelope")):
        # a notebook is a player's own; a spectator learns the envelope at the end
        return None
    certain = notebook.certain(view) if snap.seat is not None else {}
    odds = notebook.envelope_odds(view)
    players = int(view["players"])
    cats = []
    for cat_i, cat in enumerate(view["categories"]):
        rows = []
        for c in cat:
            where = certain.get(c, "")
            cells = []
            for s in range(players):
                has = (s == snap.seat and where == "hand") or where == f"seat {s}"
                cells.append(f"{s}:{c}" if has else None)
            acts = take(lambda a, c=c: isinstance(a, NameCard) and a.card == c)
            rows.append(
                {
                    "name": game.card_names[c],
                    "attrs": act_attrs(snap, acts, "Name") if acts else None,
                    "cells": cells,
                    "note": {"face up": "•", "aside": "•", "envelope": "★"}.get(where, ""),
                    "pct": "" if odds is None else f"{round(100 * odds.get(c, 0.0))}%",
                    "crossed": bool(where and where != "envelope"),
                }
            )
        cats.append({"title": CATEGORY[cat_i], "rows": rows})
    # The deducer's odds give the game away to a person: off until the player turns them on
    # (the page remembers the choice); a spectator sees them once the game is over.
    return {
        "default": "on" if snap.seat is None else "off",
        "head": ["you" if s == snap.seat else f"S{s + 1}" for s in range(players)],
        "span": players + 3,
        "cats": cats,
    }
