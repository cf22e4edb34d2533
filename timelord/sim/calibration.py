"""Is the coach's stated uncertainty honest? `python -m timelord.sim.calibration` checks it.

On endgame positions of seeded games (the last actions of games played by heuristics, where
playouts are short and the value is well defined), each move the coach reports is valued
again with `--factor` times more fresh samples. An estimate "holds" when it lies within 1.96
combined standard errors of that reference (the reference's own noise counted, so the
expected rate is 95%). The table gives, per game, the share of estimates that hold, the mean
stated standard error and the mean absolute difference from the reference.

    python -m timelord.sim.calibration [--positions 30] [--samples 64] [--factor 10]
        [--game keys] [--output docs/calibration.md]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from timelord.agents import make_agent
from timelord.agents.coach import Z95, Budget, Coach, view_seed
from timelord.core import GAMES, Rng, State, load

PLAYERS = {"keys": 2, "episodes": 3, "card-game": 3, "clue": 3}
SPEC = {"clue": "heuristic:hard"}


def endgames(game_id: str, players: int, positions: int, seed: int) -> Iterator[State]:
    """`positions` states, each 3 to 20 actions before the end of its own seeded game of
    heuristics, with a choice for the seat to move."""
    game = load(game_id, players=players)
    agents = [make_agent(SPEC.get(game_id, "heuristic"), game) for _ in range(players)]
    rng = Rng(seed)
    made = 0
    g = 0
    while made < positions:
        state = game.new_game(seed * 1000 + g)
        g += 1
        trail = []
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_actions()
            if len(legal) > 1:
                trail.append(state)
            state = state.apply(agents[seat].act(state.view(seat), legal, rng))
        if len(trail) < 4:
            continue
        back = 3 + rng.below(min(18, len(trail) - 3))
        made += 1
        yield trail[-back]


def check_position(state: State, samples: int, factor: int) -> tuple[int, int]:
    """(estimates that hold, estimates made) at one position: the coach's values with about
    `samples` fresh samples per reported move, against `factor` times as many."""
    game = state.game
    seat = state.to_move
    assert seat is not None
    view, legal = state.view(seat), state.legal_actions()
    coach = Coach(game)
    reported = min(len(legal), 3)
    found = coach.value_moves(view, legal, Budget(rollouts=2 * samples * reported))
    rng = Rng(view_seed(view, salt=1))
    hits = 0
    for move in found:
        xs = []
        for _ in range(factor * move.samples):
            world = game.sample_state(view, rng)
            xs.append(coach.playout(world.apply_unchecked(move.action), seat, rng))
        mean = sum(xs) / len(xs)
        error = math.sqrt((sum((x - mean) ** 2 for x in xs) + 0.25) / len(xs) / len(xs))
        hits += abs(move.value - mean) <= Z95 * math.hypot(move.error, error)
        _STATS.append((move.error, abs(move.value - mean)))
    return hits, len(found)


#: (stated error, absolute difference) of every estimate checked in this process
_STATS: list[tuple[float, float]] = []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30, help="per game (%(default)s)")
    parser.add_argument("--samples", type=int, default=64, help="per reported move")
    parser.add_argument("--factor", type=int, default=10, help="reference samples / samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--output", "-o", help="also write the table (markdown) here")
    args = parser.parse_args(argv)
    lines = [
        "| game | players | positions | estimates | hold (95% stated) | mean stated error "
        "| mean abs. difference | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    print(lines[0])
    for game_id in args.game or list(GAMES):
        players = PLAYERS.get(game_id, 2)
        _STATS.clear()
        start = time.perf_counter()
        hits = total = 0
        for state in endgames(game_id, players, args.positions, args.seed):
            h, n = check_position(state, args.samples, args.factor)
            hits += h
            total += n
        stated = sum(e for e, _ in _STATS) / len(_STATS)
        diff = sum(d for _, d in _STATS) / len(_STATS)
        line = (
            f"| {game_id} | {players} | {args.positions} | {total} | {hits / total:.3f} "
            f"| {stated:.4f} | {diff:.4f} | {time.perf_counter() - start:.0f} |"
        )
        lines.append(line)
        print(line, flush=True)
    if args.output:
        head = (
            f"Coach calibration: `python -m timelord.sim.calibration --positions "
            f"{args.positions} --samples {args.samples} --factor {args.factor} --seed "
            f"{args.seed}`. Endgame positions of heuristic games; each reported move's value "
            f"with about {args.samples} fresh samples against {args.factor} times as many.\n\n"
        )
        Path(args.output).write_text(head + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
