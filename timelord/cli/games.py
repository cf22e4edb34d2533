"""`timelord games`: list the registered games."""

from __future__ import annotations

import argparse

from timelord.core import GAMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No arguments."""


def run(args: argparse.Namespace) -> int:
    for game_id, text in GAMES.items():
        print(f"{game_id:10} {text}")
    return 0
