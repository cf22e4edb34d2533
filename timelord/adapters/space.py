"""Fixed action indices: every action a game can ever offer maps to one integer and back.

The order is `Game.action_space()` (documented in each game's `action_space.py`). A game's
module may define `canonical(game, action)` when one entry of the space stands for several
interchangeable actions the rules name differently (the Card Game's DiscardEnemies sets);
`action` then maps the index back to the action the current state offers.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from timelord.core import Action, Game, IllegalAction, InvalidAction


class ActionIndex:
    """The action space of one game as indices, with the legal-action mask of a state."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.actions: tuple[Action, ...] = tuple(game.action_space())
        self._index: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}
        package = type(game).__module__.rpartition(".")[0]
        module = importlib.import_module(package + ".action_space")
        self._canonical: Callable[[Game, Action], Action] | None = getattr(
            module, "canonical", None
        )

    def __len__(self) -> int:
        return len(self.actions)

    def index(self, action: Action) -> int:
        """The index of `action`; `InvalidAction` if the game can never offer it."""
        i = self._index.get(action)
        if i is None and self._canonical is not None:
            i = self._index.get(self._canonical(self.game, action))
        if i is None:
            raise InvalidAction(f"{action} is not in the action space of {self.game.id}")
        return i

    def indices(self, legal: Sequence[Action]) -> dict[int, Action]:
        """Index -> offered action, for the actions `legal` lists."""
        get = self._index.get
        out: dict[int, Action] = {}
        for a in legal:
            i = get(a)
            out[self.index(a) if i is None else i] = a
        return out

    def mask(self, legal: Sequence[Action]) -> np.ndarray[Any, np.dtype[np.int8]]:
        """int8 array over the space: 1 where the action is offered."""
        m = np.zeros(len(self.actions), dtype=np.int8)
        m[list(self.indices(legal))] = 1
        return m

    def action(self, index: Any, legal: Sequence[Action]) -> Action:
        """The offered action at `index`; `IllegalAction` if it is not offered now."""
        if isinstance(index, np.integer):
            index = int(index)
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidAction(f"an action index must be an integer, not {index!r}")
        if not 0 <= index < len(self.actions):
            raise InvalidAction(f"action index {index} is outside 0..{len(self.actions) - 1}")
        got = self.indices(legal).get(index)
        if got is None:
            raise IllegalAction(f"{self.actions[index]} (index {index}) is not offered now", "")
        return got
