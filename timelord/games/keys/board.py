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
from typing import Any

SIZE = 7
CELLS = SIZE * SIZE
CONTROL = CELLS // 2  # the centre tile, d4
CONTROL_BIT = 1 << CONTROL

# What lies behind a door (the "back"), plus the Control tile's own kind.
OPEN_DOOR, DALEK, TARDIS_KEY, EXTRA_TURN, TELEPORT, CONTROL_KIND = range(6)
BACK_IDS = ("open", "dalek", "tardis-key", "extra-turn", "teleport", "control")
BACK_NAMES = ("Open Door", "Dalek Door", "TARDIS Key", "Extra Turn", "Teleport", "TARDIS Control")
BACK_INDEX = {name: i for i, name in enumerate(BACK_IDS)}

# Card effects (RULES.md K-6).
KEY, SONIC, BARRIER, CYBERMAN, COOKIE, PANDORICA, TUNNEL = range(7)
EFFECT_IDS = ("key", "sonic", "barrier", "cyberman", "cookie", "pandorica", "tunnel")

#: The pseudo-card named by the TARDIS Key tile's bonus open or close (K-5.6).
BONUS_CARD = "tardis-key"

SOUTH, WEST, NORTH, EAST = range(4)
EDGE_IDS = ("south", "west", "north", "east")
#: Which edge each seat starts beside, by player count (K-2.2; ruling K-R1).
SEAT_EDGES = {2: (SOUTH, NORTH), 3: (SOUTH, WEST, NORTH), 4: (SOUTH, WEST, NORTH, EAST)}
OPPOSITE = (NORTH, EAST, SOUTH, WEST)

EDGE_TILES: tuple[tuple[int, ...], ...] = (
    tuple((SIZE - 1) * SIZE + c for c in range(SIZE)),  # south: rank 1
    tuple(r * SIZE for r in range(SIZE)),  # west: file a
    tuple(range(SIZE)),  # north: rank 7
    tuple(r * SIZE + SIZE - 1 for r in range(SIZE)),  # east: file g
)
EDGE_MASKS = tuple(sum(1 << t for t in tiles) for tiles in EDGE_TILES)

DOOR_TILES = tuple(t for t in range(CELLS) if t != CONTROL)


def _orthogonal(t: int) -> tuple[int, ...]:
    r, c = divmod(t, SIZE)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            out.append(rr * SIZE + cc)
    return tuple(out)


ORTHOGONAL = tuple(_orthogonal(t) for t in range(CELLS))
#: each tile's orthogonal neighbours as a mask
ORTHOGONAL_MASKS = tuple(sum(1 << n for n in near) for near in ORTHOGONAL)


def _tunnel_slots() -> tuple[tuple[int, int, int], ...]:
    """(corner, a, b) for every diagonal pair a < b that may hold a Time Tunnel (K-6.7).

    A corner is the point where four tiles meet (6 x 6 of them); each has two diagonals.
    """
    out = []
    for r in range(SIZE - 1):
        for c in range(SIZE - 1):
            corner = r * (SIZE - 1) + c
            nw, ne = r * SIZE + c, r * SIZE + c + 1
            sw, se = nw + SIZE, ne + SIZE
            for a, b in ((nw, se), (ne, sw)):
                if CONTROL not in (a, b):
                    out.append((corner, a, b))
    return tuple(out)


TUNNEL_SLOTS = _tunnel_slots()
TUNNEL_CORNER = {(a, b): corner for corner, a, b in TUNNEL_SLOTS}


def diagonal_corner(a: int, b: int) -> int | None:
    """The corner between diagonal neighbours a and b (any order), None if not diagonal."""
    if a > b:
        a, b = b, a
    ra, ca = divmod(a, SIZE)
    rb, cb = divmod(b, SIZE)
    if not (0 <= a < CELLS and 0 <= b < CELLS) or rb != ra + 1 or abs(cb - ca) != 1:
        return None
    return ra * (SIZE - 1) + min(ca, cb)


def tile_name(t: int) -> str:
    """Chess-like name of a tile: a7 is the north-west corner, d4 the Control tile."""
    if not 0 <= t < CELLS:
        return f"#{t}"
    r, c = divmod(t, SIZE)
    return f"{'abcdefg'[c]}{SIZE - r}"


def tile_index(name: str) -> int:
    """The tile a chess-like name denotes ("d4" -> 24); ValueError if there is none."""
    if len(name) != 2 or name[0] not in "abcdefg" or name[1] not in "1234567":
        raise ValueError(f"no tile named {name!r}")
    return (SIZE - int(name[1])) * SIZE + "abcdefg".index(name[0])


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
    tiles_data = _read("tiles.toml")
    cards_data = _read("cards.toml")
    colours = tiles_data["colour"]
    colour_ids = tuple(c["id"] for c in colours)
    colour_index = {cid: i for i, cid in enumerate(colour_ids)}
    tiles: list[tuple[int, int]] = []
    for back in tiles_data["back"]:
        kind = BACK_INDEX[back["id"]]
        per = int(back["per_colour"])
        if per * len(colour_ids) != int(back["total"]):
            raise ValueError(f"tiles.toml: {back['id']} per_colour does not add up to total")
        for colour in range(len(colour_ids)):
            tiles.extend([(colour, kind)] * per)
    if len(tiles) != CELLS - 1:
        raise ValueError(f"tiles.toml: {len(tiles)} door tiles, the grid needs {CELLS - 1}")
    card_ids, names, effects, card_colours, deck = [], [], [], [], []
    for i, card in enumerate(cards_data["card"]):
        effect = EFFECT_IDS.index(card["effect"])
        card_ids.append(card["id"])
        names.append(card["name"])
        effects.append(effect)
        card_colours.append(colour_index[card["colour"]] if effect == KEY else -1)
        deck.extend([i] * int(card["copies"]))
    for effect in range(SONIC, TUNNEL + 1):
        if effects.count(effect) != 1:
            raise ValueError(f"cards.toml: need exactly one {EFFECT_IDS[effect]} card")
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
    )
