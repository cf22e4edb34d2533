"""The one seeded random generator a game state carries.

A 64-bit SplitMix generator: its whole state is one integer, so copying a game state copies
the generator for free and the state's JSON form holds it exactly. Nothing in the package
uses the module-level functions of `random`; every draw goes through one of these.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from mypy_extensions import mypyc_attr

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


@mypyc_attr(allow_interpreted_subclasses=True)  # other generators keep this interface
class Rng:
    """Deterministic generator; `Rng(seed)` gives the same stream on every machine."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Next raw 64-bit output."""
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (n >= 1), by rejection so there is no bias."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if n & (n - 1) == 0:
            return self.next64() & (n - 1)
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included (a die roll is randint(1, 6))."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """Uniform float in [0, 1)."""
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

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
