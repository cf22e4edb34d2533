"""Terminal text: the board with its movers, a seat's cards, recent events and the notebook."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from timelord.games.clue.board import FIRST_SQUARE, TARDIS, cards_data, standard_board
from timelord.games.clue.notebook import certain

if TYPE_CHECKING:
    from timelord.games.clue.game import ClueGame


def _names() -> list[str]:
    data = cards_data()
    return [x["name"] for key in ("suspect", "weapon", "location") for x in data[key]]


def _place(node: int, locations: list[str]) -> str:
    if node < len(locations):
        return locations[node]
    if node == TARDIS:
        return "the TARDIS"
    return standard_board().square_name(node)


def render_board(view: Mapping[str, Any]) -> str:
    """The grid, each mover standing on a square drawn as its number (1-6)."""
    board = standard_board()
    rows = [list(line) for line in board.lines]
    for i, node in enumerate(view["movers"]):
        if node >= FIRST_SQUARE:
            r, c = board.cell[node - FIRST_SQUARE]
            rows[r][c] = str(i + 1)
    head = "   " + "".join(chr(ord("a") + c) for c in range(board.width))
    body = [f"{r + 1:>2} " + "".join(row).replace("#", " ") for r, row in enumerate(rows)]
    return "\n".join([head, *body])


def _event_text(
    ev: list[Any], names: list[str], me: int | None, intrigue: Mapping[str, str]
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
        return f"{seat(ev[1])} used a power ({ev[2]})"
    if kind == "bell":
        where = _place(ev[2], [x["name"] for x in cards_data()["location"]])
        return f"  Cloister Bell: {seat(ev[1])} moved to {where}"
    if kind == "out":
        why = "a wrong accusation" if ev[2] == "accused" else "the eighth Pocketwatch"
        return f"{seat(ev[1])} {'are' if ev[1] == me else 'is'} out ({why})"
    return " ".join(map(str, ev))


def render_notebook(view: Mapping[str, Any], probabilities: Any = None) -> str:
    """The seat's score sheet: each card with what is certain and, optionally, the odds.

    `probabilities` may be the deducer's answer (anything with `.envelope[card]`) or a
    mapping card -> probability that the card is in the envelope; None shows certain
    knowledge only (the player may turn the deducer off).
    """
    names = _names()
    facts = certain(dict(view))
    odds: Mapping[int, float] | None = None
    if probabilities is not None:
        odds = getattr(probabilities, "envelope", probabilities)
    titles = ("Who?", "What?", "Where?")
    out = ["Notebook" + ("" if odds is None else "  (envelope odds from the deducer)")]
    for title, cat in zip(titles, view["categories"], strict=True):
        out.append(f" {title}")
        for c in cat:
            mark = facts.get(c, "")
            if mark == "envelope":
                tick = "!!"
            elif mark:
                tick = "x "
            else:
                tick = "  "
            line = f"  [{tick}] {names[c]:<26} {mark}"
            if odds is not None and not mark:
                line += f"{100 * float(odds[c]):5.1f}% envelope"
            out.append(line.rstrip())
    return "\n".join(out)


def render_view(game: ClueGame, view: Mapping[str, Any]) -> str:
    names = _names()
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
    lines.append(render_board(view))
    lines.append("Movers: " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(game.suspects)))
    for node in [*range(len(locations)), TARDIS]:
        here = [game.suspects[i] for i, p in enumerate(view["movers"]) if p == node]
        here += [game.weapons[i] for i, p in enumerate(view["weapons"]) if p == node]
        if here:
            lines.append(f"  {_place(node, locations)}: {', '.join(here)}")
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
        lines.extend("  " + _event_text(ev, names, me, game.intrigue_names) for ev in recent)
    if me is not None:
        lines.append(render_notebook(view))
    return "\n".join(lines)
