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
#: Card sets up to this many ids (the shipped one has 131) build each card's pairs at once.
PACKED_IDS: Final = 256


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
        #: PlaceReserve((c, b)) at 2 * b, DiscardForTime((c, b)) at 2 * b + 1 (None for
        #: b <= c, and for pairs not met yet in a large set), built by `pair`, only as
        #: long as the card set needs (lists as long as `ID_LIMIT` made every read a
        #: cache miss)
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

    def pair(self, a: int, b: int, ids: int) -> tuple[Action, Action]:
        """PlaceReserve and DiscardForTime of cards a < b (a is this card); `ids` is how
        many card ids the card set has. In a set of up to `PACKED_IDS` ids the first miss
        builds the pairs with every later id at once (`_fill_pairs`); a larger custom set
        builds only the pairs play meets (all of them at once would be up to a million
        objects)."""
        row = self.pairs
        i = 2 * b
        if len(row) <= i:
            if ids <= PACKED_IDS:
                self._fill_pairs(a, max(b + 1, ids))
            else:
                row.extend([None] * (i + 2 - len(row)))
        r = row[i]
        d = row[i + 1]
        if r is None or d is None:
            cards = (a, b)
            r = row[i] = PlaceReserve(cards)
            d = row[i + 1] = DiscardForTime(cards)
        return r, d

    def _fill_pairs(self, a: int, top: int) -> None:
        """Build this card's pairs with every id below `top` not built yet, each reserve
        play beside its discard and all of them in one run of memory. A random hand's
        pairs are mostly cold when listed, and touching one (a list holds a reference) is a
        cache miss, the largest single cost of listing (about 8% of a 4-player playout,
        perf); built one by one as play met them, they lay scattered over the heap. Packing
        them measured about 4% faster before it landed, within the noise of a loaded
        machine, and the misses remain. Not `mk`'s: only this row hands them out."""
        row = self.pairs
        lo = len(row) // 2
        cards = [(a, b) for b in range(max(lo, a + 1), top)]  # the tuples apart from the actions
        while len(row) < 2 * (a + 1):
            row.append(None)
        for t in cards:
            row.append(PlaceReserve(t))
            row.append(DiscardForTime(t))


#: `CardActions` per card id, filled by `card_actions` (callers index it first and call
#: that only on a miss, which saves a call per card).
CARD_ACTIONS: Final[list[CardActions | None]] = [None] * ID_LIMIT


def card_actions(c: int) -> CardActions:
    """The `CardActions` of card `c`, built on first use."""
    x = CARD_ACTIONS[c]
    if x is None:
        x = CARD_ACTIONS[c] = CardActions(c)
    return x
