"""C-5 accusations from the TARDIS."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from timelord.core import IllegalAction
from timelord.games.clue.actions import Accuse, EndTurn, NameCard


def test_c5_1_accusations_only_from_the_tardis(h: SimpleNamespace) -> None:
    state = h.build(movers=[2, 9, 9, 9, 9, 9])
    assert Accuse() not in state.legal_actions()
    with pytest.raises(IllegalAction) as err:
        state.apply(Accuse())
    assert err.value.rule == "C-5.1"


def test_c5_1_after_moving_into_the_tardis_accuse_or_end(h: SimpleNamespace) -> None:
    state = h.build(phase="centre")
    assert state.legal_actions() == [Accuse(), EndTurn()]
    assert state.apply(EndTurn()).to_move == 1


def test_c5_2_a_right_accusation_wins(h: SimpleNamespace) -> None:
    state = h.play(h.build(), Accuse(), NameCard(h.AMY), NameCard(h.LIPSTICK))
    assert state.legal_actions() == [NameCard(c) for c in range(12, 21)]
    state = state.apply(NameCard(h.PLATFORM))
    assert state.is_over and state.winners() == [0] and state.scores() == [1, 0, 0, 0]
    assert all(state.view(p)["envelope"] == [h.AMY, h.LIPSTICK, h.PLATFORM] for p in range(4))


def test_c5_3_a_wrong_accuser_is_out_and_alone_sees_the_envelope(h: SimpleNamespace) -> None:
    state = h.play(h.build(), Accuse(), NameCard(h.AMY), NameCard(h.LIPSTICK))
    state = state.apply(NameCard(h.MOON))
    assert not state.is_over and state.to_move == 1
    assert state.view(0)["out"][0] == "accused"
    assert state.view(0)["envelope"] == [h.AMY, h.LIPSTICK, h.PLATFORM]
    assert state.view(1)["envelope"] is None
    assert state.view(1)["log"][-2] == ["accuse", 0, h.AMY, h.LIPSTICK, h.MOON, False]
    # RB: "Keep your cards hidden and keep answering other players' questions."
    assert state.view(1)["revealed"] == {} and state.view(1)["hand_sizes"][0] == 4


def test_c5_3_the_out_player_takes_no_more_turns(h: SimpleNamespace) -> None:
    state = h.build(out=["", "", "accused", ""], current=1, decider=1, phase="centre")
    assert state.apply(EndTurn()).to_move == 3


def test_c5_4_everyone_wrong_means_nobody_wins(h: SimpleNamespace) -> None:
    state = h.build(players=2, out=["", "accused"])
    state = h.play(state, Accuse(), NameCard(h.STRAX), NameCard(h.LIPSTICK), NameCard(h.MOON))
    assert state.is_over and state.winners() == [] and state.scores() == [0, 0]
    assert state.view(1)["envelope"] == [h.AMY, h.LIPSTICK, h.PLATFORM]
