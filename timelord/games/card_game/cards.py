"""Card data: the manifest in `data/cards.toml` turned into flat per-card tables.

Every physical card has an integer id. Game cards come first (copies of one design get
consecutive ids), then the starting locations. The rules read only these tables, never a
card's name or numbers, so a test can build its own small `CardSet`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Any, Final

LOCATION: Final = "location"
DEFENDER: Final = "defender"
ENEMY: Final = "enemy"
SUPPORT: Final = "support"
START: Final = "start"
KINDS: Final = (LOCATION, DEFENDER, ENEMY, SUPPORT)


@dataclass(frozen=True)
class CardDesign:
    """One card design (one record of the manifest); `copies` physical cards share it."""

    key: str
    name: str
    kind: str
    copies: int = 1
    strength: int = 0
    vp: int = 0
    tp: int = 0
    order: int = 0
    type: str = ""
    combines: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    two_player: bool = True
    status: str = "reconstruction"


@dataclass(frozen=True)
class GameConstants:
    time_points: int = 30
    counters: int = 5
    hand_size: int = 5
    pass_cards: int = 3
    pass_cards_two_player: int = 2
    end_depth: int = 20
    buy_cost: int = 5
    reserve_limit: int = 2


class CardSet:
    """Per-card tables for one set of designs (ids are positions in these tuples)."""

    def __init__(
        self,
        designs: list[CardDesign],
        starts: list[CardDesign],
        constants: GameConstants,
        colours: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow"),
    ) -> None:
        self.colours = colours
        self.designs = tuple(designs) + tuple(starts)
        self.constants = constants
        design_of: list[int] = []
        for d, design in enumerate(designs):
            design_of.extend([d] * design.copies)
        self.game_cards = len(design_of)
        for s in range(len(starts)):
            design_of.append(len(designs) + s)
        self.start_cards = tuple(range(self.game_cards, len(design_of)))
        self.design = tuple(design_of)
        ds = [self.designs[d] for d in design_of]
        self.kind = tuple(x.kind for x in ds)
        self.strength = tuple(x.strength for x in ds)
        self.vp = tuple(x.vp for x in ds)
        self.tp = tuple(x.tp for x in ds)
        self.order = tuple(x.order for x in ds)
        self.type = tuple(x.type for x in ds)
        self.name = tuple(x.name for x in ds)
        self.key = tuple(x.key for x in ds)
        self.effects = tuple(frozenset(x.effects) for x in ds)
        self.params = tuple(x.params for x in ds)
        self.two_player = tuple(x.two_player for x in ds)
        self.is_location = tuple(k == LOCATION for k in self.kind)
        self.is_defender = tuple(k == DEFENDER for k in self.kind)
        self.is_enemy = tuple(k == ENEMY for k in self.kind)
        self.is_support = tuple(k == SUPPORT for k in self.kind)
        nd = len(self.designs)
        # combine[d1][d2]: enemy designs d1 and d2 may stand in one attack.
        comb = [[False] * nd for _ in range(nd)]
        for i, a in enumerate(self.designs):
            for j, b in enumerate(self.designs):
                if a.kind != ENEMY or b.kind != ENEMY:
                    continue
                comb[i][j] = (
                    a.type == b.type
                    or "any" in a.combines
                    or "any" in b.combines
                    or b.type in a.combines
                    or a.type in b.combines
                )
        self.combine = tuple(tuple(r) for r in comb)

    def to_data(self) -> dict[str, Any]:
        """The set as JSON-safe manifest data: `card_set_from_data(cs.to_data())` builds an
        equal set (the `cards` option of a game over a custom set)."""
        n = len(self.designs) - len(self.start_cards)
        return {
            "game": {f: getattr(self.constants, f) for f in GameConstants.__dataclass_fields__},
            "card": [_record(d) for d in self.designs[:n]],
            "start": [_record(d) for d in self.designs[n:]],
            "colours": {"names": list(self.colours)},
        }

    def param(self, card: int, name: str, default: Any = 0) -> Any:
        return self.params[card].get(name, default)

    def cards_in_play(self, players: int) -> list[int]:
        """Game card ids used with this many players (the 2-player variant drops some)."""
        return [c for c in range(self.game_cards) if players > 2 or self.two_player[c]]

    def label(self, card: int) -> str:
        return f"{self.name[card]}#{card}"


def _record(d: CardDesign) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "key": d.key, "name": d.name, "kind": d.kind, "copies": d.copies,
        "strength": d.strength, "vp": d.vp, "tp": d.tp, "order": d.order, "type": d.type,
        "combines": list(d.combines), "effects": list(d.effects),
        "two_player": d.two_player, "status": d.status,
    }  # fmt: skip
    rec.update(d.params)
    return rec


_STATUS: Final = ("confirmed", "one-source", "inferred", "reconstruction")


def design_from_record(rec: dict[str, Any], kind: str | None = None) -> CardDesign:
    """One design from a manifest record (unknown keys become effect parameters)."""
    known = {
        "key", "name", "kind", "copies", "strength", "vp", "tp", "order", "type", "combines",
        "effects", "two_player", "status", "sources", "name_status", "art",
    }  # fmt: skip
    params = {k: v for k, v in rec.items() if k not in known}
    if rec.get("status", "reconstruction") not in _STATUS:
        raise ValueError(f"card {rec.get('key')}: bad status {rec.get('status')!r}")
    return CardDesign(
        key=rec["key"],
        name=rec["name"],
        kind=kind or rec["kind"],
        copies=int(rec.get("copies", 1)),
        strength=int(rec.get("strength", 0)),
        vp=int(rec.get("vp", 0)),
        tp=int(rec.get("tp", 0)),
        order=int(rec.get("order", 0)),
        type=rec.get("type", ""),
        combines=tuple(rec.get("combines", ())),
        effects=tuple(rec.get("effects", ())),
        params=params,
        two_player=bool(rec.get("two_player", True)),
        status=rec.get("status", "reconstruction"),
    )


def card_set_from_toml(text: str) -> CardSet:
    return card_set_from_data(tomllib.loads(text))


def card_set_from_data(data: dict[str, Any]) -> CardSet:
    """A card set from the manifest's structure (`[game]`, `[[card]]`, `[[start]]`, optional
    `[colours]`), as parsed TOML or as the JSON `CardSet.to_data` gives. `ValueError` if a
    record is of the wrong type or out of its range (`check_manifest`)."""
    check_manifest(data)
    g = data.get("game", {})
    consts = GameConstants(
        **{k: int(v) for k, v in g.items() if k in GameConstants.__dataclass_fields__}
    )
    designs = [design_from_record(r) for r in data["card"]]
    starts = [design_from_record(r, START) for r in data["start"]]
    colours = tuple(data.get("colours", {}).get("names", ("Red", "Blue", "Green", "Yellow")))
    return CardSet(designs, starts, consts, colours)


#: Bounds of a manifest (the `cards` option comes from outside: records, API clients). Card
#: ids stay below 1024 (the legal-action caches pack them in 10 bits).
MAX_CARDS: Final = 1000
MAX_DESIGNS: Final = 300
_CONSTANT_RANGE: Final = {
    "time_points": (1, 1000),
    "counters": (1, 50),
    "hand_size": (1, 50),
    "pass_cards": (1, 49),
    "pass_cards_two_player": (1, 49),
    "end_depth": (0, MAX_CARDS),
    "buy_cost": (1, 1000),
    "reserve_limit": (0, 50),
}
_FIELD_TYPES: Final[dict[str, Any]] = {
    "key": str, "name": str, "kind": str, "type": str, "status": str, "name_status": str,
    "art": list, "copies": int, "strength": int, "vp": int, "tp": int, "order": int,
    "two_player": bool, "combines": list, "effects": list, "sources": list,
}  # fmt: skip
#: Effect parameters the rules read, with their types (others are kept but never read).
_PARAM_TYPES: Final[dict[str, Any]] = {
    "reveal_tp": int, "count": int, "bonus": int, "slots": int, "cost": int, "boost": int,
    "stays": bool, "needs_face_up": bool, "discard_defender": bool, "beaten_by": str,
    "needs_type": str, "turns": str, "stopped_by": str, "removes": str,
}  # fmt: skip
_NUMBER_RANGE: Final = (-1000, 1000)


def _typed(value: Any, kind: Any, what: str) -> None:
    ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    if not ok:
        raise ValueError(f"{what} must be {kind.__name__}, not {value!r}")
    if kind is int and not _NUMBER_RANGE[0] <= value <= _NUMBER_RANGE[1]:
        raise ValueError(f"{what} must lie in {_NUMBER_RANGE}, not {value}")
    if kind is str and len(value) > 200:
        raise ValueError(f"{what} is too long")


def check_manifest(data: Any) -> None:
    """Refuse (ValueError) a manifest of the wrong shape, types or sizes: every field typed,
    numbers bounded, at most `MAX_CARDS` cards, so no option can exhaust memory or time."""
    if not isinstance(data, dict):
        raise ValueError("a card manifest is an object")
    game = data.get("game", {})
    if not isinstance(game, dict):
        raise ValueError("[game] must be an object")
    for name, value in game.items():
        if name in _CONSTANT_RANGE:
            lo, hi = _CONSTANT_RANGE[name]
            _typed(value, int, f"game.{name}")
            if not lo <= value <= hi:
                raise ValueError(f"game.{name} must lie in {lo}..{hi}, not {value}")
    defaults = GameConstants()
    hand = game.get("hand_size", defaults.hand_size)
    for name in ("pass_cards", "pass_cards_two_player"):
        if game.get(name, getattr(defaults, name)) >= hand:
            raise ValueError(f"game.{name} must be smaller than the hand size {hand}")
    total = 0
    for part in ("card", "start"):
        records = data.get(part)
        if not isinstance(records, list) or not records:
            raise ValueError(f"[[{part}]] must be a non-empty list of records")
        if len(records) > MAX_DESIGNS:
            raise ValueError(f"at most {MAX_DESIGNS} [[{part}]] records")
        for i, rec in enumerate(records):
            if not isinstance(rec, dict) or "key" not in rec or "name" not in rec:
                raise ValueError(f"{part} {i}: a record with a key and a name")
            for name, value in rec.items():
                kind = _FIELD_TYPES.get(name) or _PARAM_TYPES.get(name)
                if kind is not None:
                    _typed(value, kind, f"{part} {rec['key']!r}: {name}")
                elif not isinstance(value, (str, int, float, bool)):
                    raise ValueError(f"{part} {rec['key']!r}: {name} must be a plain value")
            for name in ("combines", "effects", "sources", "art"):
                for x in rec.get(name, []):
                    _typed(x, str, f"{part} {rec['key']!r}: {name} entry")
            if part == "card" and rec.get("kind") not in KINDS:
                raise ValueError(f"card {rec['key']!r}: kind must be one of {KINDS}")
            copies = rec.get("copies", 1)
            if not 1 <= copies <= 50:
                raise ValueError(f"{part} {rec['key']!r}: copies must lie in 1..50")
            total += copies if part == "card" else 1
    if total > MAX_CARDS:
        raise ValueError(f"at most {MAX_CARDS} cards in a set, not {total}")
    colours = data.get("colours", {})
    names = colours.get("names", []) if isinstance(colours, dict) else None
    if not isinstance(names, list) or len(names) > 4:
        raise ValueError("colours.names must be a list of at most 4 seat names")
    for x in names:
        _typed(x, str, "a colour name")


@lru_cache(maxsize=1)
def standard_cards() -> CardSet:
    """The 127-card 2nd-edition manifest shipped in `data/cards.toml`."""
    text = files("timelord.games.card_game").joinpath("data/cards.toml").read_text()
    return card_set_from_toml(text)


def tiny_cards() -> CardSet:
    """The tiny research variant's set (`data/tiny.toml`), small enough for exact CFR."""
    text = files("timelord.games.card_game").joinpath("data/tiny.toml").read_text()
    return card_set_from_toml(text)
