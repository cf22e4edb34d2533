"""The scripted generator behind explicit chance: it gives its outcomes to `below` in order,
asks for more with `ChanceNeeded`, and its state (the unused outcomes) survives `resume`."""

from __future__ import annotations

import pytest

from timelord.core import Rng, generator, is_state, resume
from timelord.core.keyed import KeyedRng
from timelord.core.scripted import ChanceNeeded, ScriptedRng, is_scripted, pack, unpack


def test_outcomes_are_given_in_order_then_chance_is_needed() -> None:
    rng = ScriptedRng([2, 0, 5])
    assert rng.below(3) == 2
    assert rng.choice("ab") == "a"  # choice, shuffle, sample, randint are built on below
    assert rng.randint(1, 6) == 6
    with pytest.raises(ChanceNeeded) as need:
        rng.below(52)
    assert need.value.n == 52


def test_an_outcome_that_does_not_fit_the_draw_is_refused() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        ScriptedRng([3]).below(3)
    with pytest.raises(ValueError, match="only below"):
        ScriptedRng([1]).random()


def test_state_packs_the_unused_outcomes_and_resumes() -> None:
    rng = ScriptedRng([0, 7, 0, 1])
    rng.below(1)
    assert unpack(rng.state) == [7, 0, 1]
    back = generator(rng)  # how a game's new_game takes a generator
    assert isinstance(back, ScriptedRng) and back.below(8) == 7
    again = resume(back.state)
    assert isinstance(again, ScriptedRng)
    assert [again.below(1), again.below(2)] == [0, 1]
    assert unpack(pack([])) == [] and is_state(pack([])) and is_state(again.state)


def test_scripted_states_never_collide_with_seeded_or_keyed_ones() -> None:
    keyed = KeyedRng(bytes(32), 5).state
    for state in (0, (1 << 64) - 1, Rng(9).next64(), keyed):
        assert not is_scripted(state)
    assert isinstance(resume(keyed), KeyedRng)
    assert not is_state(pack([]) + 1)
