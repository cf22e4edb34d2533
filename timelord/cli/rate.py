"""`timelord rate`: play bot-against-bot tables into a server database's rating pool.

    timelord rate GAME --db URL --games N [--bots random,heuristic,ismcts:hard] \
        [-o players=2] [--seed S] [--workers W | --serial | --dask ADDRESS]

Prints the bots' ratings (mu, sigma, mu - 3 sigma, and mu +/- sigma) and the time taken.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from timelord.cli.main import fail
from timelord.cli.options import add_option_argument, parse_options, parse_seats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="the server's database (default: the SQLite file `timelord serve` uses)",
    )
    parser.add_argument("--games", "-n", type=int, default=300, help="tables (%(default)s)")
    parser.add_argument(
        "--bots",
        default="random,heuristic,ismcts:hard",
        help="comma-separated bot specs to rate (%(default)s)",
    )
    add_option_argument(parser)
    parser.add_argument("--seed", type=int, default=0, help="match seed (%(default)s)")
    parser.add_argument("--workers", "-j", type=int, default=None, help="processes (all cores)")
    parser.add_argument("--serial", action="store_true", help="play in this process")
    parser.add_argument(
        "--dask", metavar="ADDRESS", help='"local" (cluster on 127.0.0.1) or tcp://host:port'
    )


def run(args: argparse.Namespace) -> int:
    from timelord.server.calibrate import calibrate, format_table
    from timelord.server.storage import Store, default_url
    from timelord.sim.match import Runner

    bots = parse_seats(args.bots)
    options: dict[str, Any] = parse_options(args.option)
    options.setdefault("players", 2)
    if args.games < 1:
        fail(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        fail(f"--workers must be at least 1, not {args.workers}")
    runner = Runner(dask=args.dask)
    if args.workers:
        runner.workers = args.workers
    if args.serial:
        runner.workers = 1
    store = Store(args.db or default_url())
    try:
        store.migrate()
        started = time.monotonic()
        try:
            ratings = calibrate(store, args.game, options, bots, args.games, args.seed, runner)
        except ValueError as exc:
            fail(str(exc))
        took = time.monotonic() - started
    finally:
        store.close()
    print(format_table(args.game, ratings))
    print(f"{args.games} tables of {args.game} in {took:.1f} s on {runner.workers} workers")
    return 0
