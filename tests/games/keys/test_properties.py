"""Hypothesis properties: determinism, secrecy of views, and sampling consistency."""

from hypothesis import given, settings
from hypothesis import strategies as st

from timelord.core import Rng, State
from timelord.games.keys import KeysGame

SECRET_KEYS = {"hands", "deck", "rng", "seen"}


def _play(game: KeysGame, seed: int, steps: int, pick: int) -> State:
    rng = Rng(pick)
    state = game.new_game(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    return state


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 300),
    pick=st.integers(0, 2**16),
)
def test_same_seed_same_game(players: int, seed: int, steps: int, pick: int) -> None:
    game = KeysGame(players=players)
    assert _play(game, seed, steps, pick).to_json() == _play(game, seed, steps, pick).to_json()


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 300),
    pick=st.integers(0, 2**16),
)
def test_views_hold_no_secret_of_others(players: int, seed: int, steps: int, pick: int) -> None:
    """A seat's view changes only with its own hand when every other secret is re-dealt."""
    game = KeysGame(players=players)
    state = _play(game, seed, steps, pick)
    for seat in range(players):
        view = state.view(seat)
        assert not SECRET_KEYS & set(view)
        other = game.sample_state(view, Rng(seed ^ seat))
        assert other.view(seat) == view
        assert other.legal_actions() == state.legal_actions() or state.to_move != seat
        spectator = state.view(None)
        assert "hand" not in spectator and game.sample_state(view, Rng(1)).view(None) == spectator
