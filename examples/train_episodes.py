"""Train a linear softmax policy for Episodes (2 players) through the PettingZoo adapter,
save it, and evaluate it in timelord matches against `random` and `heuristic`.

    python examples/train_episodes.py [--games 3000] [--eval 200] [--seed 1]

Training is REINFORCE with a running-mean baseline: the learner takes seat `player_0` or
`player_1` at random each game, its opponent plays uniformly among the offered actions, and
the reward is the adapter's end-of-game win share. Only numpy; a few minutes on one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from episodes_policy import DEFAULT_WEIGHTS, LinearPolicy

import timelord
from timelord.adapters import pettingzoo as tz
from timelord.sim.match import game_seed, play_game
from timelord.sim.stats import shares, wilson


def train(games: int, seed: int, lr: float) -> LinearPolicy:
    env = tz.env("episodes", players=2)
    raw = env.unwrapped
    policy = LinearPolicy(len(raw.index), raw.encoder.size)
    rng = np.random.default_rng(seed)
    baseline, wins = 0.5, []
    t0 = time.perf_counter()
    for g in range(games):
        env.reset(seed=int(rng.integers(1 << 31)))
        me = raw.possible_agents[int(rng.integers(2))]
        steps: list[tuple[np.ndarray, np.ndarray, int]] = []
        reward = 0.0
        for agent in env.agent_iter():
            obs, r, terminated, truncated, _ = env.last()
            if terminated or truncated:
                if agent == me:
                    reward = r
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if agent == me:
                x = obs["observation"]
                p = policy.probabilities(x, legal)
                k = int(rng.choice(len(legal), p=p))
                steps.append((x, legal, k))
                env.step(int(legal[k]))
            else:
                env.step(int(rng.choice(legal)))
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        for x, legal, k in steps:  # gradient of log softmax: onehot(k) - p
            grad = -policy.probabilities(x, legal)
            grad[k] += 1.0
            policy.w[legal] += (lr * advantage) * np.outer(grad, x)
            policy.b[legal] += (lr * advantage) * grad
        wins.append(reward)
        if (g + 1) % 500 == 0:
            recent = float(np.mean(wins[-500:]))
            print(
                f"game {g + 1}: win share over the last 500 vs random {recent:.3f} "
                f"({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
    return policy


def evaluate(opponent: str, games: int, seed: int) -> tuple[float, tuple[float, float]]:
    """The policy's win share in a timelord match (seats rotated, as `simulate` plays)."""
    game = timelord.load("episodes", players=2)
    policy_spec = f"{Path(__file__).with_name('episodes_policy.py')}:PolicyAgent"
    won = 0.0
    for i in range(games):
        specs = [policy_spec, opponent] if i % 2 == 0 else [opponent, policy_spec]
        record = play_game(game, specs, game_seed(seed, i), i)
        won += shares(record["result"], 2)[specs.index(policy_spec)]
    return won / games, wilson(won, games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="training games")
    ap.add_argument("--eval", type=int, default=200, help="evaluation games per opponent")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS)
    args = ap.parse_args()
    policy = train(args.games, args.seed, args.lr)
    policy.save(args.out, {"game": "episodes", "players": 2, "games": args.games})
    print(f"saved {args.out}")
    os.environ["TIMELORD_POLICY"] = str(args.out)  # where PolicyAgent reads its weights
    for opponent in ("random", "heuristic"):
        share, (lo, hi) = evaluate(opponent, args.eval, args.seed + 1)
        print(f"vs {opponent}: win share {share:.3f} [{lo:.3f}, {hi:.3f}] over {args.eval} games")


if __name__ == "__main__":
    main()
