"""Terminal text: the board with its legend and movers, a seat's cards, recent events, the
notebook grid, and how a menu names each offered move (`action_label`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from timelord.core import Action
from timelord.games.clue.actions import (
    Move,
    NameCard,
    PlayCard,
    ShowCard,
    Target,
    UsePassage,
    UsePower,
)
from timelord.games.clue.board import (
    FIRST_SQUARE,
    TARDIS,
    Board,
    cards_data,
    cell_name,
    standard_board,
)
from timelord.games.clue.notebook import certain
from timelord.games.clue.state import ClueRules
from timelord.games.clue.text import POWER_NAMES


def _names() -> list[str]:
    data = cards_data()
    return [x["name"] for key in ("suspect", "weapon", "location") for x in data[key]]


def _place(node: int, locations: list[str], board: Board) -> str:
    if node < len(locations):
        return locations[node]
    if node == TARDIS:
        return "the TARDIS"
    return board.square_name(node)


def render_board(view: Mapping[str, Any], board: Board | None = None) -> str:
    """The grid (`board`, the standard one unless given), each mover standing on a square
    drawn as its number (1-6)."""
    board = standard_board() if board is None else board
    rows = [list(line) for line in board.lines]
    for i, node in enumerate(view["movers"]):
        if node >= FIRST_SQUARE:
            r, c = board.cell[node - FIRST_SQUARE]
            rows[r][c] = str(i + 1)
    head = "   " + "".join(chr(ord("a") + c) for c in range(board.width))
    body = [f"{r + 1:>2} " + "".join(row).replace("#", " ") for r, row in enumerate(rows)]
    return "\n".join([head, *body])


def board_legend(game: ClueRules) -> str:
    """What the board's letters mean: each location's letter, name and doors; the symbols."""
    board = game.board
    data = {loc["name"]: loc for loc in cards_data()["location"]}
    locations = [data[name] for name in game.locations]
    lines = ["Legend (lowercase letters are doors):"]
    for room, loc in [*enumerate(locations), (TARDIS, {"letter": "T", "name": "the TARDIS"})]:
        doors = ", ".join(cell_name(r, c) for r, c in board.doors[room])
        passages = board.passages[room] if room < TARDIS else ()
        way = (
            "; passage to " + ", ".join(locations[p]["name"] for p in passages) if passages else ""
        )
        door = "doors" if len(board.doors[room]) > 1 else "door"
        lines.append(f"  {loc['letter']} {loc['name']} ({door} {doors}{way})")
    lines.append("  . corridor, + centre grid, ? intrigue square, 1-6 movers on squares")
    return "\n".join(lines)


def percent(p: float) -> str:
    """A chance for people: "<1%" for anything possible below 1%, "0%" only when ruled out,
    ">99%" short of certain, "100%" only when certain."""
    if p <= 0.0:
        return "0%"
    if p >= 1.0:
        return "100%"
    if p < 0.01:
        return "<1%"
    if p > 0.99:
        return ">99%"
    return f"{100 * p:.0f}%"


def action_label(game: ClueRules, view: Mapping[str, Any], action: Action) -> str:
    """An offered move in words from the seat's view: moves by where they lead ("move towards
    Skaro, 3 squares away", "enter Victorian London"), cards and powers by name."""
    board = game.board
    seat = view["seat"]
    if isinstance(action, Move):
        to = action.to
        if to < FIRST_SQUARE:
            return f"enter {game.node_name(to)}"
        away = board.distances(to)
        room = min(range(board.rooms), key=lambda r: (away.get(r, 1 << 20), r))
        steps = away.get(room, 0)
        away_text = f"{steps} square{'s' * (steps != 1)} away"
        return f"move towards {game.locations[room]}, {away_text} ({board.square_name(to)})"
    if isinstance(action, UsePassage):
        return f"take the passage to {game.node_name(action.location)} (no roll)"
    if isinstance(action, NameCard):
        verb = "accuse" if view["purpose"] == "accuse" else "name"
        return f"{verb} {game.card_name(action.card)}"
    if isinstance(action, ShowCard) and view["rumour"]:
        return f"show {game.card_name(action.card)} to {game.seat_name(view['rumour'][0])}"
    if isinstance(action, PlayCard):
        return f"play {game.intrigue_names.get(action.card, action.card)}"
    if isinstance(action, Target):
        return f"scan {game.seat_name(action.seat)}'s hand"
    if isinstance(action, UsePower) and isinstance(seat, int):
        character = game.suspects[view["characters"][seat]]
        what = POWER_NAMES.get(game.power_effect[view["characters"][seat]], "")
        return f"use {character}'s power: {what}"
    return str(action)


def _event_text(
    ev: list[Any],
    names: list[str],
    me: int | None,
    intrigue: Mapping[str, str],
    game: ClueRules | None = None,
) -> str:

    def seat(p: int) -> str:
        return "you" if p == me else f"Seat {p}"

    def kind_name(kind: str) -> str:
        return intrigue.get(kind, kind)

    def card(c: int | None) -> str:
        return "a card" if c is None else names[c]

    kind = ev[0]
    if kind == "rumour":
        return f"{seat(ev[1])}: rumour {names[ev[2]]}, {names[ev[3]]}, {names[ev[4]]}"
    if kind == "pass":
        return f"  {seat(ev[1])} could not answer"
    if kind == "show":
        return f"  {seat(ev[1])} showed {card(ev[3])} to {seat(ev[2])}"
    if kind == "peek":
        return f"  {seat(ev[1])} saw the card {seat(ev[2])} showed: {card(ev[3])}"
    if kind == "side":
        return f"  {seat(ev[1])} looked at side card {ev[2] + 1}: {card(ev[3])}"
    if kind == "scan":
        return f"{seat(ev[1])} scanned {seat(ev[2])}'s hand: {card(ev[3])}"
    if kind == "accuse":
        verdict = "right!" if ev[5] else "wrong"
        return f"{seat(ev[1])} accused {names[ev[2]]}, {names[ev[3]]}, {names[ev[4]]}: {verdict}"
    if kind == "draw":
        return f"{seat(ev[1])} drew {kind_name(ev[2]) if ev[2] else 'an action card'}"
    if kind == "play":
        return f"{seat(ev[1])} played {kind_name(ev[2])}"
    if kind == "power":
        return f"{seat(ev[1])} used a power: {POWER_NAMES.get(ev[2], 'a power')}"
    if kind == "bell":
        if game is None:
            where = _place(ev[2], [x["name"] for x in cards_data()["location"]], standard_board())
        else:
            where = _place(ev[2], list(game.locations), game.board)
        return f"  Cloister Bell: {seat(ev[1])} moved to {where}"
    if kind == "out":
        why = "a wrong accusation" if ev[2] == "accused" else "the eighth Pocketwatch"
        return f"{seat(ev[1])} {'are' if ev[1] == me else 'is'} out ({why})"
    return " ".join(map(str, ev))


def render_notebook(
    view: Mapping[str, Any], probabilities: Any = None, names: list[str] | None = None
) -> str:
    """The seat's score sheet as a grid: a row per card, a column per player ("X" holds it,
    "-" does not, "." unknown), and what else is certain (face up, aside, the envelope).

    `probabilities` may be the deducer's answer (with `.envelope[card]` and, for the "-"
    marks it proves, `.holder[card][player]`) or a mapping card -> probability that the card
    is in the envelope, shown as odds ("<1%" when possible but unlikely); None shows certain
    knowledge only (the player may turn the deducer off). `names` are the game's card names
    (the standard game's unless given).
    """
    names = _names() if names is None else names
    facts = certain(dict(view))
    me = view["seat"]
    players = range(view["players"])
    odds: Mapping[int, float] | None = None
    holder = getattr(probabilities, "holder", None)
    if probabilities is not None:
        odds = getattr(probabilities, "envelope", probabilities)
    columns = ["you" if p == me else f"S{p}" for p in players]
    out = ["Notebook" + ("" if odds is None else "  (envelope odds from the deducer)")]
    out.append(f"  {'':<28}" + "".join(f"{c:>4}" for c in columns))
    for title, cat in zip(("Who?", "What?", "Where?"), view["categories"], strict=True):
        out.append(f" {title}")
        for c in cat:
            mark = facts.get(c, "")
            cells = []
            for p in players:
                sure = holder is not None and holder[c][p] == 1.0
                if sure or mark == f"seat {p}" or (mark == "hand" and p == me):
                    cells.append("X")
                elif mark or (holder is not None and holder[c][p] == 0.0):
                    cells.append("-")
                else:
                    cells.append(".")
            note = {"hand": "yours", "face up": "face up", "aside": "aside"}.get(mark, "")
            if mark == "envelope":
                note = "ENVELOPE"
            elif odds is not None and not mark:
                note = f"{percent(float(odds[c]))} envelope"
            row = f"  {names[c]:<28}" + "".join(f"{x:>4}" for x in cells)
            out.append(f"{row}  {note}".rstrip())
    return "\n".join(out)


def render_view(game: ClueRules, view: Mapping[str, Any]) -> str:
    names = list(game.card_names)
    locations = list(game.locations)
    me = view["seat"]
    lines = []
    state = f"turn {view['turn']}, Seat {view['current']}'s turn, phase {view['phase']}"
    if view["to_move"] is not None:
        state += f"; Seat {view['to_move']} to decide"
    else:
        winner = view["winner"]
        state += "; game over: " + (f"Seat {winner} wins" if winner is not None else "unsolved")
    lines.append(f"Clue: Doctor Who: {state}")
    if view["roll"]:
        a, b = view["roll"]
        lines.append(f"Roll: {'?' if a == 0 else a} + {b}, {view['steps']} steps")
    lines.append(render_board(view, game.board))
    lines.append(board_legend(game))
    lines.append("Movers: " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(game.suspects)))
    for node in [*range(len(locations)), TARDIS]:
        here = [game.suspects[i] for i, p in enumerate(view["movers"]) if p == node]
        here += [game.weapons[i] for i, p in enumerate(view["weapons"]) if p == node]
        if here:
            lines.append(f"  {_place(node, locations, game.board)}: {', '.join(here)}")
    seats = []
    for p, ch in enumerate(view["characters"]):
        tag = " (out)" if view["out"][p] else ""
        seats.append(f"Seat {p} {game.suspects[ch]}{tag}")
    lines.append("Players: " + "; ".join(seats))
    if me is not None:
        lines.append("Your cards: " + ", ".join(names[c] for c in view["hand"]))
    if view["leftovers"]:
        lines.append("Face up: " + ", ".join(names[c] for c in view["leftovers"]))
    if view["intrigue"]:
        kept = ", ".join(game.intrigue_names[k] for k in view["kept"]) or "none"
        lines.append(
            f"Intrigue: {view['pile_size']} to draw, {view['watches']} pocketwatch(es) drawn, "
            f"your cards: {kept}"
        )
    if view["naming"]:
        lines.append("Named so far: " + ", ".join(names[c] for c in view["naming"]))
    recent = view["log"][-8:]
    if recent:
        lines.append("Recent:")
        for ev in recent:
            text = _event_text(ev, names, me, game.intrigue_names, game)
            lead = len(text) - len(text.lstrip())
            lines.append("  " + text[:lead] + text[lead : lead + 1].upper() + text[lead + 1 :])
    if me is not None:
        lines.append(render_notebook(view, names=names))
    return "\n".join(lines)
