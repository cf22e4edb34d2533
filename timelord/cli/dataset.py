"""`timelord dataset`: self-play games as per-seat learning arrays plus their records.

    timelord dataset GAME --games N --seats heuristic,random --out DIR [--seed S]
        [-o NAME=VALUE] [--workers K | --serial | --dask ADDRESS] [--recall]

The files and their arrays are described in `timelord.sim.dataset` (needs the `rl`
extra: numpy).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from timelord.cli.main import fail
from timelord.cli.options import parse_seats
from timelord.core.options import parse_options
from timelord.core.record import check_seed
from timelord.sim.match import MatchSpec, Runner


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument("--games", "-n", type=int, default=100, help="games to play (%(default)s)")
    parser.add_argument(
        "--seats",
        default="heuristic,random",
        help="comma-separated agent specs, one per seat; rotated every game (%(default)s)",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the files")
    parser.add_argument("--seed", type=int, default=0, help="match seed (%(default)s)")
    parser.add_argument(
        "--option", "-o", action="append", metavar="NAME=VALUE", help="game option, repeatable"
    )
    parser.add_argument("--recall", action="store_true", help="perfect-recall observations")
    parser.add_argument("--workers", "-j", type=int, default=None, help="processes (all cores)")
    parser.add_argument("--serial", action="store_true", help="play in this process")
    parser.add_argument(
        "--dask", metavar="ADDRESS", help='"local" (cluster on 127.0.0.1) or tcp://host:port'
    )


def run(args: argparse.Namespace) -> int:
    try:
        from timelord.sim.dataset import build
    except ImportError as exc:
        fail(f"the dataset needs the rl extra ({exc.name} is missing): pip install 'timelord[rl]'")
    specs = parse_seats(args.seats)
    options: dict[str, Any] = parse_options(args.option)
    options.setdefault("players", len(specs))
    check_seed(args.seed)
    for name in ("games", "workers"):
        value = getattr(args, name)
        if value is not None and value < 1:
            fail(f"--{name} must be at least 1, not {value}")
    try:
        spec = MatchSpec.build(args.game, options, specs, args.games, args.seed)
    except ValueError as exc:
        fail(str(exc))
    runner = Runner(dask=args.dask)
    if args.workers:
        runner.workers = args.workers
    if args.serial:
        runner.workers = 1
    out = Path(args.out)
    try:
        rows = build(spec, out, runner, recall=args.recall)
    except OSError as exc:
        fail(f"cannot write the dataset to {out}: {exc.strerror or exc}")
    print(f"{args.games} games, {rows} decisions written to {out}")
    return 0
