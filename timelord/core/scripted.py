"""A generator whose draws are given, for games with explicit chance nodes.

Every random draw of a rules engine goes through `Rng.below(n)` (dice, shuffles, choices and
samples are built on it). `ScriptedRng` answers those draws from a list of outcomes instead of
a stream; when the list runs out it raises `ChanceNeeded(n)`. Research adapters use it to turn
each draw into a chance node with n equally likely outcomes (the engine's own distribution,
since `Rng.below` is exactly uniform), without touching any game's rules: apply the move with
the outcomes chosen so far, and on `ChanceNeeded` offer the next draw.

A game keeps its generator as one integer and resumes it with `resume`, so the outcomes not
yet used are packed into that integer too: a multiple of `SCRIPTED`, above every `Rng` and
`KeyedRng` state, that no seeded game ever holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from timelord.core.rng import Rng

#: Scripted states are SCRIPTED * (1 + packed outcomes); keyed states lie below 2**321.
SCRIPTED = 1 << 321
_DIGIT = 32
_DIGIT_MASK = (1 << _DIGIT) - 1


class ChanceNeeded(Exception):
    """The engine asked for a draw the script does not hold: `below(n)`."""

    def __init__(self, n: int) -> None:
        super().__init__(f"chance needed: {n} outcomes")
        self.n = n


def pack(outcomes: Sequence[int]) -> int:
    """The generator state holding `outcomes` (each stored plus one, so zeros survive)."""
    code = 0
    for i, value in enumerate(outcomes):
        if not 0 <= value < _DIGIT_MASK:
            raise ValueError(f"a scripted outcome must be 0 to {_DIGIT_MASK - 1}: {value}")
        code |= (value + 1) << (_DIGIT * i)
    return SCRIPTED * (1 + code)


def unpack(state: int) -> list[int]:
    """The outcomes a scripted generator state still holds, in order."""
    code = state // SCRIPTED - 1
    out = []
    while code:
        out.append((code & _DIGIT_MASK) - 1)
        code >>= _DIGIT
    return out


def is_scripted(state: int) -> bool:
    """Whether `state` is a scripted generator's state (see `pack`)."""
    return state >= SCRIPTED and state % SCRIPTED == 0


class ScriptedRng(Rng):
    """Gives the scripted outcomes to `below` in order; `ChanceNeeded` once they run out.

    The outcomes not yet used live packed in `state`, `Rng`'s one attribute (see `pack`):
    compiled code that holds an `Rng` reads that attribute directly, so it is kept current
    rather than computed by a property. Only `below`-based draws can be scripted: raw words
    (`next64`, `random`, `spawn`) have no finite outcome set, so they raise `ValueError` (no
    game's rules draw them)."""

    __slots__ = ()

    def __init__(self, outcomes: Sequence[int] = ()) -> None:
        self.state = pack(outcomes)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        code = self.state // SCRIPTED - 1
        if not code:
            raise ChanceNeeded(n)
        value = (code & _DIGIT_MASK) - 1
        if not 0 <= value < n:
            raise ValueError(f"scripted outcome {value} does not fit below({n})")
        self.state = SCRIPTED * (1 + (code >> _DIGIT))
        return value

    def next64(self) -> int:
        raise ValueError("a scripted generator gives only below(n) draws")

    def copy(self) -> ScriptedRng:
        return ScriptedRng(unpack(self.state))

    def __repr__(self) -> str:
        return f"ScriptedRng({unpack(self.state)})"
