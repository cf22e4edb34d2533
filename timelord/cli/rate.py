"""`timelord rate`: play bot-against-bot tables into a server database's rating pool.

    timelord rate GAME --db URL --games N [--bots random,heuristic,ismcts:hard] \\
        [-o players=2] [--seed S] [--time-cap SECONDS] [--until-separated] \\
        [--workers W | --serial | --dask ADDRESS]

The tables go where they tell most (adjacent levels whose intervals overlap; see
`timelord.server.calibrate`), with a progress bar and a line per round on stderr. Prints the
bots' ratings (mu, sigma, mu - 3 sigma, and mu +/- sigma), the tables each combination played
with its first-place shares, and the wall time, CPU time and machine load it took.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from typing import Any

from timelord.cli.main import fail
from timelord.cli.options import add_option_argument, parse_seats
from timelord.core.options import parse_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from timelord.agents import TABLE_TIME_CAP
    from timelord.server.calibrate import DEFAULT_BOTS, ROUND

    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="the server's database (default: the SQLite file `timelord serve` uses)",
    )
    parser.add_argument("--games", "-n", type=int, default=300, help="tables at most (%(default)s)")
    parser.add_argument(
        "--bots",
        default=",".join(DEFAULT_BOTS),
        help="comma-separated bot specs to rate (%(default)s)",
    )
    add_option_argument(parser)
    parser.add_argument("--seed", type=int, default=0, help="match seed (%(default)s)")
    parser.add_argument(
        "--time-cap",
        type=float,
        default=TABLE_TIME_CAP,
        metavar="SECONDS",
        help="wall-clock seconds a bot may think per move, as at a served table "
        "(%(default)s; 0: no cap, so a seed replays exactly)",
    )
    parser.add_argument(
        "--until-separated",
        action="store_true",
        help="stop once every pair of adjacent levels has intervals apart",
    )
    parser.add_argument(
        "--margin",
        type=float,
        default=1.0,
        help="how far apart a pair must be to count as separated: the mu gap over the "
        "summed sigmas (%(default)s: the intervals mu+-sigma just part)",
    )
    parser.add_argument("--round", type=int, default=ROUND, help="tables per round (%(default)s)")
    parser.add_argument("--workers", "-j", type=int, default=None, help="processes (all cores)")
    parser.add_argument("--serial", action="store_true", help="play in this process")
    parser.add_argument(
        "--dask", metavar="ADDRESS", help='"local" (cluster on 127.0.0.1) or tcp://host:port'
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> int:
    from timelord.server.calibrate import (
        BotRating,
        calibrate,
        format_capped,
        format_matchups,
        format_table,
    )
    from timelord.server.storage import Store, default_url
    from timelord.sim.match import Runner
    from timelord.sim.progress import Progress

    bots = parse_seats(args.bots)
    options: dict[str, Any] = parse_options(args.option)
    options.setdefault("players", 2)
    if args.games < 1:
        fail(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        fail(f"--workers must be at least 1, not {args.workers}")
    if args.time_cap < 0 or args.round < 1 or args.margin <= 0:
        fail("--time-cap must be 0 or more, --round at least 1 and --margin above 0")
    runner = Runner(dask=args.dask)
    if args.workers:
        runner.workers = args.workers
    if args.serial:
        runner.workers = 1
    progress = None if args.quiet else Progress(args.games, "tables")

    def on_round(index: int, window: tuple[str, ...], ratings: list[BotRating]) -> None:
        if progress is None:
            return
        played = " v ".join(window) if window else "warm-up"
        shown = "  ".join(f"{b.spec} {b.rating.mu:.1f}±{b.rating.sigma:.1f}" for b in ratings)
        sys.stderr.write(f"\rround {index} ({played}): {shown}\n")
        progress.advance(0)

    store = Store(args.db or default_url())
    load_before = os.getloadavg()
    started = time.monotonic()
    try:
        store.migrate()
        try:
            done = calibrate(
                store,
                args.game,
                options,
                bots,
                args.games,
                args.seed,
                runner,
                time_cap=args.time_cap or None,
                until_separated=args.until_separated,
                margin=args.margin,
                round_tables=args.round,
                on_tables=progress.advance if progress is not None else None,
                on_round=on_round,
            )
        except ValueError as exc:
            fail(str(exc))
    finally:
        store.close()
    took = time.monotonic() - started
    if progress is not None and progress.done < progress.total:
        sys.stderr.write("\n")
    cpu = sum(
        usage.ru_utime + usage.ru_stime
        for usage in (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
    )
    print(format_table(args.game, done.ratings))
    print()
    print(format_matchups(done.matchups))
    print()
    capped = format_capped(done.matchups)
    if capped:
        print(capped)
    apart = "every adjacent pair apart" if done.separated else "some adjacent pairs overlap"
    print(
        f"{done.tables} tables of {args.game} ({options['players']} players) in {done.rounds} "
        f"rounds, {apart}; {took:.1f} s wall, {cpu:.1f} s CPU, on {runner.workers} workers; "
        f"load average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    return 0
