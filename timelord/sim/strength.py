"""Strength tables: `python -m timelord.sim.strength` runs the issue's matches, writes the doc.

For each registered game at 4 players, two seat-rotated matches:
1. `heuristic` against three `random` seats; it passes with a win share of at least twice the
   fair share (50%).
2. the strongest agent (`STRONGEST`, ismcts at its hard level by default) against three
   `heuristic` seats; it passes when the lower end of its 95% interval is above the fair share.

Each match's results go to `--results DIR` (one JSON-lines file per match, as `timelord
simulate` writes them). The games chosen with `--game` (all by default) are always played
again, since saved results say nothing of the code that played them; the other games' matches
are read back from DIR, so the tables can be built one game at a time. `--no-play` only
tabulates what DIR holds. The document lists every match found in DIR for the registered
games, with the wall time of the run that played it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from timelord.core import GAMES, load
from timelord.sim.match import MatchSpec, Runner, read_results, write_results
from timelord.sim.progress import Progress
from timelord.sim.stats import Tally, summarise

PLAYERS = 4
#: the strongest agent of each game (default: ismcts at its hard level)
STRONGEST: dict[str, str] = {"clue": "heuristic:hard"}
HEURISTIC_GAMES = 400
SEARCH_GAMES = 200
SEED = 2026


@dataclass
class Row:
    game: str
    kind: str  # "heuristic vs random" or "strongest vs heuristic"
    agent: str
    opponents: str
    tally: Tally
    fair: float
    passed: bool
    mean_length: float
    seconds: float | None


def match_path(folder: Path, game: str, seats: list[str], games: int, seed: int) -> Path:
    name = "-".join(s.replace(":", "_").replace("/", "_") for s in dict.fromkeys(seats))
    return folder / f"{game}-{name}-n{games}-s{seed}.results.jsonl"


def play_match(
    game: str,
    seats: list[str],
    games: int,
    seed: int,
    folder: Path,
    runner: Runner,
    reuse: bool,
) -> tuple[list[dict[str, Any]], float | None]:
    """The match's records: read back from `folder` if `reuse` and there, else played and
    saved."""
    path = match_path(folder, game, seats, games, seed)
    if reuse and path.exists():
        records = list(read_results(path))
        if len(records) == games:
            return records, None
    spec = MatchSpec.build(game, {"players": PLAYERS}, seats, games, seed)
    progress = Progress(games, f"games of {game}: {seats[0]} vs {seats[1]}")
    start = time.perf_counter()
    records = runner.run(spec, lambda out: progress.advance(len(out)))
    seconds = time.perf_counter() - start
    folder.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        write_results(records, f)
    path.with_suffix(".time").write_text(json.dumps({"seconds": seconds}))
    return records, seconds


def _row(
    game: str, kind: str, records: list[dict[str, Any]], agent: str, seconds: float | None
) -> Row:
    summary = summarise(records)
    tally = next(t for t in summary.by_agent if t.label == agent)
    fair = summary.fair_share
    if kind == "heuristic vs random":
        passed = tally.share >= 2 * fair
    else:
        passed = tally.interval[0] > fair
    opponents = ", ".join(sorted({t.label for t in summary.by_agent} - {agent}))
    return Row(game, kind, agent, opponents, tally, fair, passed, summary.mean_length, seconds)


def strongest(game: str) -> str:
    return STRONGEST.get(game, "ismcts:hard")


def build_rows(
    games: list[str], folder: Path, runner: Runner, play: bool, sizes: tuple[int, int], seed: int
) -> list[Row]:
    """Play (if `play`) and tabulate each game's two matches. Without `play`, the largest
    saved match of each kind is used, whatever its size, so games measured with fewer games
    (to fit the time) still appear, with their real count."""
    rows = []
    for game in games:
        best = strongest(game)
        plans = [
            ("heuristic vs random", ["heuristic"] + ["random"] * (PLAYERS - 1), sizes[0]),
            ("strongest vs heuristic", [best] + ["heuristic"] * (PLAYERS - 1), sizes[1]),
        ]
        for kind, seats, count in plans:
            if not play:
                count = _largest_saved(folder, game, seats, seed)
                if count == 0:
                    continue
            path = match_path(folder, game, seats, count, seed)
            records, seconds = play_match(game, seats, count, seed, folder, runner, not play)
            if seconds is None and path.with_suffix(".time").exists():
                seconds = json.loads(path.with_suffix(".time").read_text())["seconds"]
            rows.append(_row(game, kind, records, seats[0], seconds))
    return rows


def _largest_saved(folder: Path, game: str, seats: list[str], seed: int) -> int:
    stem = match_path(folder, game, seats, 0, seed).name.replace("-n0-", "-n*-")
    counts = []
    for path in folder.glob(stem):
        middle = path.name[len(stem.split("*")[0]) :].split("-")[0]
        if middle.isdigit() and len(list(read_results(path))) == int(middle):
            counts.append(int(middle))
    return max(counts, default=0)


def level_notes(games: list[str]) -> list[str]:
    from timelord.agents import make_agent
    from timelord.agents.ismcts import IsmctsAgent

    notes = []
    for game in games:
        agent = make_agent(strongest(game), load(game, players=PLAYERS))
        if isinstance(agent, IsmctsAgent):
            notes.append(f"- `{game}`: `{agent.name}` = {agent.settings.describe()}")
        else:
            notes.append(f"- `{game}`: `{agent.name}` ({type(agent).__name__})")
    return notes


def render(rows: list[Row], games: list[str], seed: int) -> str:
    lines = [
        "# Bot strength",
        "",
        "Written by `python -m timelord.sim.strength` (do not edit by hand). Every match is "
        f"{PLAYERS} players, seats rotated every game, match seed {seed}; win share counts a "
        "tie for first as 1/k of a win. Intervals are 95% Wilson intervals. Criteria (issue "
        "5): the heuristic's win share against three random seats is at least twice the "
        "fair share; the strongest agent's interval against three heuristic seats lies above "
        "the fair share. Wall times are those of the run that played the match, on all local "
        "cores (a 2-core machine shared with other jobs when this file was last written). "
        "The issue asks for 400 and 200 games; a smaller count in the table is what fitted "
        "the time, and says so.",
        "",
        "| game | match | games | agent | win share | 95% interval | fair | holds | "
        "mean length | wall time |",
        "|---|---|---:|---|---:|---|---:|---|---:|---:|",
    ]
    for r in rows:
        lo, hi = r.tally.interval
        wall = "-" if r.seconds is None else f"{r.seconds / 60:.1f} min"
        lines.append(
            f"| {r.game} | {r.kind} | {r.tally.games} | `{r.agent}` | {r.tally.share:.3f} | "
            f"[{lo:.3f}, {hi:.3f}] | {r.fair:.3f} | {'yes' if r.passed else 'no'} | "
            f"{r.mean_length:.0f} | {wall} |"
        )
    missing = [g for g in games if not any(r.game == g for r in rows)]
    if missing:
        lines += ["", f"Not measured yet: {', '.join(missing)}."]
    lines += ["", "Settings of the strongest agents (the hard levels):", "", *level_notes(games)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--results", default="results/strength", help="match files folder")
    parser.add_argument("--output", "-o", default="docs/strength.md")
    parser.add_argument("--heuristic-games", type=int, default=HEURISTIC_GAMES)
    parser.add_argument("--search-games", type=int, default=SEARCH_GAMES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--workers", "-j", type=int, default=None)
    parser.add_argument("--dask", default=None, help='"local" or tcp://host:port')
    parser.add_argument(
        "--no-play", action="store_true", help="only tabulate matches already in --results"
    )
    args = parser.parse_args(argv)
    everything = list(GAMES)
    chosen = args.game or everything
    unknown = set(chosen) - set(everything)
    if unknown:
        print(f"unknown game(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    runner = Runner(dask=args.dask)
    if args.workers:
        runner.workers = args.workers
    folder = Path(args.results)
    sizes = (args.heuristic_games, args.search_games)
    build_rows(chosen, folder, runner, not args.no_play, sizes, args.seed)
    rows = build_rows(everything, folder, runner, False, sizes, args.seed)
    Path(args.output).write_text(render(rows, everything, args.seed))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
