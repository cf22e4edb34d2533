"""The benchmark: one agent spec against fixed opponents, at fixed seeds and player counts.

    python -m timelord.sim.benchmark SPEC [--games N] [--game ID ...] [--players N ...]
                                     [--opponent SPEC ...] [--workers K]
                                     [--results FILE] [--board]
    python -m timelord.sim.benchmark --board     # only redraw the leaderboard from the file

For every game, player count and opponent of the protocol (`docs/benchmark.md`), SPEC takes
one seat and the opponent all the others; seats rotate every game and game `i` is dealt
with `game_seed(SEED, i)`, so a cell's games are the same for every agent and every run
(`timelord.core.seating`). A cell's figure is SPEC's win share (1/k for a tie of k winners)
with a 95% Wilson interval; the fair share is 1/players. Each run appends one line per cell
to the results file (JSON lines, results/benchmark.jsonl) and prints its table; `--board`
rewrites the leaderboard in docs/benchmark.md from the whole file (the best-sampled row per
agent and cell); without SPEC it plays nothing and only redraws it (after rows were appended
by others' runs).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from timelord.core import GAMES, ConfigError, CorruptRecord
from timelord.sim.match import MatchSpec, Runner
from timelord.sim.stats import wilson

#: the protocol: its seed, the games per cell, the player counts and the opponents
SEED = 2026
GAMES_PER_CELL = 40
PLAYER_COUNTS = (2, 4)
OPPONENTS = ("random", "heuristic", "ismcts:easy")
RESULTS = Path("results/benchmark.jsonl")
BOARD = Path("docs/benchmark.md")
BEGIN, END = "<!-- leaderboard:begin -->", "<!-- leaderboard:end -->"


@dataclass(frozen=True)
class Cell:
    """One game, player count and opponent: the agent's share over `games` games."""

    agent: str
    game: str
    players: int
    opponent: str
    games: int
    seed: int
    share: float
    low: float
    high: float
    seconds: float

    def row(self) -> str:
        return (
            f"| `{self.agent}` | {self.game} | {self.players} | `{self.opponent}` | "
            f"{self.games} | {self.share:.3f} [{self.low:.3f}, {self.high:.3f}] | "
            f"{1 / self.players:.3f} |"
        )


HEADER = (
    "| agent | game | players | opponents | games | win share [95%] | fair |\n"
    "|---|---|---|---|---|---|---|"
)


def rate(
    agent: str,
    game_id: str,
    players: int,
    opponent: str,
    games: int = GAMES_PER_CELL,
    seed: int = SEED,
    runner: Runner | None = None,
) -> Cell:
    """`agent` in one seat, `opponent` in the others, `games` seeded games, seats rotated."""
    seats = [agent] + [opponent] * (players - 1)
    spec = MatchSpec.build(game_id, {"players": players}, seats, games, seed)
    start = time.perf_counter()
    records = (runner or Runner(workers=1)).run(spec, lambda batch: None)
    total = 0.0
    for record in records:
        result = record["result"]
        seat = result["index"] % players  # where the rotation put specs[0], the agent
        assert record["seats"][seat] == agent
        winners = result["winners"]
        total += 1.0 / len(winners) if seat in winners else 0.0
    low, high = wilson(total, games)
    return Cell(
        agent,
        game_id,
        players,
        opponent,
        games,
        seed,
        total / games,
        low,
        high,
        time.perf_counter() - start,
    )


def read_cells(path: Path) -> list[Cell]:
    """Every cell of a results file (a missing file has none); `CorruptRecord` names a line
    that is not a cell, since others' runs append to the same file."""
    if not path.exists():
        return []
    cells = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                cells.append(Cell(**json.loads(line)))
            except (TypeError, ValueError) as exc:
                raise CorruptRecord(f"{path}:{n}: not a benchmark cell: {exc}") from None
    return cells


def leaderboard(cells: Sequence[Cell]) -> str:
    """The table of the file: per agent and cell the run with the most games, best first."""
    best: dict[tuple[str, str, int, str], Cell] = {}
    for cell in cells:
        key = (cell.agent, cell.game, cell.players, cell.opponent)
        if key not in best or cell.games > best[key].games:
            best[key] = cell
    ordered = sorted(best.values(), key=lambda c: (c.game, c.players, c.opponent, -c.share))
    return "\n".join([HEADER, *(c.row() for c in ordered)])


def write_board(cells: Sequence[Cell], path: Path = BOARD) -> None:
    """Put the leaderboard between the markers of `path`."""
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    path.write_text(f"{head}{BEGIN}\n{leaderboard(cells)}\n{END}{tail}", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m timelord.sim.benchmark", description=__doc__)
    ap.add_argument("agent", nargs="?", help="the agent spec to rate (none: --board only)")
    ap.add_argument("--games", type=int, default=GAMES_PER_CELL)
    ap.add_argument("--game", action="append", choices=sorted(GAMES))
    ap.add_argument("--players", type=int, action="append")
    ap.add_argument("--opponent", action="append")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--results", type=Path, default=RESULTS)
    ap.add_argument("--board", action="store_true", help="rewrite docs/benchmark.md's table")
    ap.add_argument("--doc", type=Path, default=BOARD, help=f"the board's file ({BOARD})")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if args.agent is None and not args.board:
        ap.error("name an agent spec to rate, or --board to redraw the leaderboard")
    if args.agent is not None:
        runner = Runner(workers=args.workers)
        print(HEADER)
        for game_id in args.game or sorted(GAMES):
            for players in args.players or PLAYER_COUNTS:
                for opponent in args.opponent or OPPONENTS:
                    try:
                        cell = rate(
                            args.agent, game_id, players, opponent, args.games, SEED, runner
                        )
                    except (ConfigError, ValueError) as exc:
                        print(f"benchmark: {exc}", file=sys.stderr)
                        return 2
                    print(cell.row(), flush=True)
                    args.results.parent.mkdir(parents=True, exist_ok=True)
                    with args.results.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(asdict(cell), sort_keys=True) + "\n")
    if args.board:
        try:
            write_board(read_cells(args.results), args.doc)
        except CorruptRecord as exc:
            print(f"benchmark: {exc}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
