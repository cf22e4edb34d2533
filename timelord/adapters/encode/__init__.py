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
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from timelord.adapters.encode.parts import (
    Counts,
    Flags,
    Memo,
    Scalars,
    Writer,
    f32,
    onehot_table,
    rel,
    rotate,
    segment,
)
from timelord.core import Game, State, View

__all__ = [
    "Array",
    "Counts",
    "Encoder",
    "Flags",
    "Memo",
    "Parts",
    "Scalars",
    "Writer",
    "encoder_for",
    "f32",
    "onehot_table",
    "rel",
    "rotate",
    "segment",
]

Array = np.ndarray[Any, np.dtype[np.float32]]


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
