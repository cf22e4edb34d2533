"""The one seeded random generator a game state carries.

A 64-bit SplitMix generator. Its state is one 64-bit integer (`state`), so a game state holds
it exactly in its JSON form and copying a game state copies the generator for free. Nothing
in the package uses the module-level functions of `random`; every draw goes through one of
these.

Compiled with mypyc, the state lives as two 32-bit halves in native `i64`s and every product
is split so that no intermediate value reaches 2**63: a draw never touches a Python integer
object (SplitMix64 on whole 64-bit integers overflows mypyc's tagged integers into heap bignums
at every step, about 1 us a draw). Interpreted, the state stays one Python integer, which
CPython steps through faster than the word arithmetic. Both paths give the same stream bit for
bit; `tests/core/test_rng.py` runs each of them, in either build, against the 64-bit formula.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from types import FunctionType
from typing import Final, TypeVar

from mypy_extensions import i64, mypyc_attr

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
#: below(n) for n up to this runs in words; above it (no game draws that) on Python integers
_WORD_BELOW: Final = 1 << 31


def _word_mul(hi: i64, lo: i64, c_hi: i64, c_lo: i64) -> tuple[i64, i64]:
    """(hi, lo) * (c_hi, c_lo) modulo 2**64, on 32-bit halves: the low half's product is
    split at 16 bits of the constant so every partial product stays below 2**49."""
    a1 = c_lo >> 16
    a0 = c_lo & _M16
    b1 = c_hi >> 16
    b0 = c_hi & _M16
    lo_a1 = lo * a1
    p = lo * a0 + ((lo_a1 & _M16) << 16)
    top = (
        (p >> 32)
        + (lo_a1 >> 16)
        + hi * a0
        + (((hi * a1) & _M16) << 16)
        + lo * b0
        + (((lo * b1) & _M16) << 16)
    )
    return top & _M32, p & _M32


#: Whether this module runs compiled (its functions are not Python functions): then a 64-bit
#: state lives in native words; interpreted, in one Python integer, which CPython steps through
#: faster than the word arithmetic. The build is all or nothing (`timelord.build`), so the
#: games' hot helpers read this too where the two builds want different code.
NATIVE: Final = not isinstance(_word_mul, FunctionType)


@mypyc_attr(allow_interpreted_subclasses=True)  # other generators keep this interface
class Rng:
    """Deterministic generator; `Rng(seed)` gives the same stream on every machine.

    `state` reads and sets the whole state as one integer. Compiled, a 64-bit state lives in
    `_hi`/`_lo` (`_big` is -1); otherwise in `_big`: interpreted, or a generator of another kind
    (`KeyedRng`, `ScriptedRng`) whose state is wider than 64 bits and whose own `next64` or
    `below` draws."""

    __slots__ = ("_big", "_hi", "_lo")

    def __init__(self, seed: int = 0) -> None:
        # `_store` written out: games resume a generator from its state for every draw
        seed &= _MASK
        if NATIVE:
            self._hi: i64 = seed >> 32
            self._lo: i64 = seed & _M32
            self._big: int = -1
        else:
            self._hi = 0
            self._lo = 0
            self._big = seed

    @property
    def state(self) -> int:
        """The whole state as one integer (what a game stores and `Rng(state)` resumes)."""
        big = self._big
        if big >= 0:
            return big
        return (int(self._hi) << 32) | int(self._lo)

    @state.setter
    def state(self, value: int) -> None:
        self._store(value, NATIVE)

    def _store(self, value: int, words: bool) -> None:
        """Set the state, in native words when `words` and it fits 64 bits."""
        if value < 0:
            raise ValueError(f"a generator state is not negative: {value}")
        if words and value <= _MASK:
            self._hi = value >> 32
            self._lo = value & _M32
            self._big = -1
        else:
            self._big = value

    def _next_halves(self) -> tuple[i64, i64]:
        """Advance a state held in words; the next output as (high, low) 32-bit halves."""
        lo = self._lo + 0x7F4A7C15
        hi = (self._hi + 0x9E3779B9 + (lo >> 32)) & _M32
        lo &= _M32
        self._hi = hi
        self._lo = lo
        # z ^= z >> 30; z *= 0xBF58476D1CE4E5B9
        hi, lo = _word_mul(
            hi ^ (hi >> 30), lo ^ (((hi << 2) & _M32) | (lo >> 30)), 0xBF58476D, 0x1CE4E5B9
        )
        # z ^= z >> 27; z *= 0x94D049BB133111EB
        hi, lo = _word_mul(
            hi ^ (hi >> 27), lo ^ (((hi << 5) & _M32) | (lo >> 27)), 0x94D049BB, 0x133111EB
        )
        # z ^= z >> 31
        return hi ^ (hi >> 31), lo ^ (((hi << 1) & _M32) | (lo >> 31))

    def next64(self) -> int:
        """Next raw 64-bit output."""
        s = self._big
        if s < 0:
            hi, lo = self._next_halves()
            return (int(hi) << 32) | int(lo)
        self._big = s = (s + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (1 <= n <= 2**64), by rejection so there is no bias: an
        output among the top 2**64 % n is drawn again."""
        s = self._big
        if 0 < n <= _WORD_BELOW and type(self) is Rng:
            if s < 0:
                return self._below_words(n)
            # One whole integer (interpreted): `next64` written out. An output under
            # 2**64 - 2**31 is under the rejection bound 2**64 - 2**64 % n for every n here,
            # so that bound is computed only for the rare output above it. A power of two
            # takes no branch of its own: its bound is 2**64 and `z % n` is `z & (n - 1)`.
            while True:
                self._big = s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                z ^= z >> 31
                if z < 0xFFFFFFFF80000000 or z < (1 << 64) - (1 << 64) % n:
                    return z % n
        if n <= 0 or n > 1 << 64:
            raise ValueError(f"below() draws from 64 bits: it needs 1 <= n <= 2**64, not {n}")
        if n & (n - 1) == 0:
            return self.next64() & (n - 1)
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def _below_words(self, n: i64) -> int:
        """`below(n)` for n <= 2**31 on a state held in words, never leaving machine words."""
        if n & (n - 1) == 0:
            return self._next_halves()[1] & (n - 1)
        step = (1 << 32) % n  # 2**32 % n; the output is hi * 2**32 + lo
        cut = (1 << 32) - (step * step) % n  # 2**64 % n outputs repeat: hi == 2**32-1, lo >= cut
        while True:
            hi, lo = self._next_halves()
            if hi != _M32 or lo < cut:
                return ((hi % n) * step + lo) % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included (a die roll is randint(1, 6))."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """Uniform float in [0, 1): the top 53 bits of the next output."""
        if self._big < 0 and type(self) is Rng:
            hi, lo = self._next_halves()
            return float((hi << 21) | (lo >> 11)) * (1.0 / (1 << 53))
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        """k distinct elements in random order."""
        pool = list(seq)
        out: list[T] = []
        for _ in range(k):
            out.append(pool.pop(self.below(len(pool))))
        return out

    def spawn(self) -> Rng:
        """An independent generator seeded from this one (for agents, sampled states)."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        """A generator that will produce the same stream as this one."""
        return Rng(self.state)

    def __reduce__(self) -> tuple[Callable[[int], Rng], tuple[int]]:
        """Pickle and copy as the state, which names the generator's kind (a compiled class
        has no `__dict__` for the default protocol to read)."""
        return _resume, (self.state,)

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"


def _resume(state: int) -> Rng:
    """The generator a pickled `state` was (`timelord.core.keyed.resume`, imported here
    because that module builds on this one)."""
    from timelord.core.keyed import resume

    return resume(state)
