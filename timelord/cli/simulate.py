"""`timelord simulate`: bot matches with seat rotation, on local cores or a Dask cluster.

    timelord simulate GAME --games N --seats ismcts:hard,heuristic,random --seed S \
        [-o results.jsonl] [--record records/] [--workers 4 | --serial | --dask local]

Writes one JSON line per game (the game's record with its result and seat specs), prints win
share per seat spec and per seat with 95% Wilson intervals, and the mean game length.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from timelord.cli.main import fail
from timelord.cli.options import parse_seats
from timelord.core import Record
from timelord.core.options import parse_options
from timelord.core.record import check_seed
from timelord.sim import SIM_EXTRAS
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


class RecordSink:
    """Where `--record` puts game records, opened before the first game is played (so a bad
    path fails at once) and written batch by batch (so a stopped run keeps what it played):
    a .jsonl path gets one record per line, any other path is a folder of game-NNNNN.json."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self.lines: TextIO | None = None
        if target.suffix == ".jsonl":
            self.lines = target.open("a")  # emptied by `begin`, when every output is open
            return
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=target):
            pass  # the folder exists but may not be writable: find out now

    def begin(self) -> None:
        """Empty a records file left by an earlier run (not before: a run that cannot start
        loses nothing)."""
        if self.lines is not None:
            self.lines.truncate(0)

    def write(self, records: list[dict[str, Any]]) -> None:
        if self.lines is not None:
            write_results((Record.from_json(r).to_json() for r in records), self.lines)
            self.lines.flush()
            return
        for data in records:
            Record.from_json(data).save(self.target / f"game-{data['result']['index']:05d}.json")

    def close(self) -> None:
        if self.lines is not None:
            self.lines.close()


def run(args: argparse.Namespace) -> int:
    specs = parse_seats(args.seats)
    options: dict[str, Any] = parse_options(args.option)
    options.setdefault("players", len(specs))
    check_seed(args.seed)  # records keep 64-bit seeds; say so now, not when they are read
    for name in ("games", "batch", "workers"):
        value = getattr(args, name)
        if value is not None and value < 1:
            fail(f"--{name} must be at least 1, not {value}")
    try:
        spec = MatchSpec.build(
            args.game, options, specs, args.games, args.seed, rotate=not args.no_rotate
        )
    except ValueError as exc:
        fail(str(exc))
    if args.dask:
        try:
            import dask.distributed  # noqa: F401  (say now, not after opening files)
        except ImportError as exc:
            fail(f"--dask needs the sim extras ({exc.name} is missing): {SIM_EXTRAS}")
    runner = Runner(dask=args.dask, batch=args.batch)
    if args.workers:
        runner.workers = args.workers
    if args.serial:
        runner.workers = 1
    path = Path(args.results or f"{args.game}-seed{args.seed}.results.jsonl")
    try:
        results = path.open("a")  # emptied below, once every output has opened
    except OSError as exc:
        fail(f"cannot write the results file {path}: {exc.strerror or exc}")
    sink = None
    try:
        if args.record:
            sink = RecordSink(Path(args.record))
    except OSError as exc:
        results.close()
        fail(f"cannot write records to {args.record}: {exc.strerror or exc}")
    results.truncate(0)
    if sink is not None:
        sink.begin()
    progress = None if args.quiet else Progress(args.games)

    def played() -> Iterator[dict[str, Any]]:
        """Every record as its batch finishes, written out before the next batch is asked
        for, so nothing but the batches in flight is held in memory."""
        for out in runner.stream(spec):
            write_results(out, results)
            results.flush()
            if sink is not None:
                sink.write(out)
            if progress is not None:
                progress.advance(len(out))
            yield from out

    try:
        summary = summarise(played())
    finally:
        results.close()
        if sink is not None:
            sink.close()
    print(format_summary(summary))
    print(f"results: {path}")
    return 0
