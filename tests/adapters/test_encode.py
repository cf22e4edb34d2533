"""The observations read straight from a state equal the encoded views on every step of
seeded games, for every seat, game and player count; each number stays within its bound."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import timelord
from tests.adapters.cases import CASES, PLAYERS
from timelord.adapters.encode import Counts, Flags, Writer, encoder_for, onehot_table
from timelord.agents import make_agent
from timelord.core import Rng
from timelord.sim.match import seat_rngs


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_state_encoding_equals_the_encoded_view_at_every_step(game_id: str, players: int) -> None:
    game = timelord.load(game_id, players=players)
    encoder = encoder_for(game)
    assert encoder._parts is not None, "every game reads observations from its state"
    # random seats, then heuristic ones (they reach parts of the game random play rarely does)
    for seed, spec in ((1, "random"), (2, "heuristic")):
        agents = [make_agent(spec, game) for _ in range(players)]
        rngs = seat_rngs(seed, players)
        state = game.new_game(seed)
        while True:
            for seat in range(players):
                fast = encoder.encode_state(state, seat)
                assert np.array_equal(fast, encoder.encode(state.view(seat))), (seed, seat)
                assert fast.dtype == np.float32 and (fast >= 0).all()
                assert (fast <= encoder.high).all()
            if state.is_over:
                break
            mover = state.to_move
            assert mover is not None
            legal = state.legal_actions()
            state = state.apply(agents[mover].act(state.view(mover), legal, rngs[mover]))


def test_layout_and_bounds_cover_the_vector() -> None:
    for game_id in PLAYERS:
        encoder = encoder_for(timelord.load(game_id))
        assert sum(n for _, n in encoder.layout) == encoder.size == len(encoder.high)
        assert (encoder.high > 0).all()


def test_a_view_from_elsewhere_still_encodes() -> None:
    """`encode` takes any seat's view (a server snapshot, a record's replay)."""
    game = timelord.load("clue", players=3)
    state = game.new_game(5)
    rng = Rng(5)
    for _ in range(30):
        state = state.apply(rng.choice(state.legal_actions()))
    view = state.view(1)
    assert np.array_equal(encoder_for(game).encode(view), encoder_for(game).encode_state(state, 1))


def test_memoised_parts_equal_the_writers_numbers_even_past_their_limit() -> None:
    """A part is written once per key and looked up after; the memo starts afresh past its
    limit and gives the same bytes again. Counts of copies are summed as bincount sums them
    (in double, then rounded once), flags come from the bits of a mask."""

    def written(fill: Callable[[Writer], None]) -> bytes:
        w = Writer()
        fill(w)
        return np.bincount(w.idx, weights=w.val, minlength=w.pos).astype(np.float32).tobytes()

    tenths = Counts(5, 0.1, limit=2)
    flags = Flags(13, limit=2)
    for _ in range(2):
        for items in [(1, 1, 1), (0, 4, 4, 4, 4, 4, 4, 4), (2,), (3, 3, 9)]:
            assert tenths[items] == written(lambda w, i=items: w.counts("", 5, i, 0.1))
            assert len(tenths) <= 2
        for mask in [0, 1, 0b1000000000001, 0b1111111111111, 1 << 20 | 5]:
            bits = [i for i in range(21) if mask >> i & 1]
            assert flags[mask] == written(lambda w, b=bits: w.counts("", 13, b))
    # a pile longer than its kinds is counted kind by kind; a pile that grew by a few cards
    # since it was written is those bytes with the new cards added
    for scale in (0.1, 0.25, 1.0):
        pile: tuple[int, ...] = ()
        counts = Counts(4, scale)
        for grown in [(2,), (3, 3), (0, 9, 1, 1), (2, 2, 2, 2, 2), (3,), (1, 0, 0)] * 4:
            pile += grown
            want = written(lambda w, i=pile, x=scale: w.counts("", 4, i, x))
            assert counts[pile] == want
            assert Counts(4, scale)[pile] == want  # written afresh
    assert onehot_table(3)[-1] == bytes(12) and onehot_table(3)[1] == written(
        lambda w: w.onehot("", 3, 1)
    )


@pytest.mark.parametrize("game_id", ["keys", "card-game"])
def test_parts_kept_by_identity_follow_other_boards(game_id: str) -> None:
    """Keys keeps its board's bytes while the colours and backs are the same objects, the
    Card Game a seat's location slots while the location lists are: a sampled state (other
    backs, other lists) between two reads of the real one gets its own numbers, and the real
    one its own again."""
    game = timelord.load(game_id, players=2)
    encoder = encoder_for(game)
    rng = Rng(11)
    state = game.new_game(11)
    for _ in range(40):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        sampled = game.sample_state(view, rng)
        for s in (state, sampled, state):
            assert np.array_equal(encoder.encode_state(s, seat), encoder.encode(s.view(seat)))
        state = state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            break
