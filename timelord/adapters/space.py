"""Fixed action indices: every action a game can ever offer maps to one integer and back.

The order is `Game.action_space()` (documented in each game's `action_space.py`). A game's
module may define `canonical(game, action)` when one entry of the space stands for several
interchangeable actions the rules name differently (the Card Game's DiscardEnemies sets);
`action` then maps the index back to the action the current state offers.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from timelord.core import Action, Game, IllegalAction, InvalidAction

#: How many action objects `ActionIndex.indices` remembers by identity.
_KNOWN_LIMIT = 200_000
#: (game id, options) -> its action space and the index of each action, built once: many
#: tables of one game (a vector env) share them (the Card Game's has 24,917 actions)
_TABLES: dict[tuple[str, str], tuple[tuple[Action, ...], dict[Action, int]]] = {}
#: (game id, options) -> the index of each action by `_fields`
_BY_FIELDS: dict[tuple[str, str], dict[tuple[type, Any], int]] = {}
#: action class -> what its fields are (the values its dataclass equality compares)
_GETTERS: dict[type, Callable[[Any], Any]] = {}


def _fields(action: Action) -> tuple[type, Any]:
    """A key equal for equal actions: the class and the compared fields. Plain values hash
    and compare in C, where the dataclass's own `__hash__` and `__eq__` are Python calls
    (and different classes with equal fields share a hash, so a look-up by the action
    compares through several of them)."""
    cls = type(action)
    get = _GETTERS.get(cls)
    if get is None:
        names = [f.name for f in dataclasses.fields(action) if f.compare]
        get = _GETTERS[cls] = attrgetter(*names) if names else (lambda _: ())
    return cls, get(action)


class ActionIndex:
    """The action space of one game as indices, with the legal-action mask of a state."""

    def __init__(self, game: Game) -> None:
        self.game = game
        key = (game.id, json.dumps(game.options, sort_keys=True))
        tables = _TABLES.get(key)
        if tables is None:
            actions = tuple(game.action_space())
            tables = _TABLES[key] = (actions, {a: i for i, a in enumerate(actions)})
        self.actions: tuple[Action, ...] = tables[0]
        self._index: dict[Action, int] = tables[1]
        by_fields = _BY_FIELDS.get(key)
        if by_fields is None:
            by_fields = _BY_FIELDS[key] = {_fields(a): i for i, a in enumerate(self.actions)}
        self._by_fields = by_fields
        self._known: dict[int, int] = {}
        self._held: list[Action] = []
        package = type(game).__module__.rpartition(".")[0]
        module = importlib.import_module(package + ".action_space")
        self._canonical: Callable[[Game, Action], Action] | None = getattr(
            module, "canonical", None
        )

    def __reduce__(self) -> tuple[Any, tuple[Game]]:
        # rebuilt from its game: the identity map is keyed by `id()`s of this process's
        # action objects, which would name other objects after unpickling
        return ActionIndex, (self.game,)

    def __len__(self) -> int:
        return len(self.actions)

    def index(self, action: Action) -> int:
        """The index of `action`; `InvalidAction` if the game can never offer it."""
        if isinstance(action, Action):
            i = self._by_fields.get(_fields(action))
        else:
            i = self._index.get(action)
        if i is None and self._canonical is not None:
            i = self._index.get(self._canonical(self.game, action))
        if i is None:
            raise InvalidAction(f"{action} is not in the action space of {self.game.id}")
        return i

    def indices(self, legal: Sequence[Action]) -> dict[int, Action]:
        """Index -> offered action, for the actions `legal` lists."""
        # Engines hand out shared action objects, so most lookups go by identity: hashing a
        # dataclass costs more than the rest of a step. `_held` keeps every object of the
        # table alive, so an id cannot be reused while it is in the table; both are emptied
        # when they grow large.
        known = self._known
        try:
            return {known[id(a)]: a for a in legal}
        except KeyError:
            return self._learn(legal)

    def _learn(self, legal: Sequence[Action]) -> dict[int, Action]:
        """`indices` of a list holding objects not seen before: one pass that learns them
        (a game builds some of its shared objects on first use, so early games meet new
        ones at most steps)."""
        known = self._known
        if len(known) >= _KNOWN_LIMIT:
            known.clear()
            self._held.clear()
        out = {}
        for a in legal:
            i = known.get(id(a))
            if i is None:
                i = known[id(a)] = self.index(a)
                self._held.append(a)
            out[i] = a
        return out

    def mask(self, legal: Sequence[Action]) -> np.ndarray[Any, np.dtype[np.int8]]:
        """int8 array over the space: 1 where the action is offered."""
        return self.mask_of(self.indices(legal))

    def mask_of(
        self, offered: Iterable[int], writable: bool = True
    ) -> np.ndarray[Any, np.dtype[np.int8]]:
        """int8 array over the space: 1 at each index of `offered` (a fresh array; set one
        byte at a time, which beats numpy's conversion of a list of ints). Not `writable`:
        a read-only array over immutable bytes, for a mask that several reads share."""
        m = bytearray(len(self.actions))
        for i in offered:
            m[i] = 1
        return np.frombuffer(m if writable else bytes(m), np.int8)

    def action(self, index: Any, offered: Mapping[int, Action]) -> Action:
        """The action at `index` among `offered` (`indices` of the legal actions);
        `InvalidAction` if `index` is no index of the space, `IllegalAction` if not offered."""
        if type(index) is int:  # the common case first: a plain offered index
            got = offered.get(index)
            if got is not None:
                return got
        if isinstance(index, np.integer):
            index = int(index)
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidAction(f"an action index must be an integer, not {index!r}")
        if not 0 <= index < len(self.actions):
            raise InvalidAction(f"action index {index} is outside 0..{len(self.actions) - 1}")
        got = offered.get(index)
        if got is None:
            raise IllegalAction(f"{self.actions[index]} (index {index}) is not offered now", "")
        return got


def rewrite_row(row: Any, was: Iterable[Any], offered: Iterable[Any]) -> list[Any]:
    """One table's row of a batch of masks (`row`: a writable view of its bytes) moved from
    the indices `was` set to those of `offered`; the list of the new ones, which the next
    call clears. Only the bytes that change are written (a row is 24,917 bytes in the Card
    Game); compiled, each write is one C call with the index object as it is, where the
    vector env's own loop paid the interpreter for every byte."""
    for k in was:
        row[k] = 0
    now = list(offered)
    for k in now:
        row[k] = 1
    return now
