"""`timelord report RESULTS -o report.html`: plots and tables of a simulate results file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from timelord.cli.main import fail
from timelord.sim import SIM_EXTRAS
from timelord.sim.match import read_results


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", help="results file written by `timelord simulate`")
    parser.add_argument(
        "--output", "-o", default=None, help="HTML file (default: RESULTS with .html)"
    )
    parser.add_argument("--title", default=None, help="page title")


def run(args: argparse.Namespace) -> int:
    try:
        import matplotlib  # noqa: F401  (only to say early and clearly that it is missing)

        from timelord.sim.report import render
    except ImportError as exc:
        fail(f"plots need the sim extras ({exc.name or exc} is missing): {SIM_EXTRAS}")
    source = Path(args.results)
    skipped: list[str] = []
    try:
        records = list(read_results(source, skipped))
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror or exc}")
    if skipped:
        shown = "; ".join(skipped[:3]) + (" ..." if len(skipped) > 3 else "")
        print(
            f"timelord report: left out {len(skipped)} malformed line(s) of {source}: {shown}",
            file=sys.stderr,
        )
    if not records:
        fail(f"{source} holds no games")
    output = Path(args.output) if args.output else source.with_suffix(".html")
    page = render(records, args.title or f"timelord report: {source.name}", len(skipped))
    try:
        output.write_text(page)
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
    print(f"report: {output}")
    return 0
