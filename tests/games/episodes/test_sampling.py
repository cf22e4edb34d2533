"""E-8.9: `sample_state` deals hidden cards uniformly, and reusing one view object changes
nothing (it remembers what it read from the last view)."""

from __future__ import annotations

import copy
from collections import Counter

from timelord.core import Rng, load
from timelord.games.episodes.sample import _pick


def test_e8_9_pick_is_a_uniform_ordered_choice() -> None:
    rng = Rng(3)
    seen: Counter[tuple[int, ...]] = Counter()
    rounds = 24_000
    for _ in range(rounds):
        cards = [0, 1, 2, 3]
        _pick(cards, 2, rng)
        assert sorted(cards) == [0, 1, 2, 3]
        seen[tuple(cards[:2])] += 1
    assert len(seen) == 12
    expected = rounds / 12
    assert all(abs(n - expected) < 5 * expected**0.5 for n in seen.values())


def test_e8_9_same_view_object_or_a_copy_deal_the_same() -> None:
    game = load("episodes", players=4)
    rng = Rng(8)
    state = game.new_game(8)
    for step in range(150):
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        first = game.sample_state(view, Rng(step)).to_json()
        again = game.sample_state(view, Rng(step)).to_json()  # prepared once, dealt again
        fresh = game.sample_state(copy.deepcopy(view), Rng(step)).to_json()
        assert first == again == fresh
        other = (seat + 1) % 4
        assert game.sample_state(state.view(other), Rng(step)).view(other) == state.view(other)
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
