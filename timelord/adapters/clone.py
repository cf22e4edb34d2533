"""Pickling and copying the adapters' environments.

`Game` and `State` pickle and copy on their own in both builds (a game as its class and
options, a state as its canonical JSON form), so an env's attributes pickle as they are, in
one stream: pickle's memo keeps one game for every table and state that shares it. Two
things still need this module: an opponent may keep a module at hand (the Clue heuristic
keeps its deduction modules), which pickles here as its name; and a vector env's tables are
envs themselves, which go into the same stream as their vector env, so that they still share
one game after unpickling. `pickle`, `copy.copy` and `copy.deepcopy` of an env give an env at
the same point of the same episode, whose next steps are the same; a multiprocessing worker
can take one.
"""

from __future__ import annotations

import importlib
import io
import pickle
from types import ModuleType
from typing import Any


class _Pickler(pickle.Pickler):
    """Pickles an env's attributes, modules by name and the env itself as a reference."""

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
        if isinstance(obj, ModuleType):
            return ("module", obj.__name__)
        return None


class _Unpickler(pickle.Unpickler):
    """Loads what `_Pickler` wrote into `root`'s attributes."""

    def __init__(self, file: io.BytesIO, root: object) -> None:
        super().__init__(file)
        self.root = root

    def persistent_load(self, pid: Any) -> Any:
        kind = pid[0]
        if kind == "self":
            return self.root
        if kind == "module":
            return importlib.import_module(pid[1])
        raise pickle.UnpicklingError(f"unknown reference {kind!r}")


def _new(cls: type[Clonable]) -> Clonable:
    """An instance not yet initialised; pickle sets its attributes."""
    return cls.__new__(cls)


def _attributes(obj: Any) -> dict[str, Any]:
    """The attributes that travel: all but the ones the class rebuilds (`_clone_skip`)."""
    skip = obj._clone_skip
    return {k: v for k, v in obj.__dict__.items() if k not in skip}


def dump_attributes(obj: Clonable) -> bytes:
    """`obj`'s attributes pickled, modules by name."""
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
