"""The deck: suits, card codes and the card list read from `data/cards.toml`.

A card is played only by its suit and Force Points (FP), so the engine identifies a card by
its *code* `suit_index * 16 + fp`: equal (suit, fp) cards share a code and are interchangeable.
Names are flavour, kept for text output.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from timelord.core import ConfigError

#: Suits in the order the engine uses: the three Defenders, then the three Threat suits.
SUITS: Final[tuple[str, ...]] = ("Doctor", "Companion", "Gadget", "Foe", "Plot", "Special")
DEFENDERS: Final = (0, 1, 2)
THREAT: Final = (3, 4, 5)
SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}
DOCTOR: Final = 0
COMPANION: Final = 1
GADGET: Final = 2
FOE: Final = 3
PLOT: Final = 4
SPECIAL: Final = 5
MIN_FP: Final = 1
MAX_FP: Final = 15
#: Caps on a custom deck: enough for any variant, small enough that nothing grows unbounded.
MAX_COPIES: Final = 100
MAX_DECK: Final = 1_000
CODES: Final = 6 * 16

#: What discarding a card of each suit does (text for renderers and `describe`).
ABILITY_TEXT: Final = (
    "look at the next 7 cards of the deck",
    "draw 2 cards",
    "draw 3 cards, keep 1, discard the other 2",
    "steal a random card from an opponent",
    "look at an opponent's hand",
    "make an opponent discard a random card",
)


def code(suit: int, fp: int) -> int:
    return suit * 16 + fp


def suit_of(c: int) -> int:
    return c >> 4


def fp_of(c: int) -> int:
    return c & 15


#: "Foe 6" for every possible code, and the way back.
LABEL: Final[tuple[str, ...]] = tuple(
    f"{SUITS[c >> 4]} {c & 15}" if c >> 4 < 6 else "" for c in range(CODES)
)
CODE_OF: Final[dict[str, int]] = {LABEL[c]: c for c in range(CODES) if 1 <= c & 15 <= 15}


@dataclass(frozen=True, slots=True)
class CardEntry:
    name: str
    suit: int
    fp: int
    copies: int
    status: str
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck composition: how many copies of each code, and names for display."""

    counts: tuple[int, ...]  # indexed by code, length CODES
    names: tuple[tuple[str, ...], ...]  # indexed by code
    present: tuple[int, ...] = ()  # codes with at least one copy, ascending

    @property
    def size(self) -> int:
        return sum(self.counts)

    def cards(self) -> list[int]:
        """Every card of the deck as codes, in code order."""
        out: list[int] = []
        for c, n in enumerate(self.counts):
            out.extend([c] * n)
        return out

    def name(self, c: int) -> str:
        """Flavour names of a code ("Daleks / The Silence") or its label if unnamed."""
        return " / ".join(self.names[c]) or LABEL[c]


def _validate(suit: object, fp: object, copies: object) -> tuple[int, int, int]:
    if not isinstance(suit, str) or suit not in SUIT_INDEX:
        raise ConfigError(f"unknown suit {suit!r}; suits are {', '.join(SUITS)}")
    if not isinstance(fp, int) or isinstance(fp, bool) or not MIN_FP <= fp <= MAX_FP:
        raise ConfigError(f"FP must be an integer {MIN_FP}..{MAX_FP}, not {fp!r}")
    if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= MAX_COPIES:
        raise ConfigError(f"copies must be an integer 0..{MAX_COPIES}, not {copies!r}")
    return SUIT_INDEX[suit], fp, copies


def build_deck(entries: Iterable[tuple[object, object, object, str]]) -> Deck:
    """A deck from (suit, fp, copies, name) rows, checked here (`ConfigError` on a bad row)."""
    counts = [0] * CODES
    names: list[list[str]] = [[] for _ in range(CODES)]
    for suit, fp, copies, name in entries:
        s, f, n = _validate(suit, fp, copies)
        counts[code(s, f)] += n
        if name and name not in names[code(s, f)]:
            names[code(s, f)].append(name)
    if sum(counts) == 0:
        raise ConfigError("a deck needs at least one card")
    if sum(counts) > MAX_DECK:
        raise ConfigError(f"a deck holds at most {MAX_DECK} cards, not {sum(counts)}")
    present = tuple(c for c in range(CODES) if counts[c])
    return Deck(tuple(counts), tuple(tuple(n) for n in names), present)


@cache
def card_entries() -> tuple[CardEntry, ...]:
    """The card list of `data/cards.toml`, in file order."""
    text = resources.files(__package__).joinpath("data/cards.toml").read_text(encoding="utf-8")
    rows = tomllib.loads(text)["cards"]
    out = []
    for row in rows:
        s, f, n = _validate(row["suit"], row["fp"], row["copies"])
        out.append(CardEntry(row["name"], s, f, n, row["status"], tuple(row.get("sources", ()))))
    return tuple(out)


@cache
def texts() -> dict[str, dict[str, str]]:
    """Short texts of each suit's ability and each step of a turn, from `data/texts.toml`:
    `{name: {"text", "source", "rule", "kind"}}` (source: confirmed or reconstruction)."""
    raw = resources.files(__package__).joinpath("data/texts.toml").read_text(encoding="utf-8")
    out = {}
    for row in tomllib.loads(raw)["text"]:
        out[row["name"]] = {
            "text": row["text"],
            "source": row["status"],
            "rule": row["rule"],
            "kind": row["kind"],
        }
    return out


@cache
def standard_deck() -> Deck:
    """The 90-card deck of the data file."""
    return build_deck((SUITS[e.suit], e.fp, e.copies, e.name) for e in card_entries())


def custom_deck(rows: Sequence[object]) -> Deck:
    """A deck from the `deck` option: a list of [suit, fp, copies] (tests, variants)."""
    if len(rows) > MAX_DECK:
        raise ConfigError(f"a deck lists at most {MAX_DECK} rows")
    parsed = []
    for row in rows:
        if not isinstance(row, list | tuple) or len(row) != 3:
            raise ConfigError(f"a deck row must be [suit, fp, copies], not {row!r}")
        parsed.append((row[0], row[1], row[2], ""))
    return build_deck(parsed)
