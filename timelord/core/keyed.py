"""A keyed generator for games served to people who must not predict them.

`Rng` (SplitMix64) is fast and replayable but not built to resist an observer: its state is
64 bits and every output is an invertible function of it, so a seat that sees enough draws
(every shuffle and deal is one) could work the state out. A served table instead draws from
`KeyedRng`: 256 bits of OS entropy as the key of BLAKE2b in counter mode (a PRF), so each
output is unpredictable without the key even to someone who knows this code and every output
so far. It has `Rng`'s interface (it is one), so a game cannot tell which it holds.

A game keeps its generator's state as one integer (`rng.state`) and resumes from it with
`resume(state)`: a 64-bit integer is an `Rng`, a wider one carries a key and a counter and is a
`KeyedRng`. The key lives only in the server's state and record, and a record is given out
only once the game is over.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from typing import Final

from timelord.core.rng import Rng
from timelord.core.scripted import ScriptedRng, is_scripted, unpack

#: bytes of key; 256 bits, more than the 128 the brief asks for
KEY_BYTES: Final = 32
_WORDS: Final = struct.Struct("<8Q")
_COUNTER_BITS: Final = 64
_COUNTER_MASK: Final = (1 << _COUNTER_BITS) - 1
#: a keyed state is TAG | key << 64 | counter, so it can never be mistaken for a 64-bit one
_TAG: Final = 1 << (_COUNTER_BITS + 8 * KEY_BYTES)


class KeyedRng(Rng):
    """BLAKE2b(key, block number) gives eight 64-bit words per block; `next64` hands them out
    in order. The same key gives the same stream, so a record holding the key replays.

    The key and the count of draws live in `state`, `Rng`'s one attribute, as
    `TAG | key << 64 | count` (see `resume`): compiled code that holds an `Rng` reads that
    attribute directly, so it is kept current rather than computed by a property."""

    __slots__ = ("_block", "_key", "_words")

    def __init__(self, key: bytes | None = None, count: int = 0) -> None:
        """A generator with `key` (None: a fresh one from the OS) that has drawn `count`."""
        if key is None:
            key = secrets.token_bytes(KEY_BYTES)
        if len(key) != KEY_BYTES:
            raise ValueError(f"a key is {KEY_BYTES} bytes")
        self._key = bytes(key)
        self.state = _TAG | int.from_bytes(self._key, "big") << _COUNTER_BITS
        self.state |= count & _COUNTER_MASK
        self._block = -1
        self._words: tuple[int, ...] = ()

    @property
    def key(self) -> bytes:
        return self._key

    @property
    def count(self) -> int:
        """How many words this generator has drawn (modulo 2**64)."""
        return self.state & _COUNTER_MASK

    def next64(self) -> int:
        state = self.state
        count = state & _COUNTER_MASK
        self.state = state ^ count | (count + 1) & _COUNTER_MASK
        block, word = divmod(count, 8)
        if block != self._block:
            digest = hashlib.blake2b(
                block.to_bytes(8, "little"), key=self._key, digest_size=64
            ).digest()
            self._words = _WORDS.unpack(digest)
            self._block = block
        return self._words[word]

    def spawn(self) -> KeyedRng:
        """An independent keyed generator; its key is a one-way function of this one's."""
        return KeyedRng(derive(self._key, "spawn", self.next64()))

    def copy(self) -> KeyedRng:
        return KeyedRng(self._key, self.count)

    def __repr__(self) -> str:  # never the key: a repr ends up in logs
        return f"KeyedRng(count={self.count})"


def resume(state: int) -> Rng:
    """The generator whose `state` this is: `Rng` for 64 bits, `KeyedRng` for a keyed one,
    `ScriptedRng` for a scripted one (explicit chance, `timelord.core.scripted`)."""
    if state < _TAG:
        return Rng(state)
    if is_scripted(state):
        return ScriptedRng(unpack(state))
    key = (state >> _COUNTER_BITS) & ((1 << 8 * KEY_BYTES) - 1)
    return KeyedRng(key.to_bytes(KEY_BYTES, "big"), state & _COUNTER_MASK)


def generator(seed: int | Rng) -> Rng:
    """What a game's `new_game(seed)` draws from: `Rng(seed)` for an integer seed (the fast,
    replayable generator of simulations and tests), a copy of a generator given instead."""
    if isinstance(seed, Rng):
        return seed.copy()
    return resume(seed) if seed >= _TAG else Rng(seed)


def is_state(value: int) -> bool:
    """Whether `value` is a generator state a game may hold (64-bit, keyed or scripted)."""
    return 0 <= value < 1 << 64 or _TAG <= value < _TAG << 1 or is_scripted(value)


def derive(key: bytes, *parts: object) -> bytes:
    """A key for another purpose (a bot's decision, a spawned generator): HMAC-SHA256 of the
    parts under `key`, so knowing the derived key tells nothing of `key`."""
    message = "\x1f".join(str(p) for p in parts).encode()
    return hmac.new(key, message, hashlib.sha256).digest()


def derive_seed(key: bytes, *parts: object) -> int:
    """A 64-bit `Rng` seed derived one-way from `key` (search agents keep the fast generator)."""
    return int.from_bytes(derive(key, *parts)[:8], "little")
