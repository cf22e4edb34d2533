"""C-7.2 to C-7.4: `sample_state` deals exactly the deals that fit a view, all equally likely.

A tiny card set keeps the number of consistent deals small enough to list them all by brute
force; the sampler's frequencies are then checked against the uniform distribution with a
chi-square bound (fixed seeds, so the tests cannot flake).
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from math import sqrt
from typing import Any

import pytest

from timelord.core import Rng
from timelord.games.card_game.cards import CardSet, card_set_from_toml
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import CardGameState

TINY = """
[game]
end_depth = 2
[[start]]
key = "s1"
name = "Start One"
order = 1
vp = 2
[[start]]
key = "s2"
name = "Start Two"
order = 2
vp = 2
[[card]]
key = "doc"
name = "Doc"
kind = "defender"
type = "doc"
strength = 3
copies = 2
[[card]]
key = "amy"
name = "Amy"
kind = "defender"
type = "amy"
strength = 2
[[card]]
key = "rory"
name = "Rory"
kind = "defender"
type = "rory"
strength = 1
[[card]]
key = "dalek"
name = "Dalek"
kind = "enemy"
type = "dalek"
strength = 2
copies = 2
[[card]]
key = "cyber"
name = "Cyber"
kind = "enemy"
type = "cybermen"
strength = 2
[[card]]
key = "master"
name = "Master"
kind = "enemy"
type = "the-master"
combines = ["any"]
strength = 3
[[card]]
key = "place"
name = "Place"
kind = "location"
vp = 1
tp = 2
[[card]]
key = "place2"
name = "Place Two"
kind = "location"
vp = 1
tp = 2
"""


def _tiny() -> CardSet:
    return card_set_from_toml(TINY)


def _outcome(s: CardGameState) -> tuple[Any, ...]:
    """Everything a deal decides (the deck is an unordered pile, C-R25)."""
    return (tuple(s.loc_def), tuple(s.loc_en), tuple(s.hands), tuple(s.reserve), s.deck)


def _all_deals(s: CardGameState, seat: int) -> set[tuple[Any, ...]]:
    """Brute force: every way to put the cards `seat` cannot see back into the places it
    cannot see, kept when the rules allow it (C-4.2 types, C-R20 combining, C-R26 deck)."""
    cs = s.cs
    bit = 1 << seat
    hidden: list[tuple[str, int, int]] = []  # (zone, index, position)
    for L in range(len(s.loc_card)):
        for i, c in enumerate(s.loc_def[L]):
            if not s.known[c] & bit:
                hidden.append(("d", L, i))
        for i, c in enumerate(s.loc_en[L]):
            if not s.known[c] & bit and not s.loc_up[L] >> i & 1:
                hidden.append(("e", L, i))
    for p in range(s.game.players):
        hidden += [("h", p, 0) for c in s.hands[p] if not s.known[c] & bit]
        hidden += [("r", p, 0) for c in s.reserve[p] if not s.known[c] & bit]
    hidden += [("k", 0, 0) for c in s.deck if not s.known[c] & bit]
    pool = sorted(
        [c for L in range(len(s.loc_card)) for c in s.loc_def[L] if not s.known[c] & bit]
        + [c for L in range(len(s.loc_card)) for c in s.loc_en[L] if not s.known[c] & bit]
        + [c for p in range(s.game.players) for c in s.hands[p] if not s.known[c] & bit]
        + [c for p in range(s.game.players) for c in s.reserve[p] if not s.known[c] & bit]
        + [c for c in s.deck if not s.known[c] & bit]
    )
    out = set()
    for perm in set(permutations(pool)):
        loc_def = [list(x) for x in s.loc_def]
        loc_en = [list(x) for x in s.loc_en]
        hands = [[c for c in h if s.known[c] & bit] for h in s.hands]
        res = [[c for c in r if s.known[c] & bit] for r in s.reserve]
        deck = [c for c in s.deck if s.known[c] & bit]
        for (zone, a, i), c in zip(hidden, perm, strict=True):
            if zone == "d":
                loc_def[a][i] = c
            elif zone == "e":
                loc_en[a][i] = c
            elif zone == "h":
                hands[a].append(c)
            elif zone == "r":
                res[a].append(c)
            else:
                deck.append(c)
        ok = all(cs.is_defender[c] for g in loc_def for c in g)
        ok = ok and all(len({cs.type[c] for c in g}) == len(g) for g in loc_def)
        ok = ok and all(
            cs.combine[cs.design[x]][cs.design[y]] for g in loc_en for x in g for y in g
        )
        ok = ok and all(cs.is_enemy[c] for g in loc_en for c in g)
        if s.shuffled:
            ok = ok and all(c in s.shuffled for c in deck)
        if ok:
            out.add(
                (
                    tuple(tuple(x) for x in loc_def),
                    tuple(tuple(x) for x in loc_en),
                    tuple(tuple(sorted(h)) for h in hands),
                    tuple(tuple(sorted(r)) for r in res),
                    tuple(sorted(deck)),
                )
            )
    return out


def _check_uniform(game: CardGame, s: CardGameState, seat: int, per_deal: int) -> None:
    deals = _all_deals(s, seat)
    assert _outcome(s) in deals
    view = s.view(seat)
    rng = Rng(2024)
    counts: Counter[tuple[Any, ...]] = Counter()
    n = per_deal * len(deals)
    for _ in range(n):
        t = game.sample_state(view, rng)
        counts[_outcome(t)] += 1
    assert set(counts) <= deals, "a sampled deal breaks the view or the rules"
    assert set(counts) == deals, "some consistent deal is never sampled"
    # Chi-square against uniform: mean df, standard deviation sqrt(2 df); 5 deviations of
    # margin keeps a fair sampler far from failing while a bias of a few percent fails.
    expected = n / len(deals)
    chi2 = sum((counts[d] - expected) ** 2 / expected for d in deals)
    df = len(deals) - 1
    assert chi2 < df + 5 * sqrt(2 * df), f"chi2 {chi2:.0f} for {df} degrees of freedom"
    # Every sample reproduces the view.
    for _ in range(50):
        assert game.sample_state(view, rng).view(seat) == view


def _constrained_position(game: CardGame) -> CardGameState:
    """Seat 0 holds both Places; seat 1 has two face-down Defenders and attacks seat 0 with
    two face-down Enemies; seat 1's hand (2) and the deck (rest) hide the others."""
    t = Scenario(game, active=0)
    t.hand(0, "place", "place2")
    t.location(0, attacker=1, enemies=("dalek", "master"))
    t.location(1, defenders=("doc", "amy"))
    t.hand(1, "dalek", "rory")
    return t.state()


def test_c_7_4_uniform_over_constrained_groups() -> None:
    """C-7.4: face-down Defender and Enemy groups (distinct types, combining Enemies) and the
    hand and deck are dealt uniformly over every consistent deal."""
    game = CardGame.with_cards(_tiny(), players=2)
    s = _constrained_position(game)
    deals = _all_deals(s, 0)
    # 4 Enemy pairs x 5 Defender pairs (each in 2 orders) x 6 hands of 2 of the 4 left.
    assert len(deals) == 8 * 10 * 6
    _check_uniform(game, s, 0, per_deal=60)


def test_c_7_4_negative_no_deal_breaks_a_group() -> None:
    """C-7.4 negative: a sampler never puts two Defenders of one type together or Enemies
    that do not combine together (Daleks and Cybermen without the Master)."""
    game = CardGame.with_cards(_tiny(), players=2)
    s = _constrained_position(game)
    view = s.view(0)
    rng = Rng(7)
    cs = game.cards
    for _ in range(2000):
        t = game.sample_state(view, rng)
        d = t.loc_def[1]
        assert cs.type[d[0]] != cs.type[d[1]]
        e = t.loc_en[0]
        assert cs.combine[cs.design[e[0]]][cs.design[e[1]]]


def _reshuffled_position(game: CardGame) -> CardGameState:
    """The discard pile {doc, amy, dalek} became the deck; seat 1 then drew one card of it.
    Seat 0 knows the deck holds two of those three, and that rory and cyber (never in the
    pile) are held by seat 1, whose face-down Defender is one more hidden card."""
    t = Scenario(game, active=0)
    t.hand(0, "place", "place2", "master", "dalek")
    t.location(0)
    t.location(1, defenders=("doc",))
    pile = [t.card("doc"), t.card("amy"), t.card("dalek")]
    s = t.state(rest_to_deck=False)
    s.shuffled = tuple(sorted(pile))
    drawn = pile[1]
    s.deck = tuple(c for c in pile if c != drawn)
    for c in s.deck:
        s.known[c] = 1 << 1  # the drawer knows the rest of the pile
    rest = [t.card("rory"), t.card("cyber")]
    s.hands[1] = tuple(sorted([drawn, *rest]))
    s.known[drawn] = 1 << 1
    for c in rest:
        s.known[c] = 1 << 1
    return s


def test_c_7_3_reshuffled_deck_holds_only_the_pile() -> None:
    """C-7.3: after a reshuffle the deck can hold only cards of the reshuffled pile, and the
    deals that respect that are all equally likely (the face-down Defender group makes the
    number of completions uneven, which the sampler must weigh)."""
    game = CardGame.with_cards(_tiny(), players=2)
    s = _reshuffled_position(game)
    view = s.view(0)
    assert view["deck"]["reshuffled"] == sorted(s.shuffled)
    assert view["deck"]["known"] == []
    deals = _all_deals(s, 0)
    assert all(set(d[4]) <= set(s.shuffled) for d in deals)
    _check_uniform(game, s, 0, per_deal=400)


def test_c_7_3_negative_without_reshuffle_deck_is_free() -> None:
    """C-7.3 negative: with no reshuffle the deck may hold any hidden card."""
    game = CardGame.with_cards(_tiny(), players=2)
    s = _reshuffled_position(game)
    s.shuffled = ()
    view = s.view(0)
    assert view["deck"]["reshuffled"] == []
    rng = Rng(3)
    seen = set()
    for _ in range(500):
        seen.update(game.sample_state(view, rng).deck)
    assert set(s.hands[1]) & seen  # cards outside the old pile reach the deck


@pytest.mark.parametrize("players", [3, 4])
def test_c_7_2_sampled_views_match_in_real_games(players: int) -> None:
    """C-7.2: in random games every sampled state shows the seat its own view, and the seat
    to move gets the same legal actions."""
    game = CardGame(players=players)
    rng = Rng(players)
    for g in range(6):
        s = game.new_game(100 + g)
        step = 0
        while not s.is_over:
            if step % 9 == 0 and s.to_move is not None:
                seat = s.to_move
                v = s.view(seat)
                for _ in range(3):
                    t = game.sample_state(v, rng)
                    assert t.view(seat) == v
                    assert t.legal_actions() == s.legal_actions()
            legal = s.legal_actions()
            s = s.apply(legal[rng.below(len(legal))])
            step += 1
