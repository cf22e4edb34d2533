"""`sample_state`: a full state consistent with one seat's view, hidden cards dealt at random
(E-8). The view is read and checked once (`prepare`, kept in the game's `ViewCache`)."""

from __future__ import annotations

import json
from typing import Any

from timelord.core import CorruptRecord, Rng, View, door
from timelord.games.episodes import hands as H
from timelord.games.episodes.cards import CODE_OF, SUIT_INDEX
from timelord.games.episodes.doors import check_state
from timelord.games.episodes.state import EpisodesRules, EpisodesState
from timelord.games.episodes.view import build_view, codes


class _Prepared:
    """What `sample_state` reads from one view before dealing: the same for every deal."""

    __slots__ = (
        "cands",
        "deck_need",
        "discard",
        "drawn",
        "ended",
        "extra",
        "floor",
        "fresh",
        "hand",
        "keeping",
        "known",
        "known_by",
        "limbo_need",
        "limbo_old",
        "limbo_seen",
        "needs",
        "peeked",
        "pending",
        "phase",
        "pool",
        "reshuffles",
        "seat",
        "slots",
        "take",
        "top",
        "turn",
        "unknown",
        "vp",
    )

    def __init__(self, game: EpisodesRules, view: View) -> None:
        seat = view["seat"]
        if not isinstance(seat, int):
            raise CorruptRecord("sample_state needs a seat's view, not a spectator's")
        n = game.players
        self.seat = seat
        self.turn = view["turn"]
        self.phase = H.PHASES.index(view["phase"])
        pending = view["pending"]
        self.pending = -1 if pending is None else SUIT_INDEX[pending]
        self.vp = list(view["vp"])
        floor = view["discard_floor"]
        self.floor = 0 if floor is None else CODE_OF[floor]
        self.reshuffles = view["reshuffles"]
        self.ended = view["ended"] or ""
        self.limbo_old = view["drawn_old"]
        counts = list(game.deck.counts)
        hand = self.hand = codes(view["hand"])
        discard = self.discard = codes(view["discard"])
        known = self.known = [codes(k) for k in view["known_hands"]]
        top = codes(view["deck_top"])
        drawn = self.drawn = codes(view["drawn"])
        for group in (hand, discard, top, drawn, *known):
            for c in group:
                counts[c] -= 1
        sizes = view["hand_sizes"]
        active = self.turn % n
        self.needs = [0 if o == seat else sizes[o] - len(known[o]) for o in range(n)]
        keeping = self.keeping = self.phase == H.KEEP and seat != active
        self.limbo_need = view["drawn_count"] - len(drawn) if keeping else 0
        self.deck_need = view["deck_size"] - len(top)
        pool_labels = view["deck_pool"]
        self.fresh = 0  # unseen Gadget-drawn cards that came from the reshuffled pile
        self.pool: list[int] | None = None
        self.cands: list[int] = []
        self.take = 0
        if pool_labels is not None:
            # E-8.11: only cards of the reshuffled pile that the seat has not seen leave the
            # deck, and cannot place anywhere else, can be in the deck now.
            pool = self.pool = codes(pool_labels)
            left = [0] * len(counts)
            for c in pool:
                left[c] += 1
            for c in top:
                left[c] -= 1
            if keeping:
                self.fresh = view["drawn_count"] - max(view["drawn_old"], len(drawn))
            cands = self.cands
            for c in game.deck.present:
                k = min(counts[c], left[c])
                if k > 0:
                    cands.extend([c] * k)
            self.take = self.deck_need + self.fresh
            if not 0 <= self.take <= len(cands):
                raise CorruptRecord("the deck cannot be made of the reshuffled pile's cards")
        unknown: list[int] = []
        for c in game.deck.present:
            k = counts[c]
            if k:
                unknown.extend([c] * k)
        self.unknown = unknown
        if self.pool is not None:
            # after a reshuffle the hidden hands get the unknown cards outside the candidates,
            # and the candidates the deck and the Gadget draw leave out
            outside = unknown[:]
            for c in self.cands:
                outside.remove(c)
            self.unknown = outside
        self.slots = sum(self.needs) + self.limbo_need - self.fresh
        if pool_labels is None and len(unknown) - self.slots != self.deck_need:
            raise CorruptRecord("view and deck composition disagree")
        self.peeked = list(view["peeked"])
        self.extra = max(self.peeked) - len(top)
        top.reverse()
        self.top = top
        if min(self.needs) < 0 or min(self.limbo_need, self.fresh, self.deck_need) < 0:
            raise CorruptRecord("the view knows more cards in a place than the place holds")
        spare = len(self.cands) - self.take  # candidates the deck leaves to the hands
        if min(counts) < 0 or not 0 <= self.slots <= len(self.unknown) + spare:
            raise CorruptRecord("the view shows more cards than the deck holds")
        if self.extra > self.deck_need:
            raise CorruptRecord("a seat peeked deeper than the deck goes")
        self.known_by = [codes(cards) if cards else None for cards in view["known_by"]]
        self.limbo_seen = (
            [codes(k) for k in view["drawn_seen_by"]]
            if self.phase == H.KEEP and seat == active
            else None
        )


#: (cards, picks) -> (ways to pick, 64-bit words to draw, largest multiple of ways below 2**bits)
_SPANS: dict[tuple[int, int], tuple[int, int, int]] = {}


def _span(n: int, k: int) -> tuple[int, int, int]:
    got = _SPANS.get((n, k))
    if got is None:
        span = 1
        for i in range(k):
            span *= n - i
        words = (span.bit_length() + 127) // 64  # at least 64 spare bits: rejection is rare
        total = 1 << (64 * words)
        got = _SPANS[(n, k)] = (span, words, total - total % span)
    return got


def _pick(cards: list[int], k: int, rng: Rng) -> None:
    """Move a uniform random selection of `k` of `cards`, in random order, to the front
    (a partial Fisher-Yates shuffle).

    This is the hot loop of every search, so instead of one `rng.below` per card it draws one
    uniform number below n(n-1)...(n-k+1) from a few 64-bit outputs (rejecting the rare draw
    past the last whole multiple, so it is exactly uniform) and reads the k indices off as its
    mixed-radix digits.
    """
    if k <= 0:
        return
    n = len(cards)
    span, words, limit = _span(n, k)
    draw = rng.next64
    while True:
        x = draw()
        for _ in range(words - 1):
            x = (x << 64) | draw()
        if x < limit:
            break
    x %= span
    for i in range(k):
        x, r = divmod(x, n - i)
        j = i + r
        cards[i], cards[j] = cards[j], cards[i]


def prepare(game: EpisodesRules, view: Any) -> _Prepared:
    """Read and check a view at the door, once per view: `CorruptRecord` unless it is a
    seat's view this game could show (so a doctored view can neither hang nor crash a deal).

    Beyond the field types and ranges, one trial deal must give back the view exactly: the
    cheapest complete test that the counts agree, paid once and not per sample."""
    if not isinstance(view, dict):
        raise CorruptRecord("an Episodes view must be a JSON object")
    with door(CorruptRecord, "not a view of this Episodes game", rewrap=True):
        game.check_seat(view["seat"])
        _check_fields(game, view)
        prep = _Prepared(game, view)
        trial = _deal(game, prep, Rng(0))
        check_state(trial)
        # as JSON text, so a true where the game writes 1 (equal in Python) is caught too
        same = json.dumps(build_view(trial, prep.seat), sort_keys=True) == json.dumps(
            view, sort_keys=True
        )
    if not same:
        raise CorruptRecord("the view does not add up: no deal of this game shows it")
    return prep


#: view fields that are whole numbers, and those that are one whole number per seat
_INT_FIELDS = ("turn", "deck_size", "reshuffles", "drawn_count", "drawn_old")
_SIZES = ("deck_size", "drawn_count", "drawn_old")
_SEAT_INTS = ("vp", "hand_sizes", "peeked")
_SEAT_LISTS = ("known_hands", "known_by", "drawn_seen_by")


def _check_fields(game: EpisodesRules, view: View) -> None:
    """Types and ranges of the numbers a deal sizes its lists by, before anything is sized."""
    n = game.players
    limit = game.deck.size
    for key in _INT_FIELDS:
        v = view[key]
        if not _is_count(v) or (key in _SIZES and v > limit):
            raise CorruptRecord(f"view field {key!r} must be a whole number in range")
    for key in _SEAT_INTS:
        row = view[key]
        if not isinstance(row, list) or len(row) != n or not all(_is_count(v) for v in row):
            raise CorruptRecord(f"view field {key!r} must hold one whole number per seat")
    if sum(view["hand_sizes"]) + view["deck_size"] + view["drawn_count"] > limit:
        raise CorruptRecord("the view holds more cards than the deck")
    for key in _SEAT_LISTS:
        row = view[key]
        if not isinstance(row, list) or len(row) != n or not all(isinstance(k, list) for k in row):
            raise CorruptRecord(f"view field {key!r} must hold one list per seat")
    if view["players"] != n:
        raise CorruptRecord("the view is of a table with another number of players")


def _is_count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def sample_state(game: EpisodesRules, view: Any, rng: Rng) -> EpisodesState:
    """A full state whose view for `view['seat']` is `view` (E-8.9).

    The cards the seat cannot place are dealt uniformly among the places it cannot see into:
    the unknown part of each opponent's hand and of a Gadget draw get a uniform random
    selection of them, the rest form the unsettled deck below the cards the seat peeked
    (drawn from at random later, E-3.4, so no shuffle is needed). After a reshuffle the deck,
    and the part of a Gadget draw taken from it, are dealt only from the cards the seat knows
    the new deck can hold (E-8.11). Other seats' knowledge is left empty; the sampled state's
    generator is fresh, so hidden future draws vary too.

    Everything that does not depend on the deal is read and checked from the view once
    (`prepare`, kept in the game's `ViewCache`): search calls this once per iteration.
    """
    with door(CorruptRecord, "not a view of this Episodes game"):
        prep = game._views.get(view)  # the cache copies the view before `prepare` sees it
    return _deal(game, prep, rng)


def _deal(game: EpisodesRules, prep: _Prepared, rng: Rng) -> EpisodesState:
    n = game.players
    seat = prep.seat
    pool = prep.pool
    deck_need = prep.deck_need
    fresh: list[int] = []
    if pool is None:
        unknown = prep.unknown[:]
    else:
        # The deck and the fresh part of a Gadget draw are a uniform choice of the candidates:
        # pick what stays out (usually few) and the fresh cards, the rest is the deck.
        cands = prep.cands[:]
        skip = len(cands) - prep.take
        _pick(cands, skip + prep.fresh, rng)
        fresh = cands[skip : skip + prep.fresh]
        deck_part = cands[skip + prep.fresh :]
        unknown = prep.unknown + cands[:skip]
    # a uniform random choice, in random order, for the hidden slots
    slots = prep.slots
    _pick(unknown, slots, rng)
    if pool is None:
        rest = unknown[slots:]
    else:
        rest = deck_part
        if len(unknown) != slots:
            raise CorruptRecord("view and deck composition disagree")
    st = EpisodesState(game)
    hands: list[list[int]] = []
    needs = prep.needs
    known = prep.known
    at = 0
    for o in range(n):
        if o == seat:
            hands.append(prep.hand)
            continue
        need = needs[o]
        h = known[o] + unknown[at : at + need]
        at += need
        h.sort()
        hands.append(h)
    st.hands = hands
    st.limbo = []
    st.limbo_known = [[] for _ in range(n)]
    if prep.phase == H.KEEP:
        if prep.limbo_seen is not None:
            st.limbo = prep.drawn
            st.limbo_known = prep.limbo_seen[:]
        else:
            old = prep.limbo_need - prep.fresh
            st.limbo = sorted(prep.drawn + fresh + unknown[at : at + old])
            at += old
            st.limbo_known[seat] = prep.drawn
    if len(rest) != deck_need:
        raise CorruptRecord("view and deck composition disagree")
    # Cards another seat peeked below the ones this seat saw: settled, but unknown here.
    extra = prep.extra
    settled: list[int] = []
    if extra > 0:
        _pick(rest, extra, rng)
        settled = rest[:extra]
        rest = rest[extra:]
    rest.sort()
    st.deck = rest + settled + prep.top
    st.fixed = len(settled) + len(prep.top)
    st.top = prep.peeked[:]
    rows: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
    for o, cards in enumerate(prep.known_by):
        if cards is not None:
            rows[o][seat] = cards
    rows[seat] = known[:]
    st.known = rows
    st.discard = prep.discard[:]
    st.vp = prep.vp[:]
    st.turn = prep.turn
    st.phase = prep.phase
    st.pending = prep.pending
    st.floor = prep.floor
    st.reshuffles = prep.reshuffles
    st.ended = prep.ended
    st.limbo_old = prep.limbo_old
    st.pool = [pool] * (n + 1) if pool is not None else [[] for _ in range(n + 1)]
    st.rng = rng.next64()
    st._settle_cache()
    return st
