"""Keys to the TARDIS for bots: how far each pawn is from its goal edge, and play built on it.

The race is measured by a shortest path from each pawn to its goal edge, where stepping onto a
tile costs what it would take a player to get through it: 1 for a face-up door it may enter,
3 for a closed door (a Key or Sonic to open it, and an unseen back might be a Dalek), 4 for a
face-up Dalek door without a Jam Cookie, 5 for a closed door known to hide a Dalek, 6 for a
barred tile; the Control tile is not walked onto. A pawn off the board starts next to its
home edge; a pawn in a Pandorica adds its waiting turns. Only what every seat can see is used
(backs of doors never opened count as unknown), so the value is the same for every
determinisation of a view.

- `evaluate` (search cut-off): each seat's share of exp(-distance / 1.5).
- `rollout` (search playouts, fast): move to the neighbour nearest the goal; in the card
  phase open (or cookie) the best adjacent door that shortens the path, else play a random
  card half the time and discard the first card otherwise.
- The heuristic agent is the generic one-ply lookahead (`LookaheadAgent`) valued by
  `evaluate`: it tries each card or move on one deal (three at `hard`) and keeps the one
  that leaves its pawn closest to the goal relative to the others; a newcomer's "get there
  first, and slow down whoever is ahead".
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from timelord.agents.base import Agent
from timelord.agents.heuristic import LookaheadAgent
from timelord.agents.hooks import Hooks
from timelord.core import Action, Game, Rng, State
from timelord.games.keys.actions import DiscardCard, MovePawn, OpenDoor, PlaceCookie, StayPut
from timelord.games.keys.board import CELLS, CONTROL, DALEK, EDGE_TILES, ORTHOGONAL, TELEPORT

INF = 10**6
OPEN_COST, CLOSED_COST, DALEK_COST, CLOSED_DALEK_COST, BARRIER_COST = 1, 3, 4, 5, 6
TEMPERATURE = 1.5


def tile_costs(state: State) -> list[int]:
    """What stepping onto each tile costs (see the module docstring); public facts only."""
    s = state
    opened, seen = s.open_mask, s.seen_mask  # type: ignore[attr-defined]
    barred, cookies, back = s.barrier_mask, s.cookie_mask, s.back  # type: ignore[attr-defined]
    costs = []
    for t in range(CELLS):
        bit = 1 << t
        if t == CONTROL:
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


_TABLES: dict[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]] = {}


def _neighbour_table(state: State) -> tuple[tuple[int, ...], ...]:
    """Each tile's neighbours, orthogonal and along the Time Tunnels (cached per tunnel set)."""
    tunnels = state.tunnels  # type: ignore[attr-defined]
    table = _TABLES.get(tunnels)
    if table is None:
        rows = [list(ORTHOGONAL[t]) for t in range(CELLS)]
        for a, b in tunnels:
            rows[a].append(b)
            rows[b].append(a)
        table = _TABLES[tunnels] = tuple(tuple(r) for r in rows)
    return table


def goal_field(state: State, seat: int, costs: list[int]) -> list[int]:
    """Cost from each tile to the seat's goal edge: the summed costs of the tiles entered."""
    table = _neighbour_table(state)
    field = [INF] * CELLS
    goal = state.goal_mask(seat)  # type: ignore[attr-defined]
    heap = []
    for t in range(CELLS):
        if goal >> t & 1:
            field[t] = 0
            heap.append((0, t))
    while heap:
        d, t = heapq.heappop(heap)
        if d > field[t]:
            continue
        step = d + costs[t]  # reaching t from a neighbour means entering t
        for u in table[t]:
            if step < field[u]:
                field[u] = step
                heapq.heappush(heap, (step, u))
    return field


def distance(state: State, seat: int, costs: list[int]) -> float:
    """Cost for `seat`'s pawn to reach its goal edge from where it is (search from the pawn,
    stopping at the first goal tile settled)."""
    table = _neighbour_table(state)
    goal = state.goal_mask(seat)  # type: ignore[attr-defined]
    pos = state.pos[seat]  # type: ignore[attr-defined]
    best = [INF] * CELLS
    if pos >= 0:
        best[pos] = 0
        heap = [(0, pos)]
    else:
        heap = []
        for t in EDGE_TILES[state.home_edge(seat)]:  # type: ignore[attr-defined]
            best[t] = costs[t]
            heap.append((costs[t], t))
        heapq.heapify(heap)
    found = INF
    while heap:
        d, t = heapq.heappop(heap)
        if d > best[t]:
            continue
        if goal >> t & 1:
            found = d
            break
        for u in table[t]:
            nd = d + costs[u]
            if nd < best[u]:
                best[u] = nd
                heapq.heappush(heap, (nd, u))
    return found + 1.5 * state.stuck[seat]  # type: ignore[attr-defined]


def evaluate(state: State) -> list[float]:
    costs = tile_costs(state)
    values = [-distance(state, seat, costs) / TEMPERATURE for seat in range(state.players)]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    seat = state.to_move
    assert seat is not None
    costs = tile_costs(state)
    field = goal_field(state, seat, costs)
    pos = state.pos[seat]  # type: ignore[attr-defined]
    here = field[pos] if pos >= 0 else INF
    best: Action | None = None
    best_value = here
    moving = False
    for a in legal:
        if isinstance(a, MovePawn):
            moving = True
            back = state.back[a.tile]  # type: ignore[attr-defined]
            value = field[a.tile] + (1 if back == TELEPORT else 0)
            if value < best_value:
                best, best_value = a, value
        elif isinstance(a, OpenDoor | PlaceCookie) and (
            a.tile in (ORTHOGONAL[pos] if pos >= 0 else ())
            or (pos < 0 and a.tile in EDGE_TILES[state.home_edge(seat)])  # type: ignore[attr-defined]
        ):
            value = field[a.tile] + OPEN_COST
            if value < best_value:
                best, best_value = a, value
    if best is not None:
        return best
    if moving or isinstance(legal[-1], StayPut):
        return legal[-1]
    if rng.below(2):
        return legal[rng.below(len(legal))]
    for a in legal:
        if isinstance(a, DiscardCard):
            return a
    return legal[-1]


def _make(game: Game, level: str | None) -> Agent:
    return LookaheadAgent(game, level, HOOKS, deals={"easy": 1, "medium": 1, "hard": 3})


#: short playouts valued by the path evaluation: sample_state and the evaluation dominate the
#: cost of an iteration, so budgets stay small (see docs/strength.md for the match times)
LEVELS = {
    "easy": {"sims": 50, "cutoff": 2, "rollout": "heuristic"},
    "medium": {"sims": 100, "cutoff": 2, "rollout": "heuristic"},
    "hard": {"sims": 200, "cutoff": 2, "rollout": "heuristic"},
}

HOOKS = Hooks(heuristic=_make, rollout=rollout, evaluate=evaluate, levels=LEVELS)
