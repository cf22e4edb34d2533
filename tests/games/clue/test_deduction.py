"""The Clue deducer against brute-force enumeration of every deal, on small decks.

Knowledge is always built from a real random deal (so it is consistent) by playing random
rumours and recording what the seat saw; every probability must equal the enumerated one
exactly, and every certainty must hold in the real deal.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import timelord
from tests.games.clue.test_deduction_helpers import brute, fits, random_knowledge
from timelord.core import Rng
from timelord.games.clue import deduction
from timelord.games.clue.deduction import (
    DealSampler,
    Deduction,
    InconsistentKnowledge,
    Knowledge,
    NoneOf,
    NotEnvelope,
    OneOf,
    deduce,
    expected_information,
    sample_deal,
)

SMALL = [
    ((2, 2, 3), 2, False),
    ((2, 2, 3), 2, True),
    ((2, 2, 3), 3, False),
    ((2, 3, 3), 2, True),
    ((2, 3, 3), 3, False),
    ((3, 3, 3), 3, False),
    ((3, 3, 3), 2, True),
    ((2, 2, 2), 3, False),
    ((3, 3, 4), 4, False),
    ((2, 3, 4), 2, False),
]


def assert_matches_brute(k: Knowledge, d: Deduction) -> None:
    n, env, hold, aside = brute(k)
    assert d.exact and d.worlds == n
    assert env is not None and hold is not None and aside is not None
    for c in env:
        assert d.fraction(c, "envelope") == env[c], c
        assert d.fraction(c, "aside") == aside[c], c
        for p in range(k.players):
            assert d.fraction(c, p) == hold[c][p], (c, p)
        assert abs(d.envelope[c] - float(env[c])) < 1e-12
        assert all(abs(d.holder[c][p] - float(hold[c][p])) < 1e-12 for p in range(k.players))


def assert_certainties_true(k: Knowledge, d: Deduction, env, where) -> None:
    """Everything the deducer calls certain (probability exactly 0 or 1) is so in the deal."""
    for cat in k.categories:
        for c in cat:
            if d.envelope_count[c] == d.worlds:
                assert c in env
            if d.envelope_count[c] == 0:
                assert c not in env
            for p in range(k.players):
                if d.holder_count[c][p] == d.worlds:
                    assert where.get(c) == p
                if d.holder_count[c][p] == 0:
                    assert where.get(c) != p
            if d.aside_count[c] == d.worlds:
                assert where.get(c) == k.players
    solved = d.certain_envelope()
    if solved is not None:
        assert sorted(solved) == sorted(env)


def assert_sums(k: Knowledge, d: Deduction) -> None:
    """Each card is somewhere; each hand, the aside pile and each envelope slot is full."""
    assert d.worlds is not None
    for cat in k.categories:
        assert sum(d.envelope_count[c] for c in cat) == d.worlds
        for c in cat:
            where = d.envelope_count[c] + sum(d.holder_count[c]) + d.aside_count[c]
            assert where == (0 if c in k.public else d.worlds)
    cards = [c for cat in k.categories for c in cat]
    for p in range(k.players):
        assert sum(d.holder_count[c][p] for c in cards) == k.hand_sizes[p] * d.worlds
    assert sum(d.aside_count[c] for c in cards) == k.aside_size * d.worlds


@pytest.mark.parametrize("seed", range(60))
def test_matches_brute_force_on_small_decks(seed: int) -> None:
    rng = Rng(seed)
    for sizes, players, aside in SMALL:
        k, env, where = random_knowledge(rng, sizes, players, rng.below(8), aside)
        d = deduce(k)
        assert_matches_brute(k, d)
        assert_certainties_true(k, d, env, where)
        assert_sums(k, d)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    shape=st.sampled_from(SMALL),
    rumours=st.integers(0, 10),
)
def test_property_exact_and_sound(seed: int, shape, rumours: int) -> None:
    sizes, players, aside = shape
    k, env, where = random_knowledge(Rng(seed), sizes, players, rumours, aside)
    d = deduce(k)
    assert_matches_brute(k, d)
    assert_certainties_true(k, d, env, where)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), rumours=st.integers(0, 40))
def test_property_full_deck_six_players_sound(seed: int, rumours: int) -> None:
    """The real deck (6+6+9) at 6 players: too big to enumerate, so check the invariants
    (every card somewhere, every hand full) and that every certainty is true."""
    rng = Rng(seed)
    k, env, where = random_knowledge(rng, (6, 6, 9), 6, rumours)
    d = deduce(k)
    assert_sums(k, d)
    assert_certainties_true(k, d, env, where)
    assert d.worlds > 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), rumours=st.integers(0, 30))
def test_property_full_deck_other_counts_sound(seed: int, players: int, rumours: int) -> None:
    k, env, where = random_knowledge(Rng(seed), (6, 6, 9), players, rumours, players == 2)
    d = deduce(k)
    assert_sums(k, d)
    assert_certainties_true(k, d, env, where)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), perm_seed=st.integers(0, 2**32))
def test_property_event_order_and_repeats_do_not_matter(seed: int, perm_seed: int) -> None:
    k, _, _ = random_knowledge(Rng(seed), (2, 3, 3), 3, 6)
    events = list(k.events)
    Rng(perm_seed).shuffle(events)
    again = Knowledge(
        categories=k.categories,
        players=k.players,
        seat=k.seat,
        hand_sizes=k.hand_sizes,
        own_hand=k.own_hand,
        public=k.public,
        known=k.known,
        events=(*events, *events[:2]),
    )
    a, b = deduce(k), deduce(again)
    assert a.worlds == b.worlds
    assert a.envelope_count == b.envelope_count
    assert a.holder_count == b.holder_count


# -- hand-built cases ------------------------------------------------------------------------

CATS = ((0, 1), (2, 3), (4, 5, 6))


def knowledge(**kw) -> Knowledge:
    base = dict(
        categories=CATS,
        players=2,
        seat=0,
        hand_sizes=(2, 2),
        own_hand=frozenset({0, 2}),
        public=frozenset(),
        known={},
        events=(),
    )
    base.update(kw)
    return Knowledge(**base)  # type: ignore[arg-type]


def test_own_cards_are_never_in_the_envelope() -> None:
    d = deduce(knowledge())
    assert d.envelope[0] == 0.0 and d.envelope[2] == 0.0
    # Suspect and weapon are forced: the one card left in each category.
    assert d.is_envelope(1) and d.is_envelope(3)
    assert d.certain_holder(0) == 0
    # 3 locations, one in the envelope, two with player 1: 3 deals.
    assert d.worlds == 3
    assert d.fraction(4, "envelope") == Fraction(1, 3)
    assert d.fraction(4, 1) == Fraction(2, 3)
    assert d.entropy() == pytest.approx(1.584962500721156)


def test_shown_card_and_pass_solve_the_envelope() -> None:
    d = deduce(knowledge(known={4: 1}, events=(NoneOf(1, (1, 3, 5)),)))
    assert d.worlds == 1
    assert d.certain_envelope() == (1, 3, 5)
    assert d.certain_holder(6) == 1


def test_unseen_show_is_at_least_one() -> None:
    d = deduce(knowledge(events=(OneOf(1, (1, 3, 5)),)))
    # 1 and 3 are surely in the envelope, so the card player 1 showed was 5.
    assert d.worlds == 2 and d.certain_holder(5) == 1
    assert d.fraction(4, "envelope") == Fraction(1, 2)
    d2 = deduce(knowledge(events=(OneOf(1, (1, 3, 5)), NoneOf(1, (6,)))))
    assert d2.worlds == 1 and d2.certain_envelope() == (1, 3, 6)


def test_wrong_accusation_removes_that_envelope() -> None:
    d = deduce(knowledge(events=(NotEnvelope((1, 3, 4)),)))
    assert d.worlds == 2
    assert d.envelope[4] == 0.0
    assert d.fraction(5, "envelope") == Fraction(1, 2)


def test_aside_cards_in_the_two_player_variant() -> None:
    cats = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
    k = Knowledge(
        categories=cats,
        players=2,
        seat=0,
        hand_sizes=(2, 2),
        own_hand=frozenset({0, 3}),
        known={1: 2, 6: 1},  # 2 = the aside pile: a face-down card this seat looked at
    )
    assert k.aside_size == 2
    d = deduce(k)
    assert d.aside[1] == 1.0
    assert d.certain_envelope() is None
    assert d.possible_envelope(0) == (2,)
    assert_matches_brute(k, d)


def test_public_cards_are_nowhere() -> None:
    cats = ((0, 1, 2), (3, 4), (5, 6, 7))
    k = Knowledge(
        categories=cats,
        players=2,
        seat=1,
        hand_sizes=(2, 2),
        own_hand=frozenset({0, 3}),
        public=frozenset({1}),
    )
    d = deduce(k)
    assert d.envelope[1] == 0.0 and d.holder[1] == (0.0, 0.0)
    assert d.is_envelope(2) and d.is_envelope(4)
    assert_matches_brute(k, d)


@pytest.mark.parametrize(
    "kw",
    [
        dict(events=(NoneOf(0, (0,)),)),  # seat passed while holding the card
        dict(events=(OneOf(0, (1, 3)),)),  # seat showed a card it does not hold
        dict(own_hand=frozenset({0})),  # wrong hand size
        dict(own_hand=frozenset({0, 1})),  # holds both suspects: no envelope suspect
        dict(known={0: 1}),  # own card seen elsewhere
        dict(known={4: 1, 5: 1, 6: 1}),  # three cards in a two-card hand
        dict(events=(OneOf(1, (1, 3)), NoneOf(1, (1, 3)))),
        dict(events=(NotEnvelope((1, 3, 4)), NotEnvelope((1, 3, 5)), NotEnvelope((1, 3, 6)))),
        dict(known={4: 1, 5: 1}, events=(NotEnvelope((1, 3, 6)),)),
        dict(events=(NoneOf(1, (4, 5, 6)),)),  # player 1 needs two of {4, 5, 6}
        dict(known={9: 1}),  # not a card
        dict(events=(NoneOf(5, (4,)),)),  # not a player
        dict(seat=2),
        dict(hand_sizes=(2, 2, 2)),
    ],
)
def test_inconsistent_knowledge_raises(kw) -> None:
    with pytest.raises(InconsistentKnowledge):
        deduce(knowledge(**kw))
    assert issubclass(InconsistentKnowledge, ValueError)


def test_inconsistent_random_knowledge_matches_brute() -> None:
    """Knowledge with a false event: the deducer raises exactly when no deal fits."""
    rng = Rng(99)
    raised = 0
    for _ in range(200):
        k, env, _where = random_knowledge(rng, (2, 2, 3), 3, 3)
        extra = rng.choice(
            [
                NoneOf(rng.below(3), (rng.below(7),)),
                OneOf(rng.below(3), (rng.below(7), rng.below(7))),
                NotEnvelope(tuple(sorted(env))),
            ]
        )
        k2 = Knowledge(
            categories=k.categories,
            players=k.players,
            seat=k.seat,
            hand_sizes=k.hand_sizes,
            own_hand=k.own_hand,
            public=k.public,
            known=k.known,
            events=(*k.events, extra),
        )
        n = brute(k2)[0]
        if n == 0:
            raised += 1
            with pytest.raises(InconsistentKnowledge):
                deduce(k2)
        else:
            assert_matches_brute(k2, deduce(k2))
    assert raised > 10


# -- drawing deals -----------------------------------------------------------------------------


def _key(deal) -> tuple:
    return (tuple(sorted(deal.envelope)), deal.hands, deal.aside)


@pytest.mark.parametrize("seed", range(12))
def test_sample_deal_is_consistent_and_uniform(seed: int) -> None:
    """Draws fit the knowledge and hit every consistent deal equally often."""
    rng = Rng(seed)
    sizes, players, aside = SMALL[seed % len(SMALL)]
    k, _env, _where = random_knowledge(rng, sizes, players, rng.below(5), aside)
    worlds = brute(k)[0]
    draws = 300 * worlds if worlds <= 12 else 200
    seen: dict[tuple, int] = {}
    sampler = DealSampler(k)
    for i in range(draws):
        deal = sample_deal(k, rng) if i < 5 else sampler.draw(rng)
        where = {c: p for p, hand in enumerate(deal.hands) for c in hand}
        where.update(dict.fromkeys(deal.aside, k.players))
        assert fits(k, deal.envelope, where)
        assert all(c in cat for cat, c in zip(k.categories, deal.envelope, strict=True))
        seen[_key(deal)] = seen.get(_key(deal), 0) + 1
    if worlds <= 12:
        assert len(seen) == worlds
        # Each count is Binomial(300 w, 1/w): mean 300, sd < 18; 6 sd is never hit by chance.
        assert all(abs(n - 300) < 105 for n in seen.values()), seen


@pytest.mark.parametrize("tries", [64, 0])
def test_sample_deal_honours_a_wrong_accusation(tries: int, monkeypatch) -> None:
    """Draws avoid a ruled-out triple, uniformly, whether by drawing again or (tries = 0,
    as when that triple holds nearly all the weight) by choosing the envelope exactly."""
    monkeypatch.setattr(deduction, "_REJECTION_TRIES", tries)
    cats = ((0, 1), (2, 3), (4, 5, 6, 7, 8, 9, 10))
    k = Knowledge(
        categories=cats,
        players=2,
        seat=0,
        hand_sizes=(3, 3),
        own_hand=frozenset({0, 2, 5}),
        known={6: 1},
        events=(NoneOf(1, (1, 3, 4)), NotEnvelope((1, 3, 4))),
    )
    worlds = brute(k)[0]
    assert deduce(k).worlds == worlds
    rng = Rng(5)
    seen: dict[tuple, int] = {}
    each = 200 if tries else 80
    sampler = DealSampler(k)
    for _ in range(each * worlds):
        deal = sampler.draw(rng)
        assert sorted(deal.envelope) != [1, 3, 4]
        seen[_key(deal)] = seen.get(_key(deal), 0) + 1
    assert len(seen) == worlds
    assert all(abs(n - each) < 6 * each**0.5 for n in seen.values())


def test_sample_deal_raises_when_nothing_fits() -> None:
    with pytest.raises(InconsistentKnowledge):
        sample_deal(knowledge(events=(NoneOf(1, (4, 5, 6)),)), Rng(1))


# -- how informative a rumour is --------------------------------------------------------------


def _brute_info_other_asker(k: Knowledge, rumour, asker: int) -> float:
    """Expected entropy drop when another seat asks: the outcome seen is who answered."""
    import math

    from tests.games.clue.test_deduction_helpers import deals

    def entropy(groups):
        n = sum(groups.values())
        h = 0.0
        for cat in k.categories:
            for c in cat:
                p = sum(w for env, w in groups.items() if c in env) / n
                if 0 < p < 1:
                    h -= p * math.log2(p)
        return h

    by_outcome: dict = {}
    everything: dict = {}
    for env, where in deals(k.categories, k.hand_sizes, k.public):
        if not fits(k, env, where):
            continue
        outcome = None
        for step in range(1, k.players):
            p = (asker + step) % k.players
            if any(where.get(c) == p for c in rumour):
                outcome = p
                break
        groups = by_outcome.setdefault(outcome, {})
        groups[env] = groups.get(env, 0) + 1
        everything[env] = everything.get(env, 0) + 1
    total = sum(everything.values())
    after = sum(sum(g.values()) / total * entropy(g) for g in by_outcome.values())
    return entropy(everything) - after


@pytest.mark.parametrize("seed", range(20))
def test_expected_information_matches_brute_force_for_another_asker(seed: int) -> None:
    rng = Rng(seed)
    k, _env, _where = random_knowledge(rng, (2, 3, 3), 3, rng.below(4))
    asker = (k.seat + 1 + rng.below(2)) % 3
    rumour = tuple(rng.choice(cat) for cat in k.categories)
    got = expected_information(k, rumour, asker)
    assert got == pytest.approx(_brute_info_other_asker(k, rumour, asker), abs=1e-9)


def test_expected_information_of_own_asking() -> None:
    k = knowledge(known={4: 1})
    # Asking about cards whose places are known (own cards, a seen card) teaches nothing ...
    assert expected_information(k, (0, 2, 4), 0) == pytest.approx(0.0, abs=1e-12)
    # ... asking about an open location does, and never more than all that is left.
    gain = expected_information(k, (1, 3, 5), 0)
    assert 0.0 < gain <= deduce(k).entropy() + 1e-12
    rng = Rng(3)
    for _ in range(30):
        k6, _, _ = random_knowledge(rng, (6, 6, 9), 6, rng.below(20))
        rumour = tuple(rng.choice(cat) for cat in k6.categories)
        g = expected_information(k6, rumour, k6.seat)
        assert -1e-12 <= g <= deduce(k6).entropy() + 1e-9


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), rumours=st.integers(0, 40))
def test_property_full_deck_draws_fit(seed: int, players: int, rumours: int) -> None:
    """On the real deck, every drawn deal fits the knowledge and fills every hand."""
    rng = Rng(seed)
    k, _env, _where = random_knowledge(rng, (6, 6, 9), players, rumours, players == 2)
    sampler = DealSampler(k)
    for _ in range(5):
        deal = sampler.draw(rng)
        where = {c: p for p, hand in enumerate(deal.hands) for c in hand}
        where.update(dict.fromkeys(deal.aside, k.players))
        assert fits(k, deal.envelope, where)
        assert [len(h) for h in deal.hands] == list(k.hand_sizes)
        assert len(deal.aside) == k.aside_size
        assert all(c in cat for cat, c in zip(k.categories, deal.envelope, strict=True))


def test_cache_answers_the_same_knowledge_alike() -> None:
    k, _, _ = random_knowledge(Rng(4), (2, 3, 3), 3, 5)
    a = deduce(k)
    same = k.adding(*k.events[:1])  # a repeated event adds nothing
    assert deduce(same) is a
    fields = {
        "categories": [list(c) for c in k.categories],
        "players": k.players,
        "seat": k.seat,
        "hand_sizes": k.hand_sizes,
        "own_hand": k.own_hand,
        "public": k.public,
        "known": k.known,
        "events": k.events,
    }
    if timelord.COMPILED:  # the compiled class checks its field types: lists are refused
        with pytest.raises(TypeError):
            Knowledge(**fields)
        return
    listy = Knowledge(**fields)
    assert deduce(listy).holder_count == a.holder_count
