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

from timelord.core import Game, State, View

Array = np.ndarray[Any, np.dtype[np.float32]]


class Writer:
    """Lays out named segments one after another and gathers (index, value) pairs for them;
    `Encoder.encode` scatters the pairs into the vector in one numpy call. With `probe` set
    it also records the layout and each segment's largest value."""

    def __init__(self, probe: bool = False) -> None:
        self.probe = probe
        self.pos = 0
        self.layout: list[tuple[str, int]] = []
        #: the largest value of each segment, in order (recorded with the layout)
        self.highs: list[float] = []
        self.idx: list[int] = []
        self.val: list[float] = []

    def _start(self, name: str, n: int, high: float = 1.0) -> int:
        at = self.pos
        self.pos += n
        if self.probe:
            self.layout.append((name, n))
            self.highs.append(high)
        return at

    def skip(self, n: int) -> int:
        """The start of the next `n` numbers, which the caller fills in `idx` and `val`
        itself (a `write_state` only: the layout comes from `write`)."""
        at = self.pos
        self.pos += n
        return at

    def skip_named(self, name: str, n: int, high: float = 1.0) -> int:
        """`skip` for a `write`: the segment `name` of `n` numbers at most `high`, filled by
        the caller in `idx` and `val`."""
        return self._start(name, n, high)

    def onehot(self, name: str, n: int, i: int | None) -> None:
        """1 at `i` (nothing when `i` is None or out of range)."""
        at = self._start(name, n)
        if i is not None and 0 <= i < n:
            self.idx.append(at + i)
            self.val.append(1.0)

    def onehots(self, name: str, n: int, items: Sequence[int | None]) -> None:
        """One one-hot of width `n` per item (len(items) * n numbers)."""
        at = self._start(name, n * len(items))
        got = [at + k * n + i for k, i in enumerate(items) if i is not None and 0 <= i < n]
        self.idx += got
        self.val += [1.0] * len(got)

    def counts(
        self, name: str, n: int, items: Iterable[int], scale: float = 1.0, most: int = 1
    ) -> None:
        """`scale` added at each index of `items` (a flag set when items are distinct);
        an index occurs at most `most` times."""
        at = self._start(name, n, scale * most)
        got = [at + i for i in items if 0 <= i < n]
        self.idx += got
        self.val += [scale] * len(got)

    def values(
        self, name: str, vals: Iterable[float], n: int, scale: float = 1.0, high: float = 1.0
    ) -> None:
        """`n` numbers, each divided by `scale` and held at most `high` (missing ones stay
        0); `high` is set where the rules allow values past `scale`."""
        at = self._start(name, n, high)
        for i, v in enumerate(vals):
            if i < n and v:
                self.idx.append(at + i)
                self.val.append(min(float(v) / scale, high))


class Encoder:
    """A game's observation: `size` numbers, `layout` their named segments, `high` the
    largest value of each number."""

    def __init__(
        self,
        game: Game,
        write: Callable[[Writer, View], None],
        write_state: Callable[[Writer, State, int], None] | None = None,
    ) -> None:
        self.game = game
        self._write = write
        self._write_state = write_state
        probe = Writer(probe=True)
        write(probe, game.new_game(0).view(0))
        self.layout: tuple[tuple[str, int], ...] = tuple(probe.layout)
        self.size = probe.pos
        self.high: Array = np.repeat(
            np.array(probe.highs, np.float32), [n for _, n in probe.layout]
        ).astype(np.float32)

    def encode(self, view: View) -> Array:
        """The observation of `view` (a seat's view; spectators have none)."""
        w = Writer()
        self._write(w, view)
        assert w.pos == self.size, "an encoder wrote a segment of varying length"
        # bincount sums the pairs of one index, as counts of copies need
        out: Array = np.bincount(w.idx, weights=w.val, minlength=self.size).astype(np.float32)
        return out

    def encode_state(self, state: State, seat: int) -> Array:
        """`encode(state.view(seat))`, read straight from the state where the game's module
        has a `write_state` (equal on every step of seeded games: tests/adapters)."""
        if self._write_state is None:
            return self.encode(state.view(seat))
        w = Writer()
        self._write_state(w, state, seat)
        out: Array = np.bincount(w.idx, weights=w.val, minlength=self.size).astype(np.float32)
        return out


def rel(seat: int, other: Any, players: int) -> int | None:
    """`other` counted from `seat` (0 = itself), None when it is not a seat."""
    if isinstance(other, int) and not isinstance(other, bool) and 0 <= other < players:
        return (other - seat) % players
    return None


def rotate(values: list[Any], seat: int) -> list[Any]:
    """Per-seat values starting at `seat`."""
    return values[seat:] + values[:seat]


def encoder_for(game: Game, recall: bool = False) -> Encoder:
    """The encoder of `game` (its module under `timelord.adapters.encode`). With `recall`,
    the perfect-recall observation: a function of everything the seat's view holds, its
    whole history included, so two different views never share a vector (tested over
    seeded games); it is the first observation followed by the module's `write_recall`
    (games whose first observation already tells every view apart have none)."""
    import importlib

    module = importlib.import_module(f"{__name__}.{game.id.replace('-', '_')}")
    write: Callable[[Game, Writer, View], None] = module.write
    extra: Callable[[Game, Writer, View], None] | None = getattr(module, "write_recall", None)
    if recall and extra is not None:
        more = extra

        def both(w: Writer, view: View) -> None:
            write(game, w, view)
            more(game, w, view)

        return Encoder(game, both)
    from_state: Callable[[Game, Writer, State, int], None] | None = getattr(
        module, "write_state", None
    )
    if from_state is None:
        return Encoder(game, lambda w, view: write(game, w, view))
    return Encoder(
        game,
        lambda w, view: write(game, w, view),
        lambda w, state, seat: from_state(game, w, state, seat),
    )
