"""The fixed action space of Episodes: every move the game can ever offer, in a fixed order.

Built from the deck (cards are named by suit and FP, so one action per distinct card) and the
seat count; index = position. Order: UseAbility per card, SkipAbility, ChooseOpponent per
seat, KeepCard per card, every PlayEpisode the deck allows (E-5.1, E-5.2), SkipEpisode,
DiscardCard per card.
"""

from __future__ import annotations

from itertools import product
from weakref import WeakKeyDictionary

from timelord.core import Action
from timelord.games.episodes import hands as H
from timelord.games.episodes.actions import (
    ChooseOpponent,
    DiscardCard,
    KeepCard,
    PlayEpisode,
    SkipAbility,
    SkipEpisode,
    UseAbility,
)
from timelord.games.episodes.cards import SUITS
from timelord.games.episodes.state import EpisodesRules

_CACHE: WeakKeyDictionary[EpisodesRules, tuple[Action, ...]] = WeakKeyDictionary()


def action_space(game: EpisodesRules) -> tuple[Action, ...]:
    """Every action `game` can offer, built once per game."""
    space = _CACHE.get(game)
    if space is None:
        space = _CACHE[game] = _build(game)
    return space


def _build(game: EpisodesRules) -> tuple[Action, ...]:
    cards = [(SUITS[c >> 4], c & 15) for c in game.deck.present]
    out: list[Action] = [UseAbility(s, f) for s, f in cards]
    out.append(SkipAbility())
    out += [ChooseOpponent(seat) for seat in range(game.players)]
    out += [KeepCard(s, f) for s, f in cards]
    by_suit: list[list[int]] = [[] for _ in SUITS]
    for c in game.deck.present:
        by_suit[c >> 4].append(c & 15)
    for s in range(len(SUITS)):
        if s not in game.episode_suits:
            by_suit[s] = [0]  # a suit a variant's episodes leave out (E-R20)
    out += [
        PlayEpisode(fps)
        for fps in product(*by_suit)
        if H.defence(fps) > H.threat(fps)  # E-5.2: the only episodes ever offered
    ]
    out.append(SkipEpisode())
    out += [DiscardCard(s, f) for s, f in cards]
    return tuple(out)
