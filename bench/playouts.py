"""Random-playout throughput of every registered game beside OpenSpiel's C++, in CPU time.

Run by hand (not a test):  python bench/playouts.py [--seconds 3] [--slices 3] [--game keys]

Every rate is actions per CPU second of this process (`time.process_time`, so other load on
the machine slows the clock it is measured by, not the figure). Each game is driven three ways:
- `unchecked` (the headline, like for like with `pyspiel`'s `apply_action`, which checks
  nothing): `legal_actions()`, a uniformly random index, `apply_unchecked()`;
- `checked`: the same with the checked `apply()`, as the conformance suite drives it;
- `counted`: `random_legal()` (the same uniform move without building the list) and
  `apply_unchecked()`, as a search's random playout drives it.

The yardstick is OpenSpiel's `gin_rummy` and 7x7 `breakthrough`, two ways:
- `native`: whole random games run inside OpenSpiel's C++ (`pyspiel.evaluate_bots` with its
  uniform random bots; chance outcomes sampled by their probabilities), no Python per action;
  the actions are counted from each finished game's history;
- `python`: the same random games driven action by action from Python through pyspiel.
Both start each game from a clone of one initial state, as a search's rollouts do: building
a `gin_rummy` state afresh costs more than a whole random game played from it (its meld
tables), and would have hidden the per-action rates.
What loading built is frozen out of the cyclic GC (`gc.freeze`) before the runs, as a
search or a simulation that loads its games once may do. The targets are set against the
native rates. Every measurement runs in alternating slices in
the same process, so machine noise hits all of them alike. Also prints `sample_state()` calls
per CPU second on mid-game views (search bots call it once per iteration), the build
(`timelord.BUILD`: the targets differ) and the load average before and after.

Targets, on the unchecked drive: compiled, every game >= 2x native `gin_rummy` and
Keys >= 0.25x native 7x7 `breakthrough`; pure Python, every game >= 1x native `gin_rummy`.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import timelord
from timelord import Rng

# (game id, players) measured
GAMES: list[tuple[str, int]] = [
    ("episodes", 3),
    ("keys", 4),
    ("card-game", 3),
    ("card-game", 4),
    ("clue", 6),
]
GIN = "gin_rummy"
GRID = "breakthrough(rows=7,columns=7)"
DRIVES = ("unchecked", "checked", "counted")


def targets(game_id: str) -> tuple[float, float]:
    """(ratio to native gin_rummy, ratio to native 7x7) the unchecked drive must reach."""
    if not timelord.COMPILED:
        return 1.0, 0.0
    return 2.0, 0.25 if game_id == "keys" else 0.0


@dataclass
class Tally:
    """Actions and games over CPU seconds, summed over slices."""

    actions: int = 0
    games: int = 0
    seconds: float = 0.0

    def add(self, actions: int, games: int, seconds: float) -> None:
        self.actions += actions
        self.games += games
        self.seconds += seconds

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def timelord_slice(
    game: timelord.Game, seed: int, budget: float, drive: str
) -> tuple[int, int, float]:
    """Play whole random games for about `budget` CPU seconds; (actions, games, seconds)."""
    rng = Rng(seed)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        state = game.new_game(rng.next64())
        if drive == "unchecked":
            while not state.is_over:
                legal = state.legal_actions()
                state = state.apply_unchecked(legal[rng.below(len(legal))])
                actions += 1
        elif drive == "checked":
            while not state.is_over:
                legal = state.legal_actions()
                state = state.apply(legal[rng.below(len(legal))])
                actions += 1
        else:
            while not state.is_over:
                state = state.apply_unchecked(state.random_legal(rng))
                actions += 1
        games += 1
    return actions, games, time.process_time() - start


def spiel_slice(name: str, seed: int, budget: float) -> tuple[int, int, float]:
    """Random games of an OpenSpiel game driven from Python, one action per call."""
    import pyspiel

    initial = pyspiel.load_game(name).new_initial_state()
    rng = random.Random(seed)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        state = initial.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        games += 1
    return actions, games, time.process_time() - start


def native_slice(name: str, seed: int, budget: float) -> tuple[int, int, float]:
    """Random games run whole inside OpenSpiel's C++; the actions are the games' histories."""
    import pyspiel

    game = pyspiel.load_game(name)
    initial = game.new_initial_state()
    bots = [pyspiel.make_uniform_random_bot(p, seed * 7 + p) for p in range(game.num_players())]
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        state = initial.clone()  # evaluate_bots plays on the state it is given
        pyspiel.evaluate_bots(state, bots, seed * 1_000_003 + games)
        actions += len(state.history())
        games += 1
    return actions, games, time.process_time() - start


def sample_rate(game: timelord.Game, seconds: float) -> float:
    """sample_state calls per CPU second on views taken a third of the way into random
    games."""
    rng = Rng(99)
    views = []
    for g in range(20):
        state = game.new_game(g)
        trail = [state]
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
            trail.append(state)
        mid = trail[len(trail) // 3]
        if mid.to_move is not None:
            views.append(mid.view(mid.to_move))
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game.sample_state(views[calls % len(views)], rng)
        calls += 1
    return calls / (time.process_time() - start)


def run_all(
    runs: dict[str, Callable[[int, float], tuple[int, int, float]]], seconds: float, slices: int
) -> dict[str, Tally]:
    """Each run for `seconds` CPU seconds in all, in `slices` rounds taking turns."""
    tallies = {name: Tally() for name in runs}
    for i in range(slices):
        for name, run in runs.items():
            tallies[name].add(*run(i, seconds / slices))
    return tallies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    parser.add_argument("--slices", type=int, default=3)
    parser.add_argument("--game", action="append", help="only these game ids (repeatable)")
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("pyspiel missing: pip install open_spiel", file=sys.stderr)
        return 2
    load = os.getloadavg()
    chosen = [(g, p) for g, p in GAMES if (not args.game or g in args.game) and g in timelord.GAMES]
    runs: dict[str, Callable[[int, float], tuple[int, int, float]]] = {}
    for name in (GIN, GRID):
        runs[f"{name} python"] = lambda seed, budget, n=name: spiel_slice(n, seed, budget)
        runs[f"{name} native"] = lambda seed, budget, n=name: native_slice(n, seed, budget)
    for game_id, players in chosen:
        game = timelord.load(game_id, players=players)
        for drive in DRIVES:
            runs[f"{game_id}/{players} {drive}"] = lambda seed, budget, g=game, d=drive: (
                timelord_slice(g, seed, budget, d)
            )
    # What loading built (card tables, action tables, the grids) lives as long as the games:
    # frozen, the cyclic GC no longer walks it on every full collection, as a search or a
    # simulation that loads its games once would do too.
    gc.collect()
    gc.freeze()
    tallies = run_all(runs, args.seconds, args.slices)
    gin, grid = tallies[f"{GIN} native"].rate, tallies[f"{GRID} native"].rate
    print(f"build: {timelord.BUILD}; CPU time; load average {load[0]:.1f} at the start")
    print(f"{'OpenSpiel':<32}{'native act/s':>14}{'python act/s':>14}{'native/python':>15}")
    for name in (GIN, GRID):
        native, python = tallies[f"{name} native"], tallies[f"{name} python"].rate
        print(f"{name:<32}{native.rate:>14,.0f}{python:>14,.0f}{native.rate / python:>15.2f}")
    print()
    print(
        f"{'game':<12}{'players':>8}{'unchecked':>11}{'checked':>10}{'counted':>10}"
        f"{'x gin':>7}{'x 7x7':>7}{'target':>10}{'games/s':>9}{'samples/s':>11}  ok"
    )
    failed = False
    for game_id, players in chosen:
        rates = {d: tallies[f"{game_id}/{players} {d}"] for d in DRIVES}
        head = rates["unchecked"].rate
        x_gin, x_grid = head / gin, head / grid
        need_gin, need_grid = targets(game_id)
        ok = x_gin >= need_gin and x_grid >= need_grid
        failed |= not ok
        need = f"{need_gin:.1f}" + (f"/{need_grid:.2f}" if need_grid else "")
        games = rates["unchecked"].games / rates["unchecked"].seconds
        samples = sample_rate(timelord.load(game_id, players=players), 1.0)
        print(
            f"{game_id:<12}{players:>8}{head:>11,.0f}{rates['checked'].rate:>10,.0f}"
            f"{rates['counted'].rate:>10,.0f}{x_gin:>7.2f}{x_grid:>7.2f}{need:>10}"
            f"{games:>9.1f}{samples:>11,.0f}  {'yes' if ok else 'NO'}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} cores")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
