"""Fixed-size numeric observations of one seat's view, for learning agents.

Each game's module documents its layout; `Encoder.layout` lists the named segments in
order, so a researcher can read which slice means what. Encoders read only `state.view(seat)`,
so an observation carries nothing the seat could not see. Seats are written relative to the
observer (index 0 = the observing seat, then the seats after it in turn order), so one policy
can play any seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from timelord.core import Game, View

Array = np.ndarray[Any, np.dtype[np.float32]]


class Writer:
    """Writes named segments one after another into a float32 vector (or, with no vector,
    only records the layout)."""

    def __init__(self, out: Array | None) -> None:
        self.out = out
        self.pos = 0
        self.layout: list[tuple[str, int]] = []
        #: the largest value of each segment, in order (recorded with the layout)
        self.highs: list[float] = []

    def _start(self, name: str, n: int, high: float = 1.0) -> int:
        at = self.pos
        self.pos += n
        if self.out is None:
            self.layout.append((name, n))
            self.highs.append(high)
            return -1
        return at

    def onehot(self, name: str, n: int, i: int | None) -> None:
        """1 at `i` (nothing when `i` is None or out of range)."""
        at = self._start(name, n)
        if at >= 0 and i is not None and 0 <= i < n:
            assert self.out is not None
            self.out[at + i] = 1.0

    def onehots(self, name: str, n: int, items: Sequence[int | None]) -> None:
        """One one-hot of width `n` per item (len(items) * n numbers)."""
        at = self._start(name, n * len(items))
        if at >= 0:
            out = self.out
            assert out is not None
            for k, i in enumerate(items):
                if i is not None and 0 <= i < n:
                    out[at + k * n + i] = 1.0

    def counts(
        self, name: str, n: int, items: Iterable[int], scale: float = 1.0, most: int = 1
    ) -> None:
        """`scale` added at each index of `items` (a flag set when items are distinct);
        an index occurs at most `most` times."""
        at = self._start(name, n, scale * most)
        if at >= 0:
            assert self.out is not None
            got = [i for i in items if 0 <= i < n]
            if got:  # counted as integers, then scaled: scale * most is exactly the top
                self.out[at : at + n] = np.bincount(got, minlength=n) * scale

    def values(
        self, name: str, vals: Iterable[float], n: int, scale: float = 1.0, high: float = 1.0
    ) -> None:
        """`n` numbers, each divided by `scale` and held at most `high` (missing ones stay
        0); `high` is set where the rules allow values past `scale`."""
        at = self._start(name, n, high)
        if at >= 0:
            out = self.out
            assert out is not None
            for i, v in enumerate(vals):
                if i < n:
                    out[at + i] = min(float(v) / scale, high)


class Encoder:
    """A game's observation: `size` numbers, `layout` their named segments."""

    def __init__(self, game: Game, write: Callable[[Writer, View], None]) -> None:
        self.game = game
        self._write = write
        probe = Writer(None)
        write(probe, game.new_game(0).view(0))
        self.layout: tuple[tuple[str, int], ...] = tuple(probe.layout)
        self.size = probe.pos
        #: per number, the largest value it takes (the Box observation's `high`)
        self.high = np.repeat(
            np.array(probe.highs, np.float32), [n for _, n in probe.layout]
        ).astype(np.float32)

    def encode(self, view: View) -> Array:
        """The observation of `view` (a seat's view; spectators have none)."""
        out: Array = np.zeros(self.size, dtype=np.float32)
        w = Writer(out)
        self._write(w, view)
        assert w.pos == self.size, "an encoder wrote a segment of varying length"
        return out


def rel(seat: int, other: Any, players: int) -> int | None:
    """`other` counted from `seat` (0 = itself), None when it is not a seat."""
    if isinstance(other, int) and not isinstance(other, bool) and 0 <= other < players:
        return (other - seat) % players
    return None


def rotate(values: list[Any], seat: int) -> list[Any]:
    """Per-seat values starting at `seat`."""
    return values[seat:] + values[:seat]


def encoder_for(game: Game) -> Encoder:
    """The encoder of `game` (its module under `timelord.adapters.encode`)."""
    import importlib

    module = importlib.import_module(f"{__name__}.{game.id.replace('-', '_')}")
    write: Callable[[Game, Writer, View], None] = module.write
    return Encoder(game, lambda w, view: write(game, w, view))
