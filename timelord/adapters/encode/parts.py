"""The float32 parts an observation is joined from: the `Writer` that lays segments out, and
the memos that keep each part's bytes by key.

Compiled with the encoders (`timelord.build`): every game's `state_parts` looks its parts up
here, and a lookup that misses (a new hand, a new mask of open tiles) writes the part through
these classes. Misses are most of a fresh observation's cost (a game meets new positions all
the time), so they run as native calls, not through the interpreter.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any


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

    def __init__(
        self, fill: Callable[[Writer, Any], None] | None = None, limit: int = 4096
    ) -> None:
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


def rel(seat: int, other: Any, players: int) -> int | None:
    """`other` counted from `seat` (0 = itself), None when it is not a seat."""
    if isinstance(other, int) and not isinstance(other, bool) and 0 <= other < players:
        return (other - seat) % players
    return None


def rotate(values: list[Any], seat: int) -> list[Any]:
    """Per-seat values starting at `seat`."""
    return values[seat:] + values[:seat]
