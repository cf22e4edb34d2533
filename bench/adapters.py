"""Cost of a step through the adapters, against the raw engine step, in the same process.

For each game and player count, plays the same seeded random games three ways and prints the
mean time per step and its ratio to the raw step:

- raw: `legal_actions()`, a random choice, `apply_unchecked` (what a playout pays);
- pettingzoo step: the offered indices (the mask's work), a random choice, `env.step`
  (apply on the engine's logging path, events recorded for the infos, rewards);
- pettingzoo step, events off: the same with `events=False` (no events recorded);
- pettingzoo step+last: the first plus `env.last()` of the seat to move, as an AEC loop
  calls it: the encoded view, the mask and that seat's event sentences (written on reading);
- openspiel: `legal_actions()` and `apply_action` on the adapter's state (events off).

The issue's target is a PettingZoo step at most 2x the raw step.

    python bench/adapters.py [--games N] [--seed S] [--only GAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import timelord
from timelord.adapters import pettingzoo as tz
from timelord.core import Rng

CASES = [
    ("card-game", 4),
    ("card-game", 2),
    ("episodes", 2),
    ("episodes", 4),
    ("clue", 4),
    ("keys", 2),
    ("keys", 4),
]


def raw(game_id: str, players: int, seeds: range) -> tuple[float, int]:
    game = timelord.load(game_id, players=players)
    steps, t0 = 0, time.perf_counter()
    for seed in seeds:
        rng = Rng(seed)
        s = game.new_game(seed)
        while not s.is_over:
            s = s.apply_unchecked(rng.choice(s.legal_actions()))
            steps += 1
    return time.perf_counter() - t0, steps


def pettingzoo(
    game_id: str, players: int, seeds: range, observe: bool, events: bool = True
) -> tuple[float, int]:
    env = tz.raw_env(game_id, players=players, events=events)
    steps, t0 = 0, time.perf_counter()
    for seed in seeds:
        rng = Rng(seed)
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            if observe:
                env.last()
            offered = env._offers(env._current())
            env.step(rng.choice(list(offered)))
            steps += 1
    return time.perf_counter() - t0, steps


def openspiel(game_id: str, players: int, seeds: range) -> tuple[float, int] | None:
    try:
        import pyspiel

        from timelord.adapters.openspiel import short_name
    except ImportError:
        return None
    game = pyspiel.load_game(short_name(game_id), {"players": players})
    steps, t0 = 0, time.perf_counter()
    for seed in seeds:
        rng = Rng(seed)
        state = game.new_initial_state()
        state.reseed(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return time.perf_counter() - t0, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    print(f"{args.games} random games each; microseconds per step (ratio to raw)")
    print(
        f"{'game':<12}{'N':>3}{'steps':>8}{'raw':>8}{'pz step':>16}{'pz no events':>16}"
        f"{'pz step+last':>16}{'openspiel':>16}"
    )
    for game_id, players in CASES:
        if args.only and game_id != args.only:
            continue
        best: dict[str, float] = {}
        n = 0
        for _ in range(args.rounds):
            t, n = raw(game_id, players, seeds)
            times = {"raw": t}
            t, n_pz = pettingzoo(game_id, players, seeds, observe=False)
            assert n_pz == n, "the adapter played other games than the engine"
            times["pz"] = t
            times["quiet"] = pettingzoo(game_id, players, seeds, observe=False, events=False)[0]
            times["obs"] = pettingzoo(game_id, players, seeds, observe=True)[0]
            os_ = openspiel(game_id, players, seeds)
            if os_ is not None:
                times["os"] = os_[0] * n / os_[1]
            for k, v in times.items():
                best[k] = min(best.get(k, v), v)
        base = best["raw"] / n
        cells = [
            f"{best[k] / n * 1e6:7.1f} ({best[k] / n / base:4.2f}x)" if k in best else "-"
            for k in ("pz", "quiet", "obs", "os")
        ]
        row = "".join(f"{c:>16}" for c in cells)
        print(f"{game_id:<12}{players:>3}{n:>8}{base * 1e6:8.1f}{row}", flush=True)


if __name__ == "__main__":
    main()
