"""Are the coach's intervals honest? `python -m timelord.sim.calibration` checks them.

Ground truth here is what a move is worth when the table's bots play the rest of the game:
on endgame positions of seeded games (3 to 20 decisions before the end of games played by
`REFERENCE`, the strongest cheap bot of each game), each move the coach reports is played
again in `--reference` fresh worlds dealt from the seat's view, and every seat then plays
`REFERENCE` (from its own view, as at a table) to the end. That value differs from the
coach's by sampling noise on both sides and by the coach's model error (its simulation
policy is not the table's bots, and a cut-off playout ends on an evaluation).

Per game the table gives:
- `hold`: the share of the coach's 95% intervals (its stated error, model error included,
  clipped to 0..1) that contain the reference, the reference's own sampling noise widening
  the interval as it should (nominal 0.95);
- `hold, sampling only`: the same with the coach's sampling error alone, which is what the
  intervals were before the model error was added;
- `model error (fit)`: the root-mean-square difference left after both sampling errors are
  taken out, the figure `timelord.agents.coach.MODEL_ERROR` should hold.

    python -m timelord.sim.calibration [--positions 10] [--samples 200] [--reference 40]
        [--game keys] [--seed 1] [--doc docs/coach.md]

`--doc` replaces the part of that file between the calibration markers with the table.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from timelord.agents import make_agent
from timelord.agents.coach import Z95, Budget, Coach, view_seed, win_share
from timelord.core import GAMES, Action, Game, Rng, State, View, load

PLAYERS = {"keys": 2, "episodes": 3, "card-game": 3, "clue": 3}
#: the bots whose play is the ground truth (the strongest that play a game in seconds)
REFERENCE = {"clue": "heuristic:hard"}
BEGIN = "<!-- calibration: begin -->"
END = "<!-- calibration: end -->"


def reference_spec(game_id: str) -> str:
    return REFERENCE.get(game_id, "heuristic")


def endgames(game_id: str, players: int, positions: int, seed: int) -> Iterator[State]:
    """`positions` states, each 3 to 20 decisions before the end of its own seeded game of
    the reference bots, with a choice for the seat to move."""
    game = load(game_id, players=players)
    agents = [make_agent(reference_spec(game_id), game) for _ in range(players)]
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


def reference_value(
    game: Game, view: View, action: Action, playouts: int, rng: Rng
) -> tuple[float, float]:
    """Mean win share and its standard error of `action` when every seat then plays the
    reference bots to the end, over `playouts` worlds dealt from `view`."""
    seat = view["seat"]
    agents = [make_agent(reference_spec(game.id), game) for _ in range(game.players)]
    xs = []
    for _ in range(playouts):
        state = game.sample_state(view, rng).apply(action)
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            legal = state.legal_actions()
            move = legal[0] if len(legal) == 1 else agents[mover].act(state.view(mover), legal, rng)
            state = state.apply_unchecked(move)
        xs.append(win_share(state, seat))
    mean = sum(xs) / len(xs)
    spread = sum((x - mean) ** 2 for x in xs) + 0.25  # as the coach's own floor
    return mean, math.sqrt(spread / len(xs) / len(xs))


@dataclass
class Tally:
    """What the checked estimates of one game came to."""

    hits: int = 0
    sampling_hits: int = 0
    total: int = 0
    excess: list[float] = field(default_factory=list)  # squared difference less both noises
    differences: list[float] = field(default_factory=list)

    def add(self, coach: Coach, value: float, error: float, ref: float, ref_error: float) -> None:
        sampling = math.sqrt(max(0.0, error**2 - coach.model_error**2))
        both = Z95 * math.hypot(error, ref_error)
        self.hits += max(0.0, value - both) <= ref <= min(1.0, value + both)
        self.sampling_hits += abs(value - ref) <= Z95 * math.hypot(sampling, ref_error)
        self.total += 1
        self.excess.append((value - ref) ** 2 - sampling**2 - ref_error**2)
        self.differences.append(abs(value - ref))

    def model_error(self) -> float:
        return math.sqrt(max(0.0, sum(self.excess) / len(self.excess)))


def check_position(state: State, samples: int, playouts: int, tally: Tally) -> None:
    """The coach's reported moves at one position (a budget of `samples`) against the
    reference bots' values (`playouts` worlds each)."""
    game = state.game
    seat = state.to_move
    assert seat is not None
    view, legal = state.view(seat), state.legal_actions()
    coach = Coach(game)
    found = coach.value_moves(view, legal, Budget(rollouts=samples))
    rng = Rng(view_seed(view, salt=1))
    for move in found:
        ref, ref_error = reference_value(game, view, move.action, playouts, rng)
        tally.add(coach, move.value, move.error, ref, ref_error)


def calibrate(game_id: str, positions: int, samples: int, playouts: int, seed: int) -> Tally:
    tally = Tally()
    for state in endgames(game_id, PLAYERS.get(game_id, 2), positions, seed):
        check_position(state, samples, playouts, tally)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10, help="per game (%(default)s)")
    parser.add_argument("--samples", type=int, default=200, help="coach budget per position")
    parser.add_argument("--reference", type=int, default=40, help="reference playouts per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--doc", help="write the table between the calibration markers here")
    args = parser.parse_args(argv)
    lines = [
        "| game | players | reference bots | positions | estimates | hold | hold, sampling "
        "only | model error (fit) | stated model error | mean abs. difference | seconds |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    print(lines[0], flush=True)
    for game_id in args.game or list(GAMES):
        start = time.perf_counter()
        tally = calibrate(game_id, args.positions, args.samples, args.reference, args.seed)
        coach = Coach(load(game_id, players=PLAYERS.get(game_id, 2)))
        line = (
            f"| {game_id} | {PLAYERS.get(game_id, 2)} | {reference_spec(game_id)} "
            f"| {args.positions} | {tally.total} | {tally.hits / tally.total:.3f} "
            f"| {tally.sampling_hits / tally.total:.3f} | {tally.model_error():.3f} "
            f"| {coach.model_error:.3f} "
            f"| {sum(tally.differences) / tally.total:.3f} | {time.perf_counter() - start:.0f} |"
        )
        lines.append(line)
        print(line, flush=True)
    if args.doc:
        command = (
            f"`python -m timelord.sim.calibration --positions {args.positions} --samples "
            f"{args.samples} --reference {args.reference} --seed {args.seed}`"
        )
        table = "\n".join([command, "", *lines])
        write_between(Path(args.doc), table)
    return 0


def write_between(path: Path, text: str) -> None:
    """Replace what lies between `BEGIN` and `END` in `path` with `text` (appended with the
    markers when they are missing)."""
    old = path.read_text() if path.exists() else ""
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + block + rest.split(END, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(new)


if __name__ == "__main__":
    sys.exit(main())
