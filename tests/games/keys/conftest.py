"""Scenario builder for Keys to the TARDIS tests: a state from a compact description.

Tiles are named like chess squares (d4 is Control). Unless told otherwise every door is a
blue Open Door, closed (but open under a
pawn); seat 0 is to play; hands hold blue keys; the draw pile holds red keys.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from timelord.games.keys import KeysGame, KeysState
from timelord.games.keys.board import CELLS, CONTROL, tile_index
from timelord.games.keys.doors import state_from_json


def T(name: str) -> int:
    return tile_index(name)


def build(
    players: int = 2,
    *,
    tiles: dict[str, tuple[str, str]] | None = None,
    open_: Iterable[str] = (),
    seen: Iterable[str] = (),
    barriers: Iterable[str] = (),
    cookies: Iterable[str] = (),
    tunnels: Iterable[tuple[str, str]] = (),
    pawns: Sequence[str | None] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    pandorica: Sequence[int] | None = None,
    used: Sequence[Sequence[str]] | None = None,
    phase: str = "play",
    seat: int = 0,
    extra: bool = False,
    round_: int = 0,
    round_limit: int = 100,
    rules: int | None = None,
) -> KeysState:
    game = KeysGame(players=players, round_limit=round_limit, rules=rules)
    backs = ["open"] * CELLS
    colours: list[str | None] = ["blue"] * CELLS
    backs[CONTROL], colours[CONTROL] = "control", None
    for name, (colour, back) in (tiles or {}).items():
        colours[T(name)], backs[T(name)] = colour, back
    pairs = [sorted((T(a), T(b))) for a, b in tunnels]
    data: dict[str, Any] = {
        "backs": backs,
        "colours": colours,
        # a pawn stands on a face-up door (or Control): its tile is opened for the test
        "open": sorted({T(n) for n in open_} | {T(p) for p in pawns or () if p and p != "d4"}),
        "seen": sorted(T(n) for n in seen),
        "barriers": sorted(T(n) for n in barriers),
        "cookies": sorted(T(n) for n in cookies),
        "tunnels": pairs,
        "pawns": [None if p is None else T(p) for p in (pawns or [None] * players)],
        "hands": [list(h) for h in (hands or [["key-blue"] * 3] * players)],
        "deck": list(deck if deck is not None else ["key-red"] * 20),
        "discard": list(discard),
        "reshuffled": [],
        "drawn": [[] for _ in range(players)],
        "pandorica": list(pandorica or [0] * players),
        "bonus_used": [sorted(T(n) for n in u) for u in (used or [[]] * players)],
        "phase": phase,
        "seat": seat,
        "extra_turn": extra,
        "round": round_,
        "winner": None,
        "rng": 12345,
    }
    state = state_from_json(game, data, whole_deck=False)  # tests use small decks
    assert isinstance(state, KeysState)
    return state


@pytest.fixture
def make() -> Callable[..., KeysState]:
    return build
