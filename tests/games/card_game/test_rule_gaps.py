"""Negative scenarios (and a few positive ones) that the clause files lacked: the five
counters (C-6.1), the End Game (C-6.2, C-6.3), scoring (C-6.4), the two-player deal (C-2.5)
and Support cards that must not fire without their conditions."""

from __future__ import annotations

import pytest

from timelord.core import IllegalAction
from timelord.games.card_game.actions import (
    EndTurn,
    Finish,
    PlayEnemy,
    PlaySupport,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import CLEVER, MAIN

FILL = ("rory", "rory", "clara")
FOES = ["sontarans", "sontarans", "cybermen", "cybermen", "the-silence"]


def test_c_6_1_negative_counters_of_another_player(game3: CardGame) -> None:
    """C-6.1 negative: only the player beginning the turn is checked. Seat 2 has five Dalek
    counters in play, but seat 1 begins: play goes on; when seat 2 begins, the game ends."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    t.hand(1, "dalek", "dalek", "clara")
    for i in range(5):
        t.location(1 if i % 2 else 0, enemies=[FOES[i]], attacker=2)
    s = t.state().apply(EndTurn())
    assert not s.is_over and s.active == 1 and s.phase == MAIN
    s = s.apply(EndTurn())
    assert s.is_over and s.ended == "counters"


def test_c_6_1_negative_fifth_counter_during_own_turn(game3: CardGame) -> None:
    """C-6.1 negative: placing the fifth Dalek counter does not end the game at once (the turn
    goes on and the others play); it ends when that player begins the next turn."""
    t = Scenario(game3, active=0)
    for i in range(4):
        t.location(1 if i % 2 else 2, enemies=[FOES[i]], attacker=0)
    target = t.location(2)
    e = t.hand(0, "dalek", *FILL)[0]
    t.hand(1, "clara", "clara", "donna")
    # Seat 2 gets seat 0's three passed cards.
    s = t.state().apply(PlayEnemy(e, target)).apply(Finish())
    assert s.loc_att.count(0) == 5
    assert not s.is_over and s.active == 0 and s.phase == MAIN
    s = s.apply(EndTurn())  # play passes to the left
    assert not s.is_over and s.active == 1
    s = s.apply(EndTurn())
    assert not s.is_over and s.active == 2
    s = s.apply(EndTurn())
    assert s.is_over and s.ended == "counters"


def test_c_6_1_end_game_period_still_checks_counters(game3: CardGame) -> None:
    """C-6.1 in the End Game: the five-counter check still applies at the start of a turn."""
    t = Scenario(game3, active=0)
    t.s.endgame = True
    d = t.hand(0, "dalek")[0]
    t.hand(1, "rory")
    for _ in range(5):
        t.location(1, tardis=True)
    s = t.state()
    from timelord.games.card_game.actions import DiscardForTime

    s = s.apply(DiscardForTime((d,)))
    assert s.is_over and s.ended == "counters"


def test_c_6_3_negative_normal_turn_has_no_one_action_limit(game3: CardGame) -> None:
    """C-6.3 negative: outside the End Game a turn goes on after an action."""
    from timelord.games.card_game.actions import DiscardForTime

    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", "dalek", *FILL)
    s = t.state().apply(DiscardForTime((h[0],)))
    assert s.active == 0 and not s.endgame
    assert EndTurn() not in s.legal_actions()  # 4 cards: pass exactly 3 (C-3.3)
    s = s.apply(DiscardForTime((h[1],)))
    assert s.active == 0 and EndTurn() in s.legal_actions()


def test_c_6_4_negative_attacked_location_not_for_owner(game3: CardGame) -> None:
    """C-6.4 negative: an attacked Location gives its owner nothing, whatever the attack's
    strength (face-down or not), and the Papal Mainframe voids only its own Location."""
    t = Scenario(game3, active=0)
    t.location(1, "big-place", enemies=["sontarans"], attacker=2)
    t.location(1, "big-place", enemies=["papal-mainframe"], attacker=0)
    t.location(1, "small-place")
    s = t.state()
    assert s.scores() == [0.0, 1.0, 4.0]


def test_c_2_5_negative_three_players_keep_all_cards() -> None:
    """C-2.5 negative: the two-player removals apply only to two players (the test deck marks
    Davros, Cyberking and Chameleon Arch like the real one)."""
    from .conftest import make_game

    for players, present in ((2, False), (3, True), (4, True)):
        g = make_game(players)
        s = g.new_game(1)
        held = set(s.deck) | {c for h in s.hands for c in h}
        keys = {g.cards.key[c] for c in held}
        assert ({"davros", "cyberking", "chameleon-arch"} <= keys) is present


def test_c_card_mr_clever_negative_no_tardis_in_play(game3: CardGame) -> None:
    """C-card-mr-clever negative: with no TARDIS counter in play there is nothing to choose:
    +2 TP and the action is over."""
    t = Scenario(game3, active=0)
    t.location(1)
    c = t.hand(0, "mr-clever", *FILL)[0]
    s = t.state().apply(PlaySupport(c))
    assert s.tp[0] == 2 and s.phase == MAIN and s.phase != CLEVER


@pytest.mark.parametrize(
    "key",
    ["captain-jack", "collecting-on-debts", "jammy-dodger", "sonic-screwdriver", "bad-wolf"],
)
def test_c_card_negative_needs_an_attack_on_own_location(game3: CardGame, key: str) -> None:
    """C-card-captain-jack, C-card-collecting-on-debts, C-card-jammy-dodger,
    C-card-sonic-screwdriver, C-card-bad-wolf negative: with no attack on one of the
    player's Locations the card cannot be played (an attack elsewhere does not count)."""
    t = Scenario(game3, active=0)
    t.location(0)
    M = t.location(1, enemies=["dalek"], attacker=2, face_up=True)
    c = t.hand(0, key, *FILL)[0]
    s = t.state()
    assert not any(isinstance(a, PlaySupport) and a.card == c for a in s.legal_actions())
    with pytest.raises(IllegalAction):
        s.apply(PlaySupport(c, M, 0) if "jack" in key or "debts" in key else PlaySupport(c, M))


def test_c_card_chameleon_arch_negative_no_free_location(game3: CardGame) -> None:
    """C-card-chameleon-arch negative: with no Location of a third player free of attacks the
    card has no play."""
    t = Scenario(game3, active=0)
    t.location(0, enemies=["dalek"], attacker=1)
    t.location(2, enemies=["sontarans"], attacker=1)  # the only third-player Location: taken
    c = t.hand(0, "chameleon-arch", *FILL)[0]
    s = t.state()
    assert not any(isinstance(a, PlaySupport) and a.card == c for a in s.legal_actions())


def test_c_card_regeneration_negative_hand_minimum(game3: CardGame) -> None:
    """C-card-regeneration negative (C-R23), as rules 1 played it: it was played like any
    card, so not when only two cards would stay in hand (rules 2 allow it, C-R31)."""
    from .conftest import make_game

    t = Scenario(make_game(3, rules=1), active=0)
    t.location(0)
    h = t.hand(0, "regeneration", "rory", "clara")
    s = t.state()
    assert PlaySupport(h[0]) not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(PlaySupport(h[0]))
    assert e.value.rule == "C-3.2"


def test_c_card_tardis_negative_no_counters(game3: CardGame) -> None:
    """C-card-tardis / C-card-crack-in-time negative: with no counters in play only the
    player's +2 is paid."""
    t = Scenario(game3, active=0)
    c, k = t.hand(0, "tardis", "crack-in-time", *FILL)[:2]
    s = t.state()
    assert s.apply(PlaySupport(c)).tp == [2, 0, 0]
    assert s.apply(PlaySupport(k)).tp == [2, 0, 0]


def test_c_card_cyberking_negative_face_down_or_own(game3: CardGame) -> None:
    """C-card-cyberking / C-card-davros negative: no take-over of a face-down attack, nor of
    an attack on the player's own Location."""
    from timelord.games.card_game.actions import TakeOver

    t = Scenario(game3, active=0)
    hidden = t.location(2, enemies=["cybermen"], attacker=1)
    own = t.location(0, enemies=["cybermen"], attacker=1, face_up=True)
    own_d = t.location(0, enemies=["dalek"], attacker=2, face_up=True)
    h = t.hand(0, "cyberking", "davros", *FILL)
    s = t.state()
    for card, L in ((h[0], hidden), (h[0], own), (h[1], own_d)):
        assert TakeOver(card, L) not in s.legal_actions()
        with pytest.raises(IllegalAction):
            s.apply(TakeOver(card, L))
