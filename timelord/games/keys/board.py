"""The TARDIS grid: geometry, tile kinds, edges, tunnel slots, and the content data files.

Tiles are numbered 0..48 row by row from the north-west corner (row 0 is the north edge).
In text a tile is named like a chess square: files a..g from west to east, ranks 1..7 from
south to north, so the TARDIS Control tile in the centre is d4.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

#: The side of the standard grid (K-1.1); a variant's content may name another (`Geometry`).
SIZE: Final = 7

# What lies behind a door (the "back"), plus the Control tile's own kind.
OPEN_DOOR: Final = 0
DALEK: Final = 1
TARDIS_KEY: Final = 2
EXTRA_TURN: Final = 3
TELEPORT: Final = 4
CONTROL_KIND: Final = 5
BACK_IDS: Final = ("open", "dalek", "tardis-key", "extra-turn", "teleport", "control")
BACK_NAMES: Final = (
    "Open Door",
    "Dalek Door",
    "TARDIS Key",
    "Extra Turn",
    "Teleport",
    "TARDIS Control",
)
BACK_INDEX: Final = {name: i for i, name in enumerate(BACK_IDS)}

# Card effects (RULES.md K-6).
KEY: Final = 0
SONIC: Final = 1
BARRIER: Final = 2
CYBERMAN: Final = 3
COOKIE: Final = 4
PANDORICA: Final = 5
TUNNEL: Final = 6
EFFECT_IDS: Final = ("key", "sonic", "barrier", "cyberman", "cookie", "pandorica", "tunnel")

#: The pseudo-card named by the TARDIS Key tile's bonus open or close (K-5.6).
BONUS_CARD: Final = "tardis-key"

SOUTH: Final = 0
WEST: Final = 1
NORTH: Final = 2
EAST: Final = 3
EDGE_IDS: Final = ("south", "west", "north", "east")
#: Which edge each seat starts beside, by player count (K-2.2; ruling K-R1).
SEAT_EDGES: Final = {2: (SOUTH, NORTH), 3: (SOUTH, WEST, NORTH), 4: (SOUTH, WEST, NORTH, EAST)}
OPPOSITE: Final = (NORTH, EAST, SOUTH, WEST)

#: File letters and rank digits of tile names: a grid is at most 9 tiles a side.
_FILES: Final = "abcdefghi"
_RANKS: Final = "123456789"


@dataclass(frozen=True)
class Geometry:
    """The TARDIS grid of one odd size: its tiles, edges, neighbours and Time Tunnel slots.

    Everything the rules know of the board's shape, built once per size (`geometry`), so a
    variant can play the same rules on a smaller grid; the game holds it (`Tables.geo`).
    """

    size: int
    cells: int
    control: int  # the centre tile
    control_bit: int
    door_tiles: tuple[int, ...]
    door_mask: int
    #: tiles of each edge (south, west, north, east) and those edges as masks
    edge_tiles: tuple[tuple[int, ...], ...]
    edge_masks: tuple[int, ...]
    orthogonal: tuple[tuple[int, ...], ...]
    #: each tile's orthogonal neighbours as a mask
    orthogonal_masks: tuple[int, ...]
    #: (corner, a, b) for every diagonal pair a < b that may hold a Time Tunnel (K-6.7)
    tunnel_slots: tuple[tuple[int, int, int], ...]
    corners: int  # points where four tiles meet, (size - 1) ** 2

    def diagonal_corner(self, a: int, b: int) -> int | None:
        """The corner between diagonal neighbours a and b (any order), None if not diagonal."""
        size = self.size
        if a > b:
            a, b = b, a
        ra, ca = divmod(a, size)
        rb, cb = divmod(b, size)
        if not (0 <= a < self.cells and 0 <= b < self.cells) or rb != ra + 1 or abs(cb - ca) != 1:
            return None
        return ra * (size - 1) + min(ca, cb)

    def tile_name(self, t: int) -> str:
        """Chess-like name of a tile: files from the west, ranks from the south (the
        standard grid's north-west corner is a7 and its Control tile d4)."""
        if not 0 <= t < self.cells:
            return f"#{t}"
        r, c = divmod(t, self.size)
        return f"{_FILES[c]}{self.size - r}"

    def tile_index(self, name: str) -> int:
        """The tile a chess-like name denotes (standard grid: "d4" -> 24); ValueError if none."""
        size = self.size
        if len(name) != 2 or name[0] not in _FILES[:size] or name[1] not in _RANKS[:size]:
            raise ValueError(f"no tile named {name!r}")
        return (size - int(name[1])) * size + _FILES.index(name[0])


@cache
def geometry(size: int) -> Geometry:
    """The grid `size` tiles a side (odd, 3 to 9: the Control tile needs a centre)."""
    if not 3 <= size <= len(_FILES) or size % 2 == 0:
        raise ValueError(f"a TARDIS grid is odd-sized, 3 to {len(_FILES)} tiles a side")
    cells = size * size
    control = cells // 2
    edge_tiles = (
        tuple((size - 1) * size + c for c in range(size)),  # south: rank 1
        tuple(r * size for r in range(size)),  # west: file a
        tuple(range(size)),  # north: the top rank
        tuple(r * size + size - 1 for r in range(size)),  # east: the last file
    )
    orthogonal = []
    for t in range(cells):
        r, c = divmod(t, size)
        near = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                near.append(rr * size + cc)
        orthogonal.append(tuple(near))
    slots = []
    for r in range(size - 1):  # each corner has two diagonals
        for c in range(size - 1):
            corner = r * (size - 1) + c
            nw, ne = r * size + c, r * size + c + 1
            sw, se = nw + size, ne + size
            for a, b in ((nw, se), (ne, sw)):
                if control not in (a, b):
                    slots.append((corner, a, b))
    doors = tuple(t for t in range(cells) if t != control)
    return Geometry(
        size=size,
        cells=cells,
        control=control,
        control_bit=1 << control,
        door_tiles=doors,
        door_mask=sum(1 << t for t in doors),
        edge_tiles=edge_tiles,
        edge_masks=tuple(sum(1 << t for t in tiles) for tiles in edge_tiles),
        orthogonal=tuple(orthogonal),
        orthogonal_masks=tuple(sum(1 << n for n in near) for near in orthogonal),
        tunnel_slots=tuple(slots),
        corners=(size - 1) * (size - 1),
    )


#: The standard 7x7 grid. The names below are its tables, for code that knows only the
#: standard board (tests, the web board); the rules read their game's `Tables.geo`.
STANDARD: Final = geometry(SIZE)
CELLS: Final = STANDARD.cells
CONTROL: Final = STANDARD.control  # the centre tile, d4
CONTROL_BIT: Final = STANDARD.control_bit
EDGE_TILES: Final = STANDARD.edge_tiles
EDGE_MASKS: Final = STANDARD.edge_masks
DOOR_TILES: Final = STANDARD.door_tiles
ORTHOGONAL: Final = STANDARD.orthogonal
ORTHOGONAL_MASKS: Final = STANDARD.orthogonal_masks
TUNNEL_SLOTS: Final = STANDARD.tunnel_slots


def diagonal_corner(a: int, b: int) -> int | None:
    """The corner between diagonal neighbours a and b of the standard grid, or None."""
    return STANDARD.diagonal_corner(a, b)


def tile_name(t: int) -> str:
    """Chess-like name of a standard tile: a7 is the north-west corner, d4 the Control tile."""
    return STANDARD.tile_name(t)


def tile_index(name: str) -> int:
    """The standard tile a chess-like name denotes ("d4" -> 24); ValueError if there is none."""
    return STANDARD.tile_index(name)


@dataclass(frozen=True)
class Content:
    """Colours, door tiles and cards read from data/*.toml (or built by a test)."""

    colour_ids: tuple[str, ...]
    colour_letters: tuple[str, ...]
    colour_ansi: tuple[int, ...]
    #: (colour, back) of each door tile in the box; 48 for the real game.
    tiles: tuple[tuple[int, int], ...]
    card_ids: tuple[str, ...]
    card_names: tuple[str, ...]
    card_effects: tuple[int, ...]
    #: colour index of a Key card, -1 for others.
    card_colours: tuple[int, ...]
    #: the full deck as card indices, sorted.
    deck: tuple[int, ...]
    #: the grid's side (K-1.1), cards dealt to each player (K-2.3), the hand drawn up to (K-3.1)
    size: int = SIZE
    deal: int = 3
    hand_limit: int = 4

    def card_of(self, effect: int) -> int:
        """The card index that has a non-key effect (one card per such effect)."""
        return self.card_effects.index(effect)


@cache
def texts(content: Content) -> dict[str, dict[str, str]]:
    """Short texts of every card, tile back and board piece, from data/texts.toml, by the
    name the table uses: `{name: {"text", "source", "rule", "kind"}}`."""
    data = _read("texts.toml")
    out: dict[str, dict[str, str]] = {}

    def add(name: str, row: dict[str, Any], kind: str, **fill: str) -> None:
        text = row["text"].format(**fill)
        out[name] = {"text": text, "source": row["status"], "rule": row["rule"], "kind": kind}

    for i, name in enumerate(content.card_names):
        effect = EFFECT_IDS[content.card_effects[i]]
        colour = content.card_colours[i]
        fill = content.colour_ids[colour] if colour >= 0 else ""
        add(name, data["effect"][effect], "card", colour=fill)
    for back, name in zip(BACK_IDS, BACK_NAMES, strict=True):
        add(name, data["back"][back], "tile")
    for row in data["piece"]:
        add(row["name"], row, "rule")
    return out


def _read(name: str) -> dict[str, Any]:
    text = resources.files("timelord.games.keys").joinpath("data", name).read_text("utf-8")
    return tomllib.loads(text)


@cache
def standard_content() -> Content:
    """The box contents from data/tiles.toml and data/cards.toml."""
    return _content({**_read("tiles.toml"), **_read("cards.toml")})


@cache
def tiny_content() -> Content:
    """The tiny research variant's board, tiles, cards and hands (data/tiny.toml)."""
    return _content(_read("tiny.toml"))


def _content(data: dict[str, Any]) -> Content:
    """Content from the tables of the data files: `colour`, `back` and `card` rows, and for a
    variant a `board` size and `hand` sizes (the standard ones otherwise)."""
    board = data.get("board", {})
    hand = data.get("hand", {})
    size = int(board.get("size", SIZE))
    grid = geometry(size)
    colours = data["colour"]
    colour_ids = tuple(c["id"] for c in colours)
    colour_index = {cid: i for i, cid in enumerate(colour_ids)}
    tiles: list[tuple[int, int]] = []
    for back in data["back"]:
        kind = BACK_INDEX[back["id"]]
        per = int(back["per_colour"])
        if per * len(colour_ids) != int(back["total"]):
            raise ValueError(f"tiles: {back['id']} per_colour does not add up to total")
        for colour in range(len(colour_ids)):
            tiles.extend([(colour, kind)] * per)
    if len(tiles) != grid.cells - 1:
        raise ValueError(f"tiles: {len(tiles)} door tiles, the grid needs {grid.cells - 1}")
    card_ids, names, effects, card_colours, deck = [], [], [], [], []
    for i, card in enumerate(data["card"]):
        effect = EFFECT_IDS.index(card["effect"])
        card_ids.append(card["id"])
        names.append(card["name"])
        effects.append(effect)
        card_colours.append(colour_index[card["colour"]] if effect == KEY else -1)
        deck.extend([i] * int(card["copies"]))
    for effect in range(SONIC, TUNNEL + 1):
        if effects.count(effect) != 1:
            raise ValueError(f"cards: need exactly one {EFFECT_IDS[effect]} card")
    return Content(
        colour_ids=colour_ids,
        colour_letters=tuple(c["letter"] for c in colours),
        colour_ansi=tuple(int(c["ansi"]) for c in colours),
        tiles=tuple(tiles),
        card_ids=tuple(card_ids),
        card_names=tuple(names),
        card_effects=tuple(effects),
        card_colours=tuple(card_colours),
        deck=tuple(sorted(deck)),
        size=size,
        deal=int(hand.get("deal", 3)),
        hand_limit=int(hand.get("limit", 4)),
    )
