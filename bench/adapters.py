"""Cost of a step through the adapters, against the raw engine step, in the same process.

For each game and player count, plays the same seeded random games several ways and prints
the CPU time per step and its ratio to the raw step:

- raw: `legal_actions()`, a random choice, `apply_unchecked` (what a playout pays);
- pz step: the offered indices (the mask's work), a random choice, `env.step` (apply,
  events recorded for the infos, rewards);
- pz no events: the same with `events=False` (no events recorded);
- pz step+last: the first plus `env.last()` of the seat to move, as an AEC loop calls it:
  the observation, the mask, the reward and that seat's info (its sentences are written only
  when read, so not here) — the target, <= 3x raw;
- openspiel: `legal_actions()` and `apply_action` on the adapter's state;
- pz loop: the standard AEC loop through `env()`, PettingZoo's standard wrappers included
  (`agent_iter`, `last()`, a random offered index from the mask, `step`): what the
  wrappers add is this column less the one before it.

Then throughput, in the same run: observations encoded per second per seat (straight from
the state, every seat of every position of the games; target >= 20,000), the Gymnasium env's
learner steps per second against random opponents (and its cost per move of the game,
opponents' moves included, as a ratio to the raw step), the vector env's learner steps per
second at N = 1, 16, 64, 256 tables (`--sizes`) and the ratio N=64 / N=1 (the target:
>= 1.5; only `step` timed, not the choice of the actions; at least `--vector-steps` learner
steps and `--vector-batches` batch steps, so that at every N the tables play whole episodes
and not only their openings, which cost other than the rest: a batch count below a game's
episode length in learner steps, 60-170 here, flatters the large N),
beside them the raw engine's moves per second with 256 games stepped in turn over one game
at a time (what many tables cost the engine alone: its states fall out of the CPU's caches),
and C++ gin_rummy's random-playout actions per second
through pyspiel as the yardstick. `--async-steps K` adds the process-per-table env
(`async_vector_env`) with 2 tables against 1 (learner steps per *wall* second, the only clock
that sees two processes; the target is >= 1.7 on 2 cores, which only an otherwise idle
machine can show: the load average is printed beside it). `--ismcts SIMS` adds OpenSpiel's
ISMCTSBot through the adapter against timelord's own ISMCTS with the same settings (UCT c=2,
random rollouts to the end), CPU milliseconds per simulation at the same positions.
`--recall` adds the Gymnasium env's learner step with `recall=True` (the seat's history,
`timelord.adapters.encode.history`) beside the plain one, in the same rounds.

Times are CPU seconds of this process (`time.process_time`), so other load on the machine
counts less than in wall time (it still slows each instruction: compare ratios of one run).
A game first warms the engine's and the adapters' caches; every round then plays new
seeds (the observation memos of `timelord.adapters.encode` stay warm
across rounds, as in a long training run, but never meet the same positions again); the
best round is shown. The load average is printed at the start and the end.

    python bench/adapters.py [--games N] [--seed S] [--only GAME] [--rounds R]
                             [--vector-steps K] [--vector-batches B] [--async-steps K]
                             [--ismcts SIMS] [--recall] [--steps-only]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

import timelord
from timelord.adapters import gym as tg
from timelord.adapters import pettingzoo as tz
from timelord.adapters.encode import encoder_for
from timelord.adapters.vector import vector_env
from timelord.agents.random_agent import RandomAgent
from timelord.core import Action, Rng, View

#: the clock of every measurement: CPU time of this process
clock = time.process_time

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
    steps, t0 = 0, clock()
    for seed in seeds:
        rng = Rng(seed)
        s = game.new_game(seed)
        while not s.is_over:
            s = s.apply_unchecked(rng.choice(s.legal_actions()))
            steps += 1
    return clock() - t0, steps


def raw_interleaved(game_id: str, players: int, n: int, total: int, seed: int) -> float:
    """Raw engine moves per second with `n` games stepped in turn, one move each, as the
    vector env steps its tables (a game that ends is dealt again): what stepping many games
    at once costs the engine alone (its states no longer stay in the CPU's caches)."""
    game = timelord.load(game_id, players=players)
    states = [game.new_game(seed + i) for i in range(n)]
    rngs = [Rng(seed + i) for i in range(n)]
    dealt, moves, t0 = seed + n, 0, clock()
    while moves < total:
        for i in range(n):
            s = states[i]
            if s.is_over:
                s = game.new_game(dealt)
                dealt += 1
            states[i] = s.apply_unchecked(rngs[i].choice(s.legal_actions()))
        moves += n
    return moves / (clock() - t0)


def pettingzoo(
    game_id: str, players: int, seeds: range, observe: bool, events: bool = True
) -> tuple[float, int]:
    env = tz.raw_env(game_id, players=players, events=events)
    steps, t0 = 0, clock()
    for seed in seeds:
        rng = Rng(seed)
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            if observe:
                env.last()
            offered = env._offers(env._current())
            env.step(rng.choice(list(offered)))
            steps += 1
    return clock() - t0, steps


def openspiel(game_id: str, players: int, seeds: range) -> tuple[float, int] | None:
    try:
        import pyspiel

        from timelord.adapters.openspiel import short_name
    except ImportError:
        return None
    game = pyspiel.load_game(short_name(game_id), {"players": players})
    steps, t0 = 0, clock()
    for seed in seeds:
        rng = Rng(seed)
        state = game.new_initial_state()
        state.reseed(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return clock() - t0, steps


def pz_loop(game_id: str, players: int, seeds: range) -> tuple[float, int]:
    """The standard AEC loop through the wrapped env, random offered indices."""
    env = tz.env(game_id, players=players)
    moves, t0 = 0, clock()
    for seed in seeds:
        rng = Rng(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            moves += 1
    return clock() - t0, moves


def observations(game_id: str, players: int, seeds: range) -> float:
    """Observations per second per seat: every seat of every position of the games."""
    game = timelord.load(game_id, players=players)
    encoder = encoder_for(game)
    states = []
    for seed in seeds:
        rng = Rng(seed)
        s = game.new_game(seed)
        while not s.is_over:
            states.append(s)
            s = s.apply_unchecked(rng.choice(s.legal_actions()))
    t0 = clock()
    for s in states:
        for seat in range(players):
            encoder.encode_state(s, seat)
    return len(states) * players / (clock() - t0)


class _CountingRandom(RandomAgent):
    """The random agent, counting the moves it makes (the gym env's opponents' moves)."""

    moves = 0

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        _CountingRandom.moves += 1
        return super().act(view, legal, rng)

    def act_on(self, view_of: Callable[[], View], legal: Sequence[Action], rng: Rng) -> Action:
        _CountingRandom.moves += 1
        return super().act_on(view_of, legal, rng)


def learner_episodes(
    game_id: str,
    players: int,
    seeds: range,
    opponent: type[RandomAgent] | str = "random",
    recall: bool = False,
) -> tuple[float, int]:
    """(seconds, learner steps) of the Gymnasium env's episodes of `seeds`, the learner
    choosing random offered indices."""
    env = tg.env(game_id, [opponent] * (players - 1), recall=recall)
    steps, t0 = 0, clock()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        while True:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, _, terminated, _, info = env.step(action)
            steps += 1
            if terminated:
                break
    return clock() - t0, steps


def gym_steps(game_id: str, players: int, seeds: range) -> tuple[float, int, int]:
    """(seconds, learner steps, game moves) of episodes against random opponents; the moves
    are counted in a second, untimed pass over the same games (a counting agent moves as
    `random` does, but through its own `act_on`, which the env's random seats skip)."""
    seconds, steps = learner_episodes(game_id, players, seeds)
    _CountingRandom.moves = 0
    counted = learner_episodes(game_id, players, seeds, _CountingRandom)[1]
    assert counted == steps, "the counting pass played other games"
    return seconds, steps, steps + _CountingRandom.moves


def vector_steps(game_id: str, players: int, n: int, total: int, batches: int, seed: int) -> float:
    """Learner steps per second of `n` tables: at least `total` learner steps and `batches`
    batch steps, so that at every N the tables play whole episodes (not only their openings),
    random offered indices. Only `step` is timed, not the choice of the actions."""
    envs = vector_env(game_id, n, players=players)
    _, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, spent = 0, 0.0
    while steps < total or steps < n * batches:
        # a random offered index per table, in a few numpy calls over the batch of masks
        rows, cols = np.nonzero(infos["action_mask"])
        counts = np.bincount(rows, minlength=n)
        starts = np.cumsum(counts) - counts
        picks = starts + (rng.random(n) * counts).astype(np.int64)
        actions = np.zeros(n, np.int64)  # a table that just ended takes any index
        if len(cols):
            actions = np.where(counts > 0, cols[np.minimum(picks, len(cols) - 1)], 0)
        t0 = clock()
        _, _, _, _, infos = envs.step(actions)
        spent += clock() - t0
        steps += n
    return steps / spent


def async_steps(game_id: str, players: int, n: int, total: int, seed: int) -> float:
    """Learner steps per wall second of `async_vector_env` with `n` tables (one process
    each), random offered indices; the workers start before the clock does."""
    from timelord.adapters.vector import async_vector_env

    envs = async_vector_env(game_id, n, players=players)
    try:
        _, infos = envs.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps, spent = 0, 0.0
        while steps < total:
            actions = [rng.choice(np.flatnonzero(row)) for row in infos["action_mask"]]
            t0 = time.perf_counter()
            _, _, _, _, infos = envs.step(np.array(actions))
            spent += time.perf_counter() - t0
            steps += n
        return steps / spent
    finally:
        envs.close()


def gin_rummy(games: int, seed: int) -> float | None:
    """C++ gin_rummy random-playout actions per second through pyspiel (chance sampled)."""
    try:
        import pyspiel
    except ImportError:
        return None
    import random

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions, t0 = 0, clock()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (clock() - t0)


def _positions(game_id: str, seeds: range) -> list[tuple[int, list[int]]]:
    """(seed, the first 8 random indices) of each seed: where the searches start."""
    import pyspiel

    from timelord.adapters.openspiel import short_name

    game = pyspiel.load_game(short_name(game_id), {"players": 4})
    out = []
    for seed in seeds:
        state = game.new_initial_state()
        state.reseed(seed)
        rng, path = Rng(seed), []
        for _ in range(8):
            legal = state.legal_actions()
            path.append(legal[rng.below(len(legal))])
            state.apply_action(path[-1])
        out.append((seed, path))
    return out


def ismcts_ms(game_id: str, sims: int, seeds: range) -> tuple[float, float] | None:
    """CPU ms per simulation: OpenSpiel's ISMCTSBot through the adapter, and timelord's
    ISMCTS with the same settings (c=2, random rollouts to the end), three decisions from
    each start position, 4 players."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from timelord.adapters.openspiel import short_name
    except ImportError:
        return None
    from timelord.agents import make_agent

    game = pyspiel.load_game(short_name(game_id), {"players": 4})
    starts = _positions(game_id, seeds)
    done, t0 = 0, clock()
    for seed, path in starts:
        state = game.new_initial_state()
        state.reseed(seed)
        for a in path:
            state.apply_action(a)
        rs = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, sims, random_state=rs)
        for _ in range(3):
            if state.is_terminal():
                break
            state.apply_action(bot.step(state))
            done += sims
    theirs = (clock() - t0) / done * 1e3
    tl = timelord.load(game_id, players=4)
    agent = make_agent(f"ismcts:easy/sims={sims}/rollout=random/cutoff=100000/c=2", tl)
    done, t0 = 0, clock()
    for seed, path in starts:
        s = tl.new_game(seed)
        index = game.index
        for a in path:
            s = s.apply(index.indices(s.legal_actions())[a])
        for _ in range(3):
            if s.is_over:
                break
            mover = s.to_move
            assert mover is not None
            s = s.apply(agent.act(s.view(mover), s.legal_actions(), Rng(seed)))
            done += sims
    return theirs, (clock() - t0) / done * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=None)
    ap.add_argument("--vector-steps", type=int, default=4096)
    ap.add_argument("--vector-batches", type=int, default=200, metavar="B")
    ap.add_argument("--sizes", default="1,16,64,256", help="the vector env's table counts")
    ap.add_argument("--async-steps", type=int, default=0, metavar="K")
    ap.add_argument("--ismcts", type=int, default=0, metavar="SIMS")
    ap.add_argument("--recall", action="store_true", help="the gym step with recall=True too")
    ap.add_argument(
        "--steps-only", action="store_true", help="only the first table (µs a step, ratios)"
    )
    args = ap.parse_args()
    cases = [(g, n) for g, n in CASES if not args.only or g == args.only]
    sizes = sorted({1, 64, *map(int, args.sizes.split(","))})

    def seeds(r: int) -> range:
        first = args.seed + r * args.games
        return range(first, first + args.games)

    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; CPU time")
    print(f"{args.games} random games a round; microseconds per step (ratio to raw)")
    print(
        f"{'game':<12}{'N':>3}{'steps':>8}{'raw':>8}{'pz step':>16}{'pz no events':>16}"
        f"{'pz step+last':>16}{'openspiel':>16}{'pz loop':>16}"
    )
    raws: dict[tuple[str, int], float] = {}
    for game_id, players in cases:
        best: dict[str, float] = {}
        total = 0
        warm = range(args.seed - 1, args.seed)  # a game before the rounds fills the caches
        raw(game_id, players, warm)
        pettingzoo(game_id, players, warm, observe=True)
        pz_loop(game_id, players, warm)
        for r in range(args.rounds):
            t, n = raw(game_id, players, seeds(r))
            total += n
            times = {"raw": t / n}
            t, n_pz = pettingzoo(game_id, players, seeds(r), observe=False)
            assert n_pz == n, "the adapter played other games than the engine"
            times["pz"] = t / n
            times["quiet"] = pettingzoo(game_id, players, seeds(r), False, False)[0] / n
            times["obs"] = pettingzoo(game_id, players, seeds(r), observe=True)[0] / n
            os_ = openspiel(game_id, players, seeds(r))
            if os_ is not None:
                times["os"] = os_[0] / os_[1]
            t, n_loop = pz_loop(game_id, players, seeds(r))
            times["loop"] = t / n_loop
            for k, v in times.items():
                best[k] = min(best.get(k, v), v)
        base = raws[game_id, players] = best["raw"]
        cells = [
            f"{best[k] * 1e6:7.1f} ({best[k] / base:4.2f}x)" if k in best else "-"
            for k in ("pz", "quiet", "obs", "os", "loop")
        ]
        row = "".join(f"{c:>16}" for c in cells)
        print(f"{game_id:<12}{players:>3}{total:>8}{base * 1e6:8.1f}{row}", flush=True)
    if args.steps_only:
        load = os.getloadavg()
        print(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        return
    print()
    print("throughput per CPU second (best of rounds); gym us/move: its time per game move")
    columns = "".join(f"{'vec N=' + str(k):>11}" for k in sizes)
    print(
        f"{'game':<12}{'N':>3}{'raw moves':>11}{'obs/seat':>10}{'gym steps':>11}"
        f"{'gym us/move':>18}{columns}"
        f"{'x64/x1':>8}{'raw x256/x1':>13}"
    )
    for game_id, players in cases:
        obs = gym = gym_move = 0.0
        vec = dict.fromkeys(sizes, 0.0)
        one = many = 0.0
        for r in range(args.rounds):
            one = max(one, raw_interleaved(game_id, players, 1, 256 * 100, seeds(r)[0]))
            many = max(many, raw_interleaved(game_id, players, 256, 256 * 100, seeds(r)[0]))
            obs = max(obs, observations(game_id, players, seeds(r)))
            t, steps, moves = gym_steps(game_id, players, seeds(r))
            gym = max(gym, steps / t)
            us = t / moves * 1e6
            gym_move = us if not gym_move else min(gym_move, us)
            for k in vec:
                got = vector_steps(
                    game_id, players, k, args.vector_steps, args.vector_batches, seeds(r)[0]
                )
                vec[k] = max(vec[k], got)
        base = raws[game_id, players]
        print(
            f"{game_id:<12}{players:>3}{1 / base:>11,.0f}{obs:>10,.0f}{gym:>11,.0f}"
            f"{f'{gym_move:.1f} ({gym_move / 1e6 / base:.2f}x)':>18}"
            f"{''.join(f'{vec[k]:>11,.0f}' for k in sizes)}"
            f"{vec[64] / vec[1]:>8.2f}{many / one:>13.2f}",
            flush=True,
        )
    if args.recall:
        print("\nGymnasium env, microseconds per learner step: the view, recall=True (ratio)")
        for game_id, players in cases:
            plain = recall = 0.0
            for r in range(args.rounds):
                t, n = learner_episodes(game_id, players, seeds(r))
                plain = t / n if not plain else min(plain, t / n)
                t, n = learner_episodes(game_id, players, seeds(r), recall=True)
                recall = t / n if not recall else min(recall, t / n)
            print(
                f"{game_id:<12}{players:>3}{plain * 1e6:9.1f}{recall * 1e6:9.1f}"
                f" ({recall / plain:.2f}x)",
                flush=True,
            )
    if args.async_steps:
        print("\nasync vector env, learner steps per wall second: 1 table (1 process), 2 tables")
        for game_id, players in cases:
            load = os.getloadavg()[0]
            one = max(
                async_steps(game_id, players, 1, args.async_steps, seeds(r)[0]) for r in range(2)
            )
            two = max(
                async_steps(game_id, players, 2, args.async_steps, seeds(r)[0]) for r in range(2)
            )
            print(
                f"{game_id:<12}{players:>3}{one:>10,.0f}{two:>10,.0f}{two / one:>7.2f}x"
                f"   load {load:.2f}",
                flush=True,
            )
    gin = max((gin_rummy(args.games * 2, args.seed + r) or 0.0) for r in range(args.rounds))
    if gin:
        print(f"\nC++ gin_rummy through pyspiel, random playouts: {gin:,.0f} actions/s")
    if args.ismcts:
        print(f"\nISMCTS, {args.ismcts} sims, 4 players: CPU ms per simulation")
        print(f"{'game':<12}{'OpenSpiel via adapter':>24}{'timelord':>10}{'ratio':>8}")
        for game_id in dict(cases):
            got = ismcts_ms(game_id, args.ismcts, range(args.seed, args.seed + 3))
            if got is not None:
                print(f"{game_id:<12}{got[0]:>24.2f}{got[1]:>10.2f}{got[0] / got[1]:>7.1f}x")
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
