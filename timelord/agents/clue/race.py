"""The quickest way to the TARDIS for a seat that knows the envelope.

Most 4-player games against the deducer end in a race: a rumour nobody can answer settles
the envelope for several seats at once, and whoever reaches the TARDIS first wins. The
detective's walk (`heuristic.toward`) heads for the nearest node in board steps, so it takes
a secret passage whenever the passage's end lies a step nearer, although a passage ends the
turn with a rumour while a roll from the same location often reaches the TARDIS at once, and
it never plays the cards that speed a walk.

`turns_to_tardis(board)` is the expected number of the seat's own turns from each node to the
TARDIS when every move is chosen well (value iteration over the two dice, the "?" counting
as no steps; passages end the turn in their location). `race_move` picks the move that
minimises it, and plays what shortens the race: an extra turn (Timey-Wimey, Jenny's power)
before anything else, a teleport (Vortex Jump, River Song's power) when the location it
reaches is worth more than a roll, the Jammie Dodger's six steps when they reach a node
nearer in expected turns. Intrigue draws along the way are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from timelord.core import Action, Game, View
from timelord.games.clue.actions import Accuse, Move, PlayCard, RollDice, UsePassage, UsePower
from timelord.games.clue.board import TARDIS

#: chance of each number of steps: two dice, the first with "?" (no steps) for its 1
STEPS: dict[int, float] = {}
for _a in range(1, 7):
    for _b in range(1, 7):
        _s = (0 if _a == 1 else _a) + _b
        STEPS[_s] = STEPS.get(_s, 0.0) + 1 / 36

_TURNS: dict[int, tuple[Any, dict[int, float]]] = {}


def turns_to_tardis(board: Any, intrigue: bool) -> dict[int, float]:
    """Expected own turns from each node to the TARDIS (0 there), moving well; cached per
    board (a few hundred nodes, computed once per process)."""
    key = id(board) * 2 + intrigue
    found = _TURNS.get(key)
    if found is not None and found[0] is board:
        return found[1]
    nodes = [n for n in board.distances(TARDIS) if n != TARDIS]
    reach = {n: [(p, board.destinations(n, s, intrigue)) for s, p in STEPS.items()] for n in nodes}
    away = board.distances(TARDIS)
    value = {n: 1.0 + away[n] / 7.0 for n in nodes}
    value[TARDIS] = 0.0
    for _ in range(200):
        change = 0.0
        for n in nodes:
            v = _roll_value(reach[n], value, n)
            if n < board.rooms:
                for r in board.passages[n]:
                    v = min(v, 1.0 + value[r])
            change = max(change, abs(v - value[n]))
            value[n] = v
        if change < 1e-9:
            break
    _TURNS[key] = (board, value)
    return value


def _roll_value(
    outcomes: Sequence[tuple[float, Sequence[int]]], value: dict[int, float], here: int
) -> float:
    total = 0.0
    for p, dests in outcomes:
        best = min((value[d] for d in dests), default=value[here])
        total += p * (1.0 + best)
    return total


def race_move(game: Game, view: View, legal: Sequence[Action]) -> Action | None:
    """The move that brings the seat soonest to the TARDIS, or None where the phase is not a
    movement one (naming, answering, drawing: the detective decides those)."""
    character = view["characters"][view["seat"]]
    here = view["movers"][character]
    return race(game, character, here, view["phase"], view["steps"], legal)


def race(
    game: Game, character: int, here: int, phase: str, steps: int, legal: Sequence[Action]
) -> Action | None:
    """`race_move` from the few facts it reads (the mover's character and node, the phase's
    name, the steps rolled), so simulations can race on a state without building a view."""
    g: Any = game
    board = g.board
    value = turns_to_tardis(board, g.intrigue)
    if phase == "start":
        for a in legal:
            if isinstance(a, Accuse):
                return a
        for a in legal:
            if _effect(g, character, a) == "extra-turn":
                return a
        best: Action | None = None
        best_value = float("inf")
        rooms = [r for r in range(board.rooms) if r != here]
        teleport = 1.0 + min(value[r] for r in rooms)
        for a in legal:
            if isinstance(a, RollDice):
                v = _roll_value(
                    [(p, board.destinations(here, s, g.intrigue)) for s, p in STEPS.items()],
                    value,
                    here,
                )
            elif isinstance(a, UsePassage):
                v = 1.0 + value[a.location]
            elif _effect(g, character, a) == "teleport":
                v = teleport
            else:
                continue
            if v < best_value - 1e-9:  # on a tie the first in legal order (the roll)
                best, best_value = a, v
        return best
    if phase == "move":
        moves = [a for a in legal if isinstance(a, Move)]
        if not moves:
            return None
        pick = min(moves, key=lambda a: (value.get(a.to, 1 << 20), a.to))
        six = next((a for a in legal if _effect(g, character, a) == "plus-six"), None)
        if six is not None and value.get(pick.to, 1 << 20) > 0.0:
            further = board.destinations(here, steps + 6, g.intrigue)
            if min(value.get(d, 1 << 20) for d in further) < value.get(pick.to, 1 << 20) - 1e-9:
                return six
        return pick
    if phase in ("teleport", "slip", "bell"):
        moves = [a for a in legal if isinstance(a, Move)]
        return min(moves, key=lambda a: (value.get(a.to, 1 << 20), a.to)) if moves else None
    return None


def _effect(game: Any, character: int, action: Action) -> str | None:
    """The effect an action card or power would have, else None."""
    if isinstance(action, PlayCard):
        return str(game.effect[action.card])
    if isinstance(action, UsePower):
        return str(game.power_effect[character])
    return None
