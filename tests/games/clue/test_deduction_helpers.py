"""Brute force and random knowledge for the deducer tests (small decks only; no tests here)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import timelord
from timelord.core import Rng
from timelord.games.clue.actions import Accuse
from timelord.games.clue.deduction import Knowledge, NoneOf, NotEnvelope, OneOf, deduce
from timelord.games.clue.notebook import knowledge_from_view


def deals(categories, hand_sizes, public):
    """Every deal: (envelope triple, holder of each non-public card); holder P = aside."""
    players = len(hand_sizes)
    total = sum(len(c) for c in categories)
    aside = total - len(categories) - sum(hand_sizes) - len(public)
    sizes = [*hand_sizes, aside]
    for env in itertools.product(*categories):
        if any(c in public for c in env):
            continue
        rest = [c for cat in categories for c in cat if c not in env and c not in public]

        def fill(i, left, acc):
            if i == players:
                where = dict(acc)
                for c in left:
                    where[c] = players
                yield where
                return
            for hand in itertools.combinations(left, sizes[i]):
                acc2 = dict(acc)
                for c in hand:
                    acc2[c] = i
                yield from fill(i + 1, [c for c in left if c not in hand], acc2)

        for where in fill(0, rest, {}):
            yield env, where


def fits(k: Knowledge, env, where) -> bool:
    if any(where.get(c) != k.seat for c in k.own_hand):
        return False
    if sum(1 for h in where.values() if h == k.seat) != len(k.own_hand):
        return False
    if any(where.get(c) != p for c, p in k.known.items()):
        return False
    for ev in k.events:
        if isinstance(ev, NoneOf) and any(where.get(c) == ev.player for c in ev.cards):
            return False
        if isinstance(ev, OneOf) and not any(where.get(c) == ev.player for c in ev.cards):
            return False
        if isinstance(ev, NotEnvelope) and sorted(ev.cards) == sorted(env):
            return False
    return True


def brute(k: Knowledge):
    """(worlds, envelope, holder, aside) as exact Fractions by enumeration."""
    cards = [c for cat in k.categories for c in cat]
    n = 0
    env_n = dict.fromkeys(cards, 0)
    hold_n = {c: [0] * k.players for c in cards}
    aside_n = dict.fromkeys(cards, 0)
    for env, where in deals(k.categories, k.hand_sizes, k.public):
        if not fits(k, env, where):
            continue
        n += 1
        for c in env:
            env_n[c] += 1
        for c, h in where.items():
            if h == k.players:
                aside_n[c] += 1
            else:
                hold_n[c][h] += 1
    if n == 0:
        return 0, None, None, None
    return (
        n,
        {c: Fraction(v, n) for c, v in env_n.items()},
        {c: [Fraction(v, n) for v in vs] for c, vs in hold_n.items()},
        {c: Fraction(v, n) for c, v in aside_n.items()},
    )


def random_game(rng: Rng, sizes=(2, 2, 3), players=2, variant_aside=False):
    """A real random deal: categories, hand sizes, public cards, envelope and holders."""
    categories = []
    nxt = 0
    for s in sizes:
        categories.append(tuple(range(nxt, nxt + s)))
        nxt += s
    env = tuple(rng.choice(cat) for cat in categories)
    rest = [c for c in range(nxt) if c not in env]
    rng.shuffle(rest)
    per = len(rest) // players
    if variant_aside:
        aside_n = max(0, len(rest) - per * players) or min(2, len(rest) - players)
        per = (len(rest) - aside_n) // players
        aside_n = len(rest) - per * players
        public = frozenset()
        aside = rest[:aside_n]
        rest = rest[aside_n:]
    else:
        public = frozenset(rest[per * players :])
        aside = []
        rest = rest[: per * players]
    where = {c: players for c in aside}
    for i, c in enumerate(rest):
        where[c] = i // per
    return tuple(categories), (per,) * players, public, env, where


def random_knowledge(rng: Rng, sizes=(2, 2, 3), players=2, rumours=3, variant_aside=False):
    """Knowledge a seat would really have after some random rumours; plus the real deal."""
    categories, hands, public, env, where = random_game(rng, sizes, players, variant_aside)
    seat = rng.below(players)
    own = frozenset(c for c, h in where.items() if h == seat)
    known: dict[int, int] = {}
    events: list = []
    for _ in range(rumours):
        asker = rng.below(players)
        triple = tuple(rng.choice(cat) for cat in categories)
        shown = False
        for step in range(1, players):
            p = (asker + step) % players
            held = [c for c in triple if where.get(c) == p]
            if not held:
                events.append(NoneOf(p, triple))
                continue
            shown = True
            if asker == seat:
                known[rng.choice(held)] = p
            elif p != seat:
                events.append(OneOf(p, triple))
            break
        if not shown and asker == seat:
            aside = [c for c, h in where.items() if h == players and c not in known]
            if aside:
                known[rng.choice(aside)] = players
        if rng.below(4) == 0:
            wrong = tuple(rng.choice(cat) for cat in categories)
            if sorted(wrong) != sorted(env):
                events.append(NotEnvelope(wrong))
    k = Knowledge(
        categories=categories,
        players=players,
        seat=seat,
        hand_sizes=hands,
        own_hand=own,
        public=public,
        known=known,
        events=tuple(events),
    )
    return k, env, where


def test_certainties_are_exact_floats() -> None:
    """Issue 10: n * (1 / worlds) made certain cards 0.9999999999999999."""
    from timelord.games.clue.deduction import _chance

    for worlds in (3, 7, 49, 10**6 + 3, 3 * 10**17 + 1):
        assert _chance(worlds, worlds) == 1.0 and _chance(0, worlds) == 0.0
        assert _chance(1, worlds) > 0.0 and _chance(worlds - 1, worlds) < 1.0
    game = timelord.load("clue", players=4)
    state, rng = game.new_game(1), Rng(1)
    for _ in range(150):
        legal = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
        state = state.apply(legal[rng.below(len(legal))])
    view = state.view(0)
    d = deduce(knowledge_from_view(view))
    assert all(d.holder[c][0] == 1.0 for c in view["hand"])
    for c, row in d.holder.items():
        for p, chance in enumerate(row):
            assert (chance == 1.0) == (d.holder_count[c][p] == d.worlds)
        if d.envelope_count[c] == d.worlds:
            assert d.envelope[c] == 1.0
