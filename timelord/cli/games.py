"""`timelord games [GAME] [--options]`: the registered games, and every option they take."""

from __future__ import annotations

import argparse

from timelord.cli.options import game_options
from timelord.core import GAMES, game_class


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", help="show this game's options")
    parser.add_argument("--options", action="store_true", help="list every game's options")


def describe_game(game_id: str) -> str:
    """The game's line and each option with its default and meaning (range included)."""
    cls = game_class(game_id)
    lines = [f"{game_id}: {GAMES[game_id]}", "  options (-o NAME=VALUE):"]
    options = game_options(game_id)
    for option in options:
        lines.append(f"    {option.line()}")
    if not options:
        lines.append("    none")
    if not cls.options_doc and cls.__doc__:
        # until a game documents each option, its docstring is where they are explained
        lines.extend(f"  {line.strip()}" for line in cls.__doc__.strip().splitlines())
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.game:
        print(describe_game(args.game))
    elif args.options:
        print("\n\n".join(describe_game(game_id) for game_id in GAMES))
    else:
        for game_id, text in GAMES.items():
            print(f"{game_id:10} {text}")
        print("\n`timelord games GAME` lists a game's options; `timelord rules GAME` its rules.")
    return 0
