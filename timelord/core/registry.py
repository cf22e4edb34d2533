"""Which games exist, and how to build one by id.

The catalogue maps a game id to the `module:Class` of its `Game` and a short description, so
`timelord.GAMES` can list games without importing their rules.
"""

from __future__ import annotations

import importlib
import inspect
import reprlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from timelord.core.door import door
from timelord.core.errors import ConfigError
from timelord.core.game import Game


@dataclass(frozen=True)
class _Entry:
    target: str
    description: str


_ENTRIES: dict[str, _Entry] = {}


def register(game_id: str, target: str, description: str) -> None:
    """Make `game_id` loadable; `target` is 'package.module:GameClass'."""
    _ENTRIES[game_id] = _Entry(target, description)


class _Catalogue(Mapping[str, str]):
    """Read-only mapping game id -> short description, in registration order."""

    def __getitem__(self, key: str) -> str:
        return _ENTRIES[key].description

    def __iter__(self) -> Iterator[str]:
        return iter(_ENTRIES)

    def __len__(self) -> int:
        return len(_ENTRIES)

    def __repr__(self) -> str:
        return f"GAMES({dict(self)!r})"


GAMES: Mapping[str, str] = _Catalogue()


def game_class(game_id: str) -> type[Game]:
    """The `Game` subclass registered under `game_id`."""
    entry = _ENTRIES.get(game_id)
    if entry is None:
        raise ConfigError(f"unknown game {game_id!r}; known games: {', '.join(_ENTRIES)}")
    module_name, _, attr = entry.target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), attr)
    return cls


def load(game_id: str, **options: Any) -> Game:
    """Build game `game_id` with `options`; `ConfigError` if the id or an option is bad.

    Options come from outside (command lines, records, web requests): a game should refuse a
    bad one with its own `ConfigError`, and anything else its constructor raises on them is
    turned into one here, so no caller meets a TypeError for `players="abc"`."""
    if not isinstance(game_id, str):
        raise ConfigError(f"a game id must be text, not {reprlib.repr(game_id)}")
    cls = game_class(game_id)
    if cls.options_doc:  # the options a game documents are the ones it takes
        unknown = sorted(set(options) - set(cls.options_doc))
        if unknown:
            raise ConfigError(f"{game_id}: got an unexpected keyword argument {unknown[0]!r}")
    else:  # (a compiled class's signature does not show its parameters)
        try:
            inspect.signature(cls).bind(**options)
        except TypeError as exc:
            raise ConfigError(f"{game_id}: {exc}") from exc
    with door(ConfigError, f"{game_id}: bad options {reprlib.repr(options)}"):
        return cls(**options)
