"""Keys to the TARDIS: the 7x7 door grid, pawns, goal edges, the hand and the seats.

Each tile names its door colour by letter as well as colour, shows closed/open by shape,
and carries the actions that act on it (open, close, barrier, cookie, move, push, tunnel);
a tile with several offers them as a menu. Hand cards carry their own actions (discard,
open or close with this key) and outline the tiles they can act on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelord.core.action import Action
from timelord.games.keys.actions import MovePawn, PlacePandorica
from timelord.games.keys.board import (
    BACK_IDS,
    BACK_NAMES,
    EDGE_IDS,
    EFFECT_IDS,
    SIZE,
    Geometry,
    geometry,
)
from timelord.games.keys.game import KeysGame
from timelord.server.boards.common import (
    Model,
    Snapshot,
    act_attrs,
    action_buttons,
    card,
    explain_attrs,
    frame,
    plural,
    result_panel,
    seat_chip,
    seat_colour,
    seat_initial,
)

BACK_LABELS = {
    "open": "open door",
    "dalek": "Dalek",
    "tardis-key": "TARDIS Key",
    "extra-turn": "Extra turn",
    "teleport": "Teleport",
    "control": "Control",
}
#: The effect card each effect action plays (actions that do not name their card).
EFFECT_OF_ACTION = {
    "PlaceBarrier": "barrier",
    "PlaceCookie": "cookie",
    "PlacePandorica": "pandorica",
    "AssaultPawn": "cyberman",
    "PlaceTunnel": "tunnel",
    "RemoveBarrier": "sonic",
}
#: The one-character back marks a narrow screen shows (the legend's letters).
BACK_SHORT = {
    "open": "·",
    "dalek": "D",
    "tardis-key": "K",
    "extra-turn": "+",
    "teleport": "T",
    "control": "C",
}
#: Each phase in words (the view's phase ids are for programs).
PHASE_TEXT = {
    "play": "play a card",
    "move": "move your pawn",
    "bonus": "bonus move",
    "over": "game over",
}
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}


def _tiles_of(action: Action) -> list[int]:
    tiles = [getattr(action, "tile", None), getattr(action, "other", None)]
    return [t for t in tiles if isinstance(t, int)]


def _target(action: Action) -> str | None:
    """The tile an action acts on (a tunnel's first end), as the tiles' `data-tile`."""
    tiles = _tiles_of(action)
    return str(tiles[0]) if tiles else None


def _from_hand(action: Action) -> bool:
    """Whether an action plays a card from the hand (a key, a Sonic, an effect card)."""
    return getattr(action, "card", None) is not None or type(action).__name__ in EFFECT_OF_ACTION


def _card_actions(snap: Snapshot, game: KeysGame, card_id: str) -> list[Action]:
    """The actions that play `card_id` from the hand."""
    content = game.content
    effect = EFFECT_IDS[content.card_effects[content.card_ids.index(card_id)]]
    out = []
    for a in snap.legal:
        named = getattr(a, "card", None)
        if named == card_id or (named is None and EFFECT_OF_ACTION.get(type(a).__name__) == effect):
            out.append(a)
    return out


def render(snap: Snapshot) -> str:
    """The Keys board for one seat."""
    game = snap.game
    assert isinstance(game, KeysGame)
    view = snap.view
    winner = view.get("winner")
    winners = [winner] if isinstance(winner, int) and winner >= 0 else []
    scores = [1 if s in winners else 0 for s in range(len(view["edges"]))]
    result = result_panel(snap, scores if snap.over else None, winners)
    pile = view.get("discard") or []
    names = dict(zip(game.content.card_ids, game.content.card_names, strict=True))
    board = {
        "seats": _seats(snap, view),
        "round": _round_now(view),
        "round_limit": view["round_limit"],
        "phase": PHASE_TEXT.get(view["phase"], view["phase"]),
        "deck_size": view["deck_size"],
        "discards": len(pile),
        "top": names.get(pile[-1], pile[-1]) if pile else "empty",
        "grid": _grid(snap, view),
        "controls": _turn_controls(snap),
        "hand": _hand(snap, game, view),
        # what each door back's mark means: on a phone a back shows only its mark
        "backs": [{"mark": BACK_SHORT[b], "label": BACK_LABELS[b]} for b in BACK_SHORT],
        # a spectator, a replay or a seat the stand-in plays has no "your pawn" to move
        "playing": snap.is_you(snap.seat),
    }
    return frame(snap, "Keys to the TARDIS", "keys.html", board, result)


def _geo(view: dict[str, Any]) -> Geometry:
    """The grid the view shows (the standard 7x7, or a variant's), from its tile count."""
    return geometry(math.isqrt(len(view["colours"])))


def _seats(snap: Snapshot, view: dict[str, Any]) -> list[Model]:
    out = []
    for s, edge in enumerate(view["edges"]):
        pawn = view["pawns"][s]
        where = f"off the board ({edge})"
        if isinstance(pawn, int):
            where = f"on {_geo(view).tile_name(pawn)}"
        stuck = " · in the Pandorica" if view["pandorica"][s] else ""
        acts = [a for a in snap.legal if isinstance(a, PlacePandorica) and a.seat == s]
        out.append(
            {
                "cls": "seat-box to-move" if s == snap.to_move and not snap.over else "seat-box",
                "seat": s,
                "attrs": act_attrs(snap, acts, "Pandorica"),
                "chip": seat_chip(snap, s),
                "text": f"starts {edge} → goal {OPPOSITE.get(edge, '?')} edge · {where}{stuck}"
                f" · {plural(view['hand_sizes'][s], 'card')}",
            }
        )
    return out


def _round_now(view: Mapping[str, Any]) -> int:
    """The round being played, counted from 1 as the turn events and the terminal count it
    (the view holds completed rounds); after a round-limit end, the rounds played."""
    done = int(view["round"])
    over_by_limit = view["phase"] == "over" and view.get("winner") is None
    return done if over_by_limit else done + 1


def _grid(snap: Snapshot, view: dict[str, Any]) -> Model:
    by_tile: dict[int, list[Action]] = {}
    for a in snap.legal:
        for t in _tiles_of(a):
            by_tile.setdefault(t, []).append(a)
    tunnel_ends: dict[int, list[int]] = {}
    for a, b in view["tunnels"]:
        tunnel_ends.setdefault(a, []).append(b)
        tunnel_ends.setdefault(b, []).append(a)
    pawns: dict[int, list[int]] = {}
    for s, t in enumerate(view["pawns"]):
        if isinstance(t, int):
            pawns.setdefault(t, []).append(s)
    edge_seats: dict[str, list[int]] = {}
    for s, e in enumerate(view["edges"]):
        edge_seats.setdefault(e, []).append(s)
    geo = _geo(view)
    size = geo.size
    marks = _Marks(set(view["open"]), set(view["barriers"]), set(view["cookies"]), tunnel_ends)
    rows = [
        {
            "rank": size - r,
            "tiles": [_tile(snap, view, r * size + c, marks, pawns, by_tile) for c in range(size)],
        }
        for r in range(size)
    ]
    return {
        "size": size,
        # the style sheet lays out the standard grid; a variant's grid says its own columns
        "columns": size if size != SIZE else None,
        "files": [geo.tile_name(c)[0] for c in range(size)],
        "rows": rows,
        "edges": {e: _edge_label(snap, e, edge_seats) for e in EDGE_IDS},
    }


def _edge_label(snap: Snapshot, edge: str, edge_seats: dict[str, list[int]]) -> Model:
    bits = [
        {"chip": seat_chip(snap, s, turn_mark=False), "before": "", "after": " starts here"}
        for s in edge_seats.get(edge, [])
    ]
    bits += [
        {"chip": seat_chip(snap, s, turn_mark=False), "before": "goal of ", "after": ""}
        for s in edge_seats.get(OPPOSITE[edge], [])
    ]
    return {"edge": edge, "bits": bits}


@dataclass
class _Marks:
    """What lies on the tiles besides doors and pawns."""

    opened: set[int]
    barriers: set[int]
    cookies: set[int]
    tunnel_ends: dict[int, list[int]]


def _tile(
    snap: Snapshot,
    view: dict[str, Any],
    t: int,
    on: _Marks,
    pawns: dict[int, list[int]],
    by_tile: dict[int, list[Action]],
) -> Model:
    colour = view["colours"][t]
    back = view["backs"][t]
    geo = _geo(view)
    name = geo.tile_name(t)
    if colour is None:
        cls, letter, state = "tile control", "⌂", "TARDIS Control"
    else:
        is_open = t in on.opened
        cls = f"tile door-{colour} {'open' if is_open else 'closed'}"
        letter = str(colour)[:1].upper()
        state = f"{colour} door, {'open' if is_open else 'closed'}"
    back_mark = None
    marks = []
    if back and colour is not None:
        back_mark = {"long": BACK_LABELS.get(back, back), "short": BACK_SHORT.get(back, back[:1])}
        state += f", back: {BACK_LABELS.get(back, back)}"
        if back in BACK_IDS:
            text = snap.card_text(BACK_NAMES[BACK_IDS.index(back)])
            state += f" ({text})" if text else ""
    if t in on.barriers:
        cls += " barrier"
        marks.append({"title": "Time Barrier", "text": "▒"})
        state += ", Time Barrier"
    if t in on.cookies:
        marks.append({"title": "Jam Cookie", "text": "◆"})
        state += ", Jam Cookie"
    for other in on.tunnel_ends.get(t, []):
        end = geo.tile_name(other)
        marks.append({"title": f"Time Tunnel to {end}", "text": f"╲{end}"})
        state += f", tunnel to {end}"
    tokens = []
    for s in pawns.get(t, []):
        tokens.append(
            {"colour": seat_colour(s), "name": snap.seat_name(s), "initial": seat_initial(snap, s)}
        )
        state += f", pawn of {snap.seat_name(s)}"
    acts = by_tile.get(t, [])
    # Only what the pawn can do here glows; what a hand card could do to a tile is
    # outlined when that card is pointed at (a Sonic in hand would light up every tile).
    if any(not _from_hand(a) for a in acts):
        cls += " can-act"
    elif acts:
        cls += " card-target"
    attrs = {"class": cls, "data-tile": str(t), "title": f"{name}: {state}"}
    attrs |= act_attrs(snap, acts, name) | explain_attrs(snap, acts, MovePawn(t))
    return {
        "attrs": attrs,
        "name": name,
        "letter": letter,
        "back": back_mark,
        "marks": marks,
        "pawns": tokens,
    }


def _hand(snap: Snapshot, game: KeysGame, view: dict[str, Any]) -> list[Model] | None:
    """The seat's hand cards (None for a spectator, who has no hand)."""
    hand: Sequence[str] = view.get("hand") or []
    if snap.seat is None:
        return None
    content = game.content
    cards = []
    for cid in hand:
        if cid not in content.card_ids:
            continue
        i = content.card_ids.index(cid)
        name = content.card_names[i]
        effect = EFFECT_IDS[content.card_effects[i]]
        acts = _card_actions(snap, game, cid)
        colour = content.card_colours[i]
        css = f"keys-card door-{content.colour_ids[colour]}" if colour >= 0 else "keys-card"
        letter = content.colour_letters[colour] if colour >= 0 else None
        cards.append(
            card(
                snap,
                name,
                effect,
                number=letter,
                actions=acts,
                css=css,
                target=_target,
                data={"card": cid},
            )
        )
    return cards


def _turn_controls(snap: Snapshot) -> list[Model]:
    names = {"StepOff", "StayPut", "ForgoBonus"}
    return action_buttons(snap, [a for a in snap.legal if type(a).__name__ in names])
