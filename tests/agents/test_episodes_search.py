"""The search's Episodes pieces: a finishing episode is settled, the paired flat search, and
worlds weighted by what the opponents' play says about their hands."""

from __future__ import annotations

import pytest

from tests.games.episodes.conftest import EPISODE_HAND, build
from timelord.agents import make_agent
from timelord.agents.episodes.heuristic import (
    HAND_ODDS,
    HOOKS,
    decide,
    hand_shape,
    paired_margin,
    plausible,
    settled,
)
from timelord.agents.ismcts import IsmctsAgent, dealer, parse_settings
from timelord.core import Rng
from timelord.core.registry import load
from timelord.games.episodes.actions import (
    ChooseOpponent,
    DiscardCard,
    PlayEpisode,
    SkipEpisode,
    UseAbility,
)
from timelord.games.episodes.view import codes

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


def _midgame(turns: int):
    """A four-heuristic game on the full deck, played until `turns` turns have begun."""
    game = load("episodes", players=4)
    state = game.new_game(7)
    while state.turn < turns:
        seat = state.to_move
        sizes = [len(h) for h in state.hands]
        state = state.apply(decide(state.hands[seat], state.vp, sizes, state.legal_actions()))
    return state


def test_hand_odds_follow_the_heuristics_play() -> None:
    """E-5.1 and E-6.1: the heuristic plays any episode it holds and keeps one card a suit at
    the hand limit, so a full hand covering six suits without an episode is its likeliest
    shape, and one holding an unplayed episode is rarer than a uniform deal makes it."""
    six_no_episode = [
        "Doctor 2",
        "Companion 2",
        "Gadget 2",
        "Foe 9",
        "Plot 9",
        "Special 9",
        "Foe 1",
    ]
    assert hand_shape(sorted(codes(six_no_episode))) == (6, 7, False)
    assert hand_shape(sorted(codes([*EPISODE_HAND, "Special 1"]))) == (6, 7, True)
    assert HAND_ODDS[6, 7, False] > 1.0 > HAND_ODDS[6, 7, True]


def test_plausible_weighs_only_the_opponents_that_have_played() -> None:
    """Before any opponent has played a turn nothing is known; later the seats that have
    played and are not on the move are weighed."""
    first = _midgame(0)
    assert plausible(first.view(first.to_move)) is None
    state = _midgame(9)
    seat = state.to_move
    weight = plausible(state.view(seat))
    assert weight is not None
    world = state.game.sample_state(state.view(seat), Rng(3))
    shapes = [hand_shape(h) for o, h in enumerate(world.hands) if o != seat]
    expected = 1.0
    for shape in shapes:
        expected *= HAND_ODDS.get(shape, 1.0)
    assert weight(world) == pytest.approx(expected)


def test_weighted_deals_hold_the_heuristics_hands_more_often() -> None:
    """With `weigh`, the search's worlds give the opponents the six-suit hands without an
    episode that their own play leads to more often than a uniform deal of the unseen cards;
    the seat's own hand and what it saw are dealt as before."""
    state = _midgame(9)
    seat = state.to_move
    view = state.view(seat)
    uniform = dealer(state.game, view, HOOKS, 0)
    weighted = dealer(state.game, view, HOOKS, 8)

    def count(deal, rng: Rng) -> int:
        found = 0
        for _ in range(150):
            world = deal(rng)
            assert world.hands[seat] == state.hands[seat]
            found += sum(
                hand_shape(h) == (6, 7, False) for o, h in enumerate(world.hands) if o != seat
            )
        return found

    assert count(weighted, Rng(5)) > 1.5 * count(uniform, Rng(5))


def test_weighted_search_settings_round_trip() -> None:
    """`weigh=8` is a level setting that `describe` writes, and the weighted search plays a
    legal move."""
    agent = make_agent("ismcts:hard/weigh=8/sims=20", load("episodes", players=4))
    assert isinstance(agent, IsmctsAgent)
    assert agent.settings.weigh == 8
    assert "weigh=8" in agent.settings.describe()
    assert parse_settings("hard", HOOKS).weigh == 0
    state = _midgame(9)
    legal = state.legal_actions()
    assert agent.act(state.view(state.to_move), legal, Rng(2)) in legal
