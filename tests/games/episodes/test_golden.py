"""Golden games: a seeded random game's length, result and final-state hash.

A change here means the rules (or the generator) now play differently: bump the game's
version in the report and update the numbers on purpose, never silently.
"""

from __future__ import annotations

import hashlib
import json

import pytest

import timelord
from timelord.core import Record, Rng, replay

GOLDEN = [
    # players, seed, actions, final VP, winners, hash of the final state
    (2, 0, 228, [53, 23], [0], "53e5ca964d91ab3d"),
    (3, 1, 221, [0, 0, 53], [2], "4a3698abc4a6884e"),
    (6, 2, 559, [0, 13, 28, 58, 37, 14], [3], "db7de59f406203f5"),
]


@pytest.mark.parametrize(("players", "seed", "length", "vp", "winners", "digest"), GOLDEN)
def test_golden_game(
    players: int, seed: int, length: int, vp: list[int], winners: list[int], digest: str
) -> None:
    game = timelord.load("episodes", players=players)
    state = game.new_game(seed)
    rng = Rng(seed + 1000)
    actions = []
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        actions.append(action.to_json())
        state = state.apply(action)
    data = state.to_json()
    assert len(actions) == length
    assert data["vp"] == vp and state.winners() == winners
    assert hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16] == digest
    assert replay(Record("episodes", game.options, seed, actions)).to_json() == data
