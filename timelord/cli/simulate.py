"""`timelord simulate`: bot matches with seat rotation, on local cores or a Dask cluster.

    timelord simulate GAME --games N --seats ismcts:hard,heuristic,random --seed S \
        [-o results.jsonl] [--record records/] [--workers 4 | --serial | --dask local]

Writes one JSON line per game (the game's record with its result and seat specs), prints win
share per seat spec and per seat with 95% Wilson intervals, and the mean game length.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from timelord.cli.options import parse_options, parse_seats
from timelord.core import Record
from timelord.sim.match import MatchSpec, Runner, write_results
from timelord.sim.progress import Progress
from timelord.sim.stats import format_summary, summarise


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument("--games", "-n", type=int, default=100, help="games to play (%(default)s)")
    parser.add_argument(
        "--seats",
        default="heuristic,random",
        help="comma-separated agent specs, one per seat; rotated every game (%(default)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help="match seed (%(default)s)")
    parser.add_argument(
        "--option", "-o", action="append", metavar="NAME=VALUE", help="game option, repeatable"
    )
    parser.add_argument(
        "--results",
        "-r",
        metavar="FILE",
        help="results file, JSON lines (default: GAME-seedS.results.jsonl)",
    )
    parser.add_argument(
        "--record",
        metavar="FILE|DIR",
        help="also save the game records: FILE.jsonl gets one record per line (each readable "
        "by Record.from_json); any other path is a folder of game-NNNNN.json files",
    )
    parser.add_argument("--no-rotate", action="store_true", help="keep every spec in its seat")
    parser.add_argument("--workers", "-j", type=int, default=None, help="processes (all cores)")
    parser.add_argument("--serial", action="store_true", help="play in this process")
    parser.add_argument(
        "--dask", metavar="ADDRESS", help='"local" (cluster on 127.0.0.1) or tcp://host:port'
    )
    parser.add_argument("--batch", type=int, default=None, help="games per task (automatic)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def save_records(records: list[dict[str, Any]], target: Path) -> None:
    """Records to one JSON-lines file (a .jsonl path) or to a folder, one file per game."""
    if target.suffix == ".jsonl":
        with target.open("w") as f:
            write_results((Record.from_json(r).to_json() for r in records), f)
        return
    target.mkdir(parents=True, exist_ok=True)
    for data in records:
        Record.from_json(data).save(target / f"game-{data['result']['index']:05d}.json")


def run(args: argparse.Namespace) -> int:
    specs = parse_seats(args.seats)
    options: dict[str, Any] = parse_options(args.option)
    options.setdefault("players", len(specs))
    if args.games < 1:
        print("timelord simulate: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        spec = MatchSpec.build(
            args.game, options, specs, args.games, args.seed, rotate=not args.no_rotate
        )
    except ValueError as exc:
        print(f"timelord simulate: {exc}", file=sys.stderr)
        return 2
    runner = Runner(dask=args.dask, batch=args.batch)
    if args.workers:
        runner.workers = args.workers
    if args.serial:
        runner.workers = 1
    progress = None if args.quiet else Progress(args.games)
    records = runner.run(spec, lambda out: progress.advance(len(out)) if progress else None)
    path = Path(args.results or f"{args.game}-seed{args.seed}.results.jsonl")
    with path.open("w") as f:
        write_results(records, f)
    if args.record:
        save_records(records, Path(args.record))
    print(format_summary(summarise(records)))
    print(f"results: {path}")
    return 0
