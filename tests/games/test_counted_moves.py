"""The counted enumeration (`legal_count`, `legal_at`, `random_legal`) equals the list in
every game: every index of every step of seeded games, on states that have not built their
list yet (played states and sampled ones, which searches use), and the same draws."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import Rng, State

CASES = [
    ("card-game", 2),
    ("card-game", 3),
    ("card-game", 4),
    ("episodes", 2),
    ("episodes", 4),
    ("episodes", 6),
    ("keys", 2),
    ("keys", 4),
    ("clue", 3),
    ("clue", 6),
]


def _check(state: State, rng: Rng, where: str) -> None:
    """The counted path first (so no list the state caches can answer it), then the list."""
    count = state.legal_count()
    picked = [state.legal_at(i) for i in range(count)]
    ours, theirs = rng.copy(), rng.copy()
    pick = state.random_legal(ours)
    legal = state.legal_actions()
    assert count == len(legal), where
    assert picked == legal, where
    assert pick == legal[theirs.below(len(legal))], where
    assert ours.state == theirs.state, where


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_counted_moves_equal_the_list(game_id: str, players: int) -> None:
    game = timelord.load(game_id, players=players)
    rng = Rng(players * 7919)
    steps = 0
    for seed in range(3):
        state = game.new_game(1000 + seed)
        step = 0
        while not state.is_over and step < 400:
            _check(state, rng, f"{game_id} seed {seed} step {step}")
            seat = state.to_move
            if step % 9 == 4 and seat is not None:
                sampled = game.sample_state(state.view(seat), rng)
                _check(sampled, rng, f"{game_id} seed {seed} step {step} (sampled)")
            state = state.apply_unchecked(state.random_legal(rng))
            step += 1
        steps += step
    assert steps > 30
