"""Keys to the TARDIS for bots: how far each pawn is from its goal edge, and play built on it.

The race is measured by a shortest path from each pawn to its goal edge, where stepping onto a
tile costs what it would take a player to get through it: 1 for a face-up door it may enter,
3 for a closed door (a Key or Sonic to open it, and an unseen back might be a Dalek), 4 for a
face-up Dalek door without a Jam Cookie, 5 for a closed door known to hide a Dalek, 6 for a
barred tile; the Control tile is not walked onto. A pawn off the board starts next to its
home edge; a pawn in a Pandorica adds its waiting turns. Only what every seat can see is used
(backs of doors never opened count as unknown), so the value is the same for every
determinisation of a view.

- `evaluate` (search cut-off): each seat's share of exp(-distance / 1.5) (a `TEMPO` weight
  can add the wait for each seat's next turn; it is 0: in a short check, 11 games against
  three heuristics, ismcts:hard won 0.27 with TEMPO 1 against 0.45 without on the same deals).
- `rollout` (fast; the heuristic's look at the replies, and the base of the search's
  playouts): a win at hand first (`winning`: the step onto the goal edge, or the card that
  opens the way for it this turn); otherwise move to the neighbour nearest the goal; in the
  card phase open (or cookie) the best adjacent door that shortens the path, else play a
  random card half the time and discard the first card otherwise.
- `search_rollout` (the search's playouts, `HOOKS.simulation`): `rollout`, with a reflex
  the table's heuristic has from its look at the rivals' replies: a seat that cannot win
  this turn stops the first rival who could step onto its goal edge on its coming turn
  (`blocking`: a Time Barrier or a closing Key or Sonic on that step, a Pandorica, a push).
  Without it every simulated rival lets the leader through, and the search learns nothing
  from playing on past its own turn.
- `certain_win` (the search's `settled` hook): a step onto the goal edge, or a card that
  opens it for certain (a barrier removed, a seen door opened), played without a search.
- The heuristic agent is the generic one-ply lookahead (`LookaheadAgent`) valued by
  `evaluate`: it tries each card or move on one deal (three at `hard`) and keeps the one
  that leaves its pawn closest to the goal relative to the others; a newcomer's "get there
  first, and slow down whoever is ahead".

Speed (search calls these on every iteration): a board's public facts (open, barred, cookied
doors, known Daleks, tunnels) become one bitmask per tile cost, cached by those facts in
`_Board`; a goal's field grows whole-mask levels from the goal edge (about one level per unit
of distance), only as far as asked and kept on the board for the next question: a pawn's
distance grows it until it touches the pawn, the rollout (only when a move or an adjacent door
is on offer) until its nearest offer is settled. `goal_field` and the
`costs` form of `distance` are the plain Dijkstra definitions, which tests hold them to.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from timelord.agents.base import Agent
from timelord.agents.heuristic import LookaheadAgent
from timelord.agents.hooks import Evaluation, Hooks, Policy
from timelord.core import Action, Game, Rng, State, View
from timelord.games.keys.actions import (
    AssaultPawn,
    CloseDoor,
    DiscardCard,
    MovePawn,
    OpenDoor,
    PlaceBarrier,
    PlaceCookie,
    PlacePandorica,
    PlaceTunnel,
    StayPut,
)
from timelord.games.keys.board import DALEK, TELEPORT, Geometry

INF = 10**6
OPEN_COST, CLOSED_COST, DALEK_COST, CLOSED_DALEK_COST, BARRIER_COST = 1, 3, 4, 5, 6
TEMPERATURE = 1.5
#: how much a seat's wait for its next turn counts, in path cost per round
TEMPO = 0.0
_RING = BARRIER_COST + 1  # buckets in `goal_field`: more than the dearest step


def tile_costs(state: State) -> list[int]:
    """What stepping onto each tile costs (see the module docstring); public facts only."""
    s = state
    opened, seen = s.open_mask, s.seen_mask  # type: ignore[attr-defined]
    barred, cookies, back = s.barrier_mask, s.cookie_mask, s.back  # type: ignore[attr-defined]
    control = s.tables.control  # type: ignore[attr-defined]
    costs = []
    for t in range(len(back)):
        bit = 1 << t
        if t == control:
            costs.append(INF)
        elif barred & bit:
            costs.append(BARRIER_COST)
        elif opened & bit:
            costs.append(DALEK_COST if back[t] == DALEK and not cookies & bit else OPEN_COST)
        elif seen & bit and back[t] == DALEK:
            costs.append(CLOSED_DALEK_COST)
        else:
            costs.append(CLOSED_COST)
    return costs


_TABLES: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[tuple[int, ...], ...]] = {}


def _neighbour_table(state: State) -> tuple[tuple[int, ...], ...]:
    """Each tile's neighbours, orthogonal and along the Time Tunnels (cached per grid and
    tunnel set)."""
    s: Any = state
    orthogonal = s.tables.orthogonal
    key = (len(orthogonal), s.tunnels)
    table = _TABLES.get(key)
    if table is None:
        rows = [list(near) for near in orthogonal]
        for a, b in s.tunnels:
            rows[a].append(b)
            rows[b].append(a)
        table = _TABLES[key] = tuple(tuple(r) for r in rows)
    return table


def goal_field(state: State, seat: int, costs: list[int]) -> list[int]:
    """Cost from each tile to the seat's goal edge: the summed costs of the tiles entered.

    Dijkstra over a ring of buckets, one per distance (Dial's method: every cost is a small
    integer); a tile settled at distance d offers d + its own cost to all its neighbours."""
    table = _neighbour_table(state)
    cells = len(table)
    field = [INF] * cells
    goal = state.goal_mask(seat)  # type: ignore[attr-defined]
    ring: list[list[int]] = [[] for _ in range(_RING)]
    first = ring[0]
    for t in range(cells):
        if goal >> t & 1:
            field[t] = 0
            first.append(t)
    pending = len(first)
    d = 0
    while pending:
        slot = d % _RING
        bucket = ring[slot]
        if bucket:
            ring[slot] = []
            pending -= len(bucket)
            for t in bucket:
                if field[t] != d:
                    continue
                cost = costs[t]
                if cost >= INF:
                    continue
                step = d + cost
                for u in table[t]:
                    if step < field[u]:
                        field[u] = step
                        ring[step % _RING].append(u)
                        pending += 1
        d += 1
    return field


@cache
def _grid_masks(geo: Geometry) -> tuple[int, int, int]:
    """Every tile, the tiles not on the west edge, those not on the east edge, as masks."""
    full = (1 << geo.cells) - 1
    return full, full & ~geo.edge_masks[1], full & ~geo.edge_masks[3]


class _Board:
    """One public board as bitmasks, shared by every state that has it (pawns do not enter):
    the tiles of each entry cost, and the goal fields computed so far.

    Distances grow level by level over whole masks: R(d), the tiles at most d from the goal,
    is the goal edge plus the neighbours of every tile t in R(d - cost of t); a level is a
    dozen integer operations, so a pawn's distance costs about one per unit of distance."""

    __slots__ = (
        "cells",
        "classes",
        "distances",
        "fields",
        "full",
        "links",
        "not_east",
        "not_west",
        "size",
    )

    def __init__(self, state: State) -> None:
        s: Any = state
        geo = s.tables.geo
        self.size, self.cells = geo.size, geo.cells
        self.full, self.not_west, self.not_east = _grid_masks(geo)
        barred = s.barrier_mask
        opened = s.open_mask & ~barred
        dalek = s.dalek_mask & s.seen_mask & ~s.cookie_mask
        closed = self.full & ~(s.open_mask | barred | geo.control_bit)
        # costs OPEN, CLOSED, DALEK, CLOSED_DALEK, BARRIER (Control is in none: never entered)
        self.classes = (
            opened & ~dalek,
            closed & ~dalek,
            opened & dalek,
            closed & dalek,
            barred,
        )
        #: the Time Tunnels as pairs of one-tile masks
        self.links = _links(s.tunnels)
        #: pawn distances found so far, by (goal, pawn tile)
        self.distances: dict[tuple[int, int], int] = {}
        #: goal fields grown so far, by goal: the field and where its levels stopped
        self.fields: dict[int, _Growth] = {}

    def _spread(self, x: int) -> int:
        """The tiles one step from any tile of `x`."""
        size = self.size
        out = ((x << 1) & self.not_west) | ((x >> 1) & self.not_east)
        out |= ((x << size) & self.full) | (x >> size)
        for a, b in self.links:
            if x & a:
                out |= b
            if x & b:
                out |= a
        return out

    def distance(self, goal: int, pawn: int, home: int) -> int:
        """Cost from a pawn on tile `pawn` (or off the board beside `home`, a mask) to `goal`:
        the first level whose offer reaches a tile next to the pawn (or a home-edge tile).
        On the board that is the pawn's entry in the goal's field, grown as far as the pawn
        (shared with the rollouts' look at the same board and goal)."""
        key = (goal, pawn)
        known = self.distances.get(key)
        if known is not None:
            return known
        if pawn >= 0:
            found = self.field(goal, 1 << pawn)[pawn]
        else:
            found = self._distance(goal, home)
        self.distances[key] = found
        return found

    def _distance(self, goal: int, target: int) -> int:
        c1, c3, c4, c5, c6 = self.classes
        spread = self._spread
        # r1 .. r6: R(d - 1) .. R(d - 6)
        r1, r2, r3, r4, r5, r6 = goal, 0, 0, 0, 0, 0
        d = 0
        idle = 0
        while idle <= BARRIER_COST:
            d += 1
            x = (r1 & c1) | (r3 & c3) | (r4 & c4) | (r5 & c5) | (r6 & c6)
            if x & target:
                return d
            reach = goal | spread(x)
            idle = idle + 1 if reach == r1 else 0
            r1, r2, r3, r4, r5, r6 = reach, r1, r2, r3, r4, r5
        return INF

    def field(self, goal: int, need: int = -1, now: int = 0, late: int = 0) -> list[int]:
        """Cost from every tile to `goal` (as `goal_field`; cached on the board). With a mask
        `need`, only the tiles of `need` are sure to be filled in (the others may still read
        INF), and the levels stop once all of them are reached; a later call grows the same
        field further. A rollout needs its pawn's neighbourhood only, and boards seldom
        repeat, so most of a full field would go unread. The levels also stop at the first
        level L with a tile of `now` at most L away or one of `late` at most L - 1 (the
        rollout's question, which candidate step is nearest, is settled there)."""
        grown = self.fields.get(goal)
        if grown is None:
            grown = self.fields[goal] = _Growth(self.cells, goal)
        found = grown.found
        r1, r2, r3, r4, r5, r6 = grown.reached
        unfilled = need & r1 & ~grown.filled
        if unfilled:
            grown.filled |= unfilled
            for d, tiles in enumerate(grown.levels):
                hit = tiles & unfilled
                while hit:
                    low = hit & -hit
                    found[low.bit_length() - 1] = d
                    hit ^= low
        if grown.done or not need & ~r1 or r1 & now or r2 & late:
            return found
        c1, c3, c4, c5, c6 = self.classes
        size, full, not_west, not_east, links = (
            self.size,
            self.full,
            self.not_west,
            self.not_east,
            self.links,
        )
        levels = grown.levels
        d, idle = len(levels) - 1, grown.idle
        filled, last = grown.filled, grown.offer
        while idle <= BARRIER_COST and need & ~r1 and not (r1 & now or r2 & late):
            d += 1
            x = (r1 & c1) | (r3 & c3) | (r4 & c4) | (r5 & c5) | (r6 & c6)
            if x == last:  # the same offer as the level before reaches nothing new
                reach = r1
            else:
                last = x
                out = ((x << 1) & not_west) | ((x >> 1) & not_east)
                out |= ((x << size) & full) | (x >> size)
                for a, b in links:  # `_spread`, inlined: this loop is most of a rollout's cost
                    if x & a:
                        out |= b
                    if x & b:
                        out |= a
                reach = goal | out
            new = reach & ~r1
            levels.append(new)
            if new:
                idle = 0
                hit = new & need
                filled |= hit
                while hit:
                    low = hit & -hit
                    found[low.bit_length() - 1] = d
                    hit ^= low
            else:
                idle += 1
            r1, r2, r3, r4, r5, r6 = reach, r1, r2, r3, r4, r5
        grown.reached = (r1, r2, r3, r4, r5, r6)
        grown.filled, grown.idle, grown.offer = filled, idle, last
        grown.done = idle > BARRIER_COST
        return found


_LINKS: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}


def _links(tunnels: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The Time Tunnels as pairs of one-tile masks (cached: a game lays a handful)."""
    found = _LINKS.get(tunnels)
    if found is None:
        if len(_LINKS) >= _CACHE_LIMIT:
            _LINKS.clear()
        found = _LINKS[tunnels] = tuple((1 << a, 1 << b) for a, b in tunnels)
    return found


@cache
def _start(cells: int, goal: int) -> tuple[int, ...]:
    """A field before its first level: 0 on the goal edge, INF elsewhere."""
    found = [INF] * cells
    for t in _bits(goal):
        found[t] = 0
    return tuple(found)


class _Growth:
    """A goal field grown level by level as far as asked: the costs filled in so far, the
    tiles each level added (level 0: the goal edge), the last six levels' reach (newest
    first), which tiles are filled in, the last level's offer (the tiles whose neighbours
    it reached), and how many levels in a row added nothing (past the dearest step: the
    end)."""

    __slots__ = ("done", "filled", "found", "idle", "levels", "offer", "reached")

    def __init__(self, cells: int, goal: int) -> None:
        self.found = list(_start(cells, goal))
        self.levels = [goal]
        self.reached = (goal, 0, 0, 0, 0, 0)
        self.filled = goal
        self.offer = -1  # no level has offered yet
        self.idle = 0
        self.done = False


#: boards and evaluations by public facts; cleared when large (search revisits few)
_BOARDS: dict[tuple[object, ...], _Board] = {}
_VALUES: dict[tuple[object, ...], list[float]] = {}
_CACHE_LIMIT = 50_000


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _board_key(state: State) -> tuple[object, ...]:
    s: Any = state
    masks = (s.open_mask, s.seen_mask & s.dalek_mask, s.barrier_mask, s.cookie_mask)
    return (*masks, s.tunnels, s.tables.control)  # the centre tells one grid from another


def board(state: State, key: tuple[object, ...] | None = None) -> _Board:
    """The public board of `state` as bitmasks (cached; `key`: its `_board_key` if known)."""
    if key is None:
        key = _board_key(state)
    found = _BOARDS.get(key)
    if found is None:
        if len(_BOARDS) >= _CACHE_LIMIT:
            _BOARDS.clear()
        found = _BOARDS[key] = _Board(state)
    return found


def distance(state: State, seat: int, costs: list[int] | None = None) -> float:
    """Cost for `seat`'s pawn to reach its goal edge from where it is, plus 1.5 for each turn
    it still waits in a Pandorica. With `costs` (a board other than the state's), by
    Dijkstra over `goal_field`; else by the bitmask levels of `_Board` (same value)."""
    s: Any = state
    pos = s.pos[seat]
    if costs is None:
        found = board(state).distance(s.goal_mask(seat), pos, s.tables.home_mask[seat])
    else:
        field = goal_field(state, seat, costs)
        if pos >= 0:
            found = field[pos]
        else:
            found = min(costs[t] + field[t] for t in s.tables.home_tiles[seat])
    return found + 1.5 * s.stuck[seat]


def evaluate(state: State) -> list[float]:
    """Each seat's chance to win: its share of exp(-lag / TEMPERATURE), where a seat's lag is
    its distance plus TEMPO times the fraction of a round before its next turn (cached)."""
    s: Any = state
    public = _board_key(state)
    key = (public, s.pos, s.stuck, s.seat, TEMPO)
    found = _VALUES.get(key)
    if found is None:
        here = board(state, public)
        n = s.game.players
        mover = s.seat
        values = []
        for seat in range(n):
            d = here.distance(s.goal_mask(seat), s.pos[seat], s.tables.home_mask[seat])
            lag = d + 1.5 * s.stuck[seat] + TEMPO * ((seat - mover) % n) / n
            values.append(-lag / TEMPERATURE)
        top = max(values)
        weights = [math.exp(v - top) for v in values]
        total = sum(weights)
        found = [w / total for w in weights]
        if len(_VALUES) >= _CACHE_LIMIT:
            _VALUES.clear()
        _VALUES[key] = found
    return list(found)


def winning(state: State, legal: Sequence[Action], steps: int = -1) -> Action | None:
    """A move that wins at once for the seat to move (K-7.1), or a card after which its
    pawn can step onto the goal edge this turn (a door opened, a Time Barrier removed, a
    Jam Cookie placed); None when it has none. After a card only a step onto a tile of the
    mask `steps` counts (all by default; `certain_win` passes the tiles whose back was
    seen). Only a pawn next to its goal edge is tried, so the check costs nothing
    elsewhere."""
    s: Any = state
    seat = s.seat
    pos = s.pos[seat]
    if pos < 0:
        return None
    goal = s.goal_mask(seat)
    if not _next_to(pos, s.tunnels, s.tables) & goal:
        return None
    for a in legal:
        after: Any = state.apply_unchecked(a)
        if after.is_over:
            if after.winner == seat:
                return a
            continue
        if type(a) is MovePawn or after.seat != seat:
            continue
        if steps != -1 and not goal_steps(after, seat) & steps:
            continue
        for b in after.legal_actions():
            if (
                type(b) is MovePawn
                and (goal & steps) >> b.tile & 1
                and after.apply_unchecked(b).winner == seat
            ):
                return a
    return None


def rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    win = winning(state, legal)
    if win is not None:
        return win
    return _race(state, legal, rng)


def _race(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """`rollout` once no win is at hand: the move or door nearest the goal, else a card."""
    s: Any = state
    seat = s.seat
    pos = s.pos[seat]
    near = s.tables.orthogonal[pos] if pos >= 0 else s.tables.home_tiles[seat]
    # the moves and the doors or cookies next to the pawn, and the tiles whose goal cost
    # decides among them: the field is grown only as far as those
    offers: list[Action] = []
    here = 1 << pos if pos >= 0 else 0
    plain = late = 0  # offers valued at their tile's cost, and at one more
    moving = False
    back = s.back
    for a in legal:
        kind = type(a)
        if kind is MovePawn:
            moving = True
            if back[a.tile] == TELEPORT:  # type: ignore[attr-defined]
                late |= 1 << a.tile  # type: ignore[attr-defined]
            else:
                plain |= 1 << a.tile  # type: ignore[attr-defined]
        elif (kind is OpenDoor or kind is PlaceCookie) and a.tile in near:  # type: ignore[attr-defined]
            late |= 1 << a.tile  # type: ignore[attr-defined]
        else:
            continue
        offers.append(a)
    best: Action | None = None
    if offers:
        # grown only until the nearest offer is settled: an offer not reached by level L
        # is worth more than L, so it loses to one worth at most L, and to the pawn's own
        # tile once that is reached
        need = here | plain | late
        field = board(state).field(s.goal_mask(seat), need, plain | here, late)
        best_value = field[pos] if pos >= 0 else INF
        for a in offers:
            tile = a.tile  # type: ignore[attr-defined]
            if type(a) is MovePawn:
                value = field[tile] + (1 if back[tile] == TELEPORT else 0)
            else:
                value = field[tile] + OPEN_COST
            if value < best_value:
                best, best_value = a, value
    if best is not None:
        return best
    if moving or type(legal[-1]) is StayPut:
        return legal[-1]
    if rng.below(2):
        return legal[rng.below(len(legal))]
    for a in legal:
        if type(a) is DiscardCard:
            return a
    return legal[-1]


def greedy_rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The simulations' policy (`HOOKS.simulation`): `rollout`, except that a card is chosen
    by the path evaluation after it and the move that follows (the table heuristic's
    judgement of a card, its own door opened or a rival's way barred, without its look at
    the rivals' replies). Only cards acting next to some pawn (and tunnels, pawn cards and
    discards) are weighed: the others change no race this turn, and skipping them makes a
    card decision several times cheaper."""
    s: Any = state
    if len(legal) < 2 or type(legal[0]) is MovePawn or type(legal[-1]) is StayPut:
        return rollout(state, legal, rng)
    win = winning(state, legal)
    if win is not None:
        return win
    seat = s.seat
    near = _near_pawns(s)
    best: Action | None = None
    best_value = -1.0
    for a in legal:
        tile = getattr(a, "tile", -1)
        if tile >= 0 and not near >> tile & 1 and type(a) is not PlaceTunnel:
            continue  # a door or barrier away from every pawn changes no race this turn
        value = evaluate(_moved(state.apply_unchecked(a), seat, rng))[seat]
        if value > best_value + 1e-9:
            best, best_value = a, value
    return best if best is not None else rollout(state, legal, rng)


def _near_pawns(s: Any) -> int:
    """The tiles next to a pawn on the board, or next to the home edge of one off it."""
    here = board(s)
    mask = 0
    for seat, pos in enumerate(s.pos):
        mask |= here._spread(1 << pos) if pos >= 0 else s.tables.home_mask[seat]
    return mask


def _moved(state: State, seat: int, rng: Rng) -> State:
    """`state` after `seat`'s move of this turn by `rollout` (as it is when the turn passed)."""
    s: Any = state
    if s.is_over or s.seat != seat:
        return state
    legal = state.legal_actions()
    if type(legal[0]) is not MovePawn and type(legal[-1]) is not StayPut:
        return state
    return state.apply_unchecked(rollout(state, legal, rng))


def goal_steps(state: State, seat: int) -> int:
    """The goal-edge tiles `seat`'s pawn could step onto on its coming turn and win (K-7.1):
    next to it, free for it (K-4.2, K-4.5), not a Teleport; 0 for a pawn off the board or
    held in a Pandorica (K-6.5). Public facts only, so the same in every determinisation."""
    s: Any = state
    pos = s.pos[seat]
    if pos < 0 or s.stuck[seat]:
        return 0
    tiles = _next_to(pos, s.tunnels, s.tables) & s.goal_mask(seat)
    if tiles:
        tiles &= s.free_mask(seat)
    found = tiles
    while tiles:
        low = tiles & -tiles
        if s.back[low.bit_length() - 1] == TELEPORT:
            found ^= low
        tiles ^= low
    return found


def blocking(state: State, legal: Sequence[Action]) -> Action | None:
    """A card that stops the first rival (in turn order) able to win on its coming turn
    from doing so: a Time Barrier on its goal step (K-6.3), a Key or Sonic closing it
    (K-6.1, K-6.2), a Pandorica under it (K-6.5) or a Cyberman push away (K-6.6); None when
    nobody threatens or the first threat cannot be stopped with this hand. The table's
    heuristic sees such a win in its one-turn look at the rivals' replies; the search's
    playouts need the same reflex, or every simulated opponent lets the leader through."""
    s: Any = state
    seat = s.seat
    players = len(s.pos)
    for k in range(1, players):
        rival = (seat + k) % players
        tiles = goal_steps(state, rival)
        if not tiles:
            continue
        for a in legal:
            kind = type(a)
            if kind is PlaceBarrier or kind is CloseDoor:
                if not tiles >> a.tile & 1:  # type: ignore[attr-defined]
                    continue
            elif kind is PlacePandorica or kind is AssaultPawn:
                if a.seat != rival:  # type: ignore[attr-defined]
                    continue
            else:
                continue
            if not goal_steps(state.apply_unchecked(a), rival):
                return a
        return None
    return None


def certain_win(game: Game, view: View, legal: Sequence[Action]) -> Action | None:
    """The `settled` hook: a move that wins whatever the hidden cards are, played without a
    search. The step onto an enterable goal-edge tile (K-7.1), or in the card phase a card
    after which such a step is open (a Time Barrier removed, K-6.2; a Jam Cookie on a known
    Dalek, K-6.4; a pawn pushed off the tile, K-6.6; a door opened whose back was seen,
    K-5.8). A door never opened is not certain (its back may be a Dalek), so it is left to
    the search. What decides is the board and the seat's own hand, which every world dealt
    from the view shares, so one world (a fixed seed) settles it."""
    seat, pos = view["seat"], view["pawns"][view["seat"]]
    tables: Any = game.tables  # type: ignore[attr-defined]
    if pos is None or not _next_to(pos, view["tunnels"], tables) & tables.goal_mask[seat]:
        return None  # read off the view: most turns deal no world at all
    state: Any = game.sample_state(view, Rng(0))
    return winning(state, legal, state.seen_mask)


def _next_to(tile: int, tunnels: Sequence[Sequence[int]], tables: Any) -> int:
    """The tiles one step from `tile` (K-4.1: orthogonal or along a Time Tunnel), as a mask."""
    mask = tables.orthogonal_masks[tile]
    for a, b in tunnels:
        if a == tile:
            mask |= 1 << b
        elif b == tile:
            mask |= 1 << a
    return mask


def search_rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The search's playout policy: `rollout`, except that a card phase first takes a win at
    hand and otherwise stops a rival about to win (`blocking`), as the table's heuristic
    would. Cheap: the threat check is a few mask operations per rival."""
    if len(legal) > 1 and type(legal[0]) is not MovePawn and type(legal[-1]) is not StayPut:
        win = winning(state, legal)
        if win is not None:
            return win
        block = blocking(state, legal)
        if block is not None:
            return block
        return _race(state, legal, rng)  # `rollout` less the win check just made
    return rollout(state, legal, rng)


def simulation(game: Game, view: View, thorough: bool = False) -> tuple[Policy, Evaluation]:
    """The coach's simulations (`thorough`): `greedy_rollout` and `evaluate`. The search
    takes `search_rollout`: a greedy card look there would cost most of its 0.8 s, so its
    playouts keep `rollout`'s cheap moves and add only the blocking reflex."""
    return (greedy_rollout if thorough else search_rollout), evaluate


def _make(game: Game, level: str | None) -> Agent:
    return LookaheadAgent(game, level, HOOKS, deals={"easy": 1, "medium": 1, "hard": 3})


#: short playouts valued by the path evaluation. `hard` was 1,200 simulations cut after one
#: rollout action (0.385 [0.320, 0.454] against three heuristics over 200 games, seed 53):
#: more simulations hardly helped (200 gave 0.370), because a playout that stops after one
#: action never sees a rival's reply, and the table's heuristic sees every reply for one
#: turn. `hard` now plays each simulation on for eight actions (about a round) with
#: `search_rollout`'s win-or-block reflex, and expands the rollout's choice first at each
#: node (`prior`), so a rival about to win takes its win inside the tree: 400 simulations,
#: 0.25 s of CPU a decision on average and 0.43 s at the 95th percentile (pure-Python build,
#: 93 decisions of the seed-53 games, loaded machine; 0.21 s and 0.35 s on 99 of its own
#: games' decisions). Against three heuristics at 4 players: 0.471 [0.405, 0.539] over 210
#: games (results/coach/keys-4p-hard-3heur-s63 to s68), against 0.385 before.
#: `expert` keeps hard's settings with 700 simulations: 900 took 0.54 s on average there,
#: 0.75 s at the 95th percentile and 1.03 s at worst, too near the server's 0.8 s cap.
LEVELS = {
    "easy": {"sims": 50, "cutoff": 2, "rollout": "heuristic"},
    "medium": {"sims": 100, "cutoff": 2, "rollout": "heuristic"},
    "hard": {"sims": 400, "cutoff": 8, "prior": 0.5, "rollout": "heuristic"},
    "expert": {"sims": 700, "cutoff": 8, "prior": 0.5, "rollout": "heuristic"},
}

#: the coach's playouts: this many actions (a few turns each) by `greedy_rollout`, then the
#: path evaluation; played to the end a Keys game is a hundred actions more, each card a
#: one-turn look, about two playouts a second
COACH_CUTOFF = 16

HOOKS = Hooks(
    heuristic=_make,
    rollout=rollout,
    evaluate=evaluate,
    levels=LEVELS,
    simulation=simulation,
    playout_cutoff=COACH_CUTOFF,
    settled=certain_win,
)
