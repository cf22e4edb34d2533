"""The turn: C-3.1 to C-3.5."""

from __future__ import annotations

import pytest

from timelord.core import IllegalAction
from timelord.games.card_game.actions import (
    DiscardForTime,
    EndTurn,
    PickUp,
    PlaceReserve,
    PlayLocation,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario


def test_c_3_1_many_actions_in_one_turn(game3: CardGame) -> None:
    """C-3.1: the active player keeps acting after each action."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "small-place", "big-place", "rory", "clara", "amy-pond")
    s = t.state().apply(PlayLocation(h[0]))
    assert s.to_move == 0
    s = s.apply(PlayLocation(h[1]))
    assert s.to_move == 0 and len(s.loc_card) == 2


def test_c_3_2_hand_minimum(game3: CardGame) -> None:
    """C-3.2: no action may leave fewer than 3 cards in hand."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "small-place", "rory", "clara")
    s = t.state()
    assert PlayLocation(h[0]) not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(PlayLocation(h[0]))
    assert e.value.rule == "C-3.2"
    t = Scenario(game3, active=0)
    h = t.hand(0, "small-place", "rory", "clara", "amy-pond")
    s = t.state()
    assert PlayLocation(h[0]) in s.legal_actions()
    assert DiscardForTime((h[1], h[2])) not in s.legal_actions()


def test_c_3_3_end_turn_passes_right_draws_two(game3: CardGame) -> None:
    """C-3.3: with exactly 3 cards: all pass right, 2 drawn, the left player goes next."""
    t = Scenario(game3, active=1)
    h = t.hand(1, "rory", "clara", "amy-pond")
    t.hand(0, "dalek", "dalek")
    top = t.deck_top("sontarans", "sontarans")
    s = t.state(rest_to_deck=False).apply(EndTurn())
    assert all(c in s.hands[0] for c in h) and len(s.hands[0]) == 5
    assert sorted(s.hands[1]) == sorted(top)
    assert s.active == 2 and s.to_move == 2
    assert s.passed[1] == (tuple(sorted(h)),)


def test_c_3_3_end_turn_needs_exactly_three(game3: CardGame) -> None:
    """C-3.3 negative: more than 3 cards in hand: the turn cannot end."""
    t = Scenario(game3, active=0)
    t.hand(0, "rory", "clara", "amy-pond", "donna")
    s = t.state()
    assert EndTurn() not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(EndTurn())
    assert e.value.rule == "C-3.3"


def test_c_3_3_two_players_pass_two_draw_three(game2: CardGame) -> None:
    """C-3.3 / C-2.5: two players pass 2 and draw 3."""
    t = Scenario(game2, active=0)
    h = t.hand(0, "rory", "clara")
    t.hand(1, "dalek", "dalek", "dalek")
    s = t.state()
    assert EndTurn() in s.legal_actions()
    s = s.apply(EndTurn())
    assert len(s.hands[0]) == 3 and len(s.hands[1]) == 5
    assert all(c in s.hands[1] for c in h)


def test_c_3_4_reserve_pick_up(game3: CardGame) -> None:
    """C-3.4: reserve cards come back to the hand freely, except those put there this turn."""
    t = Scenario(game3, active=0)
    old = t.reserve(0, "dalek")[0]
    h = t.hand(0, "rory", "clara", "amy-pond", "donna")
    s = t.state()
    assert PickUp(old) in s.legal_actions()
    s = s.apply(PlaceReserve((h[0],)))
    assert PickUp(h[0]) not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(PickUp(h[0]))
    assert e.value.rule == "C-3.4"
    s = s.apply(PickUp(old))
    assert old in s.hands[0] and s.to_move == 0


def test_c_3_5_step_cap(game3: CardGame) -> None:
    """C-3.5 (C-R36): after the step cap only ending the turn remains; under rules 1 (C-R10)
    single discards and ending remained."""
    from .conftest import make_game

    for game, rules in ((game3, 2), (make_game(3, rules=1), 1)):
        t = Scenario(game, active=0)
        t.reserve(0, "dalek")
        t.hand(0, "small-place", "rory", "clara", "amy-pond")
        t.time(0, 10)
        s = t.state()
        s.steps = game.turn_step_cap
        legal = s.legal_actions()
        if rules == 2:
            assert legal == [EndTurn()]
        else:
            assert legal and all(isinstance(a, DiscardForTime) and len(a.cards) == 1 for a in legal)


def test_not_your_turn_is_refused(game3: CardGame) -> None:
    """C-3.1: only the seat to move acts (the engine checks actions against its decision)."""
    t = Scenario(game3, active=0)
    t.hand(0, "rory", "clara", "amy-pond")
    h1 = t.hand(1, "small-place", "rory", "clara", "amy-pond")
    s = t.state()
    with pytest.raises(IllegalAction):
        s.apply(PlayLocation(h1[0]))


def test_refusals_name_the_clause(game3: CardGame) -> None:
    """Every refusal explains itself and names its clause."""
    from timelord.games.card_game.actions import Finish, PlayValiant, TakeTime

    t = Scenario(game3, active=0)
    h = t.hand(0, "small-place", "rory", "clara", "amy-pond")
    s = t.state()
    cases = [
        (Finish(), "C-3.1"),
        (TakeTime(1), "C-4.1"),
        (PlayValiant(h[0]), "C-card-the-valiant"),
        (PlayLocation(999), "C-3.1"),
    ]
    for action, rule in cases:
        with pytest.raises(IllegalAction) as e:
            s.apply(action)
        assert e.value.rule == rule and e.value.reason
