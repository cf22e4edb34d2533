"""C-4 rumours: naming, moving the named mover and weapon, answering in turn."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from timelord.core import IllegalAction
from timelord.games.clue.actions import (
    DrawIntrigue,
    NameCard,
    Pass,
    PlayCard,
    ShowCard,
    StayPut,
    UsePower,
)

G = 2  # Gallifrey's room
NO_POWERS = {"powers": False}


def _asking(h: SimpleNamespace, **fields: object) -> object:
    """Seat 0 in Gallifrey, about to name a suspect (4 players, no powers)."""
    base = {
        "phase": "name",
        "purpose": "rumour",
        "naming_location": G,
        "movers": [G, 9, 9, 9, 9, 9],
    }
    base.update(fields)
    return h.build(options=NO_POWERS, **base)


def test_c4_1_name_a_suspect_then_a_weapon(h: SimpleNamespace) -> None:
    state = _asking(h)
    assert state.legal_actions() == [NameCard(c) for c in range(6)]
    state = state.apply(NameCard(h.RIVER))
    assert state.legal_actions() == [NameCard(c) for c in range(6, 12)]


def test_c4_1_naming_a_card_of_the_wrong_kind_is_refused(h: SimpleNamespace) -> None:
    with pytest.raises(IllegalAction) as err:
        _asking(h).apply(NameCard(h.SONIC))
    assert err.value.rule == "C-4.1"


def test_c4_2_named_mover_and_weapon_move_to_the_location(h: SimpleNamespace) -> None:
    state = h.play(_asking(h), NameCard(h.JENNY), NameCard(h.MOMENT))
    data = state.to_json()
    assert data["movers"][h.JENNY] == G and data["weapons"][h.MOMENT - 6] == G


def test_c4_2_a_moved_player_may_draw_and_may_stay_next_turn(h: SimpleNamespace) -> None:
    state = h.play(_asking(h, pile=["timey-wimey"]), NameCard(h.STRAX), NameCard(h.SONIC))
    assert state.to_move == 1 and state.legal_actions() == [DrawIntrigue(), Pass()]
    state = state.apply(DrawIntrigue())
    assert state.view(1)["kept"] == ["timey-wimey"]
    assert state.view(0)["kept_counts"] == [0, 1, 0, 0]
    assert state.view(0)["moved"][1] is True
    # Seat 2 shows Sonic; seat 1, holding a kept card, is offered a peek (C-6.4) and
    # passes; seat 0's turn ends; seat 1 may stay in Gallifrey.
    state = state.apply(ShowCard(h.SONIC))
    assert state.view(1)["phase"] == "peek" and state.legal_actions() == [Pass()]
    state = state.apply(Pass())
    assert state.to_move == 1 and StayPut() in state.legal_actions()


def test_c4_2_no_draw_offer_when_the_mover_was_already_there(h: SimpleNamespace) -> None:
    state = _asking(h, movers=[G, G, 9, 9, 9, 9])
    state = h.play(state, NameCard(h.STRAX), NameCard(h.SONIC))
    assert state.view(0)["phase"] == "answer" and state.view(0)["moved"][1] is False


def test_c4_3_players_are_asked_in_turn_and_passes_are_public(h: SimpleNamespace) -> None:
    # Seat 1 holds none of Amy, The Moment, Gallifrey; seat 2 holds two of them.
    state = h.play(_asking(h), NameCard(h.AMY), NameCard(h.MOMENT))
    assert state.to_move == 2
    for seat in range(4):
        assert state.view(seat)["log"][-1] == ["pass", 1]


def test_c4_4_the_answering_player_chooses_the_card(h: SimpleNamespace) -> None:
    state = h.play(_asking(h), NameCard(h.AMY), NameCard(h.MOMENT))
    assert state.legal_actions() == [ShowCard(h.MOMENT), ShowCard(h.GALLIFREY)]
    shown = state.apply(ShowCard(h.GALLIFREY))
    assert shown.view(0)["log"][-1] == ["show", 2, 0, h.GALLIFREY]
    assert shown.view(2)["log"][-1] == ["show", 2, 0, h.GALLIFREY]
    assert shown.view(1)["log"][-1] == ["show", 2, 0, None]
    assert shown.view(None)["log"][-1] == ["show", 2, 0, None]
    assert "Gallifrey" not in state.describe(ShowCard(h.GALLIFREY), 3)
    assert "Gallifrey" in state.describe(ShowCard(h.GALLIFREY), 0)


def test_c4_4_showing_a_card_not_held_or_not_named_is_refused(h: SimpleNamespace) -> None:
    state = h.play(_asking(h), NameCard(h.AMY), NameCard(h.MOMENT))
    for card in (h.SONIC, h.SKARO):
        with pytest.raises(IllegalAction) as err:
            state.apply(ShowCard(card))
        assert err.value.rule == "C-4.4"


def test_c4_5_after_a_card_is_shown_nobody_else_is_asked(h: SimpleNamespace) -> None:
    # Seat 1 holds River; seat 3 holds nothing asked; seat 2 holds Gallifrey.
    state = h.play(_asking(h), NameCard(h.RIVER), NameCard(h.LIPSTICK))
    assert state.to_move == 1
    after = state.apply(ShowCard(h.RIVER))
    assert after.to_move == 1 and after.view(1)["phase"] == "start"
    assert [e[0] for e in after.view(0)["log"]] == ["rumour", "show"]


def test_c4_5_nobody_can_answer(h: SimpleNamespace) -> None:
    # Amy, Lipstick and Platform One are the envelope; seat 0 asks about them from Platform.
    state = _asking(h, naming_location=0, movers=[0, 9, 9, 9, 9, 9])
    state = h.play(state, NameCard(h.AMY), NameCard(h.LIPSTICK))
    log = state.view(0)["log"]
    assert log[1:] == [["pass", 1], ["pass", 2], ["pass", 3]]
    assert state.to_move == 1


def test_c4_3_a_player_who_is_out_still_answers(h: SimpleNamespace) -> None:
    state = _asking(h, out=["", "accused", "", ""])
    state = h.play(state, NameCard(h.RIVER), NameCard(h.LIPSTICK))
    assert state.to_move == 1 and state.view(1)["phase"] == "answer"


def test_c5_3_a_player_who_is_out_answering_may_play_no_card_or_power(
    h: SimpleNamespace,
) -> None:
    state = _asking(h, out=["", "accused", "", ""], kept=[[], ["psychic-paper"], [], []])
    state = h.play(state, NameCard(h.RIVER), NameCard(h.LIPSTICK))
    assert state.to_move == 1
    for action, words in ((PlayCard("psychic-paper"), "no cards"), (UsePower(), "no powers")):
        with pytest.raises(IllegalAction) as err:
            state.apply(action)
        assert err.value.rule == "C-5.3" and words in err.value.reason
