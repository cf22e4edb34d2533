"""Sampling for a seat that has looked in the envelope (a wrong accuser, or anyone at the
end): exactly uniform over the deals consistent with its knowledge and that envelope, checked
against enumeration on small decks (the earlier depth-first search was not uniform)."""

from __future__ import annotations

import itertools

import pytest

import timelord
from tests.games.clue.test_deduction_helpers import deals, fits, random_knowledge
from timelord.core import Rng
from timelord.games.clue.actions import Accuse
from timelord.games.clue.deduction import (
    DealSampler,
    InconsistentKnowledge,
    Knowledge,
    NotEnvelope,
    shuffle,
)

SHAPES = [((2, 2, 3), 2, False), ((2, 3, 3), 3, False), ((3, 3, 3), 2, True), ((2, 2, 3), 3, False)]


def _consistent(k: Knowledge, envelope: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    out = []
    for env, where in deals(k.categories, k.hand_sizes, k.public):
        if sorted(env) == sorted(envelope) and fits(k, env, where):
            out.append(tuple(sorted(where.items())))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_known_envelope_draws_are_uniform_over_consistent_deals(seed: int) -> None:
    rng = Rng(100 + seed)
    sizes, players, aside = SHAPES[seed % len(SHAPES)]
    k, env, _where = random_knowledge(rng, sizes, players, rng.below(4), aside)
    worlds = _consistent(k, env)
    assert worlds  # the real deal is one of them
    sampler = DealSampler(k, env)
    each = 300
    counts = dict.fromkeys(worlds, 0)
    draw = Rng(seed)
    for _ in range(each * len(worlds)):
        where = sampler.draw_holders(draw)
        env_cards = tuple(sorted(c for c, h in where.items() if h > players))
        assert env_cards == tuple(sorted(env))
        key = tuple(sorted((c, h) for c, h in where.items() if h <= players))
        assert key in counts  # every draw is consistent with the knowledge
        counts[key] += 1
    # Each count is Binomial(300 w, 1/w): sd < 17.4, so 6 sd is about 104.
    assert all(abs(n - each) < 105 for n in counts.values()), counts


def test_known_envelope_that_an_accusation_ruled_out_is_refused() -> None:
    k = Knowledge(
        categories=((0, 1), (2, 3), (4, 5, 6)),
        players=2,
        seat=0,
        hand_sizes=(2, 2),
        own_hand=frozenset({0, 2}),
        events=(NotEnvelope((1, 3, 4)),),
    )
    with pytest.raises(InconsistentKnowledge):
        DealSampler(k, (1, 3, 4))
    assert DealSampler(k, (1, 3, 5)).draw(Rng(1)).envelope == (1, 3, 5)


def test_a_wrong_accusers_samples_keep_the_envelope_and_the_view() -> None:
    game = timelord.load("clue", players=4)
    rng = Rng(4)
    for seed in range(40):
        state = game.new_game(seed)
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
            if seat is not None and state.view(seat)["envelope"] is not None:
                break
        accusers = [
            p for p in range(4) if not state.is_over and state.view(p)["envelope"] is not None
        ]
        for p in accusers:
            view = state.view(p)
            for i in range(5):
                sampled = game.sample_state(view, Rng(i))
                assert sampled.to_json()["envelope"] == view["envelope"]
                assert sampled.view(p) == view
            return
    raise AssertionError("no wrong accusation in 40 random games")


def test_one_draw_shuffle_gives_every_order_equally_often() -> None:
    rng = Rng(9)
    counts = dict.fromkeys(itertools.permutations(range(4)), 0)
    for _ in range(24 * 400):
        items = [0, 1, 2, 3]
        shuffle(rng, items)
        counts[tuple(items)] += 1
    # Binomial(9600, 1/24): mean 400, sd 19.6.
    assert all(abs(n - 400) < 6 * 19.6 for n in counts.values()), counts
    long = list(range(25))  # past 20 items the generator's own shuffle is used
    shuffle(rng, long)
    assert sorted(long) == list(range(25))


def test_prepared_views_do_not_change_what_is_sampled() -> None:
    """The per-view preparation is only a cache: a fresh copy of the view, a warm cache and
    a view changed by a later action give the same answers as preparing from scratch."""
    import copy
    import json

    from timelord.games.clue import sample

    game = timelord.load("clue", players=5)
    state, rng = game.new_game(12), Rng(12)
    for _ in range(60):
        legal = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
        state = state.apply(legal[rng.below(len(legal))])
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    warm = [json.dumps(game.sample_state(view, Rng(i)).to_json()) for i in range(4)]
    game._views.clear()
    sample._SAMPLERS.clear()
    cold = [json.dumps(game.sample_state(copy.deepcopy(view), Rng(i)).to_json()) for i in range(4)]
    assert warm == cold and len(set(warm)) > 1
    later = state.apply(state.legal_actions()[0])
    nxt = later.to_move
    assert nxt is not None
    view2 = later.view(nxt)
    assert game.sample_state(view2, Rng(0)).view(nxt) == view2
