"""`timelord report RESULTS -o report.html`: plots and tables of a simulate results file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from timelord.sim.match import read_results
from timelord.sim.report import render


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", help="results file written by `timelord simulate`")
    parser.add_argument(
        "--output", "-o", default=None, help="HTML file (default: RESULTS with .html)"
    )
    parser.add_argument("--title", default=None, help="page title")


def run(args: argparse.Namespace) -> int:
    source = Path(args.results)
    try:
        records = list(read_results(source))
    except (OSError, ValueError) as exc:
        print(f"timelord report: cannot read {source}: {exc}", file=sys.stderr)
        return 2
    if not records:
        print(f"timelord report: {source} holds no games", file=sys.stderr)
        return 2
    output = Path(args.output) if args.output else source.with_suffix(".html")
    output.write_text(render(records, args.title or f"timelord report: {source.name}"))
    print(f"report: {output}")
    return 0
