"""A table builder for scenario tests: small decks made of exactly the cards a test names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from timelord.games.episodes import hands as H
from timelord.games.episodes.cards import CODE_OF, SUITS
from timelord.games.episodes.game import EpisodesGame
from timelord.games.episodes.state import EpisodesState

Builder = Callable[..., EpisodesState]


def codes(labels: Sequence[str]) -> list[int]:
    return [CODE_OF[x] for x in labels]


def build(
    hands: Sequence[Sequence[str]],
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    *,
    turn: int = 0,
    phase: str = "action",
    vp: Sequence[int] | None = None,
    target: int = 50,
    max_rounds: int = 100,
    limbo: Sequence[str] = (),
    pending: str | None = None,
    seed: int = 1,
    settle: bool = True,
    stacked: bool = True,
) -> EpisodesState:
    """A state whose game deck is exactly the cards named here.

    `deck` lists cards in draw order (the first is drawn next); with `stacked=False` the deck
    is left unsettled instead, so draws from it are random (E-3.4). The seat to move is
    `turn % players`; `settle` lets the engine pass trivial decisions as it would in play.
    """
    everything = [*deck, *discard, *limbo]
    for h in hands:
        everything.extend(h)
    rows = [[SUITS[c >> 4], c & 15, k] for c, k in sorted(Counter(codes(everything)).items())] or [
        ["Doctor", 1, 0]
    ]
    game = EpisodesGame(players=len(hands), target=target, max_rounds=max_rounds, deck=rows)
    st = EpisodesState.blank(game)
    st.hands = [sorted(codes(h)) for h in hands]
    if stacked:
        st.deck = list(reversed(codes(deck)))
        st.fixed = len(deck)  # a stacked deck: its order is settled
    else:
        st.deck = sorted(codes(deck))
    st.discard = codes(discard)
    st.limbo = sorted(codes(limbo))
    st.turn = turn
    st.phase = H.PHASES.index(phase)
    st.pending = -1 if pending is None else SUITS.index(pending)
    st.vp = list(vp) if vp is not None else [0] * len(hands)
    st.rng = seed
    if settle:
        st._settle()
    else:
        st._settle_cache()
    return st


#: An episode-ready hand: Defenders 5+4+3 = 12 against a Threat of 5+4+2 = 11.
EPISODE_HAND = ["Doctor 5", "Companion 4", "Gadget 3", "Foe 5", "Plot 4", "Special 2"]


@pytest.fixture
def table() -> Builder:
    return build
