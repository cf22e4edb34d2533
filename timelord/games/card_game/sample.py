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
done once per view (`prepare`, which also checks the view) and kept in the game's
`ViewCache`, which prepares a view again if it was changed in place.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import combinations, permutations, product
from math import comb, factorial
from typing import Any

from timelord.core import CorruptRecord, Rng
from timelord.core.door import door
from timelord.games.card_game.doors import check_dealt, check_view
from timelord.games.card_game.state import ATTACK, DEFEND, IRON, VALIANT, CardGameState

#: Largest number of design multisets listed for one group; beyond it a group is drawn by
#: rejection (still exactly uniform, only slower).
_MAX_COMBOS = 20_000
#: Largest number of ordered fillings listed for one group (one pick then draws a group).
_MAX_SETS = 20_000
#: Draws of the group fillings before giving up (the real state proves one exists).
_MAX_TRIES = 200_000


class _Group:
    """A face-down group with hidden slots: a Location's Defenders or an attack's Enemies."""

    __slots__ = (
        "L",
        "bits",
        "cands",
        "cards",
        "combos",
        "copies",
        "cum",
        "holes",
        "k",
        "kind",
        "n",
        "post",
        "pre",
        "sets",
        "split",
        "staged",
    )  # fmt: skip

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
    bits: list[int]  # who knows the card dealt into each hole (its holder)
    n: int  # len(cands)
    pre: tuple[Any, ...] | None  # one hole on the table: the cards before and after it
    post: tuple[Any, ...]
    sets: list[tuple[int, ...]]  # every valid filling in every order, when there are few


class _Template:
    """What one view fixes: the public state, the hidden slots and the cards to deal."""

    __slots__ = (
        "cs",
        "deck_hidden",
        "deck_known",
        "fy_n",
        "fy_words",
        "game",
        "groups",
        "hand_counts",
        "hands0",
        "hands_known",
        "known",
        "loc_def_t",
        "loc_en_t",
        "need",
        "newres",
        "newres_count",
        "own_seat",
        "places",
        "pool",
        "res0",
        "res_counts",
        "res_known",
        "s",
        "shuffled",
        "slots",
        "staged",
        "view",
        "wmax",
    )  # fmt: skip

    cs: Any
    deck_hidden: Any
    deck_known: Any
    fy_n: Any
    fy_words: Any
    game: Any
    groups: Any
    hand_counts: Any
    hands0: Any
    hands_known: Any
    known: Any
    loc_def_t: Any
    loc_en_t: Any
    need: Any
    newres: Any
    newres_count: Any
    own_seat: Any
    places: Any
    pool: Any
    res0: Any
    res_counts: Any
    res_known: Any
    s: Any
    shuffled: Any
    slots: Any
    staged: Any
    view: Any
    wmax: Any


def prepare(game: Any, view: Any) -> _Template:
    """The door of `sample_state`: check `view` (a doctored one is refused with
    `CorruptRecord`, a spectator's or another table's seat with `InvalidSeat`) and prepare
    its template. Done once per view (the game's `ViewCache`), never per sample.

    Past the cheap checks of shape and sizes, the proof that the view is one the game can
    show is a deal: one sample (from its own generator, so the caller's stream does not
    depend on the cache) must be a state that passes the state door and shows this view."""
    check_view(game, view)
    with door(CorruptRecord, "not a card-game view"):
        t = _template(game, view)
        dealt = _deal(t, Rng(0))
    check_dealt(dealt, view)
    return t


def sample_state(t: _Template, rng: Rng) -> CardGameState:
    """One state for the prepared view `t`, hidden cards dealt at random (C-7.2, C-7.4)."""
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
    known = bytearray(len(cs.design))  # the state's form (state.py)
    shown: set[int] = set()
    s.turn = view["turn"]
    s.active = view["active"]
    s.first = view["first"]
    s.phase = view["phase"]
    pend = view["pending"]
    s.p_loc = pend["location"]
    s.p_n = pend["number"]
    s.fought = tuple(view.get("fought", ()))
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
            known[sc] = full if s.phase in (IRON, VALIANT) else bit | act_bit
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
                g = _group(cs, t.pool, kind, cards, L, split, is_staged)
                holder = s.loc_owner[L] if kind == "d" else s.loc_att[L]
                g.bits = [1 << (holder if i < split else s.active) for i in g.holes]
                g.pre = None
                g.post = ()
                if g.k == 1 and not is_staged:
                    g.pre = tuple(cards[: g.holes[0]])
                    g.post = tuple(cards[g.holes[0] + 1 : split])
                groups.append(g)
    t.groups = groups
    t.slots = sum(g.k for g in groups)
    t.loc_def_t = [tuple(x) for x in loc_def]
    t.loc_en_t = [tuple(x) for x in loc_en]
    t.newres = tuple(view["reserve_new"])
    t.newres_count = view["reserve_new_count"]
    t.need = sum(t.hand_counts) + sum(t.res_counts)
    t.hands0 = [tuple(h) for h in t.hands_known]
    t.res0 = [tuple(r) for r in t.res_known]
    # Hidden hand and reserve places in dealing order: (0 hand / 1 reserve, seat, count,
    # known cards there, the holder's bit).
    t.places = [(0, p, t.hand_counts[p], t.hands_known[p], 1 << p) for p in range(n)] + [
        (1, p, t.res_counts[p], t.res_known[p], 1 << p) for p in range(n)
    ]
    t.places = [x for x in t.places if x[2]]
    # The partial shuffle of the cards left after the groups (see `_deal`): its number of
    # outcomes, and raw draws enough that a redraw is needed less than once in 65536.
    m = len(t.pool) - t.slots
    t.fy_n = 1
    for i in range(t.need):
        t.fy_n *= m - i
    t.fy_words = (t.fy_n.bit_length() + 16 + 63) // 64
    if len(t.pool) != t.need + t.deck_hidden + sum(g.k for g in groups):
        raise CorruptRecord("the view's counts do not add up to the cards it hides")
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
    g.n = len(g.cands)
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
            raise CorruptRecord("no hidden-card deal fits this view")
        g.combos = combos
        acc = 0
        g.cum = []
        for w in weights:
            acc += w
            g.cum.append(acc)
    g.sets = []
    if g.cum and g.cum[-1] * factorial(k) <= _MAX_SETS:
        for combo in combos:
            parts: list[list[tuple[int, ...]]] = []
            for d in sorted(set(combo)):
                parts.append(list(combinations(copies[d], combo.count(d))))
            for pick in product(*parts):
                cards_ = [c for part in pick for c in part]
                g.sets.extend(permutations(cards_))
    return g


def _below_big(next64: Any, n: int, words: int) -> int:
    """Exactly uniform in [0, n) from `words` raw 64-bit draws (Lemire's method: multiply,
    keep the high part, reject the rare low parts that would bias it)."""
    shift = 64 * words
    mask = (1 << shift) - 1
    while True:
        r = 0
        for _ in range(words):
            r = (r << 64) | next64()
        x = r * n
        low = x & mask
        if low >= n or low >= (1 << shift) % n:
            return x >> shift


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
    if g.sets:
        return list(g.sets[below(len(g.sets))])  # already in a uniformly random order
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

    s = CardGameState(game)  # compiled, __new__ would run __init__ without its argument
    s._lo = False
    s.turn = base.turn
    s.active = base.active
    s.first = base.first
    s.phase = base.phase
    s.p_loc = base.p_loc
    s.p_n = base.p_n
    s.fought = base.fought
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
        used: set[int] = set()
        fills: list[Any] = []
        nslots = t.slots
        for _ in range(_MAX_TRIES):
            used.clear()
            fills.clear()
            for g in groups:
                if g.k == 1:
                    # One hidden card: every candidate is a valid set of one (`below`
                    # inlined, as this runs for most groups on every call).
                    w = g.n
                    bits, nb = buf
                    while True:
                        if nb == 0:
                            bits = next64()
                            nb = 4
                        x = (bits & 0xFFFF) * w
                        bits >>= 16
                        nb -= 1
                        if (x & 0xFFFF) >= w or (x & 0xFFFF) >= 0x10000 % w:
                            break
                    buf[0] = bits
                    buf[1] = nb
                    c = g.cands[x >> 16]
                    if c in used:
                        break
                    used.add(c)
                    fills.append(c)
                else:
                    fill = _draw_group(cs, g, below)
                    if not used.isdisjoint(fill):
                        break
                    used.update(fill)
                    fills.append(fill)
            if len(used) < nslots:
                continue
            if shuffled is None:
                break
            r = sum(1 for c in pool if c in shuffled and c not in used)
            if rng.below(t.wmax) < comb(r, t.deck_hidden):
                break
        else:
            raise CorruptRecord("no hidden-card deal fits this view")
        # `fills` holds a card for a one-card group, a list for the others: a name of its own
        # (the compiled build checks that `fill` above is a list)
        for g, picked in zip(groups, fills, strict=True):
            if g.pre is not None:
                known[picked] = g.bits[0]
                if g.kind == "d":
                    loc_def[g.L] = (*g.pre, picked, *g.post)
                else:
                    loc_en[g.L] = (*g.pre, picked, *g.post)
                continue
            chosen = [picked] if g.k == 1 else picked
            cards = g.cards[:]
            for pos, c, b in zip(g.holes, chosen, g.bits, strict=True):
                cards[pos] = c
                known[c] = b
            if g.kind == "d":
                loc_def[g.L] = tuple(cards[: g.split])
            else:
                loc_en[g.L] = tuple(cards[: g.split])
            if g.staged:
                staged = tuple(cards[g.split :])
        s.loc_def = loc_def
        s.loc_en = loc_en
        rest = pool[:]
        for c in used:
            rest.remove(c)
    else:
        s.loc_def = t.loc_def_t
        s.loc_en = t.loc_en_t
        rest = pool[:]
    s.p_cards = staged
    need = t.need
    if shuffled is None:
        # Partial Fisher-Yates: the first `need` cards go to the hidden hands and reserves.
        # Its `need` indices are the mixed-radix digits of one uniform number below
        # m (m - 1) ... (m - need + 1): two or three raw draws instead of one per card.
        m = len(rest)
        x = _below_big(next64, t.fy_n, t.fy_words)
        for i in range(need):
            x, j = divmod(x, m - i)
            j += i
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
    hands = t.hands0[:]
    reserve = t.res0[:]
    k = 0
    for zone, p, cnt, fixed, b in t.places:
        got = held[k : k + cnt]
        k += cnt
        for c in got:
            known[c] = b
        got += fixed
        got.sort()
        zone_list = hands if zone == 0 else reserve
        zone_list[p] = tuple(got)
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
