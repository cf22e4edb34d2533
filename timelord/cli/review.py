"""`timelord review`: where a seat won or lost a finished game, judged from its own view.

    timelord review game.json --seat N [--budget SECONDS] [--json]

Every decision of the seat with a real choice is valued by the coach
(`timelord.agents.coach`) from what the seat could see then: the move played and the best
moves found, as expected win share with its 95% interval; the costly decisions are marked
with the better move and its estimated gain, the ones the coach could not judge ("unsure")
with a question mark.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from timelord.agents.coach import VERDICT_WORDS, Budget, gain_text, interval_text, review
from timelord.cli import readable
from timelord.cli.main import fail
from timelord.core import CorruptRecord, Record, load, replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a finished game's record (play/simulate --record)")
    parser.add_argument(
        "--seat",
        type=int,
        required=True,
        help="the seat to review, counted from 0 as records count seats (0 is the seat shown as"
        " Seat 1)",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="wall-clock seconds for the whole review, shared by the decisions (%(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")


def run(args: argparse.Namespace) -> int:
    record = Record.load(args.file)
    try:
        game = load(record.game, **record.options)
    except (TypeError, ValueError) as exc:
        raise CorruptRecord(f"cannot rebuild the game of {args.file}: {exc}") from exc
    seat = readable.record_seat(game, args.seat)
    if seat is None:
        fail("--seat must name a seat")
    if args.budget <= 0:
        fail("--budget must be a positive number of seconds")
    if not replay(record).is_over:
        fail(f"{args.file} is not a finished game; a review looks back on a whole game")

    def progress(done: int, total: int) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\rreviewing: {done}/{total} decisions", end="", file=sys.stderr)

    result = review(record, seat, Budget(seconds=args.budget), progress)
    if not args.json and sys.stderr.isatty():
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(render(result, readable.seat_name(game, seat)))
    return 0


#: the widest line of the review's table: it fits a 100-column terminal
WIDTH = 100
#: columns of each move label; a longer label wraps onto the next lines, never cut
_LABEL = 30
#: columns of a value with its interval ("100.0% 100-100%")
_VALUE = 15


def _pct(move: dict[str, Any]) -> str:
    return f"{100 * move['value']:.1f}% {interval_text(move)}"


def _mark(decision: dict[str, Any]) -> str:
    """`*` a costly decision, `?` one the coach could not judge (its verdict "unsure")."""
    if decision["costly"]:
        return "*"
    return "?" if decision.get("verdict", "unsure") == "unsure" else ""


def _row(step: str, mark: str, played: str, value: str, best: str, best_value: str) -> list[str]:
    """One decision as table lines: the labels wrapped in their columns, the values on the
    first line, each value apart from the label before it."""
    left = textwrap.wrap(played, _LABEL) or [""]
    right = textwrap.wrap(best, _LABEL) or [""]
    lines = []
    for i in range(max(len(left), len(right))):
        first = i == 0
        mine = left[i] if i < len(left) else ""
        theirs = right[i] if i < len(right) else ""
        lines.append(
            f"{step if first else '':>4} {mark if first else ' ':1} "
            f"{mine:<{_LABEL}} {value if first else '':>{_VALUE}} "
            f"{theirs:<{_LABEL}} {best_value if first else '':>{_VALUE}}"
        )
    return [line.rstrip() for line in lines]


def render(result: dict[str, Any], seat_name: str) -> str:
    """The review as text: a table of the decisions (within `WIDTH` columns, labels whole),
    then the costly ones with what was better."""
    lines = textwrap.wrap(
        f"Review of {seat_name} in {result['game']}: {len(result['decisions'])} decisions, "
        "values are expected win share (ties split) with their 95% intervals, from what the "
        "seat could see at the time. * marks a costly decision, ? one the coach is unsure of "
        f"({VERDICT_WORDS['unsure']}).",
        WIDTH,
    )
    lines += ["", *_row("step", "", "played", "value", "best found", "value")]
    for d in result["decisions"]:
        played, best = d["played"], d["best"][0]
        lines += _row(
            str(d["step"] + 1),
            _mark(d),
            played["label"],
            _pct(played),
            best["label"],
            _pct(best),
        )
    costly = [d for d in result["decisions"] if d["costly"]]
    unsure = sum(1 for d in result["decisions"] if _mark(d) == "?")
    lines.append("")
    if unsure:
        lines += textwrap.wrap(
            f"The coach is unsure of {unsure} of {len(result['decisions'])} decisions: too few "
            "samples to tell the moves apart, so their order may be noise (a longer --budget "
            "helps).",
            WIDTH,
        )
    if not costly:
        lines.append("No costly decision found: no better move stood out from the noise.")
    for d in sorted(costly, key=lambda d: -d["loss"]):
        lines += textwrap.wrap(
            f"Step {d['step'] + 1}: played {d['played']['label']};", WIDTH, subsequent_indent="    "
        )
        lines += textwrap.wrap(
            f"better was: {d['best'][0]['label']}, {gain_text(d['loss'], d['loss_error'])}",
            WIDTH,
            initial_indent="    ",
            subsequent_indent="    ",
        )
    return "\n".join(lines)
