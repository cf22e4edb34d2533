"""Rulings C-R31 to C-R33 and the lone Astronaut (docs/rulings.md), each under rules 2 and, for
records of earlier games, as rules 1 played it."""

from __future__ import annotations

import json

import pytest

from timelord.core import IllegalAction, Rng
from timelord.games.card_game.actions import (
    DiscardForTime,
    DiscardToRegenerate,
    EndTurn,
    Finish,
    Pass,
    PlayDefender,
    PlayEnemy,
    PlaySupport,
    PlayValiant,
)
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import MAIN, REGEN, VALIANT

from .conftest import make_game


def _attack(s, cards, L):
    for c in cards:
        s = s.apply(PlayEnemy(c, L))
    return s.apply(Finish())


def _refused(s, action) -> str:
    with pytest.raises(IllegalAction) as err:
        s.apply(action)
    return err.value.rule


def test_c_3_2_regeneration_with_exactly_the_minimum_in_hand() -> None:
    """C-3.2 / C-card-regeneration (ruling C-R31): Regeneration draws one more than it
    discards, so its action ends with as many cards as it began: with exactly the minimum
    (3) in hand it may be played, and the action ends with 3 again."""
    t = Scenario(make_game(3), active=0)
    t.location(0)
    h = t.hand(0, "regeneration", "rory", "clara")
    s = t.state()
    assert PlaySupport(h[0]) in s.legal_actions()
    s = s.apply(PlaySupport(h[0]))
    assert s.phase == REGEN
    s = s.apply(DiscardToRegenerate(h[1])).apply(DiscardToRegenerate(h[2]))
    assert s.hands[0] == ()  # emptied mid-way, as from 4 cards under rules 1
    s = s.apply(Finish())
    assert s.phase == MAIN and len(s.hands[0]) == 3


def test_c_3_2_rules_1_refused_regeneration_at_the_minimum() -> None:
    """C-R31 as rules 1 played it (kept for its records): refused with C-3.2."""
    t = Scenario(make_game(3, rules=1), active=0)
    t.location(0)
    h = t.hand(0, "regeneration", "rory", "clara")
    s = t.state()
    assert PlaySupport(h[0]) not in s.legal_actions()
    assert _refused(s, PlaySupport(h[0])) == "C-3.2"


def _astronaut_takes_the_doctor(rules: int | None):
    t = Scenario(make_game(3, rules=rules), active=0)
    L = t.location(1, defenders=["the-doctor", "clara"])
    doctor, clara = t.s.loc_def[L]
    valiant = t.hand(1, "the-valiant", "dalek", "amy-pond", "dalek")[0]
    h = t.hand(0, "impossible-astronaut", "sontarans", "rory", "rory", "donna")
    s = _attack(t.state(), h[:2], L)  # the Doctor goes; Clara 2 against Sontarans 3: lost
    assert s.phase == VALIANT and s.to_move == 1 and doctor in s.discard
    return s, L, doctor, clara, valiant


def test_c_card_the_valiant_returns_the_doctor_the_astronaut_discarded() -> None:
    """C-card-the-valiant / C-card-impossible-astronaut (ruling C-R32): "retrieve all of the
    Defender cards involved": the Doctor the Astronaut discarded was involved in the
    conflict, so The Valiant returns it with Clara. While the window is open the view names
    it (it lies face up in the discard pile), and the position survives the doors."""
    s, L, doctor, clara, valiant = _astronaut_takes_the_doctor(None)
    view = s.view(1)
    assert view["pending"]["cards"] == [doctor]
    again = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.to_json() == s.to_json()
    dealt = s.game.sample_state(view, Rng(3))
    assert dealt.view(1) == view
    s = s.apply(PlayValiant(valiant))
    assert doctor in s.hands[1] and clara in s.hands[1]
    assert doctor not in s.discard and valiant in s.discard
    assert s.loc_def[L] == ()


def test_c_card_the_valiant_rules_1_left_the_doctor_in_the_discard() -> None:
    """C-R32 as rules 1 played it: only the Defenders still on the Location came back."""
    s, _, doctor, clara, valiant = _astronaut_takes_the_doctor(1)
    assert s.view(1)["pending"]["cards"] == []
    s = s.apply(PlayValiant(valiant))
    assert clara in s.hands[1] and doctor in s.discard and doctor not in s.hands[1]


def test_c_5_3_a_lone_astronaut_against_a_lone_doctor() -> None:
    """C-5.3 / C-card-impossible-astronaut (ruling C-R34): the Doctor is discarded first, so
    0 meets 0 and, ties going to the defender, the defence holds with no Defender left: the
    Astronaut is discarded with its attack and the defender's TARDIS counter goes on."""
    for rules in (1, 2):
        t = Scenario(make_game(3, rules=rules), active=0)
        L = t.location(1, defenders=["the-doctor"])
        doctor = t.s.loc_def[L][0]
        h = t.hand(0, "impossible-astronaut", "rory", "rory", "donna")
        s = _attack(t.state(), h[:1], L)
        assert doctor in s.discard and h[0] in s.discard
        assert s.loc_att[L] == -1 and s.loc_en[L] == () and s.loc_def[L] == ()
        assert s.loc_tardis[L] and s.phase == MAIN


def _lost_defence(rules: int | None):
    """Seat 0 defends its Location against seat 1's Sontarans with Clara, and loses."""
    t = Scenario(make_game(3, rules=rules), active=0)
    L = t.location(0, enemies=["sontarans"], attacker=1)
    t.hand(1, "dalek", "dalek", "cybermen")
    h = t.hand(0, "clara", "amy-pond", "rory", "rory", "donna")
    s = t.state().apply(PlayDefender(h[0], L)).apply(Finish())
    assert s.phase == VALIANT
    s = s.apply(Pass())
    assert s.phase == MAIN and s.loc_att[L] == 1
    return s, L, h


def test_c_5_4_a_lost_defence_waits_for_a_later_turn() -> None:
    """C-5.4 (ruling C-R33): the Enemies that won "stay played on the Location, face-up and
    can be attacked or reinforced in subsequent turns": the defender may not declare
    Defenders there again this turn; the next turn it may."""
    s, L, h = _lost_defence(None)
    assert PlayDefender(h[1], L) not in s.legal_actions()
    assert _refused(s, PlayDefender(h[1], L)) == "C-5.4"
    assert s.to_json()["fought"] == [L] and s.view(0)["fought"] == [L]
    again = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.fought == (L,)
    # one card more than the 3 passed: discard it for Time Points, end the turn; the mark
    # is gone in the next turn
    s = s.apply(next(a for a in s.legal_actions() if isinstance(a, DiscardForTime)))
    s = s.apply(EndTurn())
    assert s.fought == () and "fought" not in s.to_json()


def test_c_5_4_rules_1_let_the_defender_declare_again() -> None:
    """C-R33 as rules 1 played it: the same Location could be defended again at once."""
    s, L, h = _lost_defence(1)
    assert PlayDefender(h[1], L) in s.legal_actions()
    assert "fought" not in s.to_json()


def test_c_5_4_a_won_attack_is_not_reinforced_the_same_turn() -> None:
    """C-5.4 (ruling C-R33), the attacker's side: Enemies that won may not be joined by more
    this turn (under rules 1 they could)."""
    for rules, joins in ((None, False), (1, True)):
        t = Scenario(make_game(3, rules=rules), active=0)
        L = t.location(1, defenders=["rory"])
        h = t.hand(0, "sontarans", "sontarans", "rory", "rory", "donna")
        s = _attack(t.state(), h[:1], L)
        s = s.apply(Pass())  # seat 1 has no Valiant
        assert s.phase == MAIN and s.loc_att[L] == 0
        assert (PlayEnemy(h[1], L) in s.legal_actions()) is joins


def test_c_3_5_at_the_step_bound_the_turn_closes_and_ends() -> None:
    """C-3.5 (ruling C-R36, rules 2): after `turn_step_cap` steps a begun declaration offers
    only its Finish, then the main phase only the end of the turn, which discards the cards
    above the number passed at random, face up, before passing."""
    t = Scenario(make_game(3), active=0)
    L = t.location(0, enemies=["dalek"], attacker=1)
    t.hand(1, "dalek", "dalek", "cybermen")
    h = t.hand(0, "clara", "amy-pond", "rory", "rory", "donna", "the-doctor")
    s = t.state()
    s.steps = s.game.turn_step_cap - 1  # (a scenario: the turn's earlier steps)
    s = s.apply(PlayDefender(h[0], L))
    assert s.legal_actions() == [Finish()]
    assert _refused(s, PlayDefender(h[1], L)) == "C-3.5"
    s = s.apply(Finish())  # Clara 2 against the Dalek 2: the defence holds
    assert s.phase == MAIN and s.legal_actions() == [EndTurn()]
    assert _refused(s, PlaySupport(h[4])) == "C-3.5"
    hand = set(s.hands[0])
    nxt = s.apply(EndTurn())
    gone = [c for c in hand if c in nxt.discard]
    assert len(gone) == len(hand) - 3 and nxt.active == 1 and s.reveals(EndTurn())


def test_c_3_5_the_bound_under_20000_and_every_turn_within_its_count() -> None:
    """C-3.5 / C-6.5 (ruling C-R36): `max_actions` is max_turns x (4C + t + 4); under
    20,000 for every player count (788,800 under rules 1), and no turn of random games
    comes near its per-turn count."""
    import timelord

    for players in (2, 3, 4):
        game = timelord.load("card-game", players=players)
        per_turn = game.max_actions // game.max_turns
        assert game.max_actions < 20_000 and per_turn == 4 * game.turn_step_cap + 3 + 4
        for seed in range(4):
            s, rng, longest, n = game.new_game(seed), Rng(seed), 0, 0
            turn = s.turn
            while not s.is_over:
                legal = s.legal_actions()
                s = s.apply(legal[rng.below(len(legal))])
                n += 1
                if s.turn != turn:
                    longest, n, turn = max(longest, n), 0, s.turn
            assert longest <= per_turn
    assert timelord.load("card-game", rules=1, max_turns=400).max_actions == 788_800
