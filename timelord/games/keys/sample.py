"""`sample_state`: a full state consistent with one seat's view, hidden cards dealt at random.

The view is read and checked once at the door (`prepare`, kept in the game's `ViewCache`);
each sample then only deals.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from functools import cache
from typing import Any

from timelord.core import CorruptRecord, Rng, View
from timelord.core.door import door
from timelord.games.keys.board import (
    DALEK,
    OPEN_DOOR,
    Content,
)
from timelord.games.keys.doors import board_cards, fill_common, read_backs, read_cards, tile_mask
from timelord.games.keys.state import (
    KeysRules,
    KeysState,
)
from timelord.games.keys.view import build_view


@cache
def _colour_mix(content: Content) -> tuple[Counter[int], ...]:
    """How many of each back the box has in each colour."""
    mix: tuple[Counter[int], ...] = tuple(Counter() for _ in content.colour_ids)
    for c, k in content.tiles:
        mix[c][k] += 1
    return mix


def _sample_drawn(
    s: KeysState, seat: int | None, own: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """Draws since the reshuffle for a sampled state: the seat's own as it knows them; the
    reshuffled cards neither in the pile nor drawn by the seat go to the other hands that
    hold them, and those since played again to the other seats in turn (any split fits the
    view: only each seat's own list is ever shown)."""
    n = len(s.hands)
    if not s.pool:
        return ((),) * n
    taken = [0] * len(s.tables.discard)
    for c in s.pool:
        taken[c] += 1
    for c in s.deck:
        taken[c] -= 1
    for c in own:
        taken[c] -= 1
    out: list[list[int]] = []
    for other in range(n):
        if other == seat:
            out.append(list(own))
            continue
        mine = []
        for c in s.hands[other]:
            if taken[c] > 0:
                taken[c] -= 1
                mine.append(c)
        out.append(mine)
    others = [o for o in range(n) if o != seat]
    i = 0
    for c, left in enumerate(taken):
        for _ in range(left):
            out[others[i % len(others)]].append(c)
            i += 1
    return tuple(tuple(sorted(d)) for d in out)


def sample_state(game: KeysRules, view: Any, rng: Rng) -> KeysState:
    """A state matching `view`: unseen door backs and unseen cards dealt at random.

    Unseen backs are re-dealt within each colour (the colour of a closed door is public, and
    the box holds the same backs in every colour); unseen cards (other hands, the draw pile)
    come from the deck less the seat's hand, the discard pile and the cards on the board.
    After a reshuffle the draw pile is dealt only from the reshuffled cards the seat has not
    drawn back itself, and the other unseen cards go to other hands (ruling K-R17).

    Search asks for many samples of one view in a row, so reading and checking the view is
    done once (`prepare`, kept in the game's `ViewCache`); each call then only deals.
    """
    with door(CorruptRecord, "not a view of this Keys game"):
        plan = game._views.get(view)  # the cache copies the view before `prepare` sees it
    dealt: KeysState = plan.deal(rng)
    return dealt


def prepare(game: KeysRules, view: Any) -> _Plan:
    """Read and check a view at the door, once per view: `CorruptRecord` unless it is a view
    this game could show (a doctored one can then neither hang nor crash a deal). Beyond the
    fields' types, one trial deal must give the view back exactly: the cheapest complete test
    that its counts agree, paid once per view and not per sample."""
    if not isinstance(view, dict):
        raise CorruptRecord("a Keys view must be a JSON object")
    with door(CorruptRecord, "not a view of this Keys game", rewrap=True):
        seat = game.check_seat(view["seat"])
        game.check_seat(view["to_move"])  # copied into the deal as it stands
        sizes = view["hand_sizes"]
        if not (
            isinstance(sizes, list)
            and len(sizes) == game.players
            and all(type(n) is int and 0 <= n <= game.tables.hand_limit for n in sizes)
            and type(view["deck_size"]) is int
        ):
            raise CorruptRecord("view: hand and pile sizes must be small whole numbers")
        plan = _Plan(game, view)
        # as JSON text, so a false where the game writes 0 (equal in Python) is caught too
        same = json.dumps(build_view(plan.deal(Rng(0)), seat), sort_keys=True) == json.dumps(
            view, sort_keys=True
        )
    if not same:
        raise CorruptRecord("the view does not add up: no deal of this game shows it")
    return plan


#: 64-bit draws that make a number far above n! (2**32 times at least), for `_shuffle`, for
#: up to as many items as the standard grid has tiles
_TABLED = 49
_DRAWS = [(math.lgamma(n + 1) / math.log(2) + 32) // 64 + 1 for n in range(_TABLED + 1)]


def _shuffle(seq: list[int], rng: Rng) -> None:
    """Fisher-Yates whose indices are the mixed-radix digits of one random number made of a
    few 64-bit draws (its bias, under 2**-32, is nothing next to the sampling noise), so a
    shuffle costs a few generator calls instead of one per item."""
    n = len(seq)
    x = 0
    for _ in range(int(_DRAWS[n]) if n <= _TABLED else n):
        x = x << 64 | rng.next64()
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        seq[i], seq[j] = seq[j], seq[i]


class _Plan:
    """What `sample_state` reads from a view once: the public state and what is to deal."""

    __slots__ = (
        "backs",
        "base",
        "cards",
        "counts",
        "dalek",
        "fits",
        "hand_sizes",
        "hidden",
        "own",
        "own_drawn",
        "seat",
        "size",
    )

    def __init__(self, game: KeysRules, view: View) -> None:
        content = game.content
        seat = view["seat"]
        s = KeysState.blank(game)
        geo = game.tables.geo
        known = read_backs(view["backs"], True, geo.cells)
        colour_index = {c: i for i, c in enumerate(content.colour_ids)}
        colours = view["colours"]
        pools = [Counter(mix) for mix in _colour_mix(content)]
        hidden: dict[int, list[int]] = {}
        for t, k in enumerate(known):
            if t == geo.control:
                continue
            c = colour_index[colours[t]]
            if k is None:
                hidden.setdefault(c, []).append(t)
            else:
                pools[c][k] -= 1
        self.hidden: list[tuple[list[int], list[int]]] = []
        for c, tiles in hidden.items():
            left = sorted(pools[c].elements())
            if len(left) != len(tiles):
                raise CorruptRecord("view: unseen backs do not fit the box's tiles of that colour")
            self.hidden.append((tiles, left))
        # Any back fits a hidden tile while the view is read: the colour checks need one.
        backs = [b if b is not None else OPEN_DOOR for b in known]
        fill_common(s, view, backs)
        self.backs = [b if b is not None else OPEN_DOOR for b in known]
        self.dalek = sum(1 << t for t in geo.door_tiles if known[t] == DALEK)
        s.seen_mask = tile_mask(
            [t for t, k in enumerate(known) if k is not None and t != geo.control]
        )
        unseen = Counter(content.deck)
        unseen.subtract(s.discard)
        own: tuple[int, ...] = ()
        own_drawn: tuple[int, ...] = ()
        if seat is not None:
            own = tuple(sorted(read_cards(game, view["hand"], "'hand'")))
            own_drawn = tuple(sorted(read_cards(game, view["drawn_since_reshuffle"], "'drawn'")))
            unseen.subtract(own)
        unseen.subtract(board_cards(s))
        if any(v < 0 for v in unseen.values()):
            raise CorruptRecord("view: more cards are in sight than the deck holds")
        size = view["deck_size"]
        hand_sizes = view["hand_sizes"]
        self.fits: list[int] | None = None
        if s.pool:
            # K-R17: the pile holds only reshuffled cards this seat did not draw back since;
            # the rest of the unseen cards are in other hands.
            remaining = Counter(s.pool)
            remaining.subtract(own_drawn)
            fits = [c for c, n in sorted(remaining.items()) for _ in range(min(n, unseen[c]))]
            if len(fits) < size:
                raise CorruptRecord("view: the draw pile cannot come from the reshuffled cards")
            self.fits = fits
        total = sum(n for other, n in enumerate(hand_sizes) if other != seat)
        if sum(unseen.values()) != total + size:
            raise CorruptRecord("view: hands and draw pile do not add up to the deck")
        self.cards = sorted(unseen.elements())
        self.counts = [unseen[c] for c in range(len(content.card_ids))]
        self.size = size
        self.hand_sizes = list(hand_sizes)
        self.seat = seat
        self.own = own
        self.own_drawn = own_drawn
        to_move = view["to_move"]
        s.seat = to_move if to_move is not None else 0
        s.hands = ()
        s.deck = ()
        s.drawn = ()
        s.rng = 0
        self.base = s

    def deal(self, rng: Rng) -> KeysState:
        s = self.base._copy()
        backs = self.backs.copy()
        dalek = self.dalek
        for tiles, left in self.hidden:
            left = left.copy()
            _shuffle(left, rng)
            for t, k in zip(tiles, left, strict=True):
                backs[t] = k
                if k == DALEK:
                    dalek |= 1 << t
        s.back = tuple(backs)
        s.dalek_mask = dalek
        size = self.size
        seat = self.seat
        if self.fits is None:
            pool = self.cards.copy()
            _shuffle(pool, rng)
            deck = pool[:size]
            del pool[:size]
        else:
            fits = self.fits.copy()
            _shuffle(fits, rng)
            deck = fits[:size]
            counts = self.counts.copy()
            for c in deck:
                counts[c] -= 1
            pool = [c for c, k in enumerate(counts) for _ in range(k)]
            _shuffle(pool, rng)
        hands: list[tuple[int, ...]] = []
        for other, n in enumerate(self.hand_sizes):
            if other == seat:
                hands.append(self.own)
            else:
                hands.append(tuple(sorted(pool[:n])))
                del pool[:n]
        s.hands = tuple(hands)
        s.deck = tuple(deck)
        s.drawn = _sample_drawn(s, seat, self.own_drawn)
        s.rng = rng.next64()
        return s
