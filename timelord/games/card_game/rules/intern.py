"""Shared action objects: building frozen dataclasses is the slow part of listing actions,
and shared objects make the legality check of `apply` an identity test."""

from __future__ import annotations

from typing import Final

from timelord.core import Action
from timelord.games.card_game.actions import (
    DiscardForTime,
    PickUp,
    PlaceReserve,
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
)

_INTERN: Final[dict[tuple[object, ...], Action]] = {}


def mk(cls: type[Action], *args: object) -> Action:
    key = (cls, *args)
    a = _INTERN.get(key)
    if a is None:
        a = _INTERN[key] = cls(*args)
    return a


#: Card ids and locations stay below this in any card set (see `cards.MAX_CARDS`).
ID_LIMIT: Final = 1024


class CardActions:
    """The actions of one card: its one-card actions, its plays by location and its
    two-card reserve/discard actions with each later card, in lists indexed by location or
    card id (a list index is cheaper than a keyed look-up, and these are most of every list
    of moves). Built on first use, once per card per process; the objects are `mk`'s, so
    they are shared with it."""

    __slots__ = (
        "defender",
        "discard",
        "enemy",
        "location",
        "pairs",
        "pickup",
        "reserve",
        "support",
        "targeted",
    )

    def __init__(self, c: int) -> None:
        self.pickup = mk(PickUp, c)
        self.location = mk(PlayLocation, c)
        self.reserve = mk(PlaceReserve, (c,))
        self.discard = mk(DiscardForTime, (c,))
        #: PlaceReserve((c, b)) at 2 * b, DiscardForTime((c, b)) at 2 * b + 1, grown by
        #: `pair` only as far as the ids met: side by side and short, a hand's pairs stay in
        #: a few cache lines (lists as long as `ID_LIMIT` made every read a cache miss)
        self.pairs: list[Action | None] = []
        self.defender: list[Action] = []  # by location, grown by `play_defender`
        self.enemy: list[Action] = []  # by location, grown by `play_enemy`
        self.support: Action | None = None  # PlaySupport(c) with no target, by `play_support`
        self.targeted: dict[int, Action] = {}  # the other PlaySupport(c, ...), `play_support_at`

    def play_defender(self, c: int, L: int) -> Action:
        """PlayDefender(c, L) (c is this card)."""
        row = self.defender
        while len(row) <= L:
            row.append(mk(PlayDefender, c, len(row)))
        return row[L]

    def play_enemy(self, c: int, L: int) -> Action:
        """PlayEnemy(c, L) (c is this card)."""
        row = self.enemy
        while len(row) <= L:
            row.append(mk(PlayEnemy, c, len(row)))
        return row[L]

    def play_support(self, c: int) -> Action:
        """PlaySupport(c) with no target (c is this card)."""
        a = self.support
        if a is None:
            a = self.support = mk(PlaySupport, c)
        return a

    def play_support_at(self, c: int, L: int, target: int = -1, extra: int = -1) -> Action:
        """PlaySupport(c, L, target, extra) (c is this card), kept under its fields as one
        integer: `mk` builds two tuples and hashes them for every one listed."""
        key = ((L + 1) * ID_LIMIT + target + 1) * ID_LIMIT + extra + 1
        a = self.targeted.get(key)
        if a is None:
            a = self.targeted[key] = mk(PlaySupport, c, L, target, extra)
        return a

    def pair(self, a: int, b: int) -> tuple[Action, Action]:
        """PlaceReserve and DiscardForTime of cards a < b (a is this card)."""
        row = self.pairs
        i = 2 * b
        if len(row) <= i:
            row.extend([None] * (i + 2 - len(row)))
        r = row[i]
        d = row[i + 1]
        if r is None or d is None:
            r = row[i] = mk(PlaceReserve, (a, b))
            d = row[i + 1] = mk(DiscardForTime, (a, b))
        return r, d


#: `CardActions` per card id, filled by `card_actions` (callers index it first and call
#: that only on a miss, which saves a call per card).
CARD_ACTIONS: Final[list[CardActions | None]] = [None] * ID_LIMIT


def card_actions(c: int) -> CardActions:
    """The `CardActions` of card `c`, built on first use."""
    x = CARD_ACTIONS[c]
    if x is None:
        x = CARD_ACTIONS[c] = CardActions(c)
    return x
