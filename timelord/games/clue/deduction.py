"""What one seat can deduce in Clue: for every card, where it may lie and how likely.

`deduce(knowledge)` takes only what a seat knows (its own cards, the face-up leftovers, the
cards it has been shown, and the answers it saw to every rumour) and returns, for each card,
the probability that it lies in the envelope, in each player's hand, or face-down aside (the
2-player variant). Probabilities are uniform over the deals consistent with that knowledge:
each deal (envelope triple, then the other cards split into hands of the given sizes) counts
once, which is the prior of a fair shuffle conditioned on what was seen. (Which card an
answerer chooses to show is not modelled: a deal either fits what was seen or it does not.)

The answer is always **exact**: the consistent deals are counted, never sampled, so there is
no estimator and no stated error. How:

1. Sound propagation fixes what logic alone decides (a card only one holder may have, a hand
   whose every possible card is needed, a "showed one of these" with one candidate left).
2. The unknown cards are grouped into classes of interchangeable cards (same possible
   holders, same "showed one of" constraints). A holder that only one class can reach takes
   its cards from it by a binomial factor (early on, every envelope slot goes this way).
3. Free classes (reaching every hand with room, and their own envelope slot, no constraint)
   are counted in closed form: open slots times a multinomial over the room left in hands.
4. The other classes go through a dynamic programme, one card per step; its state is the
   room each holder has left (digits of one int, with guard bits, so one subtraction checks
   every room at once) plus one bit per open "showed one of" constraint, closed as soon as
   its last card is placed. States that cannot be completed are dropped as they appear.
5. A backward pass gives, for each class and holder, the deals placing a card of the class
   there (cards of a class are interchangeable, so each card gets the same count).
6. A wrong accusation ("the envelope is not this triple") subtracts the deals with that
   envelope, counted the same way with the triple fixed: two different triples are never
   both the envelope, so the subtraction is exact.

Certainties (probability exactly 0 or 1) come from these integer counts, so they are logical
certainties. Inconsistent knowledge (no deal fits) raises `InconsistentKnowledge`, a
`ValueError`.

Speed (`bench/deducer.py`, simulated 6-player games, 1600 updates per seed, this process's
CPU time per update, measured on a 2-core machine shared with a load average near 8):
p50 0.7-0.8 ms, p95 5.5-6 ms, max 13-16 ms (wall clock under that load: p95 about 13 ms).
Fewer players are cheaper (5 players: p95 about 2 ms). The cost grows with the number of
unresolved "showed one of" constraints held at once: a seat that never asks (so never sees
a card) reached CPU p95 14 ms and max 51 ms in a stress run, still exact.

`DealSampler(k).draw(rng)` draws a consistent deal uniformly from the same tables (for
`sample_state` and search bots; `DealSampler(k, envelope)` for a seat that has seen the
envelope); `expected_information` scores a rumour for bots. Building a sampler is the first
call a search pays per view, about one deduce (6 players, CPU: p50 0.7 ms, p95 5.5 ms, max
about 20 ms); each draw after that costs 0.07-0.2 ms (`bench/deducer.py`, second table).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypeVar

from timelord.core.rng import Rng

__all__ = [
    "Deal",
    "DealSampler",
    "Deduction",
    "InconsistentKnowledge",
    "Knowledge",
    "NoneOf",
    "NotEnvelope",
    "OneOf",
    "deduce",
    "expected_information",
    "sample_deal",
    "triple_chance",
]


T = TypeVar("T")


class InconsistentKnowledge(ValueError):
    """No deal of the cards fits what the seat knows."""


@dataclass(frozen=True, slots=True)
class NoneOf:
    """`player` holds none of `cards` (seen to pass on a rumour)."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OneOf:
    """`player` holds at least one of `cards` (seen to show a card this seat did not see)."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NotEnvelope:
    """The envelope is not exactly these cards (a wrong accusation was revealed)."""

    cards: tuple[int, ...]


Event = NoneOf | OneOf | NotEnvelope


@dataclass(frozen=True, slots=True)
class Knowledge:
    """All that one seat knows about the deal.

    `known` maps a card to the player this seat has seen holding it; the value `players`
    (one past the last player) means a face-down aside card this seat has looked at (the
    2-player variant). `public` cards are face up: in no hand, not aside, not in the envelope.
    """

    categories: tuple[tuple[int, ...], ...]
    players: int
    seat: int
    hand_sizes: tuple[int, ...]
    own_hand: frozenset[int]
    public: frozenset[int] = frozenset()
    known: Mapping[int, int] = field(default_factory=dict)
    events: tuple[Event, ...] = ()

    def adding(self, *events: Event, known: Mapping[int, int] | None = None) -> Knowledge:
        """This knowledge with more events, and more cards seen (`known`), added."""
        seen = dict(self.known)
        if known:
            seen.update(known)
        return Knowledge(
            categories=self.categories,
            players=self.players,
            seat=self.seat,
            hand_sizes=self.hand_sizes,
            own_hand=self.own_hand,
            public=self.public,
            known=seen,
            events=(*self.events, *events),
        )

    @property
    def aside_size(self) -> int:
        """How many cards lie face-down aside (0 except in the 2-player variant)."""
        total = sum(len(c) for c in self.categories)
        return total - len(self.categories) - sum(self.hand_sizes) - len(self.public)


_BELOW_ONE = math.nextafter(1.0, 0.0)
_ABOVE_ZERO = math.nextafter(0.0, 1.0)


def _chance(n: int, worlds: int) -> float:
    """`n / worlds` as a float that is exactly 1.0 or 0.0 only when certain (the count says
    so), never by rounding: 0.9999999999999999 for a certainty, or 1.0 for 1 - 10^-20."""
    if n == worlds:
        return 1.0
    if n == 0:
        return 0.0
    return min(max(n / worlds, _ABOVE_ZERO), _BELOW_ONE)


class Deduction:
    """The answer of `deduce`: where each card may be, with exact counts behind it.

    `envelope[c]`, `holder[c][p]`, `aside[c]` are probabilities; the `*_count` twins hold the
    integer numbers of consistent deals (out of `worlds`) behind them.
    """

    __slots__ = (
        "aside",
        "aside_count",
        "categories",
        "envelope",
        "envelope_count",
        "exact",
        "holder",
        "holder_count",
        "players",
        "worlds",
    )

    def __init__(
        self,
        categories: tuple[tuple[int, ...], ...],
        players: int,
        worlds: int,
        envelope_count: dict[int, int],
        holder_count: dict[int, tuple[int, ...]],
        aside_count: dict[int, int],
    ) -> None:
        self.categories = categories
        self.players = players
        self.worlds: int | None = worlds
        self.exact = True
        self.envelope_count = envelope_count
        self.holder_count = holder_count
        self.aside_count = aside_count
        self.envelope = {c: _chance(n, worlds) for c, n in envelope_count.items()}
        self.holder = {c: tuple(_chance(n, worlds) for n in ns) for c, ns in holder_count.items()}
        self.aside = {c: _chance(n, worlds) for c, n in aside_count.items()}

    # -- certainties (from integer counts, so never from chance) --------------------------

    def is_envelope(self, card: int) -> bool:
        """Certain that `card` is in the envelope."""
        return self.envelope_count[card] == self.worlds

    def certain_envelope(self) -> tuple[int, ...] | None:
        """The envelope, one card per category in category order, once it is certain."""
        out = []
        for cat in self.categories:
            found = [c for c in cat if self.envelope_count[c] == self.worlds]
            if not found:
                return None
            out.append(found[0])
        return tuple(out)

    def certain_cards(self) -> tuple[int | None, ...]:
        """Per category, the envelope card if certain, else None."""
        return tuple(
            next((c for c in cat if self.envelope_count[c] == self.worlds), None)
            for cat in self.categories
        )

    def certain_holder(self, card: int) -> int | None:
        """The player certain to hold `card`, else None."""
        for p, n in enumerate(self.holder_count[card]):
            if n == self.worlds:
                return p
        return None

    def possible_envelope(self, category: int) -> tuple[int, ...]:
        """Cards of a category that may still be in the envelope."""
        return tuple(c for c in self.categories[category] if self.envelope_count[c])

    def fraction(self, card: int, where: int | str) -> Fraction:
        """Exact probability: `where` is a player index, "envelope" or "aside"."""
        assert self.worlds is not None
        if where == "envelope":
            n = self.envelope_count[card]
        elif where == "aside":
            n = self.aside_count[card]
        else:
            assert isinstance(where, int)
            n = self.holder_count[card][where]
        return Fraction(n, self.worlds)

    def entropy(self) -> float:
        """Bits of uncertainty left about the envelope: the sum over categories of the
        entropy of that category's envelope card (an upper bound on the joint entropy)."""
        total = 0.0
        for cat in self.categories:
            for c in cat:
                p = self.envelope[c]
                if 0.0 < p < 1.0:
                    total -= p * math.log2(p)
        return total

    def __repr__(self) -> str:
        return f"<Deduction worlds={self.worlds} exact={self.exact}>"


# -- the counting problem ------------------------------------------------------------------


class _Problem:
    """Cards still unplaced, with the holders each may go to.

    Holders are numbered: players 0..P-1, then the aside pile P, then one envelope slot per
    category, P+1+k. `allowed[c]` is a bitmask of holders card c may go to; `cap[h]` is how
    many unplaced cards holder h still takes; `oneofs` are (holder, cards) "at least one".
    """

    __slots__ = ("allowed", "cap", "fixed", "oneofs")

    def __init__(
        self,
        allowed: dict[int, int],
        cap: list[int],
        fixed: dict[int, int],
        oneofs: list[tuple[int, frozenset[int]]],
    ) -> None:
        self.allowed = allowed
        self.cap = cap
        self.fixed = fixed
        self.oneofs = oneofs

    def copy(self) -> _Problem:
        return _Problem(dict(self.allowed), list(self.cap), dict(self.fixed), list(self.oneofs))

    def place(self, card: int, h: int) -> None:
        if not (self.allowed[card] >> h) & 1 or self.cap[h] <= 0:
            raise InconsistentKnowledge(f"card {card} cannot lie with holder {h}")
        del self.allowed[card]
        self.fixed[card] = h
        self.cap[h] -= 1

    def reduce(self) -> None:
        """Propagate to a fixpoint what holds in every consistent deal."""
        allowed, cap = self.allowed, self.cap
        changed = True
        while changed:
            changed = False
            full = 0
            for h, n in enumerate(cap):
                if n > 0:
                    full |= 1 << h
            # Every card needs a holder with room left; one choice left fixes it.
            for c in list(allowed):
                a = allowed[c] & full
                if a != allowed[c]:
                    allowed[c] = a
                if a == 0:
                    raise InconsistentKnowledge(f"card {c} has nowhere to be")
                if a & (a - 1) == 0:
                    self.place(c, a.bit_length() - 1)
                    changed = True
            if changed:
                continue
            # A holder whose candidates are exactly as many as its room takes them all.
            cands: list[list[int]] = [[] for _ in cap]
            for c, a in allowed.items():
                while a:
                    low = a & -a
                    cands[low.bit_length() - 1].append(c)
                    a ^= low
            for h, n in enumerate(cap):
                if n == 0:
                    continue
                if len(cands[h]) < n:
                    raise InconsistentKnowledge(f"holder {h} cannot fill its hand")
                if len(cands[h]) == n:
                    for c in cands[h]:
                        if c in allowed:
                            self.place(c, h)
                    changed = True
                    break
            if changed:
                continue
            # "Holds one of": drop satisfied ones, narrow to candidates, fix a lone candidate.
            kept: list[tuple[int, frozenset[int]]] = []
            for h, cards in self.oneofs:
                if any(self.fixed.get(c) == h for c in cards):
                    continue
                live = frozenset(c for c in cards if c in allowed and (allowed[c] >> h) & 1)
                if not live:
                    raise InconsistentKnowledge(f"holder {h} cannot hold any of {sorted(cards)}")
                if len(live) == 1:
                    (c,) = live
                    self.place(c, h)
                    changed = True
                    continue
                kept.append((h, live))
            # A constraint implied by a narrower one on the same holder adds nothing.
            kept = list(dict.fromkeys(kept))
            pruned = [(h, s) for h, s in kept if not any(h2 == h and s2 < s for h2, s2 in kept)]
            self.oneofs = pruned
            if changed:
                continue
            # A holder with room for one card must take it from every set it holds one of;
            # a set holding all the holder's candidates is met whatever it takes.
            narrowed: list[tuple[int, frozenset[int]]] = []
            by_holder: dict[int, list[frozenset[int]]] = {}
            for h, cards in self.oneofs:
                by_holder.setdefault(h, []).append(cards)
            for h, sets in by_holder.items():
                mine = frozenset(c for c, a in allowed.items() if (a >> h) & 1)
                if cap[h] == 1 and len(sets) > 1:
                    both = frozenset.intersection(*sets)
                    if not both:
                        raise InconsistentKnowledge(f"holder {h} cannot meet what it showed")
                    for c in mine - both:
                        allowed[c] &= ~(1 << h)
                    sets = [both]
                    mine = both
                    changed = True
                narrowed.extend((h, s) for s in sets if not mine <= s)
            if len(narrowed) != len(self.oneofs):
                changed = True
            self.oneofs = narrowed


class _Class:
    """Interchangeable unplaced cards; `size` of them are left to the DP after `pre`
    (holder, how many) fills holders that no other class can reach."""

    __slots__ = ("cards", "holders", "oneofs", "pre", "size")

    def __init__(self, cards: list[int], holders: list[int], oneofs: frozenset[int]) -> None:
        self.cards = cards
        self.holders = holders
        self.oneofs = oneofs
        self.pre: list[tuple[int, int]] = []
        self.size = len(cards)


class _Tables:
    """What `_count` keeps to draw deals: classes, steps and the backward counts per layer.

    `walk[i]` memoises, per state reached before step i, that step's choices as `_draw`
    needs them (`_choices`), so a search drawing thousands of deals from one view scans each
    step's moves once per state instead of once per draw."""

    __slots__ = (
        "backs",
        "base",
        "classes",
        "guard",
        "hands",
        "holder_at",
        "pos",
        "slot_classes",
        "slots",
        "start",
        "step_class",
        "steps",
        "tail",
        "walk",
        "width",
    )

    def __init__(self) -> None:
        self.classes: list[_Class] = []
        self.steps: list[tuple[list[tuple[int, int]], int]] = []
        #: the index in `classes` of the class each step places a card of
        self.step_class: list[int] = []
        self.backs: list[dict[int, int]] = []
        self.width = self.guard = self.base = self.start = 0
        self.pos: list[int] = []
        self.holder_at: dict[int, int] = {}
        self.hands: list[int] = []
        #: indices in `classes` of the free tail, and per open envelope slot those reaching it
        self.tail: list[int] = []
        self.slots: list[int] = []
        self.slot_classes: dict[int, list[int]] = {}
        self.walk: list[dict[int, _Choices]] = []


#: One step's choices from one state: the total weight, the running sums of the weights,
#: and per choice the state it leads to and the holder that takes the card.
_Choices = tuple[int, list[int], list[int], list[int]]


def _pick(rng: Rng, weights: Sequence[int]) -> int:
    """Index i with probability weights[i] / sum(weights), exactly (integer weights)."""
    x = _below(rng, sum(weights))
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    raise AssertionError("weights changed")


def _below(rng: Rng, n: int) -> int:
    """Uniform in [0, n) for any n >= 1, even past 64 bits."""
    if n < 1 << 63:
        return rng.below(n)
    bits = n.bit_length()
    while True:
        x = 0
        for _ in range((bits + 63) // 64):
            x = (x << 64) | rng.next64()
        x >>= (bits + 63) // 64 * 64 - bits
        if x < n:
            return x


_FACTORIALS = [math.factorial(i) for i in range(21)]


def shuffle(rng: Rng, seq: list[T]) -> None:
    """Shuffle `seq` in place, every order equally likely, from one draw of `rng` (below
    n!, read as the mixed-radix digits Fisher-Yates would draw one by one) for up to 20
    items; longer lists use `rng.shuffle`. Search samples many deals, so this matters."""
    n = len(seq)
    if n < 2:
        return
    if n > 20:
        rng.shuffle(seq)
        return
    x = rng.below(_FACTORIALS[n])
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        seq[i], seq[j] = seq[j], seq[i]


def _choices(tb: _Tables, i: int, s: int) -> _Choices:
    """Step i's choices from state s, each weighted by the completions after it."""
    moves, end = tb.steps[i]
    nxt = tb.backs[i + 1]
    guard = tb.guard
    holder_at = tb.holder_at
    sg = s | guard
    total = 0
    bounds: list[int] = []
    states: list[int] = []
    holders: list[int] = []
    for delta, sat in moves:
        t = sg - delta
        if t & guard != guard:
            continue
        t = (t ^ guard) | sat
        if end:
            if t & end != end:
                continue
            t ^= end
        b = nxt.get(t, 0)
        if b:
            total += b
            bounds.append(total)
            states.append(t)
            holders.append(holder_at[delta])
    return total, bounds, states, holders


def _draw(tb: _Tables, rng: Rng) -> dict[int, int]:
    """One completion of the counted problem, each with equal chance: holder per card.

    Each step draws below its total weight and takes the first choice whose running sum
    exceeds the draw: what `_pick` over the choices' weights gives, from the same draws."""
    out: dict[int, int] = {}
    if not tb.classes:
        return out
    rest: list[list[int]] = []
    for cl in tb.classes:
        cards = list(cl.cards)
        shuffle(rng, cards)
        for h, m in cl.pre:
            for _ in range(m):
                out[cards.pop()] = h
        rest.append(cards)
    s = tb.start
    walk = tb.walk
    step_class = tb.step_class
    for i in range(len(walk)):
        memo = walk[i]
        choice = memo.get(s)
        if choice is None:
            choice = memo[s] = _choices(tb, i, s)
        total, bounds, states, holders = choice
        k = bisect_right(bounds, _below(rng, total))
        s = states[k]
        out[rest[step_class[i]].pop()] = holders[k]
    # The free tail: each open envelope slot takes one of its candidates, the rest are dealt.
    dmask = (1 << (tb.width - 1)) - 1
    pos = tb.pos
    pool = [c for x in tb.tail for c in rest[x]]
    for e in tb.slots:
        if (s >> pos[e]) & dmask:
            cands = [c for x in tb.slot_classes[e] for c in rest[x] if c not in out]
            out[rng.choice(cands)] = e
    pool = [c for c in pool if c not in out]
    shuffle(rng, pool)
    for h in tb.hands:
        for _ in range((s >> pos[h]) & dmask):
            out[pool.pop()] = h
    assert not pool
    return out


def _classes(prob: _Problem, nholders: int) -> tuple[list[_Class], list[int], int]:
    """The unplaced cards of `prob` grouped into classes of interchangeable cards, the
    holders' room left, and the number of ways (a product of binomials) of the holders that
    only one class can reach, filled from that class up front (`_Class.pre`): early in a
    game this takes every envelope slot out of the DP's state."""
    membership: dict[int, list[int]] = {}
    for j, (_h, members) in enumerate(prob.oneofs):
        for c in members:
            membership.setdefault(c, []).append(j)
    groups: dict[tuple[int, frozenset[int]], list[int]] = {}
    for c in sorted(prob.allowed):
        key = (prob.allowed[c], frozenset(membership.get(c, ())))
        groups.setdefault(key, []).append(c)
    classes = []
    for (a, js), cards in groups.items():
        hs = [h for h in range(nholders) if (a >> h) & 1]
        classes.append(_Class(cards, hs, js))
    cap = list(prob.cap)
    holder_of = [h for h, _ in prob.oneofs]
    mult = 1
    again = True
    while again:
        again = False
        reach: dict[int, list[_Class]] = {}
        for cl in classes:
            if cl.size:
                for h in cl.holders:
                    reach.setdefault(h, []).append(cl)
        for h, m in enumerate(cap):
            if m == 0:
                continue
            near = reach.get(h, [])
            if len(near) != 1:
                if not near:
                    raise InconsistentKnowledge(f"holder {h} cannot fill its hand")
                continue
            cl = near[0]
            if m > cl.size:
                raise InconsistentKnowledge(f"holder {h} cannot fill its hand")
            mult *= math.comb(cl.size, m)
            cl.pre.append((h, m))
            cl.size -= m
            cl.holders = [x for x in cl.holders if x != h]
            cap[h] = 0
            met = frozenset(j for j in cl.oneofs if holder_of[j] == h)
            if met:
                for other in classes:
                    other.oneofs = other.oneofs - met
            again = True
            break
    live = [cl for cl in classes if cl.size]
    for j in range(len(prob.oneofs)):
        if any(j in cl.oneofs for cl in classes) and not any(j in cl.oneofs for cl in live):
            raise InconsistentKnowledge("a player cannot hold any card they were seen to show")
    return classes, cap, mult


def _order(body: list[_Class]) -> tuple[list[_Class], dict[int, int]]:
    """The DP's order of the constrained classes (closing open "holds one of" constraints
    early, opening few), and how many classes use each constraint."""
    users: dict[int, int] = {}
    for cl in body:
        for j in cl.oneofs:
            users[j] = users.get(j, 0) + 1
    order: list[_Class] = []
    remaining = list(body)
    seen: dict[int, int] = {}
    while remaining:

        def score(cl: _Class) -> tuple[int, int, int, int, int]:
            closes = sum(1 for j in cl.oneofs if seen.get(j, 0) + 1 == users[j])
            opens = sum(1 for j in cl.oneofs if seen.get(j, 0) == 0)
            # Measured on simulated games: wide classes first keeps the layers narrower.
            return (not cl.oneofs, -closes, opens, -len(cl.holders), -len(cl.oneofs))

        best = min(remaining, key=score)
        remaining.remove(best)
        order.append(best)
        for j in best.oneofs:
            seen[j] = seen.get(j, 0) + 1
    return order, users


def _advance(
    layer: dict[int, int], moves: list[tuple[int, int]], end: int, guard: int
) -> dict[int, int]:
    """One forward step of the DP: the deals of one more card, by state. A move takes one
    from its holder's room (the guard bit catches a holder with none), sets the bits of the
    constraints it meets (`sat`), and where the step closes constraints (`end`) keeps only
    the states that met them all. (`_choices` and `_retreat` step the same way.)"""
    nxt: dict[int, int] = {}
    get = nxt.get
    for s, f in layer.items():
        sg = s | guard
        for delta, sat in moves:
            t = sg - delta
            if t & guard != guard:
                continue
            t = (t ^ guard) | sat
            if end:
                if t & end != end:
                    continue
                t ^= end
            nxt[t] = get(t, 0) + f
    return nxt


def _retreat(
    layer: dict[int, int],
    moves: list[tuple[int, int]],
    end: int,
    guard: int,
    back: dict[int, int],
    acc: list[int] | None,
) -> dict[int, int]:
    """One backward step of the DP: per state of `layer`, its completions through `back`.
    With `acc` (a class's first card), also adds up, per move, the deals in which that move
    is taken: the share of the deals each holder gets of the class's cards."""
    here: dict[int, int] = {}
    bget = back.get
    for s, f in layer.items():
        sg = s | guard
        tot = 0
        for idx, (delta, sat) in enumerate(moves):
            t = sg - delta
            if t & guard != guard:
                continue
            t = (t ^ guard) | sat
            if end:
                if t & end != end:
                    continue
                t ^= end
            b = bget(t)
            if b:
                tot += b
                if acc is not None:
                    acc[idx] += f * b
        if tot:
            here[s] = tot
    return here


def _count(
    prob: _Problem, nholders: int, first_env: int, keep: _Tables | None = None
) -> tuple[int, dict[int, list[int]]]:
    """Number of completions of `prob` and, per unplaced card, completions per holder.

    With `keep`, the DP tables are stored there so that deals can be drawn (`_draw`)."""
    if not prob.allowed:
        if keep is not None:
            keep.classes = []
        return 1, {}
    classes, cap, mult = _classes(prob, nholders)
    holder_of = [h for h, _ in prob.oneofs]
    live = [cl for cl in classes if cl.size]
    # Free classes (no "holds one of", reaching every hand with room and at most their own
    # envelope slot) are counted in closed form at the end instead of card by card.
    hands = frozenset(h for h in range(first_env) if cap[h] > 0)
    tail: list[_Class] = []
    body: list[_Class] = []
    for cl in live:
        envs = [h for h in cl.holders if h >= first_env]
        if (
            not cl.oneofs
            and len(envs) <= 1
            and hands.issuperset(cl.holders[: len(cl.holders) - len(envs)])
            and len(cl.holders) - len(envs) == len(hands)
        ):
            tail.append(cl)
        else:
            body.append(cl)
    order, users = _order(body)
    # Layout of the state int: one field per holder (capacity, plus a guard bit), then one
    # bit per "holds one of" constraint while it is open. Cards are placed one at a time
    # (w = 1 per step, so distinct cards are counted as distinct); a class's cards are
    # interchangeable, so its first card's shares stand for all of them.
    # Only holders with room get a field, and constraints whose open spans do not overlap
    # share a bit, so the state usually fits one machine word of CPython's ints.
    width = max(max(cap), 1).bit_length() + 1
    used = [h for h in range(nholders) if cap[h] > 0]
    pos = [0] * nholders
    guard = 0
    start = 0
    for x, h in enumerate(used):
        pos[h] = x * width
        guard |= 1 << (pos[h] + width - 1)
        start |= cap[h] << pos[h]
    base = len(used) * width
    holder_at = {1 << pos[h]: h for h in used}
    span: dict[int, list[int]] = {}
    for x, cl in enumerate(order):
        for j in cl.oneofs:
            span.setdefault(j, [x, x])[1] = x
    bit_of: dict[int, int] = {}
    busy_until: list[int] = []
    for j, (lo, hi) in sorted(span.items(), key=lambda item: item[1][0]):
        colour = next((c for c, until in enumerate(busy_until) if until < lo), len(busy_until))
        if colour == len(busy_until):
            busy_until.append(hi)
        else:
            busy_until[colour] = hi
        bit_of[j] = 1 << (base + colour)
    done: dict[int, int] = {}
    steps: list[tuple[list[tuple[int, int]], int, _Class | None]] = []
    step_class: list[_Class] = []
    for cl in order:
        moves = []
        for h in cl.holders:
            sat = 0
            for j in cl.oneofs:
                if holder_of[j] == h:
                    sat |= bit_of[j]
            moves.append((1 << pos[h], sat))
        end = 0
        for j in cl.oneofs:
            done[j] = done.get(j, 0) + 1
            if done[j] == users[j]:
                end |= bit_of[j]
        n = cl.size
        for i in range(n):
            steps.append((moves, end if i == n - 1 else 0, cl if i == 0 else None))
            step_class.append(cl)
    # What may still come after each step, to drop states with no completion early: a
    # holder with more room than cards that can still reach it, or an unmet "holds one of"
    # whose holder has no room left.
    dmask = (1 << (width - 1)) - 1
    capmask = (1 << base) - 1
    later = [0] * nholders
    for cl in tail:
        for h in cl.holders:
            later[h] += cl.size
    limits = [0] * len(steps)
    for i in range(len(steps) - 1, -1, -1):
        lim = guard
        for h in used:
            lim |= min(later[h], cap[h]) << pos[h]
        limits[i] = lim
        for delta, _sat in steps[i][0]:
            later[holder_at[delta]] += 1
    opening: list[list[tuple[int, int]]] = [[] for _ in steps]
    closing = [0] * len(steps)
    first_step: dict[int, int] = {}
    at = 0
    for cl in order:
        for j in cl.oneofs:
            first_step.setdefault(j, at)
        at += cl.size
    for i, (_moves, end, _first) in enumerate(steps):
        closing[i] = end
    for j, i0 in first_step.items():
        bit = bit_of[j]
        sh = pos[holder_of[j]]
        i = i0
        while not closing[i] & bit:
            opening[i].append((bit, sh))
            i += 1
    # Forward: deals of the cards so far, by state.
    layers: list[dict[int, int]] = [{start: 1}]
    no_limit = guard | start
    for i, (moves, end, _) in enumerate(steps):
        nxt = _advance(layers[-1], moves, end, guard)
        lim = limits[i]
        opens = opening[i]
        if lim == no_limit and not opens:
            layers.append(nxt)
            continue
        for t in list(nxt):
            if (lim - (t & capmask)) & guard != guard:
                del nxt[t]
                continue
            for bit, sh in opens:
                if not t & bit and not (t >> sh) & dmask:
                    del nxt[t]
                    break
        layers.append(nxt)
    # The free tail: from a state with room c_h in the hands and open envelope slots O, the
    # tail's cards fill each open slot (T_e candidates for slot e) and share the rest out
    # among the hands in (sum c)! / prod(c_h!) ways.
    shares: dict[int, list[int]] = {}
    back: dict[int, int] = {}
    slots = sorted({h for cl in tail for h in cl.holders if h >= first_env})
    cands = {e: sum(cl.size for cl in tail if e in cl.holders) for e in slots}
    hand_list = sorted(hands)
    ntail = sum(cl.size for cl in tail)
    fact = [math.factorial(i) for i in range(ntail + 1)]
    env_open = [e for e in range(first_env, nholders) if cap[e] > 0]
    envmask = 0
    for e in env_open:
        envmask |= dmask << pos[e]
    shifts = [pos[h] for h in hand_list]
    # Per pattern of open envelope slots: the deals, and the deals times each hand's share.
    by_open: dict[int, int] = {}
    by_open_hand: dict[int, list[int]] = {}
    ties: dict[int, int] = {}
    total = 0
    for s, f in layers[-1].items():
        if s >> base:
            continue
        pat = s & envmask
        tt = ties.get(pat)
        if tt is None:
            tt = 1
            for e in env_open:
                if (s >> pos[e]) & dmask:
                    tt *= cands.get(e, 0)
            ties[pat] = tt
        if not tt:
            continue
        room = [(s >> sh) & dmask for sh in shifts]
        left = sum(room)
        m0 = fact[left]
        for r in room:
            if r > 1:
                m0 //= fact[r]
        ways = tt * m0
        back[s] = ways
        w = f * ways
        total += w
        if pat in by_open:
            by_open[pat] += w
            vec = by_open_hand[pat]
        else:
            by_open[pat] = w
            vec = by_open_hand[pat] = [0] * len(shifts)
        if left:
            for x, r in enumerate(room):
                if r:
                    vec[x] += w * r // left
    acc_nil = [0] * nholders
    acc_env = {e: [0] * nholders for e in slots}
    for pat, w in by_open.items():
        vec = by_open_hand[pat]
        for h, x in zip(hand_list, vec, strict=True):
            acc_nil[h] += x
        for e in slots:
            row = acc_env[e]
            if (pat >> pos[e]) & dmask:
                te = cands[e]
                row[e] += w // te
                for h, x in zip(hand_list, vec, strict=True):
                    row[h] += x * (te - 1) // te
            else:
                for h, x in zip(hand_list, vec, strict=True):
                    row[h] += x
    if total == 0:
        raise InconsistentKnowledge("no deal fits what this seat knows")
    for cl in tail:
        row = next((acc_env[h] for h in cl.holders if h >= first_env), acc_nil)
        shares[id(cl)] = [row[h] for h in cl.holders]
    if keep is not None:
        index = {id(cl): x for x, cl in enumerate(classes)}
        keep.classes = classes
        keep.steps = [(moves, end) for moves, end, _ in steps]
        keep.step_class = [index[id(cl)] for cl in step_class]
        keep.walk = [{} for _ in steps]
        keep.width, keep.guard, keep.base, keep.start = width, guard, base, start
        keep.pos, keep.holder_at = pos, holder_at
        keep.hands, keep.slots = hand_list, slots
        keep.tail = [index[id(cl)] for cl in tail]
        keep.slot_classes = {e: [index[id(cl)] for cl in tail if e in cl.holders] for e in slots}
        keep.backs = [back]
    # Backward, with the share of deals each holder takes of a class's first card.
    counts: dict[int, list[int]] = {}
    for i in range(len(steps) - 1, -1, -1):
        moves, end, first = steps[i]
        acc = None if first is None else [0] * len(moves)
        here = _retreat(layers[i], moves, end, guard, back, acc)
        if acc is not None:
            shares[id(first)] = acc
        back = here
        if keep is not None:
            keep.backs.append(back)
    assert back.get(start) == total
    if keep is not None:
        keep.backs.reverse()
    # Back to the whole problem: each class's cards are interchangeable, so a card lies
    # with a pre-filled holder in m/n of the deals, and elsewhere in its share of the rest.
    whole = total * mult
    for cl in classes:
        n = len(cl.cards)
        row = [0] * nholders
        for h, m in cl.pre:
            row[h] = whole * m // n
        if cl.size:
            for h, a in zip(cl.holders, shares[id(cl)], strict=True):
                row[h] = a * mult * cl.size // n
        for c in cl.cards:
            counts[c] = row
    return whole, counts


def _solve(prob: _Problem, nholders: int, ncat: int) -> tuple[int, dict[int, list[int]]]:
    """Counts per card and holder for every card of the problem (placed ones included)."""
    prob.reduce()
    total, counts = _count(prob, nholders, nholders - ncat)
    for c, h in prob.fixed.items():
        row = [0] * nholders
        row[h] = total
        counts[c] = row
    return total, counts


def _build(k: Knowledge) -> tuple[_Problem, int, dict[int, int]]:
    """Check the knowledge and turn it into a counting problem."""
    P = k.players
    ncat = len(k.categories)
    nholders = P + 1 + ncat
    if not 0 <= k.seat < P or len(k.hand_sizes) != P:
        raise InconsistentKnowledge("seat or hand sizes do not match the number of players")
    cat_of: dict[int, int] = {}
    for i, cat in enumerate(k.categories):
        if not cat:
            raise InconsistentKnowledge(f"category {i} is empty")
        for c in cat:
            if c in cat_of:
                raise InconsistentKnowledge(f"card {c} is in two categories")
            cat_of[c] = i
    aside_size = k.aside_size
    if aside_size < 0 or any(n < 0 for n in k.hand_sizes):
        raise InconsistentKnowledge("more cards in hands than in the deck")
    for c in (*k.own_hand, *k.public, *k.known):
        if c not in cat_of:
            raise InconsistentKnowledge(f"card {c} is not in the deck")
    if k.own_hand & k.public:
        raise InconsistentKnowledge("a card is both in this seat's hand and face up")
    if len(k.own_hand) != k.hand_sizes[k.seat]:
        raise InconsistentKnowledge("this seat's hand does not have its hand size")
    cap = [*k.hand_sizes, aside_size] + [1] * ncat
    allowed: dict[int, int] = {}
    everyone = 0
    for h in range(P + 1):
        if h != k.seat:
            everyone |= 1 << h
    for c, i in cat_of.items():
        if c not in k.public:
            allowed[c] = everyone | (1 << (P + 1 + i))
    prob = _Problem(allowed, cap, {}, [])
    for c in sorted(k.own_hand):
        allowed[c] |= 1 << k.seat
        prob.place(c, k.seat)
    for c, p in sorted(k.known.items()):
        if not 0 <= p <= P:
            raise InconsistentKnowledge(f"card {c} is known to an unknown holder {p}")
        if p == k.seat:
            if c not in k.own_hand:
                raise InconsistentKnowledge(f"card {c} is seen in this seat's own hand")
            continue
        if c in k.public or c in k.own_hand:
            raise InconsistentKnowledge(f"card {c} is seen in two places")
        prob.place(c, p)
    for ev in k.events:
        if isinstance(ev, NoneOf | OneOf) and not 0 <= ev.player <= (P if aside_size else P - 1):
            raise InconsistentKnowledge(f"event about an unknown player {ev.player}")
        for c in ev.cards:
            if c not in cat_of:
                raise InconsistentKnowledge(f"event names card {c}, not in the deck")
        if isinstance(ev, NoneOf):
            for c in ev.cards:
                if prob.fixed.get(c) == ev.player:
                    raise InconsistentKnowledge(f"player {ev.player} holds {c}, seen passing")
                if c in allowed:
                    allowed[c] &= ~(1 << ev.player)
        elif isinstance(ev, OneOf):
            prob.oneofs.append((ev.player, frozenset(ev.cards)))
    return prob, nholders, cat_of


def _forbidden(k: Knowledge, cat_of: dict[int, int]) -> list[tuple[int, ...]]:
    """The distinct triples that wrong accusations rule out (others cannot be the envelope)."""
    ncat = len(k.categories)
    out: dict[tuple[int, ...], None] = {}
    for ev in k.events:
        if isinstance(ev, NotEnvelope):
            cats = sorted(cat_of[c] for c in ev.cards)
            if cats == list(range(ncat)):
                out[tuple(sorted(ev.cards))] = None
    return list(out)


def _with_envelope(
    base: _Problem, triple: Sequence[int], cat_of: dict[int, int], players: int
) -> _Problem:
    """A copy of `base` with `triple` put in the envelope."""
    sub = base.copy()
    for c in triple:
        if c not in sub.allowed:
            raise InconsistentKnowledge("that triple cannot be the envelope")
        sub.place(c, players + 1 + cat_of[c])
    return sub


#: Recent answers by canonical knowledge: the notebook redraws and bots score many rumours
#: against the same view, so the same question often comes back.
_CACHE: dict[tuple[object, ...], Deduction] = {}
_CACHE_SIZE = 512


def _cache_key(k: Knowledge) -> tuple[object, ...]:
    return (
        k.categories,
        k.players,
        k.seat,
        k.hand_sizes,
        k.own_hand,
        k.public,
        frozenset(k.known.items()),
        frozenset(k.events),
    )


def deduce(k: Knowledge) -> Deduction:
    """Exact probabilities of where every card lies, given all that seat `k.seat` knows.

    The same knowledge (events in any order, repeated or not) gives the same answer object
    from a small cache: treat it as read-only."""
    key = _cache_key(k)
    try:
        hit = _CACHE.get(key)
    except TypeError:  # lists where tuples belong: fine, just not cached
        return _deduce(k)
    if hit is not None:
        return hit
    d = _deduce(k)
    if len(_CACHE) >= _CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[key] = d
    return d


def _deduce(k: Knowledge) -> Deduction:
    prob, nholders, cat_of = _build(k)
    P = k.players
    ncat = len(k.categories)
    forbidden = _forbidden(k, cat_of)
    base = prob.copy() if forbidden else prob
    total, counts = _solve(prob, nholders, ncat)
    for triple in forbidden:
        try:
            sub = _with_envelope(base, triple, cat_of, P)
            t2, c2 = _solve(sub, nholders, ncat)
        except InconsistentKnowledge:
            continue
        total -= t2
        for c, row in c2.items():
            counts[c] = [a - b for a, b in zip(counts[c], row, strict=True)]
    if total <= 0:
        raise InconsistentKnowledge("no deal fits what this seat knows")
    envelope_count: dict[int, int] = {}
    holder_count: dict[int, tuple[int, ...]] = {}
    aside_count: dict[int, int] = {}
    for c, i in cat_of.items():
        found = counts.get(c)
        if found is None:  # face up
            envelope_count[c] = 0
            holder_count[c] = (0,) * P
            aside_count[c] = 0
            continue
        envelope_count[c] = found[P + 1 + i]
        holder_count[c] = tuple(found[:P])
        aside_count[c] = found[P]
    return Deduction(k.categories, P, total, envelope_count, holder_count, aside_count)


def triple_chance(k: Knowledge, triple: Sequence[int]) -> float:
    """The exact chance that the envelope is `triple` (one card per category, in category
    order) given `k`: the deals with that envelope over all consistent deals. The marginals
    of `deduce` do not give it (after a rumour nobody answered, "all three in the envelope"
    and "all three in the asker's hand" are the two likely cases, not their mix); a bot
    weighing a guess at the envelope needs it."""
    d = deduce(k)
    prob, nholders, cat_of = _build(k)
    if tuple(sorted(triple)) in _forbidden(k, cat_of) or d.worlds is None:
        return 0.0
    try:
        sub = _with_envelope(prob, triple, cat_of, k.players)
        n, _ = _solve(sub, nholders, len(k.categories))
    except InconsistentKnowledge:
        return 0.0
    return _chance(n, d.worlds)


#: Draws `sample_deal` makes before it chooses the envelope from exact counts instead.
_REJECTION_TRIES = 64


@dataclass(frozen=True, slots=True)
class Deal:
    """One full deal: the envelope (in category order), each hand, and the aside pile."""

    envelope: tuple[int, ...]
    hands: tuple[frozenset[int], ...]
    aside: frozenset[int]


class DealSampler:
    """Draws deals uniformly from those consistent with `k` (the same measure as `deduce`).

    Build once per view, then `draw` as often as a search needs: each draw walks the DP's
    stored counts (exact, no rejection of the walk itself). A wrong accusation is honoured
    by drawing again (up to `_REJECTION_TRIES` times), then by choosing the envelope from
    exact per-triple counts, so the result is uniform either way. Raises
    `InconsistentKnowledge` if no deal fits. With `envelope` (a seat that has seen it), the
    deals are those consistent with `k` that put exactly those cards in the envelope.
    """

    __slots__ = (
        "_base",
        "_cat_of",
        "_fallback",
        "_forbidden",
        "_k",
        "_nholders",
        "_prob",
        "_tables",
    )

    def __init__(self, k: Knowledge, envelope: Sequence[int] | None = None) -> None:
        prob, nholders, cat_of = _build(k)
        self._k = k
        self._cat_of = cat_of
        self._nholders = nholders
        self._forbidden = set(_forbidden(k, cat_of))
        if envelope is not None:
            # A seat that has looked in the envelope: its cards are facts, so every deal
            # counted puts them there (a wrong accusation never names the true triple).
            if tuple(sorted(envelope)) in self._forbidden:
                raise InconsistentKnowledge("a ruled-out triple cannot be the envelope")
            prob = _with_envelope(prob, envelope, cat_of, k.players)
            self._forbidden = set()
        self._base = prob.copy()
        prob.reduce()
        self._tables = _Tables()
        _count(prob, nholders, k.players + 1, self._tables)
        self._prob = prob
        self._fallback: tuple[list[int], list[tuple[_Problem, _Tables]]] | None = None
        if self._forbidden:
            deduce(k)  # raises if the accusations leave nothing

    def draw(self, rng: Rng) -> Deal:
        """One consistent deal, each with equal chance."""
        return _deal_of(self.draw_holders(rng), self._k, self._cat_of)

    def draw_holders(self, rng: Rng) -> dict[int, int]:
        """`draw` as card -> holder for every card not face up: a player (0 to P - 1), P for
        aside, P + 1 + i for the envelope slot of category i (the fast path for search)."""
        if not self._forbidden:
            where = dict(self._prob.fixed)
            where.update(_draw(self._tables, rng))
            return where
        first = self._k.players + 1
        for _ in range(_REJECTION_TRIES):
            where = dict(self._prob.fixed)
            where.update(_draw(self._tables, rng))
            envelope = tuple(sorted(c for c, h in where.items() if h >= first))
            if envelope not in self._forbidden:
                return where
        # Rare: most of the weight is on ruled-out triples. Choose the triple exactly.
        if self._fallback is None:
            self._fallback = self._per_triple()
        weights, subs = self._fallback
        sub, tables = subs[_pick(rng, weights)]
        where = dict(sub.fixed)
        where.update(_draw(tables, rng))
        return where

    def _per_triple(self) -> tuple[list[int], list[tuple[_Problem, _Tables]]]:
        k, P = self._k, self._k.players
        d = deduce(k)
        triples: list[tuple[int, ...]] = [()]
        for i in range(len(k.categories)):
            triples = [(*t, c) for t in triples for c in d.possible_envelope(i)]
        weights: list[int] = []
        subs: list[tuple[_Problem, _Tables]] = []
        for t in triples:
            if tuple(sorted(t)) in self._forbidden:
                continue
            try:
                sub = _with_envelope(self._base, t, self._cat_of, P)
                sub.reduce()
                tables = _Tables()
                n, _ = _count(sub, self._nholders, P + 1, tables)
            except InconsistentKnowledge:
                continue
            weights.append(n)
            subs.append((sub, tables))
        return weights, subs


def sample_deal(k: Knowledge, rng: Rng) -> Deal:
    """A deal drawn uniformly from those consistent with `k`; see `DealSampler`."""
    return DealSampler(k).draw(rng)


def _deal_of(where: dict[int, int], k: Knowledge, cat_of: dict[int, int]) -> Deal:
    P = k.players
    envelope = [0] * len(k.categories)
    hands: list[set[int]] = [set() for _ in range(P)]
    aside: set[int] = set()
    for c, h in where.items():
        if h < P:
            hands[h].add(c)
        elif h == P:
            aside.add(c)
        else:
            envelope[cat_of[c]] = c
    return Deal(tuple(envelope), tuple(frozenset(h) for h in hands), frozenset(aside))


def expected_information(k: Knowledge, rumour: Sequence[int], asker: int) -> float:
    """Bits of envelope uncertainty (`Deduction.entropy`) that seat `k.seat` expects to lose
    when `asker` makes `rumour`; for a bot choosing what to ask, pass asker = k.seat.

    Outcomes: the players after the asker are asked in turn; the first who holds a named card
    answers. The chance that player p is the first is exact (counted deals). When this seat
    asks, it also sees the card; which card an answerer holding several would show is
    modelled as proportional to its chance of holding each (a heuristic: the rules leave the
    choice to the player). The 2-player look at an aside card after no answer is not scored.
    Costs one `deduce` per outcome (up to 4 per player asked).
    """
    now = deduce(k)
    assert now.worlds is not None
    cards = tuple(rumour)
    before = now.entropy()
    expected = 0.0
    passed: list[Event] = []
    remaining = Fraction(1)
    for step in range(1, k.players):
        p = (asker + step) % k.players
        if p == k.seat:
            if any(c in k.own_hand for c in cards):
                # This seat answers: it learns only who passed before it.
                if remaining:
                    expected += float(remaining) * _entropy_or_zero(k.adding(*passed))
                remaining = Fraction(0)
                break
            continue
        try:
            answered = deduce(k.adding(*passed, OneOf(p, cards)))
        except InconsistentKnowledge:
            passed.append(NoneOf(p, cards))
            continue
        assert answered.worlds is not None
        chance = Fraction(answered.worlds, now.worlds)
        if asker != k.seat:
            expected += float(chance) * answered.entropy()
        else:
            held = [answered.holder[c][p] for c in cards]
            total = sum(held)
            for c, h in zip(cards, held, strict=True):
                if h > 0.0:
                    after = _entropy_or_zero(k.adding(*passed, known={c: p}))
                    expected += float(chance) * (h / total) * after
        remaining -= chance
        passed.append(NoneOf(p, cards))
    if remaining > 0:
        expected += float(remaining) * _entropy_or_zero(k.adding(*passed))
    return max(0.0, before - expected)


def _entropy_or_zero(k: Knowledge) -> float:
    try:
        return deduce(k).entropy()
    except InconsistentKnowledge:
        return 0.0
