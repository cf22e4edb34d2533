"""Random-playout throughput of every registered game, as ratios to two OpenSpiel C++ games.

Run by hand (not a test):  python bench/playouts.py [--seconds 20] [--drive counted] [--game keys]

Each game is driven the way the conformance suite drives it: legal_actions(), a uniformly
random choice, the checked apply(); with `--drive counted`, the way a search's random playout
drives it: `random_legal()` (the counted enumeration: the same uniform move, no list) and
`apply_unchecked()`. OpenSpiel's C++ `gin_rummy` and 7x7 `breakthrough` are
driven the same way through pyspiel (random legal action at each decision, chance outcomes
sampled by their probabilities). All three are measured in alternating slices in the same
process, so machine noise hits them alike. Also prints sample_state() calls per second on
mid-game views (search bots call it once per iteration), and which build ran
(`timelord.BUILD`: the targets differ).

Targets (issue 23): compiled, every game >= 3x gin_rummy and Keys >= 0.5x the 7x7 game; pure
Python, every game >= 1.5x gin_rummy.
"""

from __future__ import annotations

import argparse
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
GRID_GAME = "breakthrough(rows=7,columns=7)"


def targets(game_id: str) -> tuple[float, float]:
    """(ratio to gin_rummy, ratio to the 7x7 game) this build must reach for `game_id`."""
    if not timelord.COMPILED:
        return 1.5, 0.0
    return 3.0, 0.5 if game_id == "keys" else 0.0


@dataclass
class Tally:
    actions: int = 0
    games: int = 0
    seconds: float = 0.0

    def add(self, actions: int, games: int, seconds: float) -> None:
        self.actions += actions
        self.games += games
        self.seconds += seconds


def timelord_slice(
    game: timelord.Game, seed: int, budget: float, counted: bool = False
) -> tuple[int, int, float]:
    """Play whole random games for about `budget` seconds; (actions, games, seconds)."""
    rng = Rng(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        state = game.new_game(rng.next64())
        while not state.is_over:
            if counted:
                state = state.apply_unchecked(state.random_legal(rng))
            else:
                legal = state.legal_actions()
                state = state.apply(legal[rng.below(len(legal))])
            actions += 1
        games += 1
    return actions, games, time.perf_counter() - start


def spiel_slice(name: str, seed: int, budget: float) -> tuple[int, int, float]:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        games += 1
    return actions, games, time.perf_counter() - start


def sample_rate(game: timelord.Game, seconds: float) -> float:
    """sample_state calls per CPU second (one core) on views taken a third of the way into
    random games."""
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


def measure(
    run_game: Callable[[int, float], tuple[int, int, float]], seconds: float, slices: int
) -> tuple[Tally, Tally, Tally]:
    ours, gin, grid = Tally(), Tally(), Tally()
    for i in range(slices):
        gin.add(*spiel_slice("gin_rummy", i, seconds / slices))
        ours.add(*run_game(i, seconds / slices))
        grid.add(*spiel_slice(GRID_GAME, i, seconds / slices))
    return ours, gin, grid


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per game, each side")
    parser.add_argument("--slices", type=int, default=5)
    parser.add_argument(
        "--drive",
        choices=("checked", "counted"),
        default="checked",
        help="legal_actions + checked apply (default), or random_legal + apply_unchecked",
    )
    parser.add_argument("--game", action="append", help="only these game ids (repeatable)")
    args = parser.parse_args()
    counted = args.drive == "counted"
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("pyspiel missing: pip install open_spiel", file=sys.stderr)
        return 2
    print(f"build: {timelord.BUILD}; drive: {args.drive}")
    print(
        f"{'game':<12}{'players':>8}{'actions/s':>12}{'games/s':>10}{'gin act/s':>12}"
        f"{'x gin':>7}{'7x7 act/s':>11}{'x 7x7':>7}{'target':>12}{'samples/s':>11}  ok"
    )
    failed = False
    for game_id, players in GAMES:
        if args.game and game_id not in args.game:
            continue
        if game_id not in timelord.GAMES:
            print(f"{game_id:<12}{players:>8}  (not registered yet)")
            continue
        game = timelord.load(game_id, players=players)
        ours, gin, grid = measure(
            lambda seed, budget, g=game: timelord_slice(g, seed, budget, counted),
            args.seconds,
            args.slices,
        )
        rate = ours.actions / ours.seconds
        gin_rate = gin.actions / gin.seconds
        grid_rate = grid.actions / grid.seconds
        x_gin, x_grid = rate / gin_rate, rate / grid_rate
        need_gin, need_grid = targets(game_id)
        samples = sample_rate(game, 2.0)
        ok = x_gin >= need_gin and x_grid >= need_grid
        failed |= not ok
        need = f"{need_gin:.1f}" + (f"/{need_grid:.1f}" if need_grid else "")
        print(
            f"{game_id:<12}{players:>8}{rate:>12,.0f}{ours.games / ours.seconds:>10.1f}"
            f"{gin_rate:>12,.0f}{x_gin:>7.2f}{grid_rate:>11,.0f}{x_grid:>7.2f}{need:>12}"
            f"{samples:>11,.0f}  {'yes' if ok else 'NO'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
