"""The seeded generator: same seed, same stream; uniform enough to deal cards fairly."""

from __future__ import annotations

import pytest

from timelord.core import Rng


def test_same_seed_same_stream() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(50)] == [b.next64() for _ in range(50)]
    assert Rng(1).next64() != Rng(2).next64()


def test_known_first_values_are_stable_across_versions() -> None:
    # Records replay only if the stream never changes: pin it.
    r = Rng(7)
    assert [r.below(6) for _ in range(10)] == [3, 0, 0, 3, 4, 3, 4, 0, 5, 5]


def test_copy_and_state_resume_the_stream() -> None:
    r = Rng(3)
    r.next64()
    c = r.copy()
    resumed = Rng(r.state)
    assert r.next64() == c.next64() == resumed.next64()


def test_below_is_uniform_within_tolerance() -> None:
    r = Rng(11)
    counts = [0] * 7
    n = 70_000
    for _ in range(n):
        counts[r.below(7)] += 1
    for c in counts:
        assert abs(c - n / 7) < 5 * (n / 7) ** 0.5


def test_below_rejects_empty_range() -> None:
    with pytest.raises(ValueError):
        Rng(0).below(0)


def test_shuffle_is_a_permutation_and_sample_distinct() -> None:
    r = Rng(5)
    deck = list(range(30))
    r.shuffle(deck)
    assert sorted(deck) == list(range(30)) and deck != list(range(30))
    picked = r.sample(range(10), 4)
    assert len(set(picked)) == 4 and all(0 <= x < 10 for x in picked)


def test_random_and_randint_ranges() -> None:
    r = Rng(9)
    floats = [r.random() for _ in range(1000)]
    assert all(0.0 <= x < 1.0 for x in floats)
    rolls = {r.randint(1, 6) for _ in range(500)}
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_spawn_is_independent_but_deterministic() -> None:
    a, b = Rng(8), Rng(8)
    child_a, child_b = a.spawn(), b.spawn()
    assert child_a.next64() == child_b.next64()
    assert child_a.state != a.state
