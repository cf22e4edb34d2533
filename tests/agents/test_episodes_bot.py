"""The Episodes heuristic: scores the best episode, spends spare cards, targets the leader."""

from __future__ import annotations

from timelord.agents.episodes.heuristic import decide, evaluate, hand_value
from timelord.core import load
from timelord.games.episodes.actions import (
    ChooseOpponent,
    PlayEpisode,
    SkipAbility,
    SkipEpisode,
    UseAbility,
)
from timelord.games.episodes.cards import CODE_OF


def _hand(*labels: str) -> list[int]:
    return sorted(CODE_OF[label] for label in labels)


def test_plays_the_episode_worth_most() -> None:
    hand = _hand("Doctor 9", "Companion 8", "Gadget 7", "Foe 5", "Foe 2", "Plot 4", "Special 3")
    low, high = PlayEpisode((9, 8, 7, 2, 4, 3)), PlayEpisode((9, 8, 7, 5, 4, 3))
    assert decide(hand, [0, 0, 0], [7, 7, 7], [low, high, SkipEpisode()]) == high


def test_an_episode_in_hand_outweighs_a_broken_one() -> None:
    whole = _hand("Doctor 9", "Companion 8", "Gadget 7", "Foe 5", "Plot 4", "Special 3")
    assert hand_value(whole) > hand_value(whole[:-1]) + 100


def test_spends_a_spare_card_and_never_the_only_one_of_a_suit() -> None:
    hand = _hand("Companion 2", "Companion 8", "Foe 6", "Plot 1")
    legal = [
        UseAbility("Companion", 2),
        UseAbility("Companion", 8),
        UseAbility("Foe", 6),
        UseAbility("Plot", 1),
        SkipAbility(),
    ]
    assert decide(hand, [0, 0], [4, 4], legal) == UseAbility("Companion", 2)
    singles = _hand("Doctor 3", "Foe 6")
    legal = [UseAbility("Doctor", 3), UseAbility("Foe", 6), SkipAbility()]
    assert decide(singles, [0, 0], [2, 2], legal) == SkipAbility()


def test_targets_the_leader() -> None:
    legal = [ChooseOpponent(0), ChooseOpponent(2), ChooseOpponent(3)]
    assert decide([], [5, 0, 30, 12], [7, 7, 7, 7], legal) == ChooseOpponent(2)


def test_evaluation_favours_the_points_leader() -> None:
    state = load("episodes", players=4).new_game(1)
    state.vp = [40, 0, 0, 0]
    values = evaluate(state)
    assert abs(sum(values) - 1.0) < 1e-9
    assert values[0] == max(values) and values[0] > 0.9


def test_fast_hand_value_matches_the_rules_episode_search() -> None:
    """`top_threat` (used by the hand value and the evaluation) finds the best episode that
    `rules.episodes` lists, on random hands, and -1 exactly when there is none."""
    from timelord.agents.episodes.heuristic import top_threat
    from timelord.core import Rng
    from timelord.games.episodes import hands as H

    rng = Rng(5)
    cards = [s * 16 + fp for s in range(6) for fp in range(1, 13)]
    for _ in range(2000):
        hand = sorted(rng.sample(cards, 6 + rng.below(7)))
        options = H.episodes(hand)
        best = [max((c & 15 for c in hand if c >> 4 == s), default=0) for s in range(6)]
        got = top_threat(hand, best[0] + best[1] + best[2]) if all(best) else -1
        assert got == (max(H.threat(f) for f in options) if options else -1)
