"""Conflicts: C-5.1 to C-5.6 (and the Ironsides / Valiant windows)."""

from __future__ import annotations

from itertools import combinations

import pytest

from timelord.core import IllegalAction, Rng
from timelord.games.card_game.actions import (
    DiscardEnemies,
    Finish,
    Pass,
    PlayDefender,
    PlayEnemy,
    PlayValiant,
    UseIronsides,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.rules.conflict import matching_sets
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import MAIN, MATCH, VALIANT


def attack(s, cards, L):
    for c in cards:
        s = s.apply(PlayEnemy(c, L))
    return s.apply(Finish())


def defend(s, cards, L):
    for c in cards:
        s = s.apply(PlayDefender(c, L))
    return s.apply(Finish())


def test_c_5_1_reveal_bonuses_river_donna_to_defender(game3: CardGame) -> None:
    """C-5.1: River Song and Donna give their owner a Time Point when revealed."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["river-song", "donna"])
    d = t.hand(0, "sontarans", "sontarans", "clara", "rory", "amy-pond")
    s = t.state()
    s = attack(s, d[:2], L)
    assert s.tp[1] == 2
    assert s.phase in (VALIANT, MAIN)


def test_c_5_1_angels_only_when_revealed_now(game3: CardGame) -> None:
    """C-5.1: Weeping Angels give the attacker 1 TP when revealed, not when already face-up."""
    t = Scenario(game3, active=1)
    L = t.location(1, "small-place", enemies=["weeping-angels"], attacker=0, face_up=True)
    h = t.hand(1, "clara", "rory", "amy-pond", "donna")
    s = t.state()
    s = defend(s, [h[0]], L)  # Clara 2 vs Angels 1: defender wins
    assert s.tp[0] == 0
    t = Scenario(game3, active=1)
    L = t.location(1, "small-place", enemies=["weeping-angels"], attacker=0)
    h = t.hand(1, "clara", "rory", "amy-pond", "donna")
    s = defend(t.state(), [h[0]], L)
    assert s.tp[0] == 1


def test_c_5_1_empty_child_steals_if_possible(game3: CardGame) -> None:
    """C-5.1 / C-card-the-empty-child: takes 1 TP from the defender, if the defender has any."""
    for have, expect_att, expect_def in ((2, 1, 1), (0, 0, 0)):
        t = Scenario(game3, active=0)
        L = t.location(1, defenders=["the-doctor"])
        t.time(1, have)
        h = t.hand(0, "the-empty-child", "rory", "rory", "clara")
        s = attack(t.state(), [h[0]], L)
        assert s.tp[0] == expect_att
        assert s.tp[1] == expect_def


def test_c_5_3_defender_wins_ties(game3: CardGame) -> None:
    """C-5.3: equal strength: all cards discarded, TARDIS placed, Dalek counter home."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    h = t.hand(0, "dalek", "rory", "rory", "amy-pond")
    s = attack(t.state(), [h[0]], L)
    assert s.loc_tardis[L]
    assert s.loc_att[L] == -1 and s.loc_en[L] == () and s.loc_def[L] == ()
    assert h[0] in s.discard
    assert s.phase == MAIN and s.to_move == 0


def test_c_5_3_negative_attacker_stronger_keeps_attack(game3: CardGame) -> None:
    """C-5.3 negative: a stronger attack is not a defender win; no TARDIS counter."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    h = t.hand(0, "sontarans", "rory", "rory", "amy-pond")
    s = attack(t.state(), [h[0]], L)
    assert s.phase == VALIANT and s.to_move == 1
    s = s.apply(Pass())
    assert not s.loc_tardis[L]
    assert s.loc_att[L] == 0
    assert s.loc_en[L] == (h[0],)  # C-5.6: 3 > 2 cannot be discarded
    assert s.loc_up[L] == 1


def test_c_5_4_rory_already_there_returns(game3: CardGame) -> None:
    """C-5.4 / C-card-rory: Rory on the Location before the attack goes back to the hand."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["rory", "clara"])
    rory = t.s.loc_def[L][0]
    h = t.hand(0, "the-master", "sontarans", "dalek", "dalek", "amy-pond")
    s = attack(t.state(), [h[0], h[2]], L)  # Master + Dalek 5 vs 3
    assert rory in s.hands[1]
    s = s.apply(Pass())
    assert rory not in s.discard
    assert s.loc_def[L] == ()


def test_c_5_4_rory_played_into_attack_does_not_return(game3: CardGame) -> None:
    """C-5.4 negative: Rory played onto an attacked Location is discarded when it is lost."""
    t = Scenario(game3, active=1)
    L = t.location(1, enemies=["sontarans", "sontarans"], attacker=0, face_up=True)
    h = t.hand(1, "rory", "clara", "amy-pond", "donna", "the-doctor")
    s = defend(t.state(), [h[0]], L)
    assert s.phase == VALIANT
    s = s.apply(Pass())
    assert h[0] in s.discard
    assert h[0] not in s.hands[1]


def test_c_5_4_valiant_window_offered_without_the_card(game3: CardGame) -> None:
    """C-5.4 / ruling C-R4: the window opens on every lost defence; without the card only Pass."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    h = t.hand(0, "sontarans", "rory", "rory", "amy-pond")
    s = attack(t.state(), [h[0]], L)
    assert s.phase == VALIANT and s.to_move == 1
    assert s.legal_actions() == [Pass()]


def test_c_card_the_valiant_returns_defenders(game3: CardGame) -> None:
    """C-card-the-valiant: from hand or reserve, all Defenders involved return to the hand."""
    for where in ("hand", "reserve"):
        t = Scenario(game3, active=0)
        L = t.location(1, defenders=["clara", "amy-pond"])
        v = t.hand(1, "the-valiant")[0] if where == "hand" else t.reserve(1, "the-valiant")[0]
        h = t.hand(0, "sontarans", "sontarans", "rory", "rory", "donna")
        s = attack(t.state(), h[:2], L)
        assert s.phase == VALIANT
        assert PlayValiant(v) in s.legal_actions()
        defs = s.loc_def[L]
        s = s.apply(PlayValiant(v))
        assert all(d in s.hands[1] for d in defs)
        assert v in s.discard
        assert s.loc_def[L] == ()


def test_c_card_the_valiant_not_an_action(game3: CardGame) -> None:
    """C-card-the-valiant negative: it cannot be played as an ordinary action."""
    from timelord.games.card_game.actions import PlaySupport

    t = Scenario(game3, active=0)
    t.location(0)
    v = t.hand(0, "the-valiant", "rory", "rory", "clara")[0]
    s = t.state()
    assert not any(
        getattr(a, "card", None) == v and isinstance(a, PlaySupport) for a in s.legal_actions()
    )
    with pytest.raises(IllegalAction) as e:
        s.apply(PlaySupport(v))
    assert e.value.rule == "C-card-the-valiant"


def test_c_5_5_attacker_discards_closest_without_exceeding(game3: CardGame) -> None:
    """C-5.5: defence 3 vs Dalek 2 + Dalek 2 + Flagship 4: discard one Dalek (2 <= 3)."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["the-doctor"])
    h = t.hand(0, "dalek", "dalek", "dalek-flagship", "rory", "rory", "amy-pond")
    s = attack(t.state(), h[:3], L)
    s = s.apply(Pass())  # Valiant window
    assert s.phase == MAIN
    left = s.loc_en[L]
    assert len(left) == 2 and h[2] in left  # flagship kept, one Dalek gone
    assert sum(game3.cards.strength[e] for e in left) == 6


def test_c_5_5_attacker_chooses_among_equal_sets(game3: CardGame) -> None:
    """C-5.5: when several sets come equally close, the attacker chooses; one set is automatic."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["the-doctor"])
    h = t.hand(0, "the-master", "dalek", "rory", "rory", "amy-pond")
    s = t.state()
    # Master (3) + Dalek (2) = 5 vs 3: sets with sum 3: {Master}; {Dalek} is 2. One option.
    s = attack(s, h[:2], L)
    s = s.apply(Pass())
    assert s.phase == MAIN and s.loc_en[L] == (h[1],)
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["the-doctor", "rory"])
    h = t.hand(0, "the-master", "dalek", "dalek", "rory", "amy-pond", "clara")
    s = attack(t.state(), h[:3], L)  # 3+2+2 = 7 vs 4: {Master} 3, {Dalek} 2, {Dalek,Dalek} 4
    s = s.apply(Pass())
    assert s.phase == MAIN  # {Dalek, Dalek} is the only set reaching 4
    assert s.loc_en[L] == (h[0],)
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["the-doctor", "amy-pond"])
    h = t.hand(0, "the-master", "dalek", "dalek", "dalek", "rory", "clara", "donna")
    s = attack(t.state(), h[:4], L)  # 3+2+2+2 = 9 vs 5: {Master, Dalek} = 5 only
    s = s.apply(Pass())
    assert s.phase == MAIN
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["the-doctor", "clara"])
    h = t.hand(0, "the-master", "dalek", "dalek", "davros", "rory", "amy-pond", "donna")
    s = attack(t.state(), h[:4], L)  # 3+2+2+3 = 10 vs 5: {Master,Dalek} or {Davros,Dalek}
    s = s.apply(Pass())
    assert s.phase == MATCH and s.to_move == 0
    options = s.legal_actions()
    assert set(options) == {
        DiscardEnemies(tuple(sorted((h[0], h[1])))),
        DiscardEnemies(tuple(sorted((h[1], h[3])))),
    }
    s = s.apply(DiscardEnemies(tuple(sorted((h[1], h[3])))))
    assert sorted(s.loc_en[L]) == sorted((h[0], h[2]))
    with pytest.raises(IllegalAction):
        s.apply(DiscardEnemies((h[0],)))


def test_c_5_6_remaining_enemies_stay_face_up(game3: CardGame) -> None:
    """C-5.6: survivors stay face-up and public in every view."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    h = t.hand(0, "sontarans", "rory", "rory", "amy-pond")
    s = attack(t.state(), [h[0]], L).apply(Pass())
    for seat in range(3):
        assert s.view(seat)["locations"][L]["enemies"] == [h[0]]
        assert s.view(seat)["locations"][L]["face_up"] == [True]


def test_c_card_ironsides_adds_one_for_one_time_point(game3: CardGame) -> None:
    """C-5.2 / C-card-ironsides: after the reveal, pay 1 TP for +1: 2+1 beats a tie-less 3."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    t.in_play(1, "ironsides")
    t.time(1, 1)
    h = t.hand(0, "sontarans", "rory", "rory", "amy-pond")
    s = attack(t.state(), [h[0]], L)
    assert s.to_move == 1 and set(s.legal_actions()) == {UseIronsides(), Pass()}
    won = s.apply(UseIronsides())
    assert won.loc_tardis[L] and won.tp[1] == 0 and won.supply == s.supply + 1
    lost = s.apply(Pass())
    assert lost.phase == VALIANT


def test_c_card_ironsides_needs_a_time_point(game3: CardGame) -> None:
    """C-card-ironsides negative: no window without a Time Point to pay (or without the card)."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    t.in_play(1, "ironsides")
    h = t.hand(0, "sontarans", "rory", "rory", "amy-pond")
    s = attack(t.state(), [h[0]], L)
    assert s.phase == VALIANT


def test_c_4_2_defenders_into_attack_conflict_at_once(game3: CardGame) -> None:
    """C-4.2: Defenders played on an attacked Location fight at once; all declared first."""
    t = Scenario(game3, active=1)
    L = t.location(1, enemies=["dalek", "dalek"], attacker=0)
    h = t.hand(1, "the-doctor", "clara", "rory", "amy-pond", "donna")
    s = t.state().apply(PlayDefender(h[2], L))
    assert s.loc_en[L] and s.loc_up[L] == 0  # nothing revealed yet
    s = s.apply(PlayDefender(h[0], L)).apply(Finish())  # Doctor 3 + Clara 2 = 5 >= 4
    assert s.loc_tardis[L] and s.loc_att[L] == -1


def test_c_3_2_valiant_from_hand_keeps_hand_minimum(game3: CardGame) -> None:
    """C-3.2 with C-card-the-valiant: in one's own turn a Valiant from the hand may not leave
    fewer than 3 cards (here, under rules 1, the Astronaut took the only Defender, so none
    come back; under rules 2 that Doctor comes back too, ruling C-R32, and the hand keeps 3)."""
    from .conftest import make_game

    t = Scenario(make_game(3, rules=1), active=1)
    L = t.location(1, enemies=["impossible-astronaut", "dalek"], attacker=0, face_up=True)
    h = t.hand(1, "the-doctor", "the-valiant", "rory", "clara")
    s = defend(t.state(), [h[0]], L)
    assert s.phase == VALIANT and s.to_move == 1
    assert s.legal_actions() == [Pass()]
    t = Scenario(game3, active=1)
    L = t.location(1, enemies=["impossible-astronaut", "dalek"], attacker=0, face_up=True)
    h = t.hand(1, "the-doctor", "the-valiant", "rory", "clara")
    s = defend(t.state(), [h[0]], L)
    assert s.legal_actions() == [PlayValiant(h[1]), Pass()]
    assert len(s.apply(PlayValiant(h[1])).hands[1]) == 3
    t = Scenario(game3, active=1)
    L = t.location(1, enemies=["impossible-astronaut", "dalek"], attacker=0, face_up=True)
    v = t.reserve(1, "the-valiant")[0]
    h = t.hand(1, "the-doctor", "rory", "rory", "clara")
    s = defend(t.state(), [h[0]], L)
    assert PlayValiant(v) in s.legal_actions()


def test_c_5_5_sets_are_every_closest_subset_once(game3: CardGame) -> None:
    """C-5.5 against a brute force over every subset of the attack: the sets listed are
    exactly the subsets closest to the defence without exceeding it, copies of one design
    counted alike (each named by its lowest ids, C-R24), in sorted order."""
    cs = game3.cards
    enemies = [c for c in cs.cards_in_play(3) if cs.is_enemy[c]]
    rng = Rng(55)
    t = Scenario(game3, active=0)
    L = t.location(1)
    s = t.state()
    for _ in range(300):
        attack = tuple(sorted(enemies[rng.below(len(enemies))] for _ in range(rng.below(6))))
        attack = tuple(sorted(set(attack)))
        target = rng.below(12)
        s.loc_en[L] = attack
        strong = [e for e in attack if cs.strength[e] > 0]
        best, named = -1, set()
        for n in range(len(strong) + 1):
            for sub in combinations(strong, n):
                total = sum(cs.strength[e] for e in sub)
                if total > target or total < best:
                    continue
                if total > best:
                    best, named = total, set()
                counts: dict[int, int] = {}
                for e in sub:
                    counts[cs.design[e]] = counts.get(cs.design[e], 0) + 1
                first = [
                    e
                    for d, k in counts.items()
                    for e in sorted(x for x in strong if cs.design[x] == d)[:k]
                ]
                named.add(tuple(sorted(first)))
        assert matching_sets(s, L, target) == sorted(named), (attack, target)
