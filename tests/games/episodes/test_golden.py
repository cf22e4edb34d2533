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
    # (issue 18 item 10: steps only the player sees are forced are asked now, E-8.8)
    (2, 0, 493, [27, 59], [1], "0f7395938dc84a29"),
    (3, 1, 447, [53, 15, 27], [0], "b1480ba7a520fc89"),
    (6, 2, 771, [26, 36, 24, 13, 51, 14], [4], "af2949bf5a8fcc59"),
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
