"""The search's Episodes pieces: a finishing episode is settled, and the paired flat search."""

from __future__ import annotations

from tests.games.episodes.conftest import EPISODE_HAND, build
from timelord.agents import make_agent
from timelord.agents.episodes.heuristic import paired_margin, settled
from timelord.agents.ismcts import IsmctsAgent
from timelord.core import Rng
from timelord.games.episodes.actions import (
    ChooseOpponent,
    DiscardCard,
    PlayEpisode,
    SkipEpisode,
    UseAbility,
)

#: EPISODE_HAND's episode (Threat 5 + 4 + 2 = 11) and a smaller one with Special 1 (Threat 10)
BIG, SMALL = PlayEpisode((5, 4, 3, 5, 4, 2)), PlayEpisode((5, 4, 3, 5, 4, 1))
DECK = ["Plot 9", "Plot 8", "Plot 7", "Plot 6", "Doctor 1", "Doctor 2", "Doctor 3", "Foe 1"]


def _episode_turn(vp: list[int]):
    return build(
        [[*EPISODE_HAND, "Special 1"], ["Foe 9", "Gadget 2"], ["Companion 7"], ["Plot 2"]],
        deck=DECK,
        phase="episode",
        vp=vp,
        stacked=False,
    )


def test_e7_1_an_episode_reaching_the_target_is_settled() -> None:
    """E-7.1: an episode that takes the seat to the target wins at once, so the search plays
    it without searching; only the episodes that reach the target count."""
    state = _episode_turn([39, 45, 0, 0])
    legal = state.legal_actions()
    assert set(legal) == {BIG, SMALL, SkipEpisode()}
    assert settled(state.game, state.view(0), legal) == BIG  # 39 + 11 = 50
    agent = make_agent("ismcts:hard", state.game)
    assert isinstance(agent, IsmctsAgent)
    assert agent.act(state.view(0), legal, Rng(1)) == BIG
    assert agent.last_sims == 0


def test_e7_1_no_episode_reaching_the_target_is_searched() -> None:
    """E-7.1 negative: 38 + 11 = 49 does not win, so nothing is settled."""
    state = _episode_turn([38, 45, 0, 0])
    assert settled(state.game, state.view(0), state.legal_actions()) is None


def test_episodes_and_targets_are_searched_without_a_margin() -> None:
    """E-5.1 and E-4.8: which episode to play and whom to target take the search's best-looking
    move; the other decisions keep the level's margin."""
    assert paired_margin([BIG, SMALL, SkipEpisode()]) == 0.0
    assert paired_margin([ChooseOpponent(1), ChooseOpponent(2)]) == 0.0
    assert paired_margin([UseAbility("Foe", 5), UseAbility("Plot", 4)]) is None
    assert paired_margin([DiscardCard("Foe", 5), DiscardCard("Plot", 4)]) is None
