"""The long fuzz run, by hand: `python -m tests.fuzz.run --minutes 10`.

Cycles through every game and every door (state, action, view, record) with seeded random
mutations until the time is up, then prints how many inputs it tried, how many the doors
refused or accepted, and one reproducer per distinct failure. The exit status is 1 when
anything failed. To fuzz another checkout's engines, put it first on the path:
`PYTHONPATH=/work/wt/clue:. python -m tests.fuzz.run --games clue`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tests.support.fuzz import GAMES, KINDS, Tally, corpus, fuzz_one, shown


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.run", description=__doc__)
    parser.add_argument("--minutes", type=float, default=1.0, help="how long (%(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="mutation seed (%(default)s)")
    parser.add_argument("--games", default=",".join(GAMES), help="game ids, comma-separated")
    parser.add_argument("--kinds", default=",".join(KINDS), help="doors, comma-separated")
    parser.add_argument("--findings", metavar="FILE", help="append failures as Markdown")
    parser.add_argument(
        "--replay",
        nargs=3,
        metavar=("GAME", "KIND", "SEED"),
        help="rerun one input of an earlier run and show its whole input and traceback",
    )
    args = parser.parse_args(argv)
    if args.replay:
        return _replay(*args.replay)
    games = [g for g in args.games.split(",") if g]
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = sorted(set(games) - set(GAMES)) + sorted(set(kinds) - set(KINDS))
    if unknown:
        parser.error(f"unknown game or door: {', '.join(unknown)}")
    rng = random.Random(args.seed)
    tally = Tally()
    per_pair: dict[tuple[str, str], int] = {}
    corpora = {g: corpus(g) for g in games}
    deadline = time.perf_counter() + 60 * args.minutes
    while time.perf_counter() < deadline:
        for game in games:
            for kind in kinds:
                seed = rng.randrange(2**32)
                outcome = fuzz_one(corpora[game], kind, random.Random(seed).randrange)
                outcome.seed = seed
                tally.add(outcome)
                per_pair[game, kind] = per_pair.get((game, kind), 0) + 1
    elapsed = time.perf_counter() - tally.started
    print(
        f"{tally.tried} inputs in {elapsed:.0f}s: {tally.refused} refused, "
        f"{tally.accepted} accepted and played on, {len(tally.failures)} distinct failures"
    )
    for (game, kind), count in sorted(per_pair.items()):
        print(f"  {game:<10} {kind:<7} {count}")
    for outcome in tally.failures.values():
        print(outcome.reproducer())
    if args.findings and tally.failures:
        with Path(args.findings).open("a") as out:
            out.write(
                f"\n## fuzz run, seed {args.seed}, {tally.tried} inputs, "
                f"{time.strftime('%H:%M UTC', time.gmtime())}\n\n"
            )
            out.writelines(o.reproducer() + "\n" for o in tally.failures.values())
    return 1 if tally.failures else 0


def _replay(game: str, kind: str, seed: str) -> int:
    """One input again, with its whole mutated JSON and the traceback of what it raised."""
    import traceback

    outcome = fuzz_one(corpus(game), kind, random.Random(int(seed)).randrange)
    print(shown(outcome.input, 20_000))
    print("; ".join(outcome.notes))
    if outcome.exception is not None:
        traceback.print_exception(outcome.exception)
    print(outcome.verdict, outcome.error)
    return 1 if outcome.verdict == "failed" else 0


if __name__ == "__main__":
    sys.exit(main())
