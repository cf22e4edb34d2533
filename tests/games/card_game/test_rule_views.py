"""Hidden information: C-7.1 and C-7.2 (and the knowledge ruling C-R9)."""

from __future__ import annotations

import json

import timelord
from timelord.core import Rng
from timelord.games.card_game.actions import (
    EndTurn,
    Finish,
    Pass,
    PlaceReserve,
    PlayDefender,
    PlayEnemy,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario

FILL = ("rory", "rory", "clara")


def test_c_7_1_hands_and_reserve_secret(game3: CardGame) -> None:
    """C-7.1: others see how many cards a hand or reserve holds, not which."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", *FILL)
    t.reserve(0, "sontarans")
    s = t.state()
    v1 = s.view(1)
    assert v1["hands"][0] == {"count": 4, "known": []}
    assert v1["reserves"][0] == {"count": 1, "known": []}
    assert s.view(0)["hands"][0]["known"] == sorted(h)
    assert s.view(None)["hands"][0]["known"] == []
    assert json.loads(json.dumps(v1)) == v1


def test_c_7_1_passed_cards_remembered(game3: CardGame) -> None:
    """C-7.1 / C-R9: the passer knows where its passed cards are, and keeps a log of them."""
    t = Scenario(game3, active=1)
    h = t.hand(1, *FILL)
    t.hand(0, "dalek", "dalek")
    s = t.state().apply(EndTurn())
    v = s.view(1)
    assert v["passed"] == [sorted(h)]
    assert v["hands"][0]["known"] == sorted(h)
    assert s.view(2)["hands"][0]["known"] == []


def test_c_7_1_knowledge_lost_when_card_hidden(game3: CardGame) -> None:
    """C-R9: once the holder moves a card face-down, the passer no longer knows which of the
    hand's cards are where (the view never shows which card moved)."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", "sontarans", "clara", "amy-pond")
    for c in h:
        t.s.known[c] |= 1 << 1  # seat 1 passed these
    s = t.state()
    assert s.view(1)["hands"][0]["known"] == sorted(h)
    s = s.apply(PlaceReserve((h[0],)))
    assert s.view(1)["hands"][0]["known"] == []
    assert s.view(1)["reserves"][0]["known"] == []
    assert s.view(1)["passed"] == []


def test_c_7_1_public_discard_keeps_knowledge(game3: CardGame) -> None:
    """C-R9 negative: a face-up play shows which card left; the rest stay known."""
    from timelord.games.card_game.actions import DiscardForTime

    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", "sontarans", "clara", "amy-pond")
    for c in h:
        t.s.known[c] |= 1 << 1
    s = t.state().apply(DiscardForTime((h[0],)))
    assert s.view(1)["hands"][0]["known"] == sorted(h[1:])


def test_c_7_1_own_face_down_cards_visible(game3: CardGame) -> None:
    """C-7.1: a seat always sees its own face-down Defenders and Enemies."""
    t = Scenario(game3, active=0)
    L = t.location(0)
    M = t.location(1)
    h = t.hand(0, "clara", "dalek", "rory", "rory", "amy-pond")
    s = t.state().apply(PlayDefender(h[0], L)).apply(Finish())
    s = s.apply(PlayEnemy(h[1], M)).apply(Finish())
    v0, v1 = s.view(0), s.view(1)
    assert v0["locations"][L]["defenders"] == [h[0]]
    assert v0["locations"][M]["enemies"] == [h[1]]
    assert v1["locations"][L]["defenders"] == [None]
    assert v1["locations"][M]["enemies"] == [None]


def test_c_7_1_rory_return_is_public(game3: CardGame) -> None:
    """C-7.1: cards revealed and sent back to a hand are known to everyone there."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["rory"])
    rory = t.s.loc_def[L][0]
    h = t.hand(0, "sontarans", *FILL)
    s = t.state().apply(PlayEnemy(h[0], L)).apply(Finish()).apply(Pass())
    assert rory in s.view(2)["hands"][1]["known"]


def test_c_7_2_sample_state_rebuilds_view(game3: CardGame) -> None:
    """C-7.2: sampled states show the same view; hidden slots hold cards of the right kind."""
    t = Scenario(game3, active=0)
    t.location(0, defenders=["the-doctor", "amy-pond"])
    L = t.location(1, enemies=["dalek", "dalek-flagship"], attacker=0)
    t.location(2, enemies=["the-silence", "madame-kovarian"], attacker=1)
    t.hand(0, *FILL)
    t.hand(1, "sontarans", "clara", "donna")
    s = t.state()
    for seat in (0, 1, 2):
        view = s.view(seat)
        for k in range(20):
            x = game3.sample_state(view, Rng(k))
            assert x.view(seat) == view
            cs = game3.cards
            for Lx in range(len(x.loc_card)):
                types = [cs.type[d] for d in x.loc_def[Lx]]
                assert all(cs.is_defender[d] for d in x.loc_def[Lx])
                assert len(types) == len(set(types))
                ens = x.loc_en[Lx]
                assert all(cs.is_enemy[e] for e in ens)
                assert all(cs.combine[cs.design[a]][cs.design[b]] for a in ens for b in ens)
            everything = sorted(
                [c for h in x.hands for c in h]
                + [c for r in x.reserve for c in r]
                + [c for d in x.loc_def for c in d]
                + [c for e in x.loc_en for c in e]
                + list(x.loc_card)
                + list(x.deck)
                + list(x.discard)
                + list(x.aside)
                + [c for u in x.upres for c in u]
            )
            assert everything == list(range(len(cs.design)))
    assert L >= 0


def test_c_7_2_sample_state_real_game_mid_game() -> None:
    """C-7.2: on real mid-game views the seat's legal actions are unchanged by sampling."""
    g = timelord.load("card-game", players=4)
    s = g.new_game(17)
    r = Rng(1)
    for _ in range(120):
        legal = s.legal_actions()
        s = s.apply(legal[r.below(len(legal))])
        if s.is_over:
            break
    seat = s.to_move
    if seat is not None:
        view = s.view(seat)
        x = g.sample_state(view, Rng(5))
        assert x.view(seat) == view
        assert x.legal_actions() == s.legal_actions()


def test_c_7_2_sampling_varies_and_is_seeded() -> None:
    """C-7.2: one generator gives a different deal each call; the same seed the same deal."""
    g = timelord.load("card-game", players=4)
    s = g.new_game(3)
    view = s.view(0)
    r = Rng(9)
    a = g.sample_state(view, r)
    b = g.sample_state(view, r)
    assert a.hands != b.hands
    assert g.sample_state(view, Rng(9)).to_json() == a.to_json()
    assert a.view(0) == view == b.view(0)


def test_c_7_1_describe_hides_face_down_cards(game3: CardGame) -> None:
    """C-7.1: `describe` names a face-down Defender only to its player; the line names the
    actor, "You" to the actor itself."""
    t = Scenario(game3, active=0)
    L = t.location(0)
    (doc,) = t.hand(0, "the-doctor")
    t.hand(0, *FILL)
    s = t.state()
    a = PlayDefender(doc, L)
    name = game3.cards.name[doc]
    own = s.describe(a, 0)
    other = s.describe(a, 1)
    assert name in own
    assert name not in other and "a Defender" in other
    assert name not in s.describe(a, None)
    assert own.startswith("You declare ")
    assert other.startswith(f"{game3.seat_name(0)} declares ")


def test_c_7_1_describe_end_turn_names_cards_to_receiver_only(game3: CardGame) -> None:
    """C-7.1 / C-3.3: the passed cards are named to the passer and the receiver (seat to the
    right), not to the third seat."""
    t = Scenario(game3, active=1)
    h = t.hand(1, *FILL)
    s = t.state()
    names = [game3.cards.name[c] for c in h]
    to_receiver = s.describe(EndTurn(), 0)
    to_third = s.describe(EndTurn(), 2)
    assert all(n in to_receiver for n in names) and "to you" in to_receiver
    assert not any(n in to_third for n in names)
    assert to_third.startswith(f"{game3.seat_name(1)} passes 3 cards to Red. ")
    assert s.describe(EndTurn(), 1).startswith("You pass ")


def test_c_7_3_reshuffle_remembered_after_a_draw(game3: CardGame) -> None:
    """C-7.3 / C-R26: the discard pile that becomes the deck is public and stays in every view
    after another seat draws from it; the drawer alone knows what is left."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    pile = t.discard("dalek", "sontarans", "clara", "amy-pond", "rory")
    s = t.state(rest_to_deck=False).apply(EndTurn())
    assert s.deck and set(s.deck) <= set(pile)
    drawn = [c for c in pile if c not in s.deck]
    assert len(drawn) == 2 and set(drawn) <= set(s.hands[0])
    for seat in (1, 2, None):
        v = s.view(seat)
        assert v["deck"]["reshuffled"] == sorted(pile)
        assert v["deck"]["known"] == []
        assert v["discard"] == []
    assert s.view(0)["deck"]["known"] == sorted(s.deck)


def test_c_7_3_negative_no_reshuffle_no_pile(game3: CardGame) -> None:
    """C-7.3 negative: before any reshuffle no view claims a reshuffled pile."""
    s = game3.new_game(5)
    assert s.view(0)["deck"]["reshuffled"] == []


def test_c_7_1_pass_log_survives_hiding_and_turns() -> None:
    """C-7.1 / C-R9: a seat's log of the cards it passed keeps every pass, in order, even
    after the receiver moved cards face-down (only where they are now is forgotten)."""
    game = timelord.load("card-game", players=3)
    rng = Rng(9)
    s = game.new_game(21)
    passes: dict[int, list[list[int]]] = {0: [], 1: [], 2: []}
    for _ in range(3000):
        if s.is_over:
            break
        legal = s.legal_actions()
        a = legal[rng.below(len(legal))]
        if isinstance(a, EndTurn) and not s.endgame:
            passes[s.active].append(sorted(s.hands[s.active]))
        s = s.apply(a)
        for seat in range(3):
            assert s.view(seat)["passed"] == passes[seat]
    assert all(passes.values())


def test_c_7_1_revealed_enemies_stay_known(game3: CardGame) -> None:
    """C-7.1: cards a Sonic Screwdriver turned face-up stay in every view, also after later
    actions; the negative: before the reveal nobody but the attacker sees them."""
    from timelord.games.card_game.actions import DiscardForTime, PlaySupport

    t = Scenario(game3, active=0)
    L = t.location(0, enemies=["dalek", "sontarans"], attacker=1)
    h = t.hand(0, "sonic-screwdriver", "clara", "clara", "rory", "rory")
    s = t.state()
    assert s.view(2)["locations"][L]["enemies"] == [None, None]
    assert None not in s.view(1)["locations"][L]["enemies"]
    s = s.apply(PlaySupport(h[0], L)).apply(DiscardForTime((h[1],)))
    for seat in (0, 1, 2, None):
        assert sorted(s.view(seat)["locations"][L]["enemies"]) == sorted(s.loc_en[L])
