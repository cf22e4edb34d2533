"""Reading game options and seat lists from the command line, the same way in every command.

`-o NAME=VALUE` (`--option`) means a game option everywhere; `add_option_argument` adds it so
that every subcommand spells and explains it alike, and `load_game` builds the game, naming
every valid option when one is wrong.
"""

from __future__ import annotations

import argparse
import inspect
import json
from dataclasses import dataclass
from typing import Any

from timelord.core import ConfigError, Game, game_class


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """`-o/--option NAME=VALUE`, repeatable: one game option (see `timelord games GAME`)."""
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="NAME=VALUE",
        help="game option, repeatable (see `timelord games GAME`)",
    )


def parse_seats(text: str) -> list[str]:
    """Split "human,random,ismcts:hard" into seat specs."""
    seats = [s.strip() for s in text.split(",")]
    if not all(seats):
        raise ConfigError(f"bad seat list {text!r}: empty entry")
    return seats


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game: its name, default (as the constructor has it) and meaning."""

    name: str
    default: Any
    doc: str

    def line(self) -> str:
        """`name (default X): meaning`, the default said once: left out here where the
        meaning already says it."""
        if "default" in self.doc:
            return f"{self.name}: {self.doc}"
        default = "none" if self.default is None else json.dumps(self.default)
        text = f"{self.name} (default {default})"
        return f"{text}: {self.doc}" if self.doc else text


def game_options(game_id: str) -> list[OptionInfo]:
    """Every option `game_id` accepts, from its constructor and its `options_doc`."""
    cls = game_class(game_id)
    doc = dict(cls.options_doc)
    out = []
    for name, param in inspect.signature(cls).parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        default = None if param.default is param.empty else param.default
        out.append(OptionInfo(name, default, doc.pop(name, "")))
    # Documented options the signature does not show (a game taking **options) still count.
    out.extend(OptionInfo(name, None, text) for name, text in doc.items())
    return out


def load_game(game_id: str, options: dict[str, Any]) -> Game:
    """Build `game_id` with `options`; a short `ConfigError` if one is unknown or refused,
    naming the valid options and where they are explained (one line, not their manual)."""
    valid = game_options(game_id)
    names = {o.name for o in valid}
    unknown = sorted(set(options) - names)
    more = f"(see `timelord games {game_id}`)"
    if unknown:
        listing = ", ".join(o.name for o in valid) or "none"
        raise ConfigError(
            f"{game_id} has no option {', '.join(map(repr, unknown))}; "
            f"its options: {listing} {more}"
        )
    cls = game_class(game_id)
    try:
        return cls(**options)
    except ConfigError as exc:
        raise ConfigError(f"{exc} {more}") from exc
    except (TypeError, ValueError, OverflowError) as exc:
        # A game that has not learnt to refuse this value itself: still a usage error.
        raise ConfigError(f"{game_id}: bad option value ({exc}) {more}") from exc
