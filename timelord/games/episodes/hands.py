"""Pure rule helpers of Episodes: episode combinations and the legal moves of each phase."""

from __future__ import annotations

from bisect import bisect_left
from itertools import product
from typing import Final

from timelord.games.episodes.cards import DEFENDERS, FOE, PLOT, SPECIAL, THREAT

HAND_LIMIT: Final = 7  # E-6.1
DEAL: Final = 7  # E-2.1
DRAW: Final = 2  # E-3.1
EPISODE_DRAW: Final = 4  # E-5.4
PEEK: Final = 7  # E-4.2
COMPANION_DRAW: Final = 2  # E-4.3
GADGET_DRAW: Final = 3  # E-4.6
TARGETED: Final = (FOE, PLOT, SPECIAL)  # E-4.8

#: Phase names as views and JSON show them.
ACTION: Final = 0
TARGET: Final = 1
KEEP: Final = 2
EPISODE: Final = 3
DISCARD: Final = 4
OVER: Final = 5
PHASES: Final = ("action", "target", "keep", "episode", "discard", "over")


def fps_by_suit(hand: list[int]) -> list[list[int]]:
    """Distinct FP values held in each suit, ascending (hand is sorted by code)."""
    out: list[list[int]] = [[], [], [], [], [], []]
    last = -1
    for c in hand:
        if c != last:
            out[c >> 4].append(c & 15)
            last = c
    return out


def episodes(hand: list[int], suits: tuple[int, ...] = (0, 1, 2, 3, 4, 5)) -> list[tuple[int, ...]]:
    """Every distinct valid episode in `hand` as six FPs in suit order (E-5.1, E-5.2).

    Equal cards are interchangeable, so each combination of (suit, FP) values is listed once.
    A variant whose episodes take one card of each of `suits` only (ruling E-R20) gets FP 0
    for each suit not in play, so `defence` and `threat` add up as for six suits.
    """
    if len(suits) == 6 and not _holds_every_suit(hand):
        return []  # most hands: rejected without building the per-suit lists
    by = fps_by_suit(hand)
    if len(suits) < 6:
        for s in range(6):
            if s not in suits:
                by[s] = [0]
    if not all(by):
        return []
    return _beating(by)


def _holds_every_suit(hand: list[int]) -> bool:
    """Whether the sorted `hand` holds a card of each of the six suits: its first card is a
    Doctor, its last a Special, and each suit between has a card where bisection lands."""
    if not hand or hand[0] >= 16 or hand[-1] < 80:
        return False
    n = len(hand)
    for lo in (16, 32, 48, 64):
        i = bisect_left(hand, lo)
        if i == n or hand[i] >= lo + 16:
            return False
    return True


def _beating(by: list[list[int]]) -> list[tuple[int, ...]]:
    """Every choice of one FP per suit from `by` whose Defenders exceed its Threat (E-5.2)."""
    out = []
    for combo in product(*by):
        if combo[0] + combo[1] + combo[2] > combo[3] + combo[4] + combo[5]:
            out.append(combo)
    return out


def defence(fps: tuple[int, ...]) -> int:
    return sum(fps[i] for i in DEFENDERS)


def threat(fps: tuple[int, ...]) -> int:
    return sum(fps[i] for i in THREAT)
