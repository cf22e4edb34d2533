"""A heuristic for Episodes that a new player would recognise, and the search hooks built on it.

How it plays (all from its own hand and the public table):
- It values a hand by what it is closest to: a playable episode (worth its Threat total, the
  VP it would score) above everything, then how many of the six suits it covers, then the FP
  of its best card in each suit (high Defenders make episodes valid, high Threats score more).
- Episode phase: it plays the episode that scores the most VP (fewest Defender FP spent on a
  tie), whenever it has one.
- Action phase: it discards a card for an ability when the ability is worth more than what
  the hand loses, so spare cards (a second card of a suit) fuel abilities and the only card of
  a suit never does. Abilities by worth: Companion and Foe (a card more), Gadget (best of
  three), Special, then Plot and Doctor (information only, which this heuristic cannot use).
- Foe, Plot and Special target the opponent with the most VP (the most cards on a tie).
- Gadget keeps, and the hand limit discards, whatever leaves the best hand by that value.

The same decisions drive ismcts rollouts (on sampled states, from the hand of the seat to
move). The cut-off evaluation gives each seat exp(value/8) shares, value = VP plus 80% of the
episode in hand or 2 VP per suit covered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from timelord.agents.base import Agent
from timelord.agents.heuristic import leveled
from timelord.agents.hooks import Hooks
from timelord.core import Action, Game, Rng, State, View
from timelord.games.episodes import rules as R
from timelord.games.episodes.actions import (
    ChooseOpponent,
    DiscardCard,
    KeepCard,
    PlayEpisode,
    UseAbility,
)
from timelord.games.episodes.cards import CODE_OF, SUIT_INDEX

#: worth of each suit's ability (Doctor, Companion, Gadget, Foe, Plot, Special) in hand value
ABILITY_WORTH = (2.0, 14.0, 12.0, 14.0, 2.0, 5.0)
EPISODE_BONUS = 100.0
SUIT_BONUS = 20.0


def _best(hand: list[int]) -> list[int]:
    best = [0, 0, 0, 0, 0, 0]
    for c in hand:
        s, fp = c >> 4, c & 15
        if fp > best[s]:
            best[s] = fp
    return best


def hand_value(hand: list[int]) -> float:
    """How close a hand (sorted card codes) is to scoring; see the module docstring."""
    best = _best(hand)
    covered = 6 - best.count(0)
    defence = best[0] + best[1] + best[2]
    threat = best[3] + best[4] + best[5]
    value = SUIT_BONUS * covered + defence + 0.5 * threat
    if covered == 6:
        if defence > threat:
            # the best cards of each suit already make the highest-scoring episode
            value += EPISODE_BONUS + threat
        else:
            options = R.episodes(hand)
            if options:
                value += EPISODE_BONUS + max(R.threat(f) for f in options)
    return value


def _loss(hand: list[int], now: float, c: int) -> float:
    """What the hand's value drops by without card `c` (0 for a spare copy or a lower card)."""
    s, fp = c >> 4, c & 15
    for other in hand:
        if other >> 4 == s and other & 15 >= fp and other != c:
            return 0.0
    if hand.count(c) > 1:
        return 0.0
    return now - hand_value(_without(hand, c))


def _code(suit: str, fp: int) -> int:
    return SUIT_INDEX[suit] * 16 + fp


def _without(hand: list[int], c: int) -> list[int]:
    out = hand[:]
    out.remove(c)
    return out


def decide(
    hand: list[int], vp: Sequence[int], sizes: Sequence[int], legal: Sequence[Action]
) -> Action:
    """The heuristic's choice among `legal` for a seat holding `hand` (sorted codes)."""
    first = legal[0]
    if len(legal) == 1:
        return first
    if isinstance(first, UseAbility) or isinstance(legal[-1], UseAbility):
        now = hand_value(hand)
        best: Action | None = None
        gain = 0.0
        for a in legal:
            if isinstance(a, UseAbility):
                c = _code(a.suit, a.fp)
                worth = ABILITY_WORTH[c >> 4] - _loss(hand, now, c)
                if worth > gain:
                    best, gain = a, worth
        if best is not None:
            return best
        return next(a for a in legal if not isinstance(a, UseAbility))
    if any(isinstance(a, PlayEpisode) for a in legal):
        plays = [a for a in legal if isinstance(a, PlayEpisode)]
        return max(plays, key=lambda a: (R.threat(a.fps), -R.defence(a.fps)))
    if isinstance(first, ChooseOpponent):
        return max(
            legal,
            key=lambda a: (
                (vp[a.seat], sizes[a.seat], -a.seat)
                if isinstance(a, ChooseOpponent)
                else (-1, -1, 0)
            ),
        )
    if isinstance(first, KeepCard):
        return max(
            legal,
            key=lambda a: (
                hand_value(sorted([*hand, _code(a.suit, a.fp)]))
                if isinstance(a, KeepCard)
                else -1.0
            ),
        )
    if isinstance(first, DiscardCard):
        return max(
            legal,
            key=lambda a: (
                hand_value(_without(hand, _code(a.suit, a.fp)))
                if isinstance(a, DiscardCard)
                else -1.0
            ),
        )
    return first


class EpisodesHeuristic(Agent):
    name = "heuristic"

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        hand = sorted(CODE_OF[label] for label in view["hand"])
        return decide(hand, view["vp"], view["hand_sizes"], legal)


def rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    seat = state.to_move
    assert seat is not None
    hands = state.hands  # type: ignore[attr-defined]
    return decide(hands[seat], state.vp, [len(h) for h in hands], legal)  # type: ignore[attr-defined]


def evaluate(state: State) -> list[float]:
    values = []
    for hand, vp in zip(state.hands, state.vp, strict=True):  # type: ignore[attr-defined]
        options = R.episodes(hand)
        if options:
            bonus = 0.8 * max(R.threat(f) for f in options)
        else:
            bonus = 2.0 * len({c >> 4 for c in hand})
        values.append((vp + bonus) / 8.0)
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def _make(game: Game, level: str | None) -> Agent:
    return leveled(EpisodesHeuristic(game), level)


#: Flat Monte Carlo over the heuristic (depth 1: UCB over this turn's choices, every later
#: move by the heuristic, cut off after 30 actions and valued by `evaluate`): a deeper tree
#: with the same budget did no better than the heuristic itself (docs/strength.md). Budgets
#: chosen so a 200-game match against three heuristics fits an hour on two cores.
LEVELS = {
    level: {"sims": sims, "depth": 1, "cutoff": 30, "rollout": "heuristic", "prior": 1.0, "c": 0.3}
    for level, sims in (("easy", 50), ("medium", 100), ("hard", 200))
}

HOOKS = Hooks(heuristic=_make, rollout=rollout, evaluate=evaluate, levels=LEVELS)
