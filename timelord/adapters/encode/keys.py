"""Keys to Time observation, in this order (T = 49 tiles, N seats relative to the observer,
K = card kinds of the deck, colours as in the tile data):

- `phase` one-hot over play/move/bonus/over; `to_move` one-hot over N; `extra_turn` flag;
  `round` / round_limit; `edge` the observer's board edge (one-hot over 4).
- `colours`: per tile a one-hot over the colours (+ none); `backs`: per tile a one-hot over
  the known backs (+ unknown); then `open`, `barriers`, `cookies`, `tunnels` (T flags each).
- `pawns`: each seat's tile (T one-hot per seat); `pandorica` turns left per seat / 2;
  `bonus_used` per seat, the TARDIS Key tiles it has used (T flags per seat).
- `hand`: own cards (copies per kind / 4); `discard` copies per kind / 10;
  `hand_sizes` per seat / 4; `deck` cards left / deck size.
"""

from __future__ import annotations

from typing import Any

from timelord.adapters.encode import Writer, rel, rotate
from timelord.core import Game
from timelord.games.keys.board import BACK_IDS, CELLS, EDGE_IDS
from timelord.games.keys.game import KeysGame
from timelord.games.keys.rules import PHASE_IDS

_BACK = {b: i for i, b in enumerate(BACK_IDS)}


def write(game: Game, w: Writer, view: dict[str, Any]) -> None:
    assert isinstance(game, KeysGame)
    N = game.players
    seat = view["seat"]
    content = game.content
    colours = content.colour_ids
    cards = {c: i for i, c in enumerate(content.card_ids)}
    most = max(content.deck.count(k) for k in range(len(cards)))
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
    w.counts("tunnels", CELLS, (t for pair in view["tunnels"] for t in pair), most=2)
    w.onehots("pawns", CELLS, rotate(view["pawns"], seat))
    w.values("pandorica", rotate(view["pandorica"], seat), N, 2)
    for k, used in enumerate(rotate(view["bonus_used"], seat)):
        w.counts(f"bonus_used{k}", CELLS, used)
    w.counts("hand", len(cards), (cards[c] for c in view["hand"]), 0.25, most)
    w.counts("discard", len(cards), (cards[c] for c in view["discard"]), 0.1, most)
    w.values("hand_sizes", rotate(view["hand_sizes"], seat), N, 4)
    w.values("deck", [view["deck_size"]], 1, len(content.deck))
