"""E-6: the end phase and the hand limit."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from timelord.core import IllegalAction
from timelord.games.episodes.actions import DiscardCard, SkipEpisode

TEN = ["Doctor 1", "Doctor 1", "Doctor 2", "Foe 3", "Foe 4", "Plot 5", "Plot 5", "Gadget 2"]
TEN += ["Special 1", "Special 7"]


def test_e6_1_discard_down_to_seven(table) -> None:
    """E-6.1: ten cards: three discards, then the next turn."""
    st = table([TEN, ["Foe 9"]], deck=["Plot 1", "Plot 2"], phase="episode", settle=False)
    st = st.apply(SkipEpisode())
    moves = 0
    while st.to_move == 0:
        assert st.view(0)["phase"] == "discard"
        st = st.apply(st.legal_actions()[0])
        moves += 1
    assert moves == 3 and len(st.hands[0]) == 7
    assert len(st.view(1)["discard"]) == 3


def test_e6_1_seven_or_fewer_keeps_all(table) -> None:
    """E-6.1 negative: at 7 cards nothing is discarded and discarding is refused."""
    st = table([TEN[:7], ["Foe 9"]], phase="episode", settle=False)
    with pytest.raises(IllegalAction) as err:
        st.apply(DiscardCard("Doctor", 1))
    assert err.value.rule == "E-6.1"
    st = st.apply(SkipEpisode())
    assert st.to_move == 1 and len(st.hands[0]) == 7


def _all_discard_sets(st) -> list[tuple[int, ...]]:
    out = []
    stack = [st]
    while stack:
        s = stack.pop()
        if s.to_move != 0:
            gone = Counter(st.hands[0]) - Counter(s.hands[0])
            out.append(tuple(sorted(gone.elements())))
            continue
        stack.extend(s.apply(a) for a in s.legal_actions())
    return out


def test_e6_2_every_set_once(table) -> None:
    """E-6.2: each set of excess cards is reachable by exactly one sequence."""
    st = table([TEN, ["Foe 9"]], phase="episode", settle=False).apply(SkipEpisode())
    sets = _all_discard_sets(st)
    expected = {tuple(sorted(c)) for c in combinations(sorted(st.hands[0]), 3)}
    assert len(sets) == len(set(sets)) == len(expected)
    assert set(sets) == expected


def test_e6_2_ascending_order_enforced(table) -> None:
    """E-6.2 negative: after a later card an earlier one is refused."""
    st = table([TEN, ["Foe 9"]], phase="episode", settle=False).apply(SkipEpisode())
    st = st.apply(DiscardCard("Foe", 3))
    with pytest.raises(IllegalAction) as err:
        st.apply(DiscardCard("Doctor", 1))
    assert err.value.rule == "E-6.2"


def test_e6_3_turn_passes_after_end_phase(table) -> None:
    """E-6.3: then it is the next seat's turn."""
    st = table(
        [TEN[:8], ["Foe 9", "Doctor 3"], ["Plot 1"]],
        deck=["Plot 1", "Plot 2"],
        phase="episode",
        settle=False,
    )
    st = st.apply(SkipEpisode()).apply(DiscardCard("Foe", 4))
    assert st.to_move == 1 and st.view(1)["phase"] == "action"
    assert st.view(2)["discard"] == ["Foe 4"]
