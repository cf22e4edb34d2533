"""E-R20: the two-suit research variant, whose episodes are one Doctor and one Foe, can be
scored and won; the standard game and `deck` option keep six-suit episodes (E-5.1)."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import ConfigError
from timelord.core.conformance import check_game
from timelord.core.record import Record, replay
from timelord.games.episodes.actions import PlayEpisode, SkipAbility, SkipEpisode
from timelord.games.episodes.game import EpisodesGame
from timelord.games.episodes.state import EpisodesState

D1, D2, D3, F1, F2, F3 = 1, 2, 3, 49, 50, 51  # codes: Doctor = suit 0, Foe = suit 3


def two_suit(hands: list[list[int]], deck: list[int], phase: str = "episode") -> EpisodesState:
    """A two-suit position with these hands and this (unsettled, sorted) deck."""
    game = timelord.load("episodes", players=2, variant="two-suit")
    data = game.new_game(1).to_json()
    data.update(hands=hands, deck=sorted(deck), fixed=0, discard=[], phase=phase)
    state = game.state_from_json(data)
    assert isinstance(state, EpisodesState)
    return state


def test_e_r20_the_variant_deals_one_card_and_plays_two_suit_episodes() -> None:
    game = timelord.load("episodes", players=2, variant="two-suit")
    assert isinstance(game, EpisodesGame)
    assert game.deck.size == 6 and game.deal == 1 and game.episode_suits == (0, 3)
    assert (game.target, game.max_rounds) == (3, 1)
    state = game.new_game(4)
    assert [len(h) for h in state.hands] == [3, 1]  # one card each, then seat 0 draws 2
    assert len(state.deck) == 2
    episodes = [a for a in game.action_space() if isinstance(a, PlayEpisode)]
    assert [a.fps for a in episodes] == [(2, 0, 0, 1, 0, 0), (3, 0, 0, 1, 0, 0), (3, 0, 0, 2, 0, 0)]
    with pytest.raises(ConfigError, match="own deck"):
        timelord.load("episodes", variant="two-suit", deck=[["Doctor", 1, 1]])


def test_e_r20_an_episode_of_a_doctor_and_a_foe_scores_the_foe() -> None:
    state = two_suit([[D1, D3, F2], [F1]], [D2, F3])
    legal = state.legal_actions()
    assert legal == [PlayEpisode((3, 0, 0, 2, 0, 0)), SkipEpisode()]  # D1 beats no Foe
    after = state.apply(legal[0])
    assert after.vp == [2, 0]  # E-5.3: the Threat's FP
    # E-5.4: draw 4: the 2 deck cards, then the pile (the episode's cards) reshuffled (E-3.2)
    assert after.hands[0] == sorted([D1, D2, F3, D3, F2]) and after.reshuffles == 1
    assert str(legal[0]) == "play an episode: Doctor 3, Foe 2"


def test_e_r20_an_episode_is_offered_from_two_cards_but_not_one() -> None:
    """E-8.8 with E-R20: the episode phase is plainly forced only below the episode's size."""
    skipped = two_suit([[D1, F1, F2], [D2]], [D3, F3], phase="action").apply(SkipAbility())
    assert skipped.phase == 3 and skipped.legal_actions() == [SkipEpisode()]  # asked: hidden
    forced = two_suit([[F1], [D1, D2, D3, F2]], [F3], phase="action").apply(SkipAbility())
    assert forced.seat == 1  # one card is no episode, and everyone sees it: passed at once


def test_e_r20_naming_a_suit_out_of_play_is_illegal_with_its_ruling() -> None:
    state = two_suit([[D1, D3, F2], [F1]], [D2, F3])
    why = state.why_illegal(PlayEpisode((3, 1, 0, 2, 0, 0)))
    assert why.rule == "E-R20" and "Companion" in str(why)
    six = EpisodesGame(players=2, deck=[["Doctor", 3, 2], ["Foe", 1, 2]])  # `deck`: E-5.1 as is
    st = six.new_game(1)
    while not st.is_over:
        assert not any(isinstance(a, PlayEpisode) for a in st.legal_actions())
        st = st.apply(st.legal_actions()[-1])


def test_e_r20_random_games_end_in_wins_for_either_seat_and_shared_wins() -> None:
    game = timelord.load("episodes", players=2, variant="two-suit")
    report = check_game(game, games=40)
    assert set(report.outcomes) == {"0", "1", "0,1"}  # both seats win some, some are shared
    state = game.new_game(3)
    legal = state.legal_actions()
    record = Record("episodes", game.options, 3, [legal[0].to_json()])
    assert game.options["variant"] == "two-suit"
    assert replay(record).to_json() == state.apply(legal[0]).to_json()
