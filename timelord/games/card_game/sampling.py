"""`sample_state`: a full state consistent with one seat's view, hidden cards dealt at random.

Every deal of the hidden cards that agrees with the view is equally likely (C-7.4):

* Face-down Defenders of one Location must be of distinct types, and face-down Enemies of
  one attack must combine with each other and with the attack's known cards. For each such
  group the view fixes how many cards are hidden; the template lists every multiset of
  card designs that fits (weighted by the ways to pick the physical copies), so one group is
  drawn exactly uniformly among its valid sets. Groups are drawn independently and the draw
  is repeated while two groups took the same card: conditioning a uniform product on
  disjointness is uniform on the valid joint fillings.
* Every other hidden place (hands, face-down reserves, the deck) takes any card, so once the
  groups are filled the rest is a uniform partial Fisher-Yates deal.
* After a reshuffle the deck can hold only cards of the reshuffled pile (ruling C-R26). The
  number of completions of a group filling then depends on how many reshuffled cards it
  used, so a filling is kept with probability proportional to that number.

All integer picks are exact (rejection, no modulo or multiply-shift bias). Search agents call
this once per iteration with the same few views, so the work that depends only on the view is
done once per view object and cached (`_Template`; a caller must not change a view in place
and sample from it again).
"""

from __future__ import annotations

from bisect import bisect_right
from math import comb
from typing import Any

from timelord.core import Rng
from timelord.games.card_game.state import ATTACK, DEFEND, IRON, CardGameState

#: Views whose templates are kept (search agents cycle through a few at most).
_CACHE_SIZE = 64
#: Largest number of design multisets listed for one group; beyond it a group is drawn by
#: rejection (still exactly uniform, only slower).
_MAX_COMBOS = 20_000
#: Draws of the group fillings before giving up (the real state proves one exists).
_MAX_TRIES = 200_000


class _Group:
    """A face-down group with hidden slots: a Location's Defenders or an attack's Enemies."""

    __slots__ = ("kind", "L", "split", "cards", "holes", "k", "cum", "combos", "copies",
                 "cands", "staged")  # fmt: skip

    kind: str  # "d" or "e"
    L: int
    split: int  # cards[:split] lie on the table; cards[split:] are being declared
    cards: list[Any]  # known cards, None where hidden
    holes: list[int]  # positions of the hidden cards
    k: int
    cum: list[int]  # cumulative weights of `combos` (empty: draw by rejection)
    combos: list[tuple[int, ...]]  # design of each hidden card, one tuple per multiset
    copies: dict[int, list[int]]  # candidate physical cards of each design
    cands: list[int]  # all candidate physical cards
    staged: bool


class _Template:
    """What one view fixes: the public state, the hidden slots and the cards to deal."""

    __slots__ = ("game", "cs", "view", "s", "known", "pool", "groups", "hands_known",
                 "res_known", "hand_counts", "res_counts", "need", "deck_known", "deck_hidden",
                 "shuffled", "wmax", "newres", "newres_count", "loc_def_t", "loc_en_t",
                 "staged", "own_seat")  # fmt: skip


_CACHE: dict[int, tuple[Any, _Template]] = {}


def sample_state(game: Any, view: dict[str, Any], rng: Rng) -> CardGameState:
    hit = _CACHE.get(id(view))
    if hit is not None and hit[0] is view and hit[1].game is game and hit[1].cs is game.cards:
        t = hit[1]
    else:
        t = _template(game, view)
        if len(_CACHE) >= _CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[id(view)] = (view, t)  # the view is kept alive, so its id stays unique
    return _deal(t, rng)


def _template(game: Any, view: dict[str, Any]) -> _Template:
    cs = game.cards
    n = game.players
    seat = view["seat"]
    bit = 1 << seat
    full = (1 << n) - 1
    t = _Template()
    t.game = game
    t.cs = cs
    t.view = view
    t.own_seat = seat
    s = CardGameState(game)
    t.s = s
    known = [0] * len(cs.design)
    shown: set[int] = set()
    s.turn = view["turn"]
    s.active = view["active"]
    s.first = view["first"]
    s.phase = view["phase"]
    pend = view["pending"]
    s.p_loc = pend["location"]
    s.p_n = pend["number"]
    s.steps = view["steps"]
    s.endgame = view["endgame"]
    s.end_now = view["end_now"]
    s.ended = view["ended"]
    s.supply = view["supply"]
    s.tp = list(view["time"])
    s.discard = tuple(view["discard"])
    s.aside = tuple(view["aside"])
    s.upres = [tuple(u) for u in view["reserve_up"]]
    for group in (s.discard, s.aside, *s.upres):
        for c in group:
            known[c] = full
            shown.add(c)
    s.passed = [() for _ in range(n)]
    s.passed[seat] = tuple(tuple(x) for x in view["passed"])
    locs = view["locations"]
    s.loc_card = [x["card"] for x in locs]
    s.loc_owner = [x["owner"] for x in locs]
    s.loc_att = [x["attacker"] for x in locs]
    s.loc_tardis = [x["tardis"] for x in locs]
    s.loc_up = []
    loc_def: list[list[Any]] = []
    loc_en: list[list[Any]] = []
    for x in locs:
        c = x["card"]
        known[c] = full
        shown.add(c)
        up = 0
        for i, f in enumerate(x["face_up"]):
            if f:
                up |= 1 << i
        s.loc_up.append(up)
        for d in x["defenders"]:
            if d is not None:
                known[d] = bit | (1 << x["owner"])
                shown.add(d)
        for i, e in enumerate(x["enemies"]):
            if e is not None:
                known[e] = full if up >> i & 1 else bit | (1 << x["attacker"])
                shown.add(e)
        loc_def.append(list(x["defenders"]))
        loc_en.append(list(x["enemies"]))
    staged = list(pend["cards"])
    t.staged = tuple(staged)
    act_bit = 1 << s.active
    for sc in staged:
        if sc is not None:
            known[sc] = full if s.phase == IRON else bit | act_bit
            shown.add(sc)
    t.hands_known = [list(h["known"]) for h in view["hands"]]
    t.res_known = [list(r["known"]) for r in view["reserves"]]
    t.hand_counts = [h["count"] - len(h["known"]) for h in view["hands"]]
    t.res_counts = [r["count"] - len(r["known"]) for r in view["reserves"]]
    for p in range(n):
        for c in t.hands_known[p]:
            known[c] = bit | (1 << p)
            shown.add(c)
        for c in t.res_known[p]:
            known[c] = bit | (1 << p)
            shown.add(c)
    deck = view["deck"]
    t.deck_known = list(deck["known"])
    for c in t.deck_known:
        known[c] = bit
        shown.add(c)
    t.known = known
    t.pool = [c for c in cs.cards_in_play(n) if c not in shown]
    t.deck_hidden = deck["count"] - len(t.deck_known)
    s.shuffled = tuple(deck["reshuffled"])
    t.shuffled = frozenset(s.shuffled) if s.shuffled else None
    s.end_depth = deck["below_end"]
    s.rng = 0

    groups: list[_Group] = []
    for L in range(len(locs)):
        for kind, cards, staging in (("d", loc_def[L], DEFEND), ("e", loc_en[L], ATTACK)):
            split = len(cards)
            is_staged = s.phase == staging and s.p_loc == L
            if is_staged:
                cards = cards + staged
            if None in cards:
                groups.append(_group(cs, t.pool, kind, cards, L, split, is_staged))
    t.groups = groups
    t.loc_def_t = [tuple(x) for x in loc_def]
    t.loc_en_t = [tuple(x) for x in loc_en]
    t.newres = tuple(view["reserve_new"])
    t.newres_count = view["reserve_new_count"]
    t.need = sum(t.hand_counts) + sum(t.res_counts)
    assert len(t.pool) == t.need + t.deck_hidden + sum(g.k for g in groups), "view miscounts"
    if t.shuffled is not None and groups:
        # The most completions any filling can have: it uses as few reshuffled cards as the
        # other hidden cards allow.
        r = sum(1 for c in t.pool if c in t.shuffled)
        slots = sum(g.k for g in groups)
        fmin = max(0, slots - (len(t.pool) - r))
        t.wmax = comb(r - fmin, t.deck_hidden)
    else:
        t.wmax = 0
    return t


def _group(
    cs: Any, pool: list[int], kind: str, cards: list[Any], L: int, split: int, staged: bool
) -> _Group:
    g = _Group()
    g.kind = kind
    g.L = L
    g.split = split
    g.cards = cards
    g.staged = staged
    g.holes = [i for i, c in enumerate(cards) if c is None]
    g.k = k = len(g.holes)
    fixed = [c for c in cards if c is not None]
    design = cs.design
    ctype = cs.type
    if kind == "d":
        types = {ctype[c] for c in fixed}
        g.cands = [c for c in pool if cs.is_defender[c] and ctype[c] not in types]
    else:
        g.cands = [c for c in pool if cs.is_enemy[c] and all(_fits(cs, c, x) for x in fixed)]
    copies: dict[int, list[int]] = {}
    for c in g.cands:
        copies.setdefault(design[c], []).append(c)
    g.copies = copies
    designs = sorted(copies)
    rep = {d: copies[d][0] for d in designs}

    def compatible(a: int, b: int) -> bool:
        if kind == "d":
            return a != b and ctype[rep[a]] != ctype[rep[b]]
        return bool(cs.combine[a][b])

    combos: list[tuple[int, ...]] = []
    weights: list[int] = []
    too_many = [False]

    def rec(i: int, left: int, chosen: list[int], w: int) -> None:
        if too_many[0]:
            return
        if left == 0:
            combos.append(tuple(chosen))
            weights.append(w)
            if len(combos) > _MAX_COMBOS:
                too_many[0] = True
            return
        for j in range(i, len(designs)):
            d = designs[j]
            if not all(compatible(d, x) for x in chosen if x != d):
                continue
            top = 1 if kind == "d" else min(len(copies[d]), left)
            for m in range(1, top + 1):
                rec(j + 1, left - m, chosen + [d] * m, w * comb(len(copies[d]), m))

    rec(0, k, [], 1)
    if too_many[0]:
        g.combos = []
        g.cum = []
    else:
        if not combos:
            raise RuntimeError("no hidden-card deal fits this view")
        g.combos = combos
        acc = 0
        g.cum = []
        for w in weights:
            acc += w
            g.cum.append(acc)
    return g


def _fits(cs: Any, c: int, x: int) -> bool:
    """Enemy c may stand in one attack with card x (a turned River Song fits anything)."""
    return not cs.is_enemy[x] or bool(cs.combine[cs.design[c]][cs.design[x]])


def _ok_set(cs: Any, kind: str, cards: list[int]) -> bool:
    if kind == "d":
        ctype = cs.type
        return len({ctype[c] for c in cards}) == len(cards)
    design = cs.design
    row = cs.combine
    return all(row[design[a]][design[b]] for i, a in enumerate(cards) for b in cards[i + 1 :])


def _draw_group(cs: Any, g: _Group, below: Any) -> list[int]:
    """One uniformly random valid set for the group's hidden slots, in random order."""
    k = g.k
    if g.cum:
        x = below(g.cum[-1])
        combo = g.combos[bisect_right(g.cum, x)]
        out: list[int] = []
        i = 0
        while i < k:
            d = combo[i]
            m = 1
            while i + m < k and combo[i + m] == d:
                m += 1
            cp = g.copies[d]
            if m == 1:
                out.append(cp[below(len(cp))])
            else:
                cp = cp[:]
                for j in range(m):
                    r = j + below(len(cp) - j)
                    cp[j], cp[r] = cp[r], cp[j]
                out.extend(cp[:m])
            i += m
    else:
        cands = g.cands
        while True:
            cp = cands[:]
            for j in range(k):
                r = j + below(len(cp) - j)
                cp[j], cp[r] = cp[r], cp[j]
            out = cp[:k]
            if _ok_set(cs, g.kind, out):
                break
    # A uniform order over the hidden slots.
    for j in range(k - 1, 0, -1):
        r = below(j + 1)
        out[j], out[r] = out[r], out[j]
    return out


def _deal(t: _Template, rng: Rng) -> CardGameState:
    cs = t.cs
    game = t.game
    n = game.players
    base = t.s
    known = t.known[:]
    next64 = rng.next64
    buf = [0, 0]  # bits, how many 16-bit chunks are left

    def below(m: int) -> int:
        """Exactly uniform in [0, m): 16-bit chunks with Lemire's rejection."""
        if m > 0x10000:
            return rng.below(m)
        while True:
            if buf[1] == 0:
                buf[0] = next64()
                buf[1] = 4
            x = buf[0] & 0xFFFF
            buf[0] >>= 16
            buf[1] -= 1
            p = x * m
            if (p & 0xFFFF) >= m or (p & 0xFFFF) >= 0x10000 % m:
                return p >> 16

    s = CardGameState.__new__(CardGameState)
    s.game = game
    s.cs = cs
    s._legal = None
    s._legal_set = None
    s._lo = False
    s.turn = base.turn
    s.active = base.active
    s.first = base.first
    s.phase = base.phase
    s.p_loc = base.p_loc
    s.p_n = base.p_n
    s.steps = base.steps
    s.endgame = base.endgame
    s.end_now = base.end_now
    s.ended = base.ended
    s.supply = base.supply
    s.tp = base.tp[:]
    s.discard = base.discard
    s.aside = base.aside
    s.upres = base.upres[:]
    s.passed = base.passed[:]
    s.loc_card = base.loc_card
    s.loc_owner = base.loc_owner
    s.loc_att = base.loc_att
    s.loc_tardis = base.loc_tardis
    s.loc_up = base.loc_up
    s.end_depth = base.end_depth
    s.shuffled = base.shuffled
    staged = t.staged
    pool = t.pool
    shuffled = t.shuffled
    if t.groups:
        loc_def = t.loc_def_t[:]
        loc_en = t.loc_en_t[:]
        groups = t.groups
        for _ in range(_MAX_TRIES):
            fills = [_draw_group(cs, g, below) for g in groups]
            used = {c for f in fills for c in f}
            if len(used) != sum(g.k for g in groups):
                continue
            if shuffled is None:
                break
            r = sum(1 for c in pool if c in shuffled and c not in used)
            if rng.below(t.wmax) < comb(r, t.deck_hidden):
                break
        else:
            raise RuntimeError("no hidden-card deal fits this view")
        active = base.active
        for g, fill in zip(groups, fills, strict=True):
            cards = g.cards[:]
            holder = base.loc_owner[g.L] if g.kind == "d" else base.loc_att[g.L]
            for pos, c in zip(g.holes, fill, strict=True):
                cards[pos] = c
                known[c] = 1 << (holder if pos < g.split else active)
            if g.kind == "d":
                loc_def[g.L] = tuple(cards[: g.split])
            else:
                loc_en[g.L] = tuple(cards[: g.split])
            if g.staged:
                staged = tuple(cards[g.split :])
        s.loc_def = loc_def
        s.loc_en = loc_en
        rest = [c for c in pool if c not in used]
    else:
        s.loc_def = t.loc_def_t
        s.loc_en = t.loc_en_t
        rest = pool[:]
    s.p_cards = staged
    need = t.need
    if shuffled is None:
        # Partial Fisher-Yates: the first `need` cards go to the hidden hands and reserves.
        m = len(rest)
        for i in range(need):
            j = i + below(m - i)
            rest[i], rest[j] = rest[j], rest[i]
        held = rest
        deck_part = rest[need:]
    else:
        # Only reshuffled cards can be in the deck: pick its cards among them, and every
        # other card is held.
        inside = [c for c in rest if c in shuffled]
        held = [c for c in rest if c not in shuffled]
        d = t.deck_hidden
        m = len(inside)
        for i in range(d):
            j = i + below(m - i)
            inside[i], inside[j] = inside[j], inside[i]
        deck_part = inside[:d]
        held += inside[d:]
        m = len(held)
        for i in range(need):
            j = i + below(m - i)
            held[i], held[j] = held[j], held[i]
    k = 0
    hands = []
    for p in range(n):
        cnt = t.hand_counts[p]
        if cnt:
            got = held[k : k + cnt]
            k += cnt
            b = 1 << p
            for c in got:
                known[c] = b
            hands.append(tuple(sorted(t.hands_known[p] + got)))
        else:
            hands.append(tuple(t.hands_known[p]))
    reserve = []
    for p in range(n):
        cnt = t.res_counts[p]
        if cnt:
            got = held[k : k + cnt]
            k += cnt
            b = 1 << p
            for c in got:
                known[c] = b
            reserve.append(tuple(sorted(t.res_known[p] + got)))
        else:
            reserve.append(tuple(t.res_known[p]))
    s.hands = hands
    s.reserve = reserve
    s.deck = tuple(sorted(t.deck_known + deck_part)) if t.deck_known else tuple(sorted(deck_part))
    s.known = known
    if base.active == t.own_seat:
        s.newres = t.newres
    else:
        res = list(reserve[base.active])
        pick = []
        for _ in range(t.newres_count):
            pick.append(res.pop(below(len(res))))
        s.newres = tuple(pick)
    s.rng = next64()
    return s
