"""Fixed-size numeric observations of one seat's view, for learning agents.

Each game's module documents its layout; `Encoder.layout` lists the named segments in
order, so a researcher can read which slice means what. Encoders read only `state.view(seat)`,
so an observation carries nothing the seat could not see. Seats are written relative to the
observer (index 0 = the observing seat, then the seats after it in turn order), so one policy
can play any seat.

Two paths give the same numbers. `write(game, w, view)` (every module) lays a view out through
a `Writer`; it defines the layout and encodes any view. `state_parts(game)` (every module)
builds a function of (state, seat) giving the same vector straight from the state, as the
bytes of its float32 parts in order: a game revisits few values of each part (a hand, a mask
of tiles, a seat's pawn), so each part is written once through the same `Writer` calls and
then looked up (`Memo`, `onehot_table`), and an observation is one join of ready-made bytes
instead of one Python number at a time. Tests check the two paths equal on every step of
seeded games.
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import partial
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

    def skip_named(self, name: str, n: int, high: float = 1.0) -> int:
        """The start of the segment `name` of `n` numbers at most `high`, which the caller
        fills in `idx` and `val` itself."""
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


def segment(w: Writer) -> bytes:
    """The float32 bytes of what `w` wrote from offset 0 (copies of an index summed in
    order, as `Encoder.encode`'s bincount sums them, so the numbers are the same)."""
    v = [0.0] * w.pos
    for i, x in zip(w.idx, w.val, strict=True):
        v[i] += x
    return f32(v)


class Memo(dict[Hashable, bytes]):
    """The bytes of one part of an observation by key, made by `make` the first time a key
    is asked for (by default: `fill(writer, key)` writes the part). A game revisits few
    values of a part, so most lookups hit; past `limit` keys the memo starts afresh, so
    memory stays bounded."""

    __slots__ = ("_fill", "_limit")

    def __init__(self, fill: Callable[[Writer, Any], None] | None = None, limit: int = 4096):
        super().__init__()
        self._fill = fill
        self._limit = limit

    def __missing__(self, key: Hashable) -> bytes:
        if len(self) >= self._limit:
            self.clear()
        got = self[key] = self.make(key)
        return got

    def make(self, key: Any) -> bytes:
        assert self._fill is not None
        w = Writer()
        self._fill(w, key)
        return segment(w)


class Flags(Memo):
    """The bytes of `n` flags by bit mask (bit i: flag i), as `Writer.counts` of the set
    bits writes them, joined from a table of bytes per 8 bits (a miss costs a few lookups)."""

    __slots__ = ("_all", "_bytes", "_chunk", "_n")

    def __init__(self, n: int, limit: int = 4096) -> None:
        super().__init__(None, limit)
        self._n = n
        self._bytes = (n + 7) // 8
        self._all = (1 << 8 * self._bytes) - 1
        chunks = [f32([float(b >> k & 1) for k in range(8)]) for b in range(256)]
        self._chunk = chunks.__getitem__

    def make(self, key: Any) -> bytes:
        # the mask's bytes, low first, each looked up and joined in C
        eights = (key & self._all).to_bytes(self._bytes, "little")
        return b"".join(map(self._chunk, eights))[: 4 * self._n]


class Counts(Memo):
    """The bytes of `Writer.counts(name, n, items, scale)` by the tuple of items (the
    multiset of a hand or a pile), written without a `Writer` on a miss."""

    __slots__ = ("_exact", "_n", "_scale", "_zeros")

    def __init__(self, n: int, scale: float = 1.0, limit: int = 4096) -> None:
        super().__init__(None, limit)
        self._n = n
        self._scale = scale
        self._zeros = bytes(4 * n)
        #: a power of two: every sum of copies is exact in float32, so the copies may be
        #: added in place (any other scale is summed in double first, as bincount does)
        self._exact = math.frexp(scale)[0] == 0.5

    def make(self, key: Any) -> bytes:
        n, scale = self._n, self._scale
        v = array("f", self._zeros)
        if self._exact:
            for i in key:
                if 0 <= i < n:
                    v[i] += scale
        else:
            sums: dict[int, float] = {}
            for i in key:
                if 0 <= i < n:
                    sums[i] = sums.get(i, 0.0) + scale
            for i, x in sums.items():
                v[i] = x
        return v.tobytes()


class Scalars(Memo):
    """The 4 bytes of one number of `Writer.values(..., scale, high)` by its value (a seat's
    hand size, its points), so per-seat numbers join in any seat order without a miss."""

    __slots__ = ("_high", "_scale")

    def __init__(self, scale: float = 1.0, high: float = 1.0, limit: int = 4096) -> None:
        super().__init__(None, limit)
        self._scale = scale
        self._high = high

    def make(self, key: Any) -> bytes:
        w = Writer()
        w.values("", [key], 1, self._scale, self._high)
        return segment(w)


def f32(values: list[float]) -> bytes:
    """`values` as float32 bytes (each rounded from its double as numpy's cast rounds)."""
    return array("f", values).tobytes()


def onehot_table(n: int) -> tuple[bytes, ...]:
    """The bytes of a one-hot over `n` at 0..n-1; index n (and -1) gives all zeros."""
    rows = []
    for i in [*range(n), None]:
        w = Writer()
        w.onehot("", n, i)
        rows.append(segment(w))
    return tuple(rows)


#: what a game module's `state_parts(game)` returns: (state, seat) -> the observation's
#: float32 parts in order, as bytes
Parts = Callable[[State, int], list[bytes]]


class Encoder:
    """A game's observation: `size` numbers, `layout` their named segments, `high` the
    largest value of each number."""

    def __init__(
        self, game: Game, write: Callable[[Writer, View], None], parts: Parts | None = None
    ) -> None:
        self.game = game
        self._write = write
        self._parts = parts
        probe = Writer(probe=True)
        write(probe, game.new_game(0).view(0))
        self.layout: tuple[tuple[str, int], ...] = tuple(probe.layout)
        self.size = probe.pos
        self._nbytes = 4 * self.size
        self.high: Array = np.repeat(
            np.array(probe.highs, np.float32), [n for _, n in probe.layout]
        ).astype(np.float32)
        #: whether `encoder_for` built this with `recall` (what a pickle rebuilds it from)
        self.recall = False

    def __reduce__(self) -> tuple[Any, tuple[Game, bool]]:
        # the game's `state_parts` are closures: an env pickles its encoder as how to build it
        return encoder_for, (self.game, self.recall)

    @property
    def direct(self) -> bool:
        """Whether `encode_state` reads the state straight (the game has `state_parts`)
        instead of building the seat's view."""
        return self._parts is not None

    def encode(self, view: View) -> Array:
        """The observation of `view` (a seat's view; spectators have none)."""
        w = Writer()
        self._write(w, view)
        assert w.pos == self.size, "an encoder wrote a segment of varying length"
        # bincount sums the pairs of one index, as counts of copies need
        out: Array = np.bincount(w.idx, weights=w.val, minlength=self.size).astype(np.float32)
        return out

    def state_parts(self, state: State, seat: int) -> list[bytes]:
        """The float32 bytes of `encode_state(state, seat)` as parts in order, which a
        batch joins with the other rows' in one call (the caller checks the length)."""
        if self._parts is None:
            return [self.encode(state.view(seat)).tobytes()]
        return self._parts(state, seat)

    def encode_state(self, state: State, seat: int, writable: bool = True) -> Array:
        """`encode(state.view(seat))`, read straight from the state where the game's module
        has `state_parts` (equal on every step of seeded games: tests/adapters). Not
        `writable`: a read-only array, for an observation that several reads share."""
        if self._parts is None:
            encoded = self.encode(state.view(seat))
            encoded.flags.writeable = writable
            return encoded
        # a bytearray where the array is writable as `encode`'s is; else immutable bytes
        buf = (bytearray() if writable else b"").join(self._parts(state, seat))
        if len(buf) != self._nbytes:
            raise AssertionError("an encoder wrote a part of varying length")
        out: Array = np.frombuffer(buf, np.float32)
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
    the perfect-recall observation of the view: a function of everything the view holds, its
    whole history included, so two different views never share a vector (tested over
    seeded games); it is the first observation followed by the module's `write_recall`
    (games whose first observation already tells every view apart have none). A view is a
    snapshot that two pasts of a seat can share (its own earlier decisions differing):
    `history.HistoryEncoder` adds the seat's decisions, for a caller that keeps its
    `history.Recall` (the OpenSpiel adapters do)."""
    import importlib

    module = importlib.import_module(f"{__name__}.{game.id.replace('-', '_')}")
    write: Callable[[Game, Writer, View], None] = module.write
    extra: Callable[[Game, Writer, View], None] | None = getattr(module, "write_recall", None)
    if recall and extra is not None:
        encoder = Encoder(game, partial(_write_both, write, extra, game))
        encoder.recall = True
        return encoder
    key = (game.id, json.dumps(game.options, sort_keys=True))
    parts = _PARTS.get(key)
    if parts is None:
        make_parts: Callable[[Game], Parts] | None = getattr(module, "state_parts", None)
        if make_parts is not None:
            parts = _PARTS[key] = make_parts(game)
    # partials of module functions, not closures: an env pickles with its encoder
    return Encoder(game, partial(write, game), parts)


def _write_both(
    first: Callable[[Game, Writer, View], None],
    then: Callable[[Game, Writer, View], None],
    game: Game,
    w: Writer,
    view: View,
) -> None:
    """The first observation, then the recall segments."""
    first(game, w, view)
    then(game, w, view)


#: (game id, options) -> its `state_parts`: every table of one game shares one set of
#: memos, so a vector env of many tables or a new env per run starts warm, and memory
#: stays bounded by the number of games, not of tables
_PARTS: dict[tuple[str, str], Parts] = {}
