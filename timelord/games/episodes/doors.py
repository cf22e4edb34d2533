"""The doors of Episodes: a saved state is read with every field's type checked (`read_state`)
and accepted only if it could arise in play (`check_state`), so the rules and the sampler
behind trust it."""

from __future__ import annotations

from typing import Any

from timelord.core import CorruptRecord, door, is_state
from timelord.games.episodes import hands as H
from timelord.games.episodes.cards import SUITS
from timelord.games.episodes.state import EpisodesRules, EpisodesState


def state_from_json(game: EpisodesRules, data: Any) -> EpisodesState:
    """Read back `EpisodesState.to_json`; `CorruptRecord` unless it could arise in play."""
    st = read_state(game, data)
    check_state(st)
    st._settle_cache()
    return st


def check_state(st: EpisodesState) -> None:
    """`CorruptRecord` unless the cards add up to the deck and the knowledge fits the hands."""
    n = st.game.players
    if len(st.limbo_known) != n or len(st.pool) != n + 1:
        raise CorruptRecord("per-seat lists do not match the player count")
    counts = [0] * len(st.game.deck.counts)
    for group in (st.deck, st.discard, st.limbo, *st.hands):
        for c in group:
            counts[c] += 1
    if tuple(counts) != st.game.deck.counts:
        raise CorruptRecord("the cards in the state do not make up the game's deck")
    for s, row in enumerate(st.known):
        if row[s]:
            raise CorruptRecord(f"seat {s} has a knowledge entry for its own hand")
        for o, k in enumerate(row):
            if not _within(k, st.hands[o]):
                raise CorruptRecord(f"seat {s} knows a card seat {o} does not hold")
    if not 0 <= st.fixed <= len(st.deck) or any(not 0 <= t <= st.fixed for t in st.top):
        raise CorruptRecord("a seat has seen more of the deck than is settled")
    loose = st.deck[: len(st.deck) - st.fixed]
    if loose != sorted(loose):
        raise CorruptRecord("the unsettled part of the deck must be sorted")
    for k in st.limbo_known:
        if not _within(k, st.limbo):
            raise CorruptRecord("a seat knows a Gadget-drawn card that was not drawn")
    active = st.turn % n
    if st.limbo_known[active] or not 0 <= st.limbo_old <= len(st.limbo):
        raise CorruptRecord("bad Gadget-draw bookkeeping")
    if (st.phase == H.KEEP) != bool(st.limbo):
        raise CorruptRecord("Gadget draw present outside the keep phase (or missing in it)")
    if (st.phase == H.TARGET) != (st.pending in H.TARGETED) or (
        st.phase != H.TARGET and st.pending != -1
    ):
        raise CorruptRecord("a pending target choice needs a Foe, Plot or Special ability")
    if st.reshuffles < 0 or not is_state(st.rng):
        raise CorruptRecord("bad reshuffle count or generator state")
    if st.reshuffles:
        for pool in st.pool:
            if not _within(st.deck, pool):
                raise CorruptRecord("the deck holds a card its known origin does not allow")
    elif any(st.pool):
        raise CorruptRecord("deck origins are only known after a reshuffle")
    if st.turn < 0 or st.turn > st.game.max_rounds * n or any(v < 0 for v in st.vp):
        raise CorruptRecord("turn or VP out of range")
    if (st.phase == H.OVER) != bool(st.ended) or st.ended not in ("", "target", "rounds"):
        raise CorruptRecord("a finished game must say how it ended, and only then")
    reached = [v >= st.game.target for v in st.vp]
    if sum(reached) > 1 or (any(reached) != (st.ended == "target")):
        raise CorruptRecord("the target ends the game at once, for one player (E-7.1)")
    if st.floor and not (0 <= st.floor >> 4 < 6 and 1 <= st.floor & 15 <= 15):
        raise CorruptRecord("bad discard floor")
    if st.phase == H.DISCARD and len(st.hands[active]) <= H.HAND_LIMIT:
        raise CorruptRecord("discard phase without excess cards")
    if st.phase != H.DISCARD and st.floor:
        raise CorruptRecord("a discard floor outside the end phase")


def read_state(game: EpisodesRules, data: Any) -> EpisodesState:
    """The state `to_json` wrote, its fields' types and sizes checked (`CorruptRecord`);
    not yet settled nor checked as a whole: `state_from_json` does both."""
    with door(CorruptRecord, "not an Episodes state"):
        st = EpisodesState.blank(game)
        n = game.players
        st.turn = _int(data["turn"])
        st.phase = H.PHASES.index(data["phase"])
        pending = data["pending"]
        st.pending = -1 if pending is None else SUITS.index(pending)
        st.vp = [_int(v) for v in data["vp"]]
        st.hands = [_cards(h) for h in data["hands"]]
        st.deck = _cards(data["deck"], keep_order=True)
        st.fixed = _int(data["fixed"])
        st.discard = _cards(data["discard"], keep_order=True)
        st.limbo = _cards(data["limbo"], keep_order=True)
        st.known = [[_cards(k) for k in row] for row in data["known"]]
        st.top = [_int(v) for v in data["top"]]
        st.limbo_known = [_cards(k, keep_order=True) for k in data["limbo_known"]]
        st.limbo_old = _int(data["limbo_old"])
        st.pool = [_cards(p) for p in data["pool"]]
        st.floor = _int(data["floor"])
        st.reshuffles = _int(data["reshuffles"])
        ended = data["ended"]
        if not isinstance(ended, str):
            raise TypeError("'ended' must be text")
        st.ended = ended
        st.rng = _int(data["rng"])
        if len(st.vp) != n or len(st.hands) != n or len(st.top) != n:
            raise CorruptRecord("per-seat lists do not match the player count")
        if len(st.known) != n or any(len(row) != n for row in st.known):
            raise CorruptRecord("knowledge table does not match the player count")
    return st


def _int(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"expected an integer, got {v!r}")
    return v


def _cards(v: Any, keep_order: bool = False) -> list[int]:
    if not isinstance(v, list):
        raise TypeError(f"expected a list of cards, got {v!r}")
    out = [_int(c) for c in v]
    for c in out:
        if not (0 <= c >> 4 < 6 and 1 <= c & 15 <= 15):
            raise ValueError(f"{c} is not a card code")
    if not keep_order and out != sorted(out):
        raise ValueError("hands and knowledge lists must be sorted")
    return out


def _within(small: list[int], big: list[int]) -> bool:
    """Whether `small` is a sub-multiset of `big`."""
    rest = big[:]
    for c in small:
        if c not in rest:
            return False
        rest.remove(c)
    return True
