"""Card effects: every C-card-* clause, positive and negative."""

from __future__ import annotations

import pytest

from timelord.core import IllegalAction
from timelord.games.card_game.actions import (
    DiscardToRegenerate,
    Finish,
    Pass,
    PlaceTardis,
    PlayDefender,
    PlayEnemy,
    PlaySupport,
    RemoveTardis,
    TakeOver,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import CLEVER, JACK, MAIN, REGEN, VALIANT


def attack(s, cards, L):
    for c in cards:
        s = s.apply(PlayEnemy(c, L))
    return s.apply(Finish())


def defend(s, cards, L):
    for c in cards:
        s = s.apply(PlayDefender(c, L))
    return s.apply(Finish())


FILL = ("rory", "rory", "clara")  # keeps hands above the minimum


# ---------------------------------------------------------------- defenders
def test_c_card_the_doctor_one_type(game3: CardGame) -> None:
    """C-card-the-doctor: two Doctors never share a Location; another Location is fine."""
    t = Scenario(game3, active=0)
    L = t.location(0, defenders=["the-doctor"])
    M = t.location(0, "small-place")
    d = t.hand(0, "the-doctor", *FILL)[0]
    s = t.state()
    assert PlayDefender(d, L) not in s.legal_actions()
    assert PlayDefender(d, M) in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(PlayDefender(d, L))
    assert e.value.rule == "C-4.2"


def test_c_card_amy_pond_and_silurians(game3: CardGame) -> None:
    """C-card-silurians / C-card-amy-pond: an attack with Silurians meeting Amy loses outright,
    even when stronger; TARDIS counter placed."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["amy-pond"])
    h = t.hand(0, "silurians", "silurians", "rory", "rory", "clara")
    s = attack(t.state(), h[:2], L)  # 4 vs 2, but Amy is there
    assert s.phase == MAIN
    assert s.loc_tardis[L] and s.loc_att[L] == -1
    assert all(c in s.discard for c in h[:2])


def test_c_card_silurians_without_amy_fight_normally(game3: CardGame) -> None:
    """C-card-silurians negative: without Amy, strengths decide."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    h = t.hand(0, "silurians", "silurians", "rory", "rory", "clara")
    s = attack(t.state(), h[:2], L)
    assert s.phase == VALIANT


def test_c_card_river_song_reveal_when_played_into_attack(game3: CardGame) -> None:
    """C-card-river-song / C-card-donna: +1 TP also when played to fight an existing attack."""
    t = Scenario(game3, active=1)
    L = t.location(1, enemies=["dalek"], attacker=0)
    h = t.hand(1, "river-song", "donna", *FILL)
    s = defend(t.state(), h[:2], L)
    assert s.tp[1] == 2 and s.loc_tardis[L]


# ---------------------------------------------------------------- enemies
def test_c_card_dalek_types_combine(game3: CardGame) -> None:
    """C-card-dalek: Dalek, Flagship and Davros combine; Cybermen do not join them."""
    t = Scenario(game3, active=0)
    L = t.location(1)
    h = t.hand(0, "dalek", "dalek-flagship", "davros", "cybermen", *FILL)
    s = t.state().apply(PlayEnemy(h[0], L))
    legal = s.legal_actions()
    assert PlayEnemy(h[1], L) in legal and PlayEnemy(h[2], L) in legal
    assert PlayEnemy(h[3], L) not in legal
    with pytest.raises(IllegalAction) as e:
        s.apply(PlayEnemy(h[3], L))
    assert e.value.rule == "C-4.3"


def test_c_card_the_master_and_clerics_combine(game3: CardGame) -> None:
    """C-card-the-master / C-card-clerics: the Master joins any type; Clerics join The Silence
    and Kovarian but not Daleks."""
    t = Scenario(game3, active=0)
    L = t.location(1)
    h = t.hand(0, "the-silence", "clerics", "madame-kovarian", "the-master", "dalek", *FILL)
    s = t.state().apply(PlayEnemy(h[0], L))
    legal = s.legal_actions()
    assert {PlayEnemy(h[1], L), PlayEnemy(h[2], L), PlayEnemy(h[3], L)} <= set(legal)
    assert PlayEnemy(h[4], L) not in legal
    s2 = t.state().apply(PlayEnemy(h[4], L))
    assert PlayEnemy(h[3], L) in s2.legal_actions()
    assert PlayEnemy(h[1], L) not in s2.legal_actions()


def test_c_card_madame_kovarian_turns_river(game3: CardGame) -> None:
    """C-card-madame-kovarian: River switches sides (after her TP) and stays an Enemy."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["river-song", "the-doctor"])
    river = t.s.loc_def[L][0]
    h = t.hand(0, "madame-kovarian", "the-silence", *FILL)
    s = attack(t.state(), h[:2], L)  # 2+2+River 2 = 6 vs Doctor 3
    assert s.tp[1] == 1
    assert s.phase == VALIANT
    s = s.apply(Pass())
    assert river in s.loc_en[L]  # still an Enemy after the conflict
    assert s.loc_att[L] == 0
    # The defender may still play a new River Song there as a Defender.
    t = Scenario(game3, active=1)
    L = t.location(1, enemies=["madame-kovarian", "river-song"], attacker=0, face_up=True)
    h = t.hand(1, "river-song", *FILL)
    s = t.state()
    assert PlayDefender(h[0], L) in s.legal_actions()


def test_c_card_madame_kovarian_no_river_no_effect(game3: CardGame) -> None:
    """C-card-madame-kovarian negative: without River Song she is an ordinary Enemy."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["the-doctor"])
    h = t.hand(0, "madame-kovarian", *FILL)
    s = attack(t.state(), h[:1], L)
    assert s.loc_tardis[L]  # 3 >= 2


def test_c_card_impossible_astronaut_vs_river(game3: CardGame) -> None:
    """C-card-impossible-astronaut: against River both are discarded; the Doctor stays."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["river-song", "the-doctor"])
    river, _doc = t.s.loc_def[L]
    h = t.hand(0, "impossible-astronaut", "sontarans", *FILL)
    s = attack(t.state(), h[:2], L)  # after: Doctor 3 vs Sontarans 3: defender wins
    assert h[0] in s.discard and river in s.discard
    assert s.loc_tardis[L]


def test_c_card_impossible_astronaut_vs_doctor(game3: CardGame) -> None:
    """C-card-impossible-astronaut: with no River, the Doctor is discarded first."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["the-doctor", "rory"])
    h = t.hand(0, "impossible-astronaut", "dalek", *FILL)
    s = attack(t.state(), h[:2], L)  # Doctor gone: Rory 1 vs Dalek 2
    assert s.phase == VALIANT
    s = s.apply(Pass())
    assert s.loc_att[L] == 0
    assert h[0] in s.loc_en[L]  # the Astronaut stays (strength 0, never discarded)


def test_c_card_impossible_astronaut_neither(game3: CardGame) -> None:
    """C-card-impossible-astronaut negative: with neither River nor Doctor it adds nothing."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["clara"])
    h = t.hand(0, "impossible-astronaut", "dalek", *FILL)
    s = attack(t.state(), h[:2], L)  # Clara 2 vs Dalek 2 + 0: defender wins
    assert s.loc_tardis[L]


def test_c_card_impossible_astronaut_with_kovarian(game3: CardGame) -> None:
    """C-card-impossible-astronaut + Kovarian: the Astronaut goes, River turns Enemy."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["river-song", "the-doctor"])
    river = t.s.loc_def[L][0]
    h = t.hand(0, "impossible-astronaut", "madame-kovarian", "the-silence", *FILL)
    s = attack(t.state(), h[:3], L)  # 2 + 2 + River 2 = 6 vs Doctor 3
    assert h[0] in s.discard
    assert river in s.loc_en[L]
    s = s.apply(Pass())
    assert river in s.loc_en[L]


def test_c_card_davros_takes_over_face_up_attack(game3: CardGame) -> None:
    """C-card-davros: on another player's face-up Dalek attack: the counter is swapped."""
    t = Scenario(game3, active=0)
    L = t.location(2, enemies=["dalek"], attacker=1, face_up=True)
    h = t.hand(0, "davros", *FILL)
    s = t.state()
    assert TakeOver(h[0], L) in s.legal_actions()
    s = s.apply(TakeOver(h[0], L))
    assert s.loc_att[L] == 0 and h[0] in s.loc_en[L]


def test_c_card_davros_negative(game3: CardGame) -> None:
    """C-card-davros negative: not on a face-down attack, not against your own Location, not on
    an attack without Daleks."""
    t = Scenario(game3, active=0)
    A = t.location(2, enemies=["dalek"], attacker=1)  # face-down
    B = t.location(0, enemies=["dalek"], attacker=1, face_up=True)  # own Location
    C = t.location(2, enemies=["sontarans"], attacker=1, face_up=True)
    h = t.hand(0, "davros", *FILL)
    s = t.state()
    for L in (A, B, C):
        assert TakeOver(h[0], L) not in s.legal_actions()
        with pytest.raises(IllegalAction):
            s.apply(TakeOver(h[0], L))


def test_c_card_cyberking_takes_over(game3: CardGame) -> None:
    """C-card-cyberking: the same for Cybermen; not for Daleks."""
    t = Scenario(game3, active=0)
    L = t.location(2, enemies=["cybermen"], attacker=1, face_up=True)
    M = t.location(2, enemies=["dalek"], attacker=1, face_up=True)
    h = t.hand(0, "cyberking", *FILL)
    s = t.state()
    assert TakeOver(h[0], L) in s.legal_actions()
    assert TakeOver(h[0], M) not in s.legal_actions()
    s = s.apply(TakeOver(h[0], L))
    assert s.loc_att[L] == 0


def test_c_card_papal_mainframe_voids_location(game3: CardGame) -> None:
    """C-card-papal-mainframe: the Location scores for nobody."""
    t = Scenario(game3, active=0)
    t.location(1, "big-place", enemies=["papal-mainframe"], attacker=0)
    t.location(1, "small-place", enemies=["dalek"], attacker=0)
    s = t.state()
    assert s.scores() == [1.0, 0.0, 0.0]


# ---------------------------------------------------------------- support
@pytest.mark.parametrize("key", ["sonic-screwdriver", "psychic-paper", "vincent-van-gogh"])
def test_c_card_reveal_cards(game3: CardGame, key: str) -> None:
    """C-card-sonic-screwdriver, C-card-psychic-paper, C-card-vincent-van-gogh: reveal one
    attack on your own Location; +1 TP."""
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek", "weeping-angels"], attacker=1)
    c = t.hand(0, key, *FILL)[0]
    s = t.state()
    assert s.view(0)["locations"][L]["enemies"] == [None, None]
    s = s.apply(PlaySupport(c, L))
    assert s.loc_up[L] == 3 and s.tp[0] == 1
    assert s.tp[1] == 0  # not a conflict: no Weeping Angels point
    assert None not in s.view(2)["locations"][L]["enemies"]


@pytest.mark.parametrize(("key", "tp"), [("sonic-screwdriver", 3), ("mr-clever", 5)])
def test_c_card_time_points_come_from_the_card_data(game3: CardGame, key: str, tp: int) -> None:
    """Content is data: a set whose card gives other Time Points is played with those."""
    data = game3.cards.to_data()
    (record,) = [r for r in data["card"] if r["key"] == key]
    record["tp"] = tp
    t = Scenario(CardGame(players=3, max_turns=400, cards=data), active=0)
    t.location(0, enemies=["dalek"], attacker=1)
    c = t.hand(0, key, *FILL)[0]
    s = t.state()
    play = next(a for a in s.legal_actions() if isinstance(a, PlaySupport) and a.card == c)
    assert s.apply(play).tp[0] == tp


def test_c_card_reveal_needs_attack(game3: CardGame) -> None:
    """C-card-sonic-screwdriver negative: needs an attack on one of your Locations."""
    t = Scenario(game3, active=0)
    t.location(0)
    M = t.location(1, enemies=["dalek"], attacker=2)
    c = t.hand(0, "sonic-screwdriver", *FILL)[0]
    s = t.state()
    assert not any(isinstance(a, PlaySupport) for a in s.legal_actions())
    with pytest.raises(IllegalAction):
        s.apply(PlaySupport(c, M))


@pytest.mark.parametrize("key", ["wilf", "ood"])
def test_c_card_wilf_ood_extra_reserve(game3: CardGame, key: str) -> None:
    """C-card-wilf / C-card-ood: face-up in reserve; reserve holds 3."""
    from timelord.games.card_game.actions import PlaceReserve

    t = Scenario(game3, active=0)
    t.location(0)
    c = t.hand(0, key, "rory", "rory", "clara", "amy-pond", "donna", "the-doctor")[0]
    s = t.state().apply(PlaySupport(c))
    assert s.upres[0] == (c,) and c not in s.reserve[0]
    h = s.hands[0]
    s = s.apply(PlaceReserve((h[0], h[2])))
    assert PlaceReserve((s.hands[0][0],)) in s.legal_actions()
    t = Scenario(game3, active=0)
    t.reserve(0, "rory", "rory")
    t.hand(0, "clara", "amy-pond", "donna", "the-doctor")
    s = t.state()
    assert not any(isinstance(a, PlaceReserve) for a in s.legal_actions())


def test_c_card_wilf_and_ood_stack(game3: CardGame) -> None:
    """C-card-wilf + C-card-ood: four reserve places."""
    from timelord.games.card_game.rules.common import reserve_capacity

    t = Scenario(game3, active=0)
    t.in_play(0, "wilf")
    t.in_play(0, "ood")
    assert reserve_capacity(t.state(), 0) == 4


def test_c_card_ironsides_takes_a_reserve_place(game3: CardGame) -> None:
    """C-card-ironsides: goes face-up into the reserve and counts as a reserve card."""
    from timelord.games.card_game.rules.common import reserve_used

    t = Scenario(game3, active=0)
    t.reserve(0, "rory")
    c = t.hand(0, "ironsides", "rory", "clara", "amy-pond")[0]
    s = t.state().apply(PlaySupport(c))
    assert reserve_used(s, 0) == 2
    t = Scenario(game3, active=0)
    t.reserve(0, "rory", "rory")
    c = t.hand(0, "ironsides", "clara", "amy-pond", "donna")[0]
    assert PlaySupport(c) not in t.state().legal_actions()


def test_c_card_mr_clever(game3: CardGame) -> None:
    """C-card-mr-clever: +2 TP, then up to three TARDIS counters of your choice go home."""
    t = Scenario(game3, active=0)
    locs = [t.location(q, tardis=True) for q in (0, 1, 2)] + [t.location(1, tardis=True)]
    c = t.hand(0, "mr-clever", *FILL)[0]
    s = t.state().apply(PlaySupport(c))
    assert s.tp[0] == 2 and s.phase == CLEVER
    assert {RemoveTardis(L) for L in locs} <= set(s.legal_actions())
    s = s.apply(RemoveTardis(locs[1])).apply(RemoveTardis(locs[2])).apply(RemoveTardis(locs[3]))
    assert s.phase == MAIN and s.loc_tardis == [True, False, False, False]
    t = Scenario(game3, active=0)
    t.location(1, tardis=True)
    c = t.hand(0, "mr-clever", *FILL)[0]
    s = t.state().apply(PlaySupport(c)).apply(Finish())
    assert s.phase == MAIN and s.loc_tardis == [True]


@pytest.mark.parametrize("key", ["captain-jack", "collecting-on-debts"])
def test_c_card_captain_jack(game3: CardGame, key: str) -> None:
    """C-card-captain-jack, C-card-collecting-on-debts: discard one Enemy (face-down too); with the
    last one gone the attack ends and a TARDIS counter may go on."""
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek", "sontarans"], attacker=1)
    c = t.hand(0, key, *FILL)[0]
    s = t.state()
    dalek, sont = s.loc_en[L]
    s1 = s.apply(PlaySupport(c, L, 1))
    assert s1.loc_en[L] == (dalek,) and sont in s1.discard and s1.phase == MAIN
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek"], attacker=1)
    c = t.hand(0, key, *FILL)[0]
    s = t.state().apply(PlaySupport(c, L, 0))
    assert s.phase == JACK and s.loc_att[L] == -1
    assert s.apply(PlaceTardis()).loc_tardis[L]
    assert not s.apply(Pass()).loc_tardis[L]


def test_c_card_tardis_and_crack_in_time(game3: CardGame) -> None:
    """C-card-tardis / C-card-crack-in-time: 1 TP per counter in play, +2 to the player."""
    t = Scenario(game3, active=0)
    t.location(0, tardis=True)
    t.location(1, tardis=True)
    t.location(1, tardis=True)
    t.location(2, enemies=["dalek"], attacker=1)
    c, k = t.hand(0, "tardis", "crack-in-time", *FILL)[:2]
    s = t.state()
    a = s.apply(PlaySupport(c))
    assert a.tp == [3, 2, 0]
    b = s.apply(PlaySupport(k))
    assert b.tp == [2, 1, 0]


def test_c_card_chameleon_arch(game3: CardGame) -> None:
    """C-card-chameleon-arch: move an attack to a third player's Location, faces kept; never to
    the attacker's own Location; no TARDIS counter for the mover."""
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek"], attacker=1)
    own_att = t.location(1)
    target = t.location(2)
    c = t.hand(0, "chameleon-arch", *FILL)[0]
    s = t.state()
    assert PlaySupport(c, L, own_att) not in s.legal_actions()
    with pytest.raises(IllegalAction):
        s.apply(PlaySupport(c, L, own_att))
    s = s.apply(PlaySupport(c, L, target))
    assert s.loc_att[target] == 1 and s.loc_en[target] and s.loc_up[target] == 0
    assert s.loc_att[L] == -1 and not s.loc_tardis[L]


def test_c_card_chameleon_arch_into_defence_fights(game3: CardGame) -> None:
    """C-card-chameleon-arch / ruling C-R2: onto a defended Location the conflict follows."""
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek"], attacker=1)
    target = t.location(2, defenders=["the-doctor"])
    c = t.hand(0, "chameleon-arch", *FILL)[0]
    s = t.state().apply(PlaySupport(c, L, target))
    assert s.loc_tardis[target] and s.loc_att[target] == -1


def test_c_card_bad_wolf(game3: CardGame) -> None:
    """C-card-bad-wolf: a face-up attack with a Dalek is wiped out entirely; TARDIS placed."""
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek-flagship", "the-master"], attacker=1, face_up=True)
    M = t.location(0, enemies=["dalek"], attacker=2)  # face-down: not a target
    N = t.location(0, enemies=["sontarans"], attacker=2, face_up=True)  # no Dalek
    c = t.hand(0, "bad-wolf", *FILL)[0]
    s = t.state()
    targets = {a.location for a in s.legal_actions() if isinstance(a, PlaySupport)}
    assert targets == {L}
    assert M not in targets and N not in targets
    s = s.apply(PlaySupport(c, L))
    assert s.loc_en[L] == () and s.loc_tardis[L] and s.loc_att[L] == -1


def test_c_card_jammy_dodger(game3: CardGame) -> None:
    """C-card-jammy-dodger: any attack on your own Location, face-down too."""
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["sontarans", "sontarans"], attacker=1)
    M = t.location(1, enemies=["dalek"], attacker=2)
    c = t.hand(0, "jammy-dodger", *FILL)[0]
    s = t.state()
    assert PlaySupport(c, M) not in s.legal_actions()
    s = s.apply(PlaySupport(c, L))
    assert s.loc_en[L] == () and s.loc_tardis[L]


def test_c_card_k_9(game3: CardGame) -> None:
    """C-card-k-9: like Jammy Dodger, but a Defender from hand or reserve is discarded too."""
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek"], attacker=1)
    r = t.reserve(0, "donna")[0]
    h = t.hand(0, "k-9", "the-doctor", "sontarans", "sontarans", "dalek")
    s = t.state()
    plays = [a for a in s.legal_actions() if isinstance(a, PlaySupport)]
    assert {a.extra for a in plays} == {h[1], r}
    s2 = s.apply(PlaySupport(h[0], L, -1, r))
    assert r in s2.discard and s2.loc_tardis[L] and s2.reserve[0] == ()
    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek"], attacker=1)
    h = t.hand(0, "k-9", "dalek", "dalek", "sontarans")
    assert not any(isinstance(a, PlaySupport) for a in t.state().legal_actions())


def test_c_card_regeneration(game3: CardGame) -> None:
    """C-card-regeneration: discard any number, draw that many plus one."""
    t = Scenario(game3, active=0)
    t.location(0)
    h = t.hand(0, "regeneration", "rory", "rory", "clara", "dalek")
    s = t.state().apply(PlaySupport(h[0]))
    assert s.phase == REGEN
    s = s.apply(DiscardToRegenerate(h[1])).apply(DiscardToRegenerate(h[4]))
    assert len(s.hands[0]) == 2
    s = s.apply(Finish())
    assert len(s.hands[0]) == 5 and s.phase == MAIN
    assert h[0] in s.discard and h[1] in s.discard and h[4] in s.discard


@pytest.mark.parametrize("key", ["rose", "martha", "clara"])
def test_c_card_plain_defenders(key: str) -> None:
    """C-card-rose, C-card-martha, C-card-clara: plain Defenders with the standard cards: their
    strength counts, revealing them gives nothing, and two of one type never share a place."""
    import timelord

    game = timelord.load("card-game", players=3)
    cs = game.cards
    t = Scenario(game, active=0)
    L = t.location(1, defenders=[key])
    defender = t.s.loc_def[L][0]
    h = t.hand(0, "weeping-angels", "rory", "rory", "amy-pond")
    s = attack(t.state(), h[:1], L)
    assert s.tp[1] == 0  # no reveal bonus for the defender
    assert s.loc_tardis[L] == (cs.strength[defender] >= cs.strength[h[0]])
    t2 = Scenario(game, active=1)
    L2 = t2.location(1, defenders=[key])
    d = t2.hand(1, key, "rory", "rory", "amy-pond")[0]
    assert PlayDefender(d, L2) not in t2.state().legal_actions()


def test_c_card_weeping_angels_gain_on_reveal(game3: CardGame) -> None:
    """C-card-weeping-angels: +1 TP to the attacker when revealed in a conflict (played
    against a defended Location); none when revealed by a Sonic Screwdriver."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["rory"])
    h = t.hand(0, "weeping-angels", "weeping-angels", *FILL)
    s = attack(t.state(), h[:2], L)  # 2 vs Rory 1
    assert s.tp[0] == 2
    t = Scenario(game3, active=1)
    L = t.location(1, enemies=["weeping-angels"], attacker=0)
    c = t.hand(1, "sonic-screwdriver", *FILL)[0]
    s = t.state().apply(PlaySupport(c, L))
    assert s.tp[0] == 0 and s.tp[1] == 1
