"""`sample_state`: a full state consistent with one seat's view, hidden cards dealt at random.

Cards the seat cannot place are shuffled into the hidden slots. Face-down Defenders must be
Defenders of distinct types per Location, face-down Enemies must be Enemies that may stand in
their attack; those slots are filled first by a randomized depth-first search (the real
state proves a filling exists). The deck order is unknown to everyone, so it is reshuffled.
"""

from __future__ import annotations

from typing import Any, cast

from timelord.core import Rng
from timelord.games.card_game.state import ATTACK, DEFEND, IRON, CardGameState

_TUPLES = ("aside", "discard")


def sample_state(game: Any, view: dict[str, Any], rng: Rng) -> CardGameState:
    cs = game.cards
    n = game.players
    seat = view["seat"]
    bit = 1 << seat
    full = (1 << n) - 1
    s = CardGameState(game)
    known = [0] * len(cs.design)
    s.known = known
    shown: set[int] = set()

    # Public parts.
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
    for c in s.discard:
        known[c] = full
    for c in s.aside:
        known[c] = full
    for u in s.upres:
        for c in u:
            known[c] = full
    shown.update(s.discard)
    shown.update(s.aside)
    for u in s.upres:
        shown.update(u)
    s.passed = [() for _ in range(n)]
    s.passed[seat] = tuple(tuple(x) for x in view["passed"])

    # Locations: cards placed now, hidden slots remembered for the search.
    locs = view["locations"]
    s.loc_card = [x["card"] for x in locs]
    s.loc_owner = [x["owner"] for x in locs]
    s.loc_att = [x["attacker"] for x in locs]
    s.loc_tardis = [x["tardis"] for x in locs]
    s.loc_up = []
    loc_def: list[list[int | None]] = []
    loc_en: list[list[int | None]] = []
    for x in locs:
        c = x["card"]
        known[c] = full
        shown.add(c)
        up = 0
        for i, f in enumerate(x["face_up"]):
            if f:
                up |= 1 << i
        s.loc_up.append(up)
        owner = x["owner"]
        ds = list(x["defenders"])
        for d in ds:
            if d is not None:
                known[d] = bit | (1 << owner)
                shown.add(d)
        es = list(x["enemies"])
        att = x["attacker"]
        for i, e in enumerate(es):
            if e is not None:
                known[e] = full if up >> i & 1 else bit | (1 << att)
                shown.add(e)
        loc_def.append(ds)
        loc_en.append(es)

    staged: list[int | None] = list(pend["cards"])
    act_bit = 1 << s.active
    for sc in staged:
        if sc is not None:
            known[sc] = full if s.phase == IRON else bit | act_bit
            shown.add(sc)

    hands_known = [list(h["known"]) for h in view["hands"]]
    res_known = [list(r["known"]) for r in view["reserves"]]
    for p in range(n):
        for c in hands_known[p]:
            known[c] = bit | (1 << p)
            shown.add(c)
        for c in res_known[p]:
            known[c] = bit | (1 << p)
            shown.add(c)
    deck_known = list(view["deck"]["known"])
    for c in deck_known:
        known[c] = bit
        shown.add(c)

    pool = [c for c in cs.cards_in_play(n) if c not in shown]
    r = rng.copy()
    r.shuffle(pool)

    # Constrained slots first: face-down Defenders, then face-down Enemies.
    groups: list[tuple[str, list[int | None], int]] = []  # (kind, cards, location)
    for L in range(len(locs)):
        cards = loc_def[L]
        if s.phase == DEFEND and s.p_loc == L:
            cards = cards + staged
        if None in cards:
            groups.append(("defender", cards, L))
        cards = loc_en[L]
        if s.phase == ATTACK and s.p_loc == L:
            cards = cards + staged
        if None in cards:
            groups.append(("enemy", cards, L))
    free = _fill_constrained(cs, groups, pool, r)
    for kind, cards, L in groups:
        nd = len(loc_def[L]) if kind == "defender" else len(loc_en[L])
        holder = s.loc_owner[L] if kind == "defender" else s.loc_att[L]
        for i, fc in enumerate(cards):
            assert fc is not None
            if known[fc] == 0:
                known[fc] = 1 << (holder if i < nd else s.active)
        if kind == "defender":
            loc_def[L] = cards[:nd]
        else:
            loc_en[L] = cards[:nd]
        staging = DEFEND if kind == "defender" else ATTACK
        if s.phase == staging and s.p_loc == L:
            staged = cards[nd:]
    # Every slot is filled now.
    s.loc_def = [cast(tuple[int, ...], tuple(x)) for x in loc_def]
    s.loc_en = [cast(tuple[int, ...], tuple(x)) for x in loc_en]
    s.p_cards = cast(tuple[int, ...], tuple(staged))

    # Everything else: hands, reserves, deck.
    k = 0
    s.hands = []
    s.reserve = []
    for p in range(n):
        need = view["hands"][p]["count"] - len(hands_known[p])
        got = free[k : k + need]
        k += need
        for c in got:
            known[c] = 1 << p
        s.hands.append(tuple(sorted(hands_known[p] + got)))
    for p in range(n):
        need = view["reserves"][p]["count"] - len(res_known[p])
        got = free[k : k + need]
        k += need
        for c in got:
            known[c] = 1 << p
        s.reserve.append(tuple(sorted(res_known[p] + got)))
    deck = deck_known + free[k:]
    assert len(deck) == view["deck"]["count"], "view and card set disagree"
    r.shuffle(deck)
    s.deck = tuple(deck)
    s.end_depth = view["deck"]["below_end"]
    if seat == s.active:
        s.newres = tuple(view["reserve_new"])
    else:
        s.newres = tuple(r.sample(s.reserve[s.active], view["reserve_new_count"]))
    s.rng = r.next64()
    return s


def _fill_constrained(
    cs: Any, groups: list[tuple[str, list[int | None], int]], pool: list[int], r: Rng
) -> list[int]:
    """Fill the None slots of each group in place; return the unused rest of the pool."""
    if not groups:
        return pool
    used: set[int] = set()
    slots = [
        (g, i) for g, (_, cards, _) in enumerate(groups) for i, c in enumerate(cards) if c is None
    ]
    is_def = cs.is_defender
    is_en = cs.is_enemy
    ctype = cs.type
    design = cs.design
    comb = cs.combine
    budget = [20000]

    def ok(g: int, c: int) -> bool:
        kind, cards, _ = groups[g]
        if kind == "defender":
            if not is_def[c]:
                return False
            t = ctype[c]
            return all(x is None or ctype[x] != t for x in cards)
        if not is_en[c]:
            return False
        row = comb[design[c]]
        return all(x is None or not is_en[x] or row[design[x]] for x in cards)

    def rec(k: int) -> bool:
        if k == len(slots):
            return True
        g, i = slots[k]
        cards = groups[g][1]
        for c in pool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if c in used or not ok(g, c):
                continue
            cards[i] = c
            used.add(c)
            if rec(k + 1):
                return True
            used.discard(c)
            cards[i] = None
        return False

    for _ in range(50):
        budget[0] = 20000
        if rec(0):
            return [c for c in pool if c not in used]
        for g, i in slots:
            groups[g][1][i] = None
        used.clear()
        r.shuffle(pool)
    raise RuntimeError("no hidden-card deal fits this view")
