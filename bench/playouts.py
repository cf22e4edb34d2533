"""Random-playout throughput of every registered game, as a ratio to OpenSpiel's gin_rummy.

Run by hand (not a test):  python bench/playouts.py [--seconds 20]

Each game is driven the way the conformance suite drives it: legal_actions(), a uniformly
random choice, the checked apply(). gin_rummy is driven the same way through pyspiel (random
legal action at each decision, chance outcomes sampled by their probabilities). The two are
measured in alternating slices in the same process, so machine noise hits both alike.
Also prints sample_state() calls per second on mid-game views (search bots call it once per
iteration).
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

# (game id, players, required ratio to gin_rummy actions/s): the issues' targets
TARGETS: list[tuple[str, int, float]] = [
    ("episodes", 3, 1.0),
    ("keys", 4, 1.0),
    ("card-game", 3, 0.5),
    ("card-game", 4, 0.5),
    ("clue", 6, 1.0),
]


@dataclass
class Tally:
    actions: int = 0
    games: int = 0
    seconds: float = 0.0

    def add(self, actions: int, games: int, seconds: float) -> None:
        self.actions += actions
        self.games += games
        self.seconds += seconds


def timelord_slice(game: timelord.Game, seed: int, budget: float) -> tuple[int, int, float]:
    """Play whole random games for about `budget` seconds; (actions, games, seconds)."""
    rng = Rng(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        state = game.new_game(rng.next64())
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
            actions += 1
        games += 1
    return actions, games, time.perf_counter() - start


def gin_slice(seed: int, budget: float) -> tuple[int, int, float]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
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
) -> tuple[Tally, Tally]:
    ours, gin = Tally(), Tally()
    for i in range(slices):
        gin.add(*gin_slice(i, seconds / slices))
        ours.add(*run_game(i, seconds / slices))
    return ours, gin


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per game, each side")
    parser.add_argument("--slices", type=int, default=5)
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("pyspiel missing: pip install open_spiel", file=sys.stderr)
        return 2
    print(
        f"{'game':<12}{'players':>8}{'actions/s':>12}{'games/s':>10}"
        f"{'gin act/s':>12}{'ratio':>8}{'target':>8}{'samples/s':>11}  ok"
    )
    failed = False
    for game_id, players, target in TARGETS:
        if game_id not in timelord.GAMES:
            print(f"{game_id:<12}{players:>8}  (not registered yet)")
            continue
        game = timelord.load(game_id, players=players)
        ours, gin = measure(
            lambda seed, budget, g=game: timelord_slice(g, seed, budget), args.seconds, args.slices
        )
        rate = ours.actions / ours.seconds
        gin_rate = gin.actions / gin.seconds
        ratio = rate / gin_rate
        samples = sample_rate(game, 2.0)
        ok = ratio >= target
        failed |= not ok
        print(
            f"{game_id:<12}{players:>8}{rate:>12,.0f}{ours.games / ours.seconds:>10.1f}"
            f"{gin_rate:>12,.0f}{ratio:>8.2f}{target:>8.1f}{samples:>11,.0f}  "
            f"{'yes' if ok else 'NO'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
