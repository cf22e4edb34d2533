"""Pickling and copying the adapters' environments, whatever their games hold.

A loaded `Game` keeps memos, a view cache and a lock, and a compiled `State` has no pickle
protocol of its own, so neither pickles or deep-copies as it is (the game-side causes are
listed in docs/adapters.md). An environment does not need them to: it pickles its attributes
with every `Game` it reaches replaced by a reference (its id and options) and every `State`
by its JSON form, and unpickling loads the game once per reference and reads each state back
(`Game.state_from_json` is exact). So `pickle`, `copy.copy` and `copy.deepcopy` of an env
give an env at the same point of the same episode, whose next steps are the same; the
tables of a vector env still share one game, and a multiprocessing worker can take an env.
"""

from __future__ import annotations

import importlib
import io
import json
import pickle
from types import ModuleType
from typing import Any

import timelord
from timelord.core import Game, State


class _Pickler(pickle.Pickler):
    """Pickles an env's attributes with its games and states as references."""

    def __init__(self, file: io.BytesIO, root: object) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.root = root

    def reducer_override(self, obj: Any) -> Any:
        """Another env inside this one (a vector env's tables) in this same stream, so the
        games they share stay one game."""
        if isinstance(obj, Clonable) and obj is not self.root:
            return _new, (type(obj),), _attributes(obj)
        return NotImplemented

    def persistent_id(self, obj: Any) -> Any:
        if obj is self.root:  # a bound method or a helper pointing back at the env
            return ("self",)
        if isinstance(obj, ModuleType):  # an agent may keep a module at hand
            return ("module", obj.__name__)
        if isinstance(obj, Game):
            return ("game", obj.id, json.dumps(obj.options, sort_keys=True))
        if isinstance(obj, State):
            game = obj.game
            return ("state", game.id, json.dumps(game.options, sort_keys=True), obj.to_json())
        return None


class _Unpickler(pickle.Unpickler):
    """Loads what `_Pickler` wrote, each game once, into `root`'s attributes."""

    def __init__(self, file: io.BytesIO, root: object) -> None:
        super().__init__(file)
        self.root = root
        self.games: dict[tuple[str, str], Game] = {}

    def _game(self, game_id: str, options: str) -> Game:
        game = self.games.get((game_id, options))
        if game is None:
            game = self.games[game_id, options] = timelord.load(game_id, **json.loads(options))
        return game

    def persistent_load(self, pid: Any) -> Any:
        kind = pid[0]
        if kind == "self":
            return self.root
        if kind == "module":
            return importlib.import_module(pid[1])
        if kind == "game":
            return self._game(pid[1], pid[2])
        if kind == "state":
            return self._game(pid[1], pid[2]).state_from_json(pid[3])
        raise pickle.UnpicklingError(f"unknown reference {kind!r}")


def _new(cls: type[Clonable]) -> Clonable:
    """An instance not yet initialised; pickle sets its attributes."""
    return cls.__new__(cls)


def _attributes(obj: Any) -> dict[str, Any]:
    """The attributes that travel: all but the ones the class rebuilds (`_clone_skip`)."""
    skip = obj._clone_skip
    return {k: v for k, v in obj.__dict__.items() if k not in skip}


def dump_attributes(obj: Clonable) -> bytes:
    """`obj`'s attributes pickled with games and states as references."""
    out = io.BytesIO()
    _Pickler(out, obj).dump(_attributes(obj))
    return out.getvalue()


def restore(cls: type[Clonable], data: bytes) -> Clonable:
    """An instance of `cls` with the attributes `dump_attributes` wrote (no `__init__`)."""
    obj = cls.__new__(cls)
    obj.__dict__.update(_Unpickler(io.BytesIO(data), obj).load())
    obj._restored()
    return obj


class Clonable:
    """Mixin: pickle, `copy.copy` and `copy.deepcopy` through `dump_attributes` (a copy is
    always a deep one: an env's state is not meant to be shared between two envs)."""

    #: attributes that do not travel (views of others, say); `_restored` rebuilds them
    _clone_skip: tuple[str, ...] = ()

    def _restored(self) -> None:
        """Rebuild what `_clone_skip` left out, once the other attributes are back."""

    def __reduce__(self) -> tuple[Any, tuple[type[Clonable], bytes]]:
        return restore, (type(self), dump_attributes(self))
