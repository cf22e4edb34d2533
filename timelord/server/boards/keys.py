"""Keys to the TARDIS: the 7x7 door grid, pawns, goal edges, the hand and the seats.

Each tile names its door colour by letter as well as colour, shows closed/open by shape,
and carries the actions that act on it (open, close, barrier, cookie, move, push, tunnel);
a tile with several offers them as a menu. Hand cards carry their own actions (discard,
open or close with this key) and outline the tiles they can act on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
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
    SEAT_COLOURS,
    Snapshot,
    act_attrs,
    card,
    esc,
    explain_attr,
    frame,
    plural,
    result_panel,
    seat_chip,
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
    seats = _seats(snap, view)
    grid = _grid(snap, view)
    hand = _hand(snap, game, view)
    turn = _turn_controls(snap)
    winner = view.get("winner")
    winners = [winner] if isinstance(winner, int) and winner >= 0 else []
    scores = [1 if s in winners else 0 for s in range(len(view["edges"]))]
    result = result_panel(snap, scores if snap.over else None, winners)
    pile = view.get("discard") or []
    names = dict(zip(game.content.card_ids, game.content.card_names, strict=True))
    info = (
        f'<p class="stat">Round {_round_now(view)} of {esc(view["round_limit"])} · '
        f"phase: {esc(view['phase'])} · draw pile {esc(view['deck_size'])} · discard "
        f"{len(pile)} (top: {esc(names.get(pile[-1], pile[-1]) if pile else 'empty')})</p>"
    )
    board = (
        f'<div class="keys">{seats}{info}<div class="keys-main">{grid}'
        f'<div class="keys-side">{turn}{hand}<div class="keys-legend">{_legend()}</div>'
        "</div></div></div>"
    )
    return frame(snap, "Keys to the TARDIS", board, result)


def _geo(view: dict[str, Any]) -> Geometry:
    """The grid the view shows (the standard 7x7, or a variant's), from its tile count."""
    return geometry(math.isqrt(len(view["colours"])))


def _seats(snap: Snapshot, view: dict[str, Any]) -> str:
    parts = []
    for s, edge in enumerate(view["edges"]):
        pawn = view["pawns"][s]
        where = f"off the board ({edge})"
        if isinstance(pawn, int):
            where = f"on {_geo(view).tile_name(pawn)}"
        stuck = " · in the Pandorica" if view["pandorica"][s] else ""
        goal = OPPOSITE.get(edge, "?")
        acts = [a for a in snap.legal if isinstance(a, PlacePandorica) and a.seat == s]
        cls = "seat-box to-move" if s == snap.to_move and not snap.over else "seat-box"
        parts.append(
            f'<div class="{cls}" data-seat="{s}"{act_attrs(snap, acts, "Pandorica")}>'
            f'{seat_chip(snap, s)}<span class="stat">starts {esc(edge)} → goal '
            f"{esc(goal)} edge · {where}{stuck} · {esc(plural(view['hand_sizes'][s], 'card'))}"
            "</span></div>"
        )
    return f'<div class="seats">{"".join(parts)}</div>'


def _round_now(view: Mapping[str, Any]) -> int:
    """The round being played, counted from 1 as the turn events and the terminal count it
    (the view holds completed rounds); after a round-limit end, the rounds played."""
    done = int(view["round"])
    over_by_limit = view["phase"] == "over" and view.get("winner") is None
    return done if over_by_limit else done + 1


def _grid(snap: Snapshot, view: dict[str, Any]) -> str:
    by_tile: dict[int, list[Action]] = {}
    for a in snap.legal:
        for t in _tiles_of(a):
            by_tile.setdefault(t, []).append(a)
    opened = set(view["open"])
    barriers = set(view["barriers"])
    cookies = set(view["cookies"])
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
    files = [f'<div class="file">{geo.tile_name(c)[0]}</div>' for c in range(size)]
    cells = ['<div class="corner"></div>', *files, '<div class="corner"></div>']
    for r in range(size):
        rank = size - r
        cells.append(f'<div class="rank">{rank}</div>')
        for c in range(size):
            t = r * size + c
            cells.append(
                _tile(snap, view, t, opened, barriers, cookies, tunnel_ends, pawns, by_tile)
            )
        cells.append(f'<div class="rank">{rank}</div>')
    cells += ['<div class="corner"></div>', *files, '<div class="corner"></div>']
    edges = {e: _edge_label(snap, e, edge_seats) for e in EDGE_IDS}
    # the style sheet lays out the standard grid; a variant's grid says its own columns
    columns = ""
    if size != SIZE:
        columns = f' style="grid-template-columns: 1.2rem repeat({size}, 58px) 1.2rem"'
    return (
        f'<div class="keys-board"><div class="edge north">{edges["north"]}</div>'
        f'<div class="edge west">{edges["west"]}</div>'
        f'<div class="keys-grid" role="grid" aria-label="the {size} by {size} door tiles"'
        f"{columns}>"
        f"{''.join(cells)}</div>"
        f'<div class="edge east">{edges["east"]}</div>'
        f'<div class="edge south">{edges["south"]}</div></div>'
    )


def _edge_label(snap: Snapshot, edge: str, edge_seats: dict[str, list[int]]) -> str:
    bits = []
    for s in edge_seats.get(edge, []):
        bits.append(f"{seat_chip(snap, s, turn_mark=False)} starts here")
    for s in edge_seats.get(OPPOSITE[edge], []):
        bits.append(f"goal of {seat_chip(snap, s, turn_mark=False)}")
    return " · ".join(bits) if bits else f'<span class="muted">{esc(edge)}</span>'


def _tile(
    snap: Snapshot,
    view: dict[str, Any],
    t: int,
    opened: set[int],
    barriers: set[int],
    cookies: set[int],
    tunnel_ends: dict[int, list[int]],
    pawns: dict[int, list[int]],
    by_tile: dict[int, list[Action]],
) -> str:
    colour = view["colours"][t]
    back = view["backs"][t]
    geo = _geo(view)
    name = geo.tile_name(t)
    if colour is None:
        cls, letter, state = "tile control", "⌂", "TARDIS Control"
    else:
        is_open = t in opened
        cls = f"tile door-{esc(colour)} {'open' if is_open else 'closed'}"
        letter = str(colour)[:1].upper()
        state = f"{colour} door, {'open' if is_open else 'closed'}"
    marks = []
    if back and colour is not None:
        marks.append(
            f'<span class="back"><span class="long">{esc(BACK_LABELS.get(back, back))}</span>'
            f'<span class="short">{esc(BACK_SHORT.get(back, back[:1]))}</span></span>'
        )
        state += f", back: {BACK_LABELS.get(back, back)}"
        if back in BACK_IDS:
            text = snap.card_text(BACK_NAMES[BACK_IDS.index(back)])
            state += f" ({text})" if text else ""
    if t in barriers:
        cls += " barrier"
        marks.append('<span class="mark" title="Time Barrier">▒</span>')
        state += ", Time Barrier"
    if t in cookies:
        marks.append('<span class="mark" title="Jam Cookie">◆</span>')
        state += ", Jam Cookie"
    for other in tunnel_ends.get(t, []):
        end = geo.tile_name(other)
        marks.append(f'<span class="mark" title="Time Tunnel to {end}">╲{end}</span>')
        state += f", tunnel to {end}"
    tokens = ""
    for s in pawns.get(t, []):
        colour_s = SEAT_COLOURS[s % len(SEAT_COLOURS)]
        initial = seat_initial(snap, s)
        tokens += (
            f'<span class="pawn" style="background:{colour_s}" title="{esc(snap.seat_name(s))}">'
            f"{esc(initial)}</span>"
        )
        state += f", pawn of {snap.seat_name(s)}"
    acts = by_tile.get(t, [])
    # Only what the pawn can do here glows; what a hand card could do to a tile is
    # outlined when that card is pointed at (a Sonic in hand would light up every tile).
    if any(not _from_hand(a) for a in acts):
        cls += " can-act"
    elif acts:
        cls += " card-target"
    return (
        f'<div class="{cls}" data-tile="{t}" title="{esc(name)}: {esc(state)}"'
        f"{act_attrs(snap, acts, name)}{explain_attr(snap, acts, MovePawn(t))}>"
        f'<span class="tname">{name}</span>'
        f'<span class="letter" aria-hidden="true">{letter}</span>'
        f'<span class="marks">{"".join(marks)}</span>'
        f'<span class="pawns">{tokens}</span></div>'
    )


def _hand(snap: Snapshot, game: KeysGame, view: dict[str, Any]) -> str:
    hand: Sequence[str] = view.get("hand") or []
    if snap.seat is None:
        return ""
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
    body = "".join(cards) or '<p class="muted">no cards</p>'
    return f'<h3 class="section-title">Your hand</h3><div class="hand" data-hand>{body}</div>'


def _turn_controls(snap: Snapshot) -> str:
    names = {"StepOff", "StayPut", "ForgoBonus"}
    acts = [a for a in snap.legal if type(a).__name__ in names]
    if not acts:
        return ""
    buttons = "".join(f"<button{act_attrs(snap, [a])}>{esc(snap.label(a))}</button>" for a in acts)
    return f'<div class="turn-controls">{buttons}</div>'


def _legend() -> str:
    return (
        "<strong>Key</strong><br>B R G Y: door colour (blue, red, green, yellow)<br>"
        "solid tile: closed door · outlined: open door<br>"
        "⌂ TARDIS Control (centre) · ▒ barrier · ◆ cookie · ╲ tunnel<br>"
        "★ your pawn; other pawns show their seat's initial<br>"
        "Glowing tiles are where your pawn can go: click one (or Tab + Enter). Point at a"
        " card in your hand to see the tiles it can act on."
    )
