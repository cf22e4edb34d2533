"""Keys to Time observation, in this order (T = 49 tiles, N seats relative to the observer,
K = card kinds of the deck, colours as in the tile data):

- `phase` one-hot over play/move/bonus/over; `to_move` one-hot over N; `extra_turn` flag;
  `round` / round_limit; `edge` the observer's board edge (one-hot over 4).
- `colours`: per tile a one-hot over the colours (+ none); `backs`: per tile a one-hot over
  the known backs (+ unknown); then `open`, `barriers`, `cookies` (T flags each), `tunnels`
  (per tile, how many Time Tunnels end there).
- `pawns`: each seat's tile (T one-hot per seat); `pandorica` turns left per seat / 2;
  `bonus_used` per seat, the TARDIS Key tiles it has used (T flags per seat).
- `hand`: own cards (copies per kind / 4); `discard` copies per kind / 10;
  `hand_sizes` per seat / 4; `deck` cards left / deck size.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from timelord.adapters.encode import Writer, rel, rotate
from timelord.core import Game
from timelord.games.keys.board import BACK_IDS, CELLS, CONTROL_KIND, EDGE_IDS, SEAT_EDGES
from timelord.games.keys.game import KeysGame
from timelord.games.keys.rules import PHASE_IDS, bits

_BACK = {b: i for i, b in enumerate(BACK_IDS)}


def write(game: Game, w: Writer, view: dict[str, Any]) -> None:
    assert isinstance(game, KeysGame)
    N = game.players
    seat = view["seat"]
    content = game.content
    colours = content.colour_ids
    cards = {c: i for i, c in enumerate(content.card_ids)}
    most = _most(game)
    w.onehot("phase", len(PHASE_IDS), PHASE_IDS.index(view["phase"]))
    w.onehot("to_move", N, rel(seat, view["to_move"], N))
    w.values("extra_turn", [view["extra_turn"]], 1)
    w.values("round", [view["round"]], 1, game.round_limit)
    w.onehot("edge", len(EDGE_IDS), EDGE_IDS.index(view["edges"][seat]))
    colour_of = {c: i for i, c in enumerate(colours)}
    w.onehots(
        "colours", len(colours) + 1, [colour_of.get(c, len(colours)) for c in view["colours"]]
    )
    w.onehots("backs", len(BACK_IDS) + 1, [_BACK.get(b, len(BACK_IDS)) for b in view["backs"]])
    w.counts("open", CELLS, view["open"])
    w.counts("barriers", CELLS, view["barriers"])
    w.counts("cookies", CELLS, view["cookies"])
    w.counts("tunnels", CELLS, (t for pair in view["tunnels"] for t in pair), most=_tunnels(game))
    w.onehots("pawns", CELLS, rotate(view["pawns"], seat))
    w.values("pandorica", rotate(view["pandorica"], seat), N, 2)
    for k, used in enumerate(rotate(view["bonus_used"], seat)):
        w.counts(f"bonus_used{k}", CELLS, used)
    w.counts("hand", len(cards), (cards[c] for c in view["hand"]), 0.25, most)
    w.counts("discard", len(cards), (cards[c] for c in view["discard"]), 0.1, most)
    w.values("hand_sizes", rotate(view["hand_sizes"], seat), N, 4)
    w.values("deck", [view["deck_size"]], 1, len(content.deck))


#: bounded caches of one-hot offsets: per colouring of the board, per (backs, seen doors),
#: per tile mask (all change rarely during a game, so playing states share them)
_COLOURS: dict[tuple[int, ...], list[int]] = {}
_BACKS: dict[tuple[tuple[int, ...], int], list[int]] = {}
_BITS: dict[int, list[int]] = {}
_CACHE_LIMIT = 4096


def _bits(mask: int) -> list[int]:
    got = _BITS.get(mask)
    if got is None:
        got = bits(mask)
        if len(_BITS) >= _CACHE_LIMIT:
            _BITS.clear()
        _BITS[mask] = got
    return got


@lru_cache(maxsize=16)
def _tunnels(game: KeysGame) -> int:
    """The most Time Tunnels one tile can end (one per Tunnel card of the deck)."""
    return max(1, game.content.deck.count(game.content.card_ids.index("tunnel")))


@lru_cache(maxsize=16)
def _most(game: KeysGame) -> int:
    deck = game.content.deck
    return max(deck.count(k) for k in range(len(game.content.card_ids)))


def write_state(game: Game, w: Writer, s: Any, seat: int) -> None:
    """`write` of `s.view(seat)`, read from the state without building the view (the view's
    secrets, K-7.3, in `timelord.games.keys.view`)."""
    assert isinstance(game, KeysGame)
    N = game.players
    content = game.content
    nc = len(content.colour_ids)
    nk = len(content.card_ids)
    most = _most(game)
    w.onehot("phase", len(PHASE_IDS), s.phase)
    w.onehot("to_move", N, rel(seat, s.to_move, N))
    w.values("extra_turn", [s.extra], 1)
    w.values("round", [s.round], 1, game.round_limit)
    w.onehot("edge", len(EDGE_IDS), SEAT_EDGES[N][seat])
    at = w.skip(CELLS * (nc + 1))
    colours = _COLOURS.get(s.colour)
    if colours is None:
        colours = [t * (nc + 1) + (c if c >= 0 else nc) for t, c in enumerate(s.colour)]
        if len(_COLOURS) >= _CACHE_LIMIT:
            _COLOURS.clear()
        _COLOURS[s.colour] = colours
    w.idx += [at + k for k in colours]
    w.val += [1.0] * CELLS
    at = w.skip(CELLS * (len(BACK_IDS) + 1))
    key = (s.back, s.seen_mask)
    backs = _BACKS.get(key)
    if backs is None:
        seen, unknown = s.seen_mask, len(BACK_IDS)
        backs = [
            t * (unknown + 1) + (k if (seen >> t & 1 or k == CONTROL_KIND) else unknown)
            for t, k in enumerate(s.back)
        ]
        if len(_BACKS) >= _CACHE_LIMIT:
            _BACKS.clear()
        _BACKS[key] = backs
    w.idx += [at + k for k in backs]
    w.val += [1.0] * CELLS
    w.counts("open", CELLS, _bits(s.open_mask))
    w.counts("barriers", CELLS, _bits(s.barrier_mask))
    w.counts("cookies", CELLS, _bits(s.cookie_mask))
    w.counts("tunnels", CELLS, [t for pair in s.tunnels for t in pair], most=_tunnels(game))
    w.onehots("pawns", CELLS, [p if p >= 0 else None for p in rotate(list(s.pos), seat)])
    w.values("pandorica", rotate(list(s.stuck), seat), N, 2)
    for k, used in enumerate(rotate(list(s.used), seat)):
        w.counts(f"bonus_used{k}", CELLS, _bits(used))
    w.counts("hand", nk, s.hands[seat], 0.25, most)
    w.counts("discard", nk, s.discard, 0.1, most)
    w.values("hand_sizes", [len(h) for h in rotate(list(s.hands), seat)], N, 4)
    w.values("deck", [len(s.deck)], 1, len(content.deck))
