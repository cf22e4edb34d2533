"""Derived observation features: numbers a learner gets beside the encoded view, each
computed from the seat's own view only (never the state), so a trained seat sees nothing
its seat may not.

    timelord train clue --features clue-deduction ...

- `clue-deduction`: what Clue's exact deducer (`timelord.games.clue.deduction`) makes of the
  seat's notebook (`notebook.knowledge_from_view`: its hand, the face-up cards, the cards it
  was shown and every answer or silence it saw): each card's probability of lying in the
  envelope, then per category 1 when its envelope card is certain, then 1 when all three
  are. The plain encoding holds the same facts, but an MLP does not count consistent deals;
  with these numbers "accuse when certain, name the certain cards" is a few weights.

A policy folder records the features it was trained with (`config.json` "features"), and
`ppo:FOLDER` computes them again at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from timelord.core import ConfigError, Game, View

Array = np.ndarray[Any, np.dtype[np.float32]]


@dataclass(frozen=True)
class Features:
    """One named feature set of one game: `size` numbers in [0, 1] from a view."""

    name: str
    size: int
    compute: Callable[[View], Array]


def _clue_deduction(game: Game) -> Features:
    from timelord.games.clue import deduction, notebook

    categories: tuple[tuple[int, ...], ...] = tuple(tuple(c) for c in game.categories)  # type: ignore[attr-defined]
    cards = [c for cat in categories for c in cat]
    size = len(cards) + len(categories) + 1

    def compute(view: View) -> Array:
        out = np.zeros(size, dtype=np.float32)
        if not isinstance(view.get("seat"), int):
            return out
        d = deduction.deduce(notebook.knowledge_from_view(view))
        for i, c in enumerate(cards):
            out[i] = d.envelope[c]
        sure = d.certain_cards()
        for k, card in enumerate(sure):
            out[len(cards) + k] = card is not None
        out[-1] = all(card is not None for card in sure)
        return out

    return Features("clue-deduction", size, compute)


#: feature name -> (the game it belongs to, its builder)
FEATURES: dict[str, tuple[str, Callable[[Game], Features]]] = {
    "clue-deduction": ("clue", _clue_deduction),
}


def features_for(game: Game, name: str | None) -> Features | None:
    """The feature set `name` at a table of `game` (None for none); `ConfigError` for an
    unknown name or another game's features."""
    if name is None:
        return None
    entry = FEATURES.get(name)
    if entry is None:
        raise ConfigError(f"unknown features {name!r}; known: {', '.join(sorted(FEATURES))}")
    if entry[0] != game.id:
        raise ConfigError(f"features {name!r} are {entry[0]}'s, not {game.id}'s")
    return entry[1](game)


__all__ = ["FEATURES", "Features", "features_for"]
