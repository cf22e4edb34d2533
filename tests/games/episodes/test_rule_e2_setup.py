"""E-2: dealing, first player and turn order, options."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import ConfigError
from timelord.games.episodes.actions import SkipAbility, SkipEpisode
from timelord.games.episodes.game import EpisodesGame


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_e2_1_deal_seven_each(players: int) -> None:
    """E-2.1: 7 cards each; seat 0 has already drawn its 2 (E-3.1)."""
    st = EpisodesGame(players=players).new_game(5)
    sizes = [len(h) for h in st.hands]
    assert sizes == [9] + [7] * (players - 1)
    assert len(st.deck) == 90 - 7 * players - 2


def test_e2_1_short_deck_deals_what_there_is() -> None:
    """E-2.1: a custom deck too small for full hands deals as far as it goes."""
    game = EpisodesGame(players=2, deck=[["Doctor", 3, 5], ["Foe", 2, 5]])
    st = game.new_game(0)
    assert sorted(len(h) for h in st.hands) == [5, 5]
    assert st.deck == [] and st.discard == []


def test_e2_2_seat_zero_starts_and_play_goes_up() -> None:
    """E-2.2: seat 0 first, then 1, 2 and back to 0."""
    st = EpisodesGame(players=3, deck=[["Doctor", 3, 60]]).new_game(0)
    order = []
    for _ in range(4):
        order.append(st.to_move)
        # Doctors only: use no ability, no episode is possible, 9 cards -> discard 2.
        st = st.apply(SkipAbility())
        while st.to_move == order[-1]:
            st = st.apply(st.legal_actions()[0])
    assert order == [0, 1, 2, 0]


def test_e2_2_no_one_else_moves_first() -> None:
    """E-2.2 negative: the first decision belongs to seat 0 only."""
    st = EpisodesGame(players=4).new_game(3)
    assert st.to_move == 0
    assert all(st.view(s)["to_move"] == 0 for s in range(4))


def test_e2_3_defaults_and_round_trip() -> None:
    """E-2.3: defaults, and the options rebuild the same game."""
    game = timelord.load("episodes")
    assert game.options == {
        "players": 3, "target": 50, "max_rounds": 100, "deck": None, "rules": 2,
    }  # fmt: skip
    again = timelord.load("episodes", **game.options)
    assert again.new_game(9).to_json() == game.new_game(9).to_json()


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 7},
        {"players": True},
        {"target": 0},
        {"max_rounds": 0},
        {"deck": "big"},
        {"colour": "red"},
    ],
)
def test_e2_3_bad_options_refused(options: dict) -> None:
    """E-2.3 negative: options out of range are a ConfigError."""
    with pytest.raises(ConfigError):
        timelord.load("episodes", **options)


def test_e2_3_skip_episode_is_only_offered_in_its_phase() -> None:
    """E-2.3 (turn structure): a fresh game waits in the action phase."""
    st = EpisodesGame().new_game(2)
    assert st.view(0)["phase"] == "action"
    assert SkipEpisode() not in st.legal_actions()
