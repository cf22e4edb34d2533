"""The door for saved states: `state_from_json` reads a state's JSON with every field checked
and accepts it only if it could arise in play; the readers here are shared with the view door
in sample.py."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

from timelord.core import CorruptRecord, is_state
from timelord.core.door import door
from timelord.games.keys.board import (
    BACK_INDEX,
    CONTROL_KIND,
    EXTRA_TURN,
    TARDIS_KEY,
)
from timelord.games.keys.state import (
    BONUS,
    OVER,
    PANDORICA_TURNS,
    PHASE_IDS,
    KeysRules,
    KeysState,
    bits,
)


def tile_mask(tiles: list[int]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


def _tiles(data: dict[str, Any], key: str, cells: int) -> list[int]:
    """A canonical tile list: ints 0..cells-1 (48 on the standard grid), ascending, each once
    (as `bits` writes them)."""
    value = data[key]
    if (
        not isinstance(value, list)
        or not all(type(t) is int and 0 <= t < cells for t in value)
        or any(a >= b for a, b in pairwise(value))
    ):
        raise CorruptRecord(
            f"keys state: {key!r} must list tiles 0..{cells - 1} in order, each once"
        )
    return value


def _int(value: Any, lo: int, hi: int, what: str) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise CorruptRecord(f"keys state: {what} must be an integer from {lo} to {hi}")
    return value


def read_cards(game: KeysRules, value: Any, what: str) -> tuple[int, ...]:
    index = game.tables.card_index
    if isinstance(value, list):
        try:  # every key of `index` is a str, so a hit is a card id
            return tuple([index[c] for c in value])
        except (KeyError, TypeError):
            pass
    raise CorruptRecord(f"keys state: {what} must be a list of card ids")


def fill_common(s: KeysState, data: dict[str, Any], backs: list[int]) -> None:
    """Read the public parts shared by a state's JSON and a view into `s`."""
    game = s.game
    n = game.players
    content = game.content
    geo = game.tables.geo
    cells, control = geo.cells, geo.control
    colour_index = {c: i for i, c in enumerate(content.colour_ids)}
    colours = data["colours"]
    if not isinstance(colours, list) or len(colours) != cells:
        raise CorruptRecord(f"keys state: 'colours' must list {cells} tiles")
    colour = []
    for t, c in enumerate(colours):
        if t == control:
            if c is not None or backs[t] != CONTROL_KIND:
                raise CorruptRecord("keys state: the centre tile must be the TARDIS Control")
            colour.append(-1)
        elif c not in colour_index or backs[t] == CONTROL_KIND:
            raise CorruptRecord(f"keys state: tile {geo.tile_name(t)} has a bad colour or back")
        else:
            colour.append(colour_index[c])
    s.set_board(tuple(backs), tuple(colour))
    s.open_mask = tile_mask(_tiles(data, "open", cells))
    s.barrier_mask = tile_mask(_tiles(data, "barriers", cells))
    s.cookie_mask = tile_mask(_tiles(data, "cookies", cells))
    if (s.open_mask | s.barrier_mask) >> control & 1:
        raise CorruptRecord("keys state: the Control tile is not a door")
    if s.cookie_mask & ~(s.dalek_mask & s.open_mask):
        raise CorruptRecord("keys state: a Jam Cookie lies only on an open Dalek door")
    tunnels = []
    corners = 0
    pairs = data["tunnels"]
    if not isinstance(pairs, list):
        raise CorruptRecord("keys state: 'tunnels' must be a list")
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise CorruptRecord("keys state: a tunnel is a pair of tiles")
        a, b = pair
        corner = geo.diagonal_corner(a, b) if type(a) is int and type(b) is int else None
        if corner is None or a >= b or control in (a, b) or corners >> corner & 1:
            raise CorruptRecord(f"keys state: bad tunnel {pair!r}")
        corners |= 1 << corner
        tunnels.append((a, b))
    s.tunnels = tuple(tunnels)
    s.corner_mask = corners
    pawns = data["pawns"]
    if not isinstance(pawns, list) or len(pawns) != n:
        raise CorruptRecord("keys state: 'pawns' must list one tile (or null) per seat")
    pos = []
    # A pawn stands on a face-up door or on Control (K-4.2, K-5.4), one per tile (K-4.5).
    standable = s.open_mask | geo.control_bit
    for p in pawns:
        if p is None:
            pos.append(-1)
        elif type(p) is int and 0 <= p < cells and p not in pos and standable >> p & 1:
            pos.append(p)
        else:
            raise CorruptRecord(f"keys state: bad pawn position {p!r}")
    s.pos = tuple(pos)
    stuck = data["pandorica"]
    used = data["bonus_used"]
    if not (isinstance(stuck, list) and len(stuck) == n and isinstance(used, list)):
        raise CorruptRecord("keys state: 'pandorica' and 'bonus_used' need one entry per seat")
    if len(used) != n:
        raise CorruptRecord("keys state: 'bonus_used' needs one entry per seat")
    for seat, left in enumerate(stuck):
        if _int(left, 0, PANDORICA_TURNS, "a Pandorica count") and pos[seat] < 0:
            raise CorruptRecord("keys state: a Pandorica holds only a pawn on the board")
    s.stuck = tuple(stuck)
    s.used = tuple(tile_mask(_tiles({"bonus_used": u}, "bonus_used", cells)) for u in used)
    if any(s.used) and any(
        s.back[t] not in (TARDIS_KEY, EXTRA_TURN) for u in s.used for t in bits(u)
    ):
        raise CorruptRecord("keys state: 'bonus_used' names a tile that gives no bonus")
    s.discard = read_cards(game, data["discard"], "'discard'")
    s.pool = read_cards(game, data["reshuffled"], "'reshuffled'")
    if list(s.pool) != sorted(s.pool):
        raise CorruptRecord("keys state: 'reshuffled' must be sorted")
    phase = data["phase"]
    if phase not in PHASE_IDS:
        raise CorruptRecord(f"keys state: unknown phase {phase!r}")
    s.phase = PHASE_IDS.index(phase)
    extra = data["extra_turn"]
    if not isinstance(extra, bool):
        raise CorruptRecord("keys state: 'extra_turn' must be true or false")
    s.extra = extra
    s.round = _int(data["round"], 0, game.round_limit, "'round'")
    winner = data["winner"]
    s.winner = -1 if winner is None else _int(winner, 0, n - 1, "'winner'")
    if winner is not None and s.phase != OVER:
        raise CorruptRecord("keys state: a winner is named but the game is not over")


def read_backs(value: Any, allow_unknown: bool, cells: int) -> list[int | None]:
    if not isinstance(value, list) or len(value) != cells:
        raise CorruptRecord(f"keys state: 'backs' must list {cells} tiles")
    out: list[int | None] = []
    for b in value:
        if b is None and allow_unknown:
            out.append(None)
        elif b in BACK_INDEX:
            out.append(BACK_INDEX[b])
        else:
            raise CorruptRecord(f"keys state: unknown tile back {b!r}")
    return out


def board_cards(s: KeysState) -> Counter[int]:
    """The cards lying on the board: barriers, cookies, tunnels, Pandoricas in use."""
    tables = s.tables
    return Counter(
        {
            tables.barrier_card: s.barrier_mask.bit_count(),
            tables.cookie_card: s.cookie_mask.bit_count(),
            tables.tunnel_card: len(s.tunnels),
            tables.pandorica_card: sum(1 for x in s.stuck if x),
        }
    )


def state_from_json(game: KeysRules, data: Any, whole_deck: bool = True) -> KeysState:
    """Read back `state_to_json`; `CorruptRecord` if it is not a valid state.

    `whole_deck=False` skips the checks that every card and door tile of the box is in
    exactly one place, for scenario tests that build small decks and layouts of their own.
    """
    if not isinstance(data, dict):
        raise CorruptRecord("a keys state must be a JSON object")
    with door(CorruptRecord, "keys state"):
        s = KeysState.blank(game)
        cells = game.tables.geo.cells
        backs = [b for b in read_backs(data["backs"], False, cells) if b is not None]
        fill_common(s, data, backs)
        s.seen_mask = tile_mask(_tiles(data, "seen", cells)) | s.open_mask
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != game.players:
            raise CorruptRecord("keys state: 'hands' must hold one hand per seat")
        s.hands = tuple(tuple(sorted(read_cards(game, h, "a hand"))) for h in hands)
        s.deck = read_cards(game, data["deck"], "'deck'")
        drawn = data["drawn"]
        if not isinstance(drawn, list) or len(drawn) != game.players:
            raise CorruptRecord("keys state: 'drawn' must hold one list per seat")
        s.drawn = tuple(read_cards(game, d, "'drawn'") for d in drawn)
        if any(list(d) != sorted(d) for d in s.drawn):
            raise CorruptRecord("keys state: each 'drawn' list must be sorted")
        since = Counter(s.deck)
        for d in s.drawn:
            since.update(d)
        # After a reshuffle the pile and every draw since come from the reshuffled cards.
        if (since != Counter(s.pool)) if s.pool else any(s.drawn):
            raise CorruptRecord("keys state: 'drawn' and 'deck' do not match 'reshuffled'")
        s.seat = _int(data["seat"], 0, game.players - 1, "'seat'")
        s.rng = _int(data["rng"], 0, data["rng"], "'rng'")
        if not is_state(s.rng):
            raise CorruptRecord("keys state: 'rng' must be a generator state")
        limit = game.tables.hand_limit
        if any(len(h) > limit for h in s.hands):
            raise CorruptRecord(f"keys state: a hand holds at most {limit} cards")
        if whole_deck:
            where = Counter(s.deck) + Counter(s.discard) + board_cards(s)
            for hand in s.hands:
                where.update(hand)
            if where != Counter(game.content.deck):
                raise CorruptRecord("keys state: the cards do not add up to the box's deck")
            layout = Counter((s.colour[t], s.back[t]) for t in game.tables.geo.door_tiles)
            if layout != Counter(game.content.tiles):
                raise CorruptRecord("keys state: the door tiles are not the box's tiles")
        # A bonus was taken standing on the tile, which was then open, so its back is known.
        if any(u & ~s.seen_mask for u in s.used):
            raise CorruptRecord("keys state: a used bonus tile must have been seen")
        here = s.pos[s.seat]
        if s.phase == BONUS and (here < 0 or s.back[here] != TARDIS_KEY):
            raise CorruptRecord("keys state: a TARDIS Key bonus needs the pawn on such a tile")
    return s
