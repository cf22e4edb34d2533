"""Transpositions: lines of moves that reach one position in different orders, and each
seat's own past along a line, for the perfect-recall tests (test_recall_history.py,
test_recall_envs.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache

import timelord
from timelord.core import Action, Rng, State


def paths(state: State, depth: int, rng: Rng, width: int) -> Iterator[list[Action]]:
    """Every line of `depth` moves from `state` up to the last move, of which at most
    `width` drawn at random (enough for two orders of one set of moves to meet often)."""
    frontier: list[tuple[list[Action], State]] = [([], state)]
    for d in range(depth):
        last = d == depth - 1
        nxt = []
        for line, s in frontier:
            if s.is_over:
                continue
            legal = s.legal_actions()
            if last and len(legal) > width:
                legal = [legal[rng.below(len(legal))] for _ in range(width)]
            nxt += [([*line, a], s.apply_unchecked(a)) for a in legal]
        frontier = nxt
    for line, _ in frontier:
        yield line


def own_past(state: State, line: list[Action], seat: int) -> list[tuple[str, str]]:
    """The seat's decisions along `line` (its view then, its action), as JSON texts."""
    out = []
    for action in line:
        if state.to_move == seat:
            view = json.dumps(state.view(seat), sort_keys=True)
            out.append((view, json.dumps(action.to_json(), sort_keys=True)))
        state = state.apply_unchecked(action)
    return out


def meetings(state: State, depth: int, rng: Rng) -> list[list[list[Action]]]:
    """The lines of `depth` moves from `state` that reach one position, grouped by that
    position (groups of two lines or more)."""
    meet: dict[str, list[list[Action]]] = {}
    for line in paths(state, depth, rng, width=3):
        end = state
        for action in line:
            end = end.apply_unchecked(action)
        meet.setdefault(json.dumps(end.to_json(), sort_keys=True), []).append(line)
    return [lines for lines in meet.values() if len(lines) > 1]


def prefix(game_id: str, players: int, seed: int, steps: int) -> list[Action]:
    """The `steps` random moves from the deal of game `seed` that `transpositions` starts
    after (drawn from `Rng(seed)`)."""
    game = timelord.load(game_id, players=players)
    rng = Rng(seed)
    state, line = game.new_game(seed), []
    for _ in range(steps):
        if state.is_over:
            break
        line.append(state.random_legal(rng))
        state = state.apply_unchecked(line[-1])
    return line


@lru_cache(maxsize=16)
def transpositions(
    game_id: str, players: int, seed: int, steps: int, depth: int
) -> list[tuple[State, list[list[Action]]]]:
    """Lines of `depth` moves from the position `steps` random moves into game `seed` that
    reach one position in different orders: (that position, its lines)."""
    game = timelord.load(game_id, players=players)
    rng = Rng(seed)
    state = game.new_game(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply_unchecked(state.random_legal(rng))
    return [(state, lines) for lines in meetings(state, depth, rng)]
