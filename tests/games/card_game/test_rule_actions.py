"""Actions: C-4.1 to C-4.9."""

from __future__ import annotations

import pytest

from timelord.core import IllegalAction
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardForTime,
    Finish,
    PlaceReserve,
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
    TakeTime,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import MAIN, TAKE

FILL = ("rory", "rory", "clara")


def test_c_4_1_location_takes_time_points(game3: CardGame) -> None:
    """C-4.1: the Location joins the line and its TP come from the supply."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "small-place", *FILL)
    s = t.state().apply(PlayLocation(h[0]))
    assert s.loc_card[-1] == h[0] and s.loc_owner[-1] == 0
    assert s.tp[0] == 3 and s.supply == 27


def test_c_4_1_empty_supply_take_from_players(game3: CardGame) -> None:
    """C-4.1: what the supply lacks is taken from other players, the player choosing whom."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "small-place", *FILL)
    t.time(1, 20)
    t.time(2, 9)  # supply 1 left
    s = t.state().apply(PlayLocation(h[0]))
    assert s.tp[0] == 1 and s.phase == TAKE
    assert set(s.legal_actions()) == {TakeTime(1), TakeTime(2)}
    with pytest.raises(IllegalAction):
        s.apply(TakeTime(0))
    s = s.apply(TakeTime(2)).apply(TakeTime(1))
    assert s.tp == [3, 19, 8] and s.phase == MAIN


def test_c_4_1_nobody_to_take_from(game3: CardGame) -> None:
    """C-4.1 negative: with the supply and every other player empty, nothing more is taken."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "small-place", *FILL)
    t.time(0, 30)
    s = t.state().apply(PlayLocation(h[0]))
    assert s.phase == MAIN and s.tp[0] == 30


def test_c_4_2_defenders_face_down_on_own_location(game3: CardGame) -> None:
    """C-4.2: one or more Defenders on one own Location, face-down, distinct types."""
    t = Scenario(game3, active=0)
    L = t.location(0)
    other = t.location(1)
    h = t.hand(0, "the-doctor", "amy-pond", "the-doctor", *FILL)
    s = t.state()
    assert PlayDefender(h[0], other) not in s.legal_actions()
    s = s.apply(PlayDefender(h[0], L))
    legal = s.legal_actions()
    assert PlayDefender(h[1], L) in legal
    assert not any(isinstance(a, PlayDefender) and a.card == h[2] for a in legal)
    s = s.apply(PlayDefender(h[1], L)).apply(Finish())
    assert set(s.loc_def[L]) == {h[0], h[1]}
    assert s.view(1)["locations"][L]["defenders"] == [None, None]
    assert set(s.view(0)["locations"][L]["defenders"]) == {h[0], h[1]}


def test_c_4_3_enemies_face_down_with_dalek_counter(game3: CardGame) -> None:
    """C-4.3: a new attack lies face-down under the attacker's Dalek counter."""
    t = Scenario(game3, active=0)
    L = t.location(1)
    h = t.hand(0, "dalek", "dalek", *FILL)
    s = t.state().apply(PlayEnemy(h[0], L)).apply(PlayEnemy(h[1], L)).apply(Finish())
    assert s.loc_att[L] == 0 and s.loc_up[L] == 0 and len(s.loc_en[L]) == 2
    assert s.view(1)["locations"][L]["enemies"] == [None, None]
    assert s.view(0)["locations"][L]["enemies"] == list(s.loc_en[L])


def test_c_4_3_tardis_counter_eats_the_attack(game3: CardGame) -> None:
    """C-4.3: against a TARDIS counter the Enemies are discarded and the counter goes home;
    Defenders there stay face-down."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"], tardis=True)
    h = t.hand(0, "weeping-angels", *FILL)
    s = t.state().apply(PlayEnemy(h[0], L)).apply(Finish())
    assert not s.loc_tardis[L] and s.loc_att[L] == -1 and h[0] in s.discard
    assert s.loc_def[L] and s.view(0)["locations"][L]["defenders"] == [None]


def test_c_4_3_needs_free_dalek_counter(game3: CardGame) -> None:
    """C-4.3 / ruling C-R16: a new attack needs a free Dalek counter."""
    t = Scenario(game3, active=0)
    locs = [t.location(1 + (i % 2), enemies=["dalek"], attacker=0) for i in range(4)]
    locs.append(t.location(2, enemies=["cybermen"], attacker=0))
    target = t.location(1)
    h = t.hand(0, "sontarans", *FILL)
    s = t.state()
    assert PlayEnemy(h[0], target) not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(PlayEnemy(h[0], target))
    assert e.value.rule == "C-4.3"


def test_c_4_4_add_to_own_attack(game3: CardGame) -> None:
    """C-4.4: Enemies that combine may be added face-down to one's own attack."""
    t = Scenario(game3, active=0)
    L = t.location(1, enemies=["dalek"], attacker=0, face_up=True)
    h = t.hand(0, "dalek", "sontarans", *FILL)
    s = t.state()
    assert PlayEnemy(h[0], L) in s.legal_actions()
    assert PlayEnemy(h[1], L) not in s.legal_actions()
    s = s.apply(PlayEnemy(h[0], L)).apply(Finish())
    assert len(s.loc_en[L]) == 2 and s.loc_up[L] == 1
    assert s.view(1)["locations"][L]["enemies"][1] is None


def test_c_4_5_no_attack_on_own_or_taken_location(game3: CardGame) -> None:
    """C-4.5: never your own Location; never a Location another player attacks."""
    t = Scenario(game3, active=0)
    own = t.location(0)
    taken = t.location(1, enemies=["dalek"], attacker=2, face_up=True)
    h = t.hand(0, "dalek", *FILL)
    s = t.state()
    for L, why in ((own, "C-4.5"), (taken, "C-4.5")):
        assert PlayEnemy(h[0], L) not in s.legal_actions()
        with pytest.raises(IllegalAction) as e:
            s.apply(PlayEnemy(h[0], L))
        assert e.value.rule == why


def test_c_4_6_support_is_an_action_and_discarded(game3: CardGame) -> None:
    """C-4.6: a Support card is played as an action and (unless it stays) discarded."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "tardis", *FILL)
    s = t.state().apply(PlaySupport(h[0]))
    assert h[0] in s.discard and s.tp[0] == 2


def test_c_4_7_reserve_limit(game3: CardGame) -> None:
    """C-4.7: 1 or 2 cards to the reserve, which holds 2."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", "sontarans", "rory", "rory", "clara", "amy-pond")
    s = t.state()
    assert PlaceReserve((h[0], h[1])) in s.legal_actions()
    s = s.apply(PlaceReserve((h[0], h[1])))
    assert s.reserve[0] == (h[0], h[1])
    assert s.view(1)["reserves"][0] == {"count": 2, "known": []}
    assert not any(isinstance(a, PlaceReserve) for a in s.legal_actions())
    with pytest.raises(IllegalAction) as e:
        s.apply(PlaceReserve((h[2],)))
    assert e.value.rule == "C-4.7"


def test_c_4_8_buy_cards(game3: CardGame) -> None:
    """C-4.8: 5 Time Points per card, drawn from the deck; change kept."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    t.time(0, 11)
    top = t.deck_top("dalek", "sontarans")
    s = t.state(rest_to_deck=False)
    assert BuyCards(2) in s.legal_actions() and BuyCards(3) not in s.legal_actions()
    assert s.tp[0] == 11
    s = s.apply(BuyCards(2))
    assert s.tp[0] == 1 and top[0] in s.hands[0] and top[1] in s.hands[0]
    with pytest.raises(IllegalAction) as e:
        s.apply(BuyCards(1))
    assert e.value.rule == "C-4.8"


def test_c_4_9_discard_for_time(game3: CardGame) -> None:
    """C-4.9: discard 1 or 2 cards for 1 TP each; repeatable."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", "sontarans", "small-place", *FILL)
    s = t.state().apply(DiscardForTime((h[0], h[1])))
    assert s.tp[0] == 2 and h[0] in s.discard
    s = s.apply(DiscardForTime((h[2],)))
    assert s.tp[0] == 3
    with pytest.raises(IllegalAction):
        s.apply(DiscardForTime((h[3], h[4], h[5])))
