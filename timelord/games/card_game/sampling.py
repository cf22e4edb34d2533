"""`sample_state`: a full state consistent with one seat's view, hidden cards dealt at random.

Cards the seat cannot place are dealt into the hidden places. Face-down Defenders must be
Defenders of distinct types per Location and face-down Enemies must be Enemies that may
stand in their attack; those slots are filled first by a randomized depth-first search (the
real state proves a filling exists). The deck is an unordered pile (draws take a random
card), so it simply holds whatever is left.

Search agents call this once per iteration with the same view, so the work that depends only
on the view is done once and kept with the view object (`_Template`). Random picks use 16 bits
of a 64-bit draw each, by multiply-shift: the bias is below n / 65536 (under 0.2% here).
"""

from __future__ import annotations

from typing import Any

from timelord.core import Rng
from timelord.games.card_game.state import ATTACK, DEFEND, IRON, CardGameState


class _Template:
    """What one view fixes: the public state and the hidden slots to deal."""

    cands: Any
    cs: Any
    deck_known: Any
    dpool: Any
    end_depth: Any
    epool: Any
    game: Any
    groups: Any
    hand_counts: Any
    hands_known: Any
    known: Any
    loc_def: Any
    loc_def_t: Any
    loc_en: Any
    loc_en_t: Any
    n_free: Any
    need: Any
    newres: Any
    newres_count: Any
    pool: Any
    res_counts: Any
    res_known: Any
    s: Any
    slots: Any
    staged: Any
    staged_at: Any
    view: Any


_CACHE: list[Any] = [None, None]  # [view object, template]


def sample_state(game: Any, view: dict[str, Any], rng: Rng) -> CardGameState:
    t = _CACHE[1]
    if _CACHE[0] is not view or t.game is not game or t.cs is not game.cards:
        t = _template(game, view)
        _CACHE[0] = view
        _CACHE[1] = t
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
    t.loc_def = []
    t.loc_en = []
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
        t.loc_def.append(list(x["defenders"]))
        t.loc_en.append(list(x["enemies"]))
    t.staged = list(pend["cards"])
    act_bit = 1 << s.active
    for sc in t.staged:
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
    t.deck_known = list(view["deck"]["known"])
    for c in t.deck_known:
        known[c] = bit
        shown.add(c)
    t.known = known
    t.pool = [c for c in cs.cards_in_play(n) if c not in shown]
    t.dpool = [c for c in t.pool if cs.is_defender[c]]
    t.epool = [c for c in t.pool if cs.is_enemy[c]]
    t.end_depth = view["deck"]["below_end"]
    # Hidden slots with rules on what they hold: (kind, cards with None, location, split).
    groups: list[tuple[str, list[Any], int, int]] = []
    t.staged_at = -1
    for L in range(len(locs)):
        for kind, cards, staging in (("d", t.loc_def[L], DEFEND), ("e", t.loc_en[L], ATTACK)):
            split = len(cards)
            if s.phase == staging and s.p_loc == L:
                cards = cards + t.staged
                t.staged_at = len(groups)
            if None in cards:
                groups.append((kind, cards, L, split))
            elif s.phase == staging and s.p_loc == L:
                t.staged_at = -1
    t.groups = groups
    t.loc_def_t = [tuple(x) for x in t.loc_def]
    t.loc_en_t = [tuple(x) for x in t.loc_en]
    # Per group: the pool cards of the right kind that fit the group's known cards.
    t.cands = []
    for kind, cards, _, _ in groups:
        fixed = [c for c in cards if c is not None]
        if kind == "d":
            types = {cs.type[c] for c in fixed}
            t.cands.append([c for c in t.dpool if cs.type[c] not in types])
        else:
            t.cands.append([c for c in t.epool if all(_fits(cs, c, x) for x in fixed)])
    t.slots = [
        (g, i)
        for g, (_, cards, _, _) in enumerate(groups)
        for i, c in enumerate(cards)
        if c is None
    ]
    t.n_free = len(t.pool)
    t.newres = tuple(view["reserve_new"])
    t.newres_count = view["reserve_new_count"]
    t.need = sum(t.hand_counts) + sum(t.res_counts)
    s.end_depth = t.end_depth
    s.rng = 0
    return t


def _deal(t: _Template, rng: Rng) -> CardGameState:
    cs = t.cs
    game = t.game
    n = game.players
    base = t.s
    known = t.known[:]
    r = rng  # advance the caller's generator: each call deals anew
    buf = [0, 0]  # bits, count

    def rand(m: int) -> int:
        if buf[1] == 0:
            buf[0] = r.next64()
            buf[1] = 4
        x = buf[0] & 0xFFFF
        buf[0] >>= 16
        buf[1] -= 1
        return (x * m) >> 16

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
    s.tp = base.tp
    s.discard = base.discard
    s.aside = base.aside
    s.upres = base.upres
    s.passed = base.passed
    s.loc_card = base.loc_card
    s.loc_owner = base.loc_owner
    s.loc_att = base.loc_att
    s.loc_tardis = base.loc_tardis
    s.loc_up = base.loc_up
    s.end_depth = base.end_depth
    loc_def = t.loc_def_t[:]
    loc_en = t.loc_en_t[:]
    staged = tuple(t.staged)
    used: set[int] = set()
    if t.groups:
        filled = _fill(cs, t, rand, used)
        for g, (kind, cards, L, split) in enumerate(t.groups):
            cards = filled[g]
            holder = base.loc_owner[L] if kind == "d" else base.loc_att[L]
            for i, c in enumerate(cards):
                if not known[c]:
                    known[c] = 1 << (holder if i < split else base.active)
            if kind == "d":
                loc_def[L] = tuple(cards[:split])
            else:
                loc_en[L] = tuple(cards[:split])
            if g == t.staged_at:
                staged = tuple(cards[split:])
    s.loc_def = loc_def
    s.loc_en = loc_en
    s.p_cards = staged
    pool = t.pool[:]
    for c in used:
        pool.remove(c)
    m = len(pool)
    # Partial Fisher-Yates: the first `need` cards go to the hidden hands and reserves.
    need = t.need
    bits = nb = 0
    next64 = r.next64
    for i in range(need):
        if nb == 0:
            bits = next64()
            nb = 4
        j = i + (((bits & 0xFFFF) * (m - i)) >> 16)
        bits >>= 16
        nb -= 1
        pool[i], pool[j] = pool[j], pool[i]
    k = 0
    hands = []
    for p in range(n):
        cnt = t.hand_counts[p]
        got = pool[k : k + cnt]
        k += cnt
        b = 1 << p
        for c in got:
            known[c] = b
        hands.append(tuple(sorted(t.hands_known[p] + got)) if got else tuple(t.hands_known[p]))
    reserve = []
    for p in range(n):
        cnt = t.res_counts[p]
        got = pool[k : k + cnt]
        k += cnt
        b = 1 << p
        for c in got:
            known[c] = b
        reserve.append(tuple(sorted(t.res_known[p] + got)) if got else tuple(t.res_known[p]))
    s.hands = hands
    s.reserve = reserve
    s.deck = tuple(sorted(t.deck_known + pool[k:]))
    s.known = known
    if base.active == t.view["seat"]:
        s.newres = t.newres
    else:
        res = list(reserve[base.active])
        pick = []
        for _ in range(t.newres_count):
            pick.append(res.pop(rand(len(res))))
        s.newres = tuple(pick)
    s.rng = r.next64()
    return s


def _fits(cs: Any, c: int, x: int) -> bool:
    """Enemy c may stand in one attack with card x (a turned River Song fits anything)."""
    return not cs.is_enemy[x] or bool(cs.combine[cs.design[c]][cs.design[x]])


def _fill(cs: Any, t: _Template, rand: Any, used: set[int]) -> list[list[int]]:
    """Fill every constrained group's None slots (randomized depth-first search)."""
    groups = [list(cards) for _, cards, _, _ in t.groups]
    slots = t.slots
    kinds = [kind for kind, _, _, _ in t.groups]
    new: list[list[int]] = [[] for _ in groups]  # cards dealt into each group so far
    ctype = cs.type
    design = cs.design
    comb = cs.combine

    def ok(g: int, c: int) -> bool:
        if kinds[g] == "d":
            tc = ctype[c]
            return all(ctype[x] != tc for x in new[g])
        row = comb[design[c]]
        return all(row[design[x]] for x in new[g])

    budget = [0]

    def rec(k: int) -> bool:
        if k == len(slots):
            return True
        g, i = slots[k]
        cands = t.cands[g]
        m = len(cands)
        if m == 0:
            return False
        off = rand(m)
        for j in range(m):
            budget[0] -= 1
            if budget[0] < 0:
                return False
            c = cands[(off + j) % m]
            if c in used or (new[g] and not ok(g, c)):
                continue
            groups[g][i] = c
            used.add(c)
            new[g].append(c)
            if rec(k + 1):
                return True
            new[g].pop()
            used.discard(c)
            groups[g][i] = None
        return False

    for _ in range(100):
        budget[0] = 50_000
        if rec(0):
            return groups
        for g, i in slots:
            groups[g][i] = None
        for x in new:
            x.clear()
        used.clear()
    raise RuntimeError("no hidden-card deal fits this view")
