"""Entry point of the `timelord` command; each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from timelord.core import GameError

#: subcommand -> (module under timelord.cli, help)
_COMMANDS = {
    "games": ("games", "list the games"),
    "play": ("play", "play a game in the terminal"),
    "replay": ("replay", "step through a saved record"),
    "simulate": ("simulate", "run bot matches and print statistics"),
    "report": ("report", "write an HTML report of simulation results"),
    "serve": ("serve", "serve tables in the browser and over HTTP/WebSocket"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="timelord", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module_name, text) in _COMMANDS.items():
        try:
            module = importlib.import_module(f"timelord.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"timelord.cli.{module_name}":
                raise
            continue
        command = sub.add_parser(name, help=text, description=text)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except GameError as exc:
        print(f"timelord: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
