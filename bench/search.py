"""ismcts simulations per second on mid-game positions of every registered game, one core.

Run by hand (not a test):  python bench/search.py [--seconds 5] [--level hard] [--players 4]

A position is taken a third of the way into a seeded random game; the agent searches from the
view of the seat to move with the given level's settings (sims raised so the clock, not the
budget, ends each search; a level that decides by paired playouts, Episodes' `hard`, is timed
on that path, where a simulation is one move's playout), and the rate is simulations per
second of this process's CPU time (`time.process_time`: one core; on a busy machine wall time
would also count other jobs), sample_state included.
The targets (what a search needs to play well in 0.8 s; compiled build, hard level, 4
players): 3,000 per second for the Card Game, 8,000 for the others. For scale the
same run measures the game's random-playout rate (actions/s) on the same positions.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import timelord
from timelord import Rng
from timelord.agents.hooks import hooks_for
from timelord.agents.ismcts import IsmctsAgent, parse_settings

TARGETS = {"card-game": 3000.0}
DEFAULT_TARGET = 8000.0


def positions(game: timelord.Game, count: int) -> list[timelord.State]:
    rng = Rng(7)
    found = []
    for g in range(count):
        state = game.new_game(g)
        trail = [state]
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
            trail.append(state)
        mid = trail[len(trail) // 3]
        if mid.to_move is not None:
            found.append(mid)
    return found


def search_rate(game: timelord.Game, level: str, seconds: float) -> tuple[float, str]:
    hooks = hooks_for(game)
    settings = parse_settings(level, hooks)
    agent = IsmctsAgent(game, replace(settings, sims=200, time=None), hooks)
    states = positions(game, 10)
    rng = Rng(1)
    sims = 0
    start = time.process_time()
    i = 0
    while time.process_time() - start < seconds:
        state = states[i % len(states)]
        i += 1
        seat = state.to_move
        assert seat is not None
        if settings.paired > 0:  # the level decides by paired playouts, not the tree
            agent.paired(state.view(seat), state.legal_actions(), rng)
        else:
            agent.search(state.view(seat), rng)
        sims += agent.last_sims
    return sims / (
        time.process_time() - start
    ), f"rollout={settings.rollout}, cutoff={settings.cutoff}" + (
        f", paired={settings.paired:g}" if settings.paired else ""
    )


def playout_rate(game: timelord.Game, seconds: float) -> float:
    rng = Rng(3)
    actions = 0
    start = time.process_time()
    g = 0
    while time.process_time() - start < seconds:
        state = game.new_game(g)
        g += 1
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply_unchecked(legal[rng.below(len(legal))])
            actions += 1
    return actions / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per game")
    parser.add_argument("--level", default="hard", help="ismcts level (%(default)s)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", action="append", help="only these game ids (repeatable)")
    args = parser.parse_args()
    print(f"build: {timelord.BUILD}")
    print(f"{'game':<12}{'players':>8}{'sims/s':>10}{'target':>8}{'ratio':>7}{'actions/s':>11}  ok")
    failed = False
    for game_id in args.game or list(timelord.GAMES):
        game = timelord.load(game_id, players=args.players)
        rate, described = search_rate(game, args.level, args.seconds)
        target = TARGETS.get(game_id, DEFAULT_TARGET)
        ok = rate >= target
        failed |= not ok
        playouts = playout_rate(game, min(2.0, args.seconds))
        print(
            f"{game_id:<12}{game.players:>8}{rate:>10,.0f}{target:>8,.0f}{rate / target:>7.2f}"
            f"{playouts:>11,.0f}  {'yes' if ok else 'NO'}   ({described})"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
