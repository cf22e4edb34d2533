"""The Card Game heuristic's judgement: what each legal move is worth to the seat to move.

The same code reads a seat's view (the heuristic agent, which must not see more) or a full
state (search rollouts on a sampled deal, where every card is already dealt). Both are
turned into a `Table` with the state's field names; a card the seat cannot see is `None` and
counts as the average card of its kind.

How it plays, in the order a newcomer learns it:
1. Play Locations (Victory Points and Time Points) as soon as they are in hand.
2. Break attacks on its own Locations: a Support card that defeats the attack outright, or
   Defenders strong enough for the attack as far as it can tell (face-up cards exactly,
   face-down ones at the average Enemy strength plus a margin). It never sends Defenders
   into a defence it expects to lose.
3. Attack other players' Locations: the most Victory Points first, the leader's before the
   others', undefended ones with one Enemy (the attack stands at once), defended ones only
   with clearly more strength than the Defenders there are likely to have.
4. The five-counter end (C-6.1): it takes a fifth Dalek counter only when it would then
   lead, and it hurries to break the attacks of a player who has four or five counters out
   and leads; the same for TARDIS counters (Mr Clever, attacking a TARDIS).
5. Supports where they help (reserve places, Ironsides, revealing an attack before
   defending, Chameleon Arch, TARDIS and Crack in Time for points); Time Points buy cards.
6. What is left: the best spare cards go to the reserve (Defenders, attack breakers) or are
   discarded for Time Points, so that the three cards passed right are the worst ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from timelord.core import Action
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardEnemies,
    DiscardForTime,
    DiscardToRegenerate,
    EndTurn,
    Finish,
    Pass,
    PickUp,
    PlaceReserve,
    PlaceTardis,
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
    PlayValiant,
    RemoveTardis,
    TakeOver,
    TakeTime,
    UseIronsides,
)
from timelord.games.card_game.cards import CardSet

#: shedding moves (reserve, discard) are never valued above this
SHED_MAX = 3.0
#: extra strength assumed per face-down card of the other side (it may be a strong one)
MARGIN = 0.75


class Table:
    """What the deciding seat knows, with the state's field names (see the module docstring)."""

    __slots__ = (
        "counters",
        "cs",
        "endgame",
        "hand",
        "loc_att",
        "loc_card",
        "loc_def",
        "loc_en",
        "loc_owner",
        "loc_tardis",
        "mean_defender",
        "mean_enemy",
        "n",
        "newres",
        "p_cards",
        "p_loc",
        "pass_count",
        "phase",
        "reserve",
        "seat",
        "tp",
        "upres",
    )  # fmt: skip

    cs: CardSet
    seat: int
    n: int
    loc_card: Sequence[int]
    loc_owner: Sequence[int]
    loc_att: Sequence[int]
    loc_tardis: Sequence[bool]
    loc_def: Sequence[Sequence[int | None]]
    loc_en: Sequence[Sequence[int | None]]
    hand: Sequence[int]
    reserve: Sequence[int]
    newres: Sequence[int]
    upres: Sequence[int]
    tp: Sequence[int]
    endgame: bool
    phase: str
    p_loc: int
    p_cards: Sequence[int | None]
    pass_count: int
    counters: int
    mean_enemy: float
    mean_defender: float


_MEANS: dict[int, tuple[float, float]] = {}


def _means(cs: CardSet) -> tuple[float, float]:
    """Average strength of an Enemy and of a Defender card in this card set."""
    key = id(cs)
    m = _MEANS.get(key)
    if m is None:
        en = [cs.strength[c] for c in range(cs.game_cards) if cs.is_enemy[c]]
        de = [cs.strength[c] for c in range(cs.game_cards) if cs.is_defender[c]]
        m = (sum(en) / len(en) if en else 2.0, sum(de) / len(de) if de else 2.0)
        _MEANS[key] = m
    return m


_STRONGEST: dict[int, int] = {}


def _strongest_enemy(cs: CardSet) -> int:
    m = _STRONGEST.get(id(cs))
    if m is None:
        en = [cs.strength[c] for c in range(cs.game_cards) if cs.is_enemy[c]]
        m = _STRONGEST[id(cs)] = max(en, default=0)
    return m


def table_from_state(state: Any) -> Table:
    """The seat to move's table on a full (sampled) state; nothing is hidden there."""
    t = Table()
    cs = state.cs
    t.cs = cs
    p = state.to_move
    t.seat = p
    t.n = state.game.players
    t.loc_card = state.loc_card
    t.loc_owner = state.loc_owner
    t.loc_att = state.loc_att
    t.loc_tardis = state.loc_tardis
    t.loc_def = state.loc_def
    t.loc_en = state.loc_en
    t.hand = state.hands[p]
    t.reserve = state.reserve[p]
    t.newres = state.newres
    t.upres = state.upres[p]
    t.tp = state.tp
    t.endgame = state.endgame
    t.phase = state.phase
    t.p_loc = state.p_loc
    t.p_cards = state.p_cards
    t.pass_count = state.game.pass_count
    t.counters = cs.constants.counters
    t.mean_enemy, t.mean_defender = _means(cs)
    return t


def table_from_view(view: dict[str, Any], cs: CardSet, pass_count: int) -> Table:
    """The table of the view's seat: face-down cards it cannot see are `None`."""
    t = Table()
    t.cs = cs
    p = view["seat"]
    t.seat = p
    t.n = view["players"]
    locs = view["locations"]
    t.loc_card = [x["card"] for x in locs]
    t.loc_owner = [x["owner"] for x in locs]
    t.loc_att = [x["attacker"] for x in locs]
    t.loc_tardis = [x["tardis"] for x in locs]
    t.loc_def = [x["defenders"] for x in locs]
    t.loc_en = [x["enemies"] for x in locs]
    t.hand = view["hands"][p]["known"]
    t.reserve = view["reserves"][p]["known"]
    t.newres = view["reserve_new"]
    t.upres = view["reserve_up"][p]
    t.tp = view["time"]
    t.endgame = view["endgame"]
    t.phase = view["phase"]
    t.p_loc = view["pending"]["location"]
    t.p_cards = view["pending"]["cards"]
    t.pass_count = pass_count
    t.counters = cs.constants.counters
    t.mean_enemy, t.mean_defender = _means(cs)
    return t


# ---------------------------------------------------------------------- reading the table
def scores(t: Table) -> list[int]:
    """Victory Points as they stand (C-6.4); an unseen Enemy is taken not to void."""
    cs = t.cs
    out = [0] * t.n
    for L, card in enumerate(t.loc_card):
        ens = t.loc_en[L]
        if not ens:
            out[t.loc_owner[L]] += cs.vp[card]
        elif not any(e is not None and "voids-location" in cs.effects[e] for e in ens):
            out[t.loc_att[L]] += cs.vp[card]
    return out


def _likely(t: Table, cards: Sequence[int | None], unseen: float) -> float:
    """Seen cards' strengths exactly, each unseen one as `unseen`."""
    st = t.cs.strength
    return sum(unseen if c is None else st[c] for c in cards)


def enemy_strength(t: Table, cards: Sequence[int | None]) -> float:
    """Likely strength of an attack: seen cards exactly, unseen ones at the mean plus a margin."""
    return _likely(t, cards, t.mean_enemy + MARGIN)


def defender_strength(t: Table, cards: Sequence[int | None]) -> float:
    """Likely strength of a defence, counted the same way."""
    return _likely(t, cards, t.mean_defender + MARGIN)


def beats_outright(t: Table, defenders: Sequence[int], enemies: Sequence[int | None]) -> bool:
    """A seen Enemy beaten by a Defender type present (Silurians and Amy Pond)."""
    cs = t.cs
    types = {cs.type[d] for d in defenders}
    for e in enemies:
        if e is not None and "beaten-by" in cs.effects[e] and cs.param(e, "beaten_by") in types:
            return True
    return False


def _keep(cs: CardSet, c: int) -> float:
    if cs.is_location[c]:
        return 10.0 + cs.vp[c]
    if cs.is_defender[c]:
        return 2.0 + cs.strength[c] + (0.5 if "returns-to-hand" in cs.effects[c] else 0.0)
    if cs.is_enemy[c]:
        return 1.5 + cs.strength[c] + (1.0 if "takeover" in cs.effects[c] else 0.0)
    eff = cs.effects[c]
    if eff & {"defeat-attack", "discard-enemy", "redirect", "valiant"}:
        return 6.0
    if eff & {"reserve-slot", "ironsides"}:
        return 4.0
    return 3.0


_KEEP: dict[int, tuple[float, ...]] = {}


def keep_table(cs: CardSet) -> tuple[float, ...]:
    """`keep_value` of every card of the set, computed once."""
    k = _KEEP.get(id(cs))
    if k is None:
        k = _KEEP[id(cs)] = tuple(_keep(cs, c) for c in range(len(cs.design)))
    return k


def keep_value(t: Table, c: int) -> float:
    """How much a card in hand is worth keeping (or worth not passing on)."""
    return keep_table(t.cs)[c]


class Context:
    """Figures computed once per decision."""

    __slots__ = (
        "_shed",
        "daleks",
        "keep",
        "lead",
        "leader",
        "my",
        "plans",
        "score",
        "spare",
        "tardis",
    )

    def __init__(self, t: Table) -> None:
        self.score = scores(t)
        p = t.seat
        self.my = self.score[p]
        others = [q for q in range(t.n) if q != p]
        self.leader = max(others, key=lambda q: (self.score[q], -q))
        #: how far this seat is ahead of the best other seat (negative: behind)
        self.lead = self.my - self.score[self.leader]
        #: cards this seat may still spend this turn (C-3.2)
        self.spare = len(t.hand) - (0 if t.endgame else t.pass_count)
        att = t.loc_att
        self.daleks = [att.count(q) for q in range(t.n)]
        tardis = [0] * t.n
        for L, o in enumerate(t.loc_owner):
            if t.loc_tardis[L]:
                tardis[o] += 1
        self.tardis = tardis
        self.plans: dict[int, Any] = {}
        self.keep = keep_table(t.cs)
        self._shed: frozenset[int] | None = None

    def shed(self, t: Table) -> frozenset[int]:
        """The spare cards worth the most: they leave the hand, the rest are passed."""
        if self._shed is None:
            k = self.keep
            hand = sorted(t.hand, key=lambda c: (-k[c], c))
            self._shed = frozenset(hand[: max(0, self.spare)])
        return self._shed


def leads_after(ctx: Context, t: Table, gain: int, loser: int, loss: int) -> bool:
    """Would this seat be strictly first after gaining `gain` and `loser` losing `loss`?"""
    p = t.seat
    mine = ctx.my + gain
    for q in range(t.n):
        if q != p and ctx.score[q] - (loss if q == loser else 0) >= mine:
            return False
    return True


def threat(ctx: Context, t: Table, q: int) -> float:
    """How urgently seat q's attacks must be broken: it is about to end the game (C-6.1)
    while first, or it leads by much."""
    if q < 0 or q == t.seat:
        return 0.0
    bonus = 0.0
    best_other = max(ctx.score[r] for r in range(t.n) if r != q)
    if ctx.daleks[q] >= t.counters - 1 and ctx.score[q] >= best_other:
        bonus += 12.0
    if q == ctx.leader and ctx.score[q] > ctx.my:
        bonus += 2.0
    return bonus


# ---------------------------------------------------------------------- plans
def defence_plan(t: Table, L: int, cards: Sequence[int], budget: int) -> list[int] | None:
    """Defenders from `cards` (one per type, none of a type already at L) that should win the
    conflict at L; the fewest, then the weakest, that reach the needed strength; None if the
    seat cannot reach it with `budget` cards."""
    cs = t.cs
    there = [d for d in t.loc_def[L] if d is not None]
    ens = t.loc_en[L]
    have = defender_strength(t, t.loc_def[L])
    types = {cs.type[d] for d in there}
    pool: dict[str, int] = {}
    for c in cards:
        if not cs.is_defender[c] or cs.type[c] in types:
            continue
        if cs.type[c] not in pool or cs.strength[c] > cs.strength[pool[cs.type[c]]]:
            pool[cs.type[c]] = c
    if budget <= 0 or not pool:
        return None
    # Amy Pond beats a seen Silurian whatever its strength.
    for c in pool.values():
        if beats_outright(t, [*there, c], ens):
            return [c]
    need = enemy_strength(t, ens) - have
    ranked = sorted(pool.values(), key=lambda c: (-cs.strength[c], c))
    singles = [c for c in ranked if cs.strength[c] >= need]
    if singles:
        return [singles[-1]]
    plan: list[int] = []
    total = 0.0
    for c in ranked[:budget]:
        plan.append(c)
        total += cs.strength[c]
        if total >= need:
            return plan
    return None


def attack_plan(
    t: Table, L: int, cards: Sequence[int], budget: int, first: int | None = None
) -> tuple[list[int], float]:
    """Enemies from `cards` for a new attack on L, strongest first, all able to combine;
    stops once they clearly beat the likely defence (one card against an undefended L)."""
    cs = t.cs
    enemies = sorted((c for c in cards if cs.is_enemy[c]), key=lambda c: (-cs.strength[c], c))
    if first is not None:
        enemies.remove(first)
        enemies.insert(0, first)
    need = defender_strength(t, t.loc_def[L]) if t.loc_def[L] else 0.0
    plan: list[int] = []
    total = 0.0
    row = cs.combine
    de = cs.design
    for c in enemies:
        if len(plan) >= budget:
            break
        if any(not row[de[c]][de[o]] for o in plan):
            continue
        plan.append(c)
        total += cs.strength[c]
        if total > need + (0 if not t.loc_def[L] else 0.5):
            break
    return plan, total


# ---------------------------------------------------------------------- valuing moves
def choose(t: Table, legal: Sequence[Action]) -> Action:
    """The best-valued legal move (the first of equals: decisions are deterministic)."""
    if len(legal) == 1:
        return legal[0]
    ph = t.phase
    ctx = Context(t)
    if ph == "declare-defenders":
        return _declare_defenders(t, legal)
    if ph == "declare-enemies":
        return _declare_enemies(t, legal)
    if ph == "main" and isinstance(legal[0], PickUp | PlayLocation | EndTurn):
        # Locations come first whatever else is possible (the richest one first)
        vp = t.cs.vp
        locs = [a for a in legal if type(a) is PlayLocation]
        if locs:
            return max(locs, key=lambda a: (vp[a.card], -a.card))
    best = legal[0]
    best_v = -1e9
    for a in legal:
        k = type(a)
        if (k is DiscardForTime or k is PlaceReserve) and best_v >= SHED_MAX:
            continue  # shedding never beats a real move; skip the many combinations
        v = value(t, ctx, a)
        if v > best_v:
            best, best_v = a, v
    return best


def _declare_defenders(t: Table, legal: Sequence[Action]) -> Action:
    L = t.p_loc
    staged = [c for c in t.p_cards if c is not None]
    offered = [a.card for a in legal if isinstance(a, PlayDefender)]
    fin = next(a for a in legal if isinstance(a, Finish))
    if not t.loc_en[L]:
        return fin  # a face-down guard: one card is enough to deter
    cs = t.cs
    have = defender_strength(t, t.loc_def[L]) + sum(cs.strength[c] for c in staged)
    ens = t.loc_en[L]
    there = [d for d in t.loc_def[L] if d is not None] + staged
    if beats_outright(t, there, ens) or have >= enemy_strength(t, ens):
        return fin
    for c in offered:
        if beats_outright(t, [*there, c], ens):
            return _defender_action(legal, c)
    need = enemy_strength(t, ens) - have
    ranked = sorted(offered, key=lambda c: (-cs.strength[c], c))
    enough = [c for c in ranked if cs.strength[c] >= need]
    pick = enough[-1] if enough else (ranked[0] if ranked else None)
    return fin if pick is None else _defender_action(legal, pick)


def _defender_action(legal: Sequence[Action], card: int) -> Action:
    return next(a for a in legal if isinstance(a, PlayDefender) and a.card == card)


def _declare_enemies(t: Table, legal: Sequence[Action]) -> Action:
    L = t.p_loc
    cs = t.cs
    fin = next(a for a in legal if isinstance(a, Finish))
    offered = [a for a in legal if isinstance(a, PlayEnemy)]
    if not offered or not t.loc_def[L]:
        return fin  # an undefended Location: the attack stands with one card
    staged = sum(cs.strength[c] for c in t.p_cards if c is not None)
    mine = enemy_strength(t, [e for e in t.loc_en[L]]) if t.loc_att[L] == t.seat else 0.0
    if staged + mine > defender_strength(t, t.loc_def[L]) + 0.5:
        return fin
    return max(offered, key=lambda a: (cs.strength[a.card], -a.card))


def value(t: Table, ctx: Context, a: Action) -> float:
    """What move `a` is worth now (higher is better; shedding cards is about 1)."""
    cs = t.cs
    p = t.seat
    kind = type(a)
    if kind is PlayLocation:
        c = a.card  # type: ignore[attr-defined]
        return 20.0 + cs.vp[c] + 0.3 * cs.tp[c]
    if kind is PlayDefender:
        return _value_defender(t, ctx, a.card, a.location)  # type: ignore[attr-defined]
    if kind is PlayEnemy:
        return _value_attack(t, ctx, a.card, a.location)  # type: ignore[attr-defined]
    if kind is TakeOver:
        L = a.location  # type: ignore[attr-defined]
        vp = cs.vp[t.loc_card[L]]
        return 6.0 + 1.5 * vp + threat(ctx, t, t.loc_att[L])
    if kind is PlaySupport:
        return _value_support(t, ctx, a)  # type: ignore[arg-type]
    if kind is PickUp:
        return _value_pickup(t, ctx, a.card)  # type: ignore[attr-defined]
    if kind is BuyCards:
        if a.count != 1:  # type: ignore[attr-defined]
            return -1.0
        return 1.5 if t.endgame else 5.0
    if kind is DiscardForTime or kind is PlaceReserve:
        return _value_shed(t, ctx, a.cards, kind is PlaceReserve)  # type: ignore[attr-defined]
    if kind is EndTurn:
        return 0.0
    if kind is TakeTime:
        q = a.seat  # type: ignore[attr-defined]
        return ctx.score[q] + 0.01 * t.tp[q]
    if kind is RemoveTardis:
        L = a.location  # type: ignore[attr-defined]
        o = t.loc_owner[L]
        if o == p:
            return -5.0
        return 1.0 + ctx.score[o] * 0.1 + ctx.tardis[o]
    if kind is Finish:
        return 0.0
    if kind is PlaceTardis:
        if ctx.tardis[p] + 1 >= t.counters and ctx.lead <= 0:
            return -1.0
        return 1.0
    if kind is Pass:
        return 0.0
    if kind is UseIronsides:
        return _value_ironsides(t)
    if kind is PlayValiant:
        return 1.0
    if kind is DiscardToRegenerate:
        c = a.card  # type: ignore[attr-defined]
        return 4.5 - keep_value(t, c)
    if kind is DiscardEnemies:
        # equal strength either way: keep the most cards standing
        return -len(a.cards)  # type: ignore[attr-defined]
    return 0.0


def _value_defender(t: Table, ctx: Context, c: int, L: int) -> float:
    cs = t.cs
    vp = cs.vp[t.loc_card[L]]
    if t.loc_att[L] >= 0:
        key = -1 - L
        if key not in ctx.plans:
            ctx.plans[key] = defence_plan(t, L, t.hand, ctx.spare)
        plan = ctx.plans[key]
        if plan is None or all(cs.design[d] != cs.design[c] for d in plan):
            return -2.0
        return 9.0 + 2.0 * vp + threat(ctx, t, t.loc_att[L]) - 1.5 * (len(plan) - 1)
    # a face-down guard on an unattacked Location deters attacks; one is enough
    if t.loc_def[L] or t.loc_tardis[L] or t.endgame:
        return -1.0
    best = max(
        (d for d in t.hand if cs.is_defender[d]), key=lambda d: (cs.strength[d], -d), default=-1
    )
    if c != best:
        return -1.0
    mine = [M for M, o in enumerate(t.loc_owner) if o == t.seat and not t.loc_def[M]]
    top = max(cs.vp[t.loc_card[M]] for M in mine)
    if vp < top:
        return -1.0
    return 2.0 + 0.5 * vp + 0.3 * cs.strength[c]


def _value_attack(t: Table, ctx: Context, c: int, L: int) -> float:
    cs = t.cs
    p = t.seat
    q = t.loc_owner[L]
    vp = cs.vp[t.loc_card[L]]
    if t.loc_att[L] == p:
        # reinforcing one's own attack: worth it when it is face-up and weak
        if ctx.spare < 2:
            return -1.0
        seen = all(e is not None for e in t.loc_en[L])
        return (2.5 if seen else 0.5) + 0.2 * vp
    if t.loc_tardis[L]:
        return 3.0 + ctx.tardis[q] if ctx.tardis[q] >= t.counters - 1 else -1.0
    got = ctx.plans.get(L)
    if got is None:
        got = ctx.plans[L] = attack_plan(t, L, t.hand, ctx.spare)
    plan, total = got
    if not plan or cs.design[plan[0]] != cs.design[c]:
        return -1.0
    if t.loc_def[L]:
        if total <= defender_strength(t, t.loc_def[L]) + 0.5:
            return -3.0
        v = 4.0 + 2.0 * vp - 1.0 * (len(plan) - 1)
    else:
        v = 6.0 + 2.0 * vp + 0.2 * cs.strength[c]
    if q == ctx.leader:
        v += 1.5
    if ctx.daleks[p] + 1 >= t.counters:
        # the fifth counter ends the game at this seat's next turn (C-6.1)
        v += 15.0 if leads_after(ctx, t, vp, q, vp) else -30.0
    return v


def _value_support(t: Table, ctx: Context, a: PlaySupport) -> float:
    cs = t.cs
    c = a.card
    eff = cs.effects[c]
    L = a.location
    vp = cs.vp[t.loc_card[L]] if L >= 0 else 0
    if "defeat-attack" in eff:
        if a.extra >= 0:
            cost = keep_value(t, a.extra) * 0.5
        else:
            cost = 0.0
        return 10.0 + 2.0 * vp + threat(ctx, t, t.loc_att[L]) - cost
    if "discard-enemy" in eff:
        ens = t.loc_en[L]
        if len(ens) == 1:
            return 10.0 + 2.0 * vp + threat(ctx, t, t.loc_att[L])
        target = ens[a.target]
        st = t.mean_enemy if target is None else cs.strength[target]
        return 1.0 + 0.5 * st
    if "redirect" in eff:
        M = a.target
        o = t.loc_owner[M]
        # send the attack to the leader's most valuable Location
        return 7.0 + 2.0 * vp + (1.0 if o == ctx.leader else 0.0) + 0.3 * cs.vp[t.loc_card[M]]
    if "reveal-attack" in eff:
        hidden = sum(1 for e in t.loc_en[L] if e is None)
        if not hidden:
            return 1.5
        # turn the attack up first when the Defenders at hand might fall short of it
        seen = sum(cs.strength[e] for e in t.loc_en[L] if e is not None)
        worst = seen + hidden * _strongest_enemy(cs)
        defence = defender_strength(t, t.loc_def[L])
        plan = defence_plan(t, L, [d for d in t.hand if d != c], ctx.spare - 1)
        if plan is not None:
            defence += sum(cs.strength[d] for d in plan)
            if defence < worst:
                return 9.5 + 2.0 * vp + threat(ctx, t, t.loc_att[L])
        return 5.0 + 0.5 * vp
    if "reserve-slot" in eff or "ironsides" in eff:
        return 3.5
    if "count-tardis" in eff or "count-daleks" in eff:
        counts = ctx.tardis if "count-tardis" in eff else ctx.daleks
        return 1.0 + 0.4 * counts[t.seat]
    if "remove-tardis" in eff:
        others = sum(ctx.tardis[q] for q in range(t.n) if q != t.seat)
        return 2.0 + 0.5 * others
    if "regenerate" in eff:
        return 2.0
    return 0.5


def _value_pickup(t: Table, ctx: Context, c: int) -> float:
    cs = t.cs
    if t.endgame:
        return -1.0
    if cs.is_location[c]:
        return 25.0
    if cs.is_defender[c]:
        attacked = [L for L, o in enumerate(t.loc_owner) if o == t.seat and t.loc_att[L] >= 0]
        for L in attacked:
            if defence_plan(t, L, t.hand, ctx.spare) is None:
                plan = defence_plan(t, L, [*t.hand, c], ctx.spare + 1)
                if plan is not None and c in plan:
                    return 12.0
        return -1.0
    eff = cs.effects[c]
    if eff & {"defeat-attack", "discard-enemy", "redirect"}:
        attacked = [L for L, o in enumerate(t.loc_owner) if o == t.seat and t.loc_att[L] >= 0]
        return 12.0 if attacked else -1.0
    return -1.0


def _value_shed(t: Table, ctx: Context, cards: tuple[int, ...], reserve: bool) -> float:
    """Shedding cards so that the worst ones are passed: the best spare cards go to the
    reserve (when worth keeping) or the discard pile; never what would be passed anyway."""
    if t.endgame:
        # one action per turn: discard the least useful card, keep the rest for later turns
        if reserve:
            return -1.0
        return 0.2 - 0.01 * sum(ctx.keep[c] for c in cards) - 0.05 * (len(cards) - 1)
    shed = ctx.shed(t)
    for c in cards:
        if c not in shed:
            return -1.0
    worth = [ctx.keep[c] for c in cards]
    if reserve:
        if min(worth) < 4.5:
            return -1.0
        return min(SHED_MAX - 0.5, 1.0 + 0.05 * sum(worth))
    # two at once is the same as two single discards, in fewer steps
    return 0.5 + 0.01 * sum(worth) + 0.1 * len(cards)


def _value_ironsides(t: Table) -> float:
    L = t.p_loc
    have = defender_strength(t, t.loc_def[L])
    attack = enemy_strength(t, t.loc_en[L])
    return 1.0 if have < attack <= have + 1 else -1.0
