"""Entry point of the `timelord` command; each subcommand lives in its own module.

Every usage error (bad arguments, unknown game, bad option, seat or record, unwritable file)
ends the same way: one line `timelord: error: ...` on stderr and exit code 2, no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

import timelord
from timelord.core import ConfigError, GameError

#: exit code of every usage error
USAGE_ERROR = 2

#: subcommand -> (module under timelord.cli, help)
_COMMANDS = {
    "games": ("games", "list the games and their options"),
    "rules": ("rules", "print a game's rules, or one clause"),
    "play": ("play", "play a game in the terminal"),
    "learn": ("learn", "learn a game: a guided first game, then one against an easy bot"),
    "replay": ("replay", "step through a saved record"),
    "review": ("review", "value a seat's decisions in a finished game, from its own view"),
    "simulate": ("simulate", "run bot matches and print statistics"),
    "report": ("report", "write an HTML report of simulation results"),
    "serve": ("serve", "serve tables in the browser and over HTTP/WebSocket"),
    "dataset": ("dataset", "write self-play games as learning arrays and records"),
    "train": ("train", "train a masked PPO baseline that plays as the seat spec ppo:FOLDER"),
    "rate": ("rate", "rate bot levels by bot-against-bot tables into a server's pool"),
}


def fail(message: str, hint: str = "") -> NoReturn:
    """Stop with a usage error in the one style every subcommand shares."""
    print(f"timelord: error: {message}", file=sys.stderr)
    if hint:
        print(hint, file=sys.stderr)
    raise SystemExit(USAGE_ERROR)


class _Parser(argparse.ArgumentParser):
    """argparse with the shared error line (its own names the subcommand differently)."""

    def error(self, message: str) -> NoReturn:
        fail(message, f"(see `{self.prog} --help`)")


#: what `timelord --help` tells a user the command is for (the module's docstring is for
#: the people who work on it)
DESCRIPTION = """\
Four Doctor Who tabletop games (Keys to the TARDIS, Episodes, Doctor Who: The Card Game,
Clue) to play in the terminal or the browser, against people or bots, and to study with
simulations and reviews."""
EPILOG = """\
new here? `timelord learn keys` teaches a game in a guided first game; `timelord games`
lists the games; `timelord play GAME --seats human,ismcts:easy` plays one against a bot;
`timelord serve --open` opens the tables in your browser. `timelord COMMAND --help` tells
more about each command."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="timelord",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    version = f"timelord {timelord.__version__} ({timelord.BUILD})"
    parser.add_argument("--version", action="version", version=version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, text) in _COMMANDS.items():
        try:
            module = importlib.import_module(f"timelord.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"timelord.cli.{module_name}":
                raise
            continue
        command = sub.add_parser(name, help=text, description=text)
        try:
            module.add_arguments(command)
        except ModuleNotFoundError as exc:  # the command's extra is not installed
            if exc.name is None or exc.name.split(".")[0] == "timelord":
                raise
            command.add_argument("ignored", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
            command.set_defaults(handler=_missing(name, exc.name))
            continue
        command.set_defaults(handler=module.run)
    return parser


def _missing(command: str, package: str) -> Callable[[argparse.Namespace], int]:
    """The handler of a command whose optional dependencies are absent: one line naming them,
    so `--version` and the other commands still run in a smaller install."""

    def run(args: argparse.Namespace) -> int:
        raise ConfigError(
            f"'timelord {command}' needs {package}, which is not installed "
            "(pip install 'timelord[web,sim]' brings the server's and the simulator's extras)"
        )

    return run


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        code: int = args.handler(args)
    except SystemExit as exc:  # argparse's --help/--version (0) and `fail` (2)
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(f"timelord: error: {exc.code}", file=sys.stderr)
        return USAGE_ERROR
    except GameError as exc:
        print(f"timelord: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # `timelord rules keys | head`: the reader left, nothing to say
        sys.stderr.close()
        return 0
    except OSError as exc:  # a file the user named cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"timelord: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
