"""What leaves the engine: a seat's view (`build_view`) and the JSON form of a state.

Secrets (K-7.3): each hand is known only to its holder; the order of the draw pile to nobody;
the back of a door that has never been opened to nobody. Everything else is on the table,
including the cards shuffled into the pile at the latest reshuffle; each seat also remembers
its own draws since then (ruling K-R17).
"""

from __future__ import annotations

from typing import Any

from timelord.core import View
from timelord.games.keys.board import (
    BACK_IDS,
    CONTROL_KIND,
    EDGE_IDS,
    SEAT_EDGES,
)
from timelord.games.keys.state import (
    PHASE_IDS,
    KeysState,
    bits,
)


def _public(s: KeysState) -> dict[str, Any]:
    content = s.game.content
    cards = content.card_ids
    seen = s.seen_mask
    n = s.game.players
    return {
        "players": n,
        "edges": [EDGE_IDS[e] for e in SEAT_EDGES[n]],
        "round": s.round,
        "round_limit": s.game.round_limit,
        "phase": PHASE_IDS[s.phase],
        "to_move": s.to_move,
        "extra_turn": s.extra,
        "winner": s.winner if s.winner >= 0 else None,
        "colours": [content.colour_ids[c] if c >= 0 else None for c in s.colour],
        "backs": [
            BACK_IDS[k] if (seen >> t & 1 or k == CONTROL_KIND) else None
            for t, k in enumerate(s.back)
        ],
        "open": bits(s.open_mask),
        "barriers": bits(s.barrier_mask),
        "cookies": bits(s.cookie_mask),
        "tunnels": [[a, b] for a, b in s.tunnels],
        "pawns": [p if p >= 0 else None for p in s.pos],
        "pandorica": list(s.stuck),
        "bonus_used": [bits(u) for u in s.used],
        "hand_sizes": [len(h) for h in s.hands],
        "deck_size": len(s.deck),
        "discard": [cards[c] for c in s.discard],
        "reshuffled": [cards[c] for c in s.pool],
    }


def build_view(s: KeysState, seat: int | None) -> View:
    """All that `seat` knows (None: a spectator): the public table plus its own hand."""
    s.game.check_seat(seat)
    view: dict[str, Any] = {"seat": seat}
    view.update(_public(s))
    if seat is not None:
        cards = s.game.content.card_ids
        view["hand"] = [cards[c] for c in s.hands[seat]]
        view["drawn_since_reshuffle"] = [cards[c] for c in s.drawn[seat]]
    return view


def state_to_json(s: KeysState) -> dict[str, Any]:
    """The whole state, secrets included, as canonical JSON."""
    content = s.game.content
    cards = content.card_ids
    data = _public(s)
    data["backs"] = [BACK_IDS[k] for k in s.back]
    data["seen"] = bits(s.seen_mask)
    data["seat"] = s.seat
    data["hands"] = [[cards[c] for c in h] for h in s.hands]
    data["deck"] = [cards[c] for c in s.deck]
    data["drawn"] = [[cards[c] for c in d] for d in s.drawn]
    data["rng"] = s.rng
    for derived in ("players", "edges", "round_limit", "to_move", "hand_sizes", "deck_size"):
        del data[derived]
    return data


# -- reading states back ---------------------------------------------------------------
