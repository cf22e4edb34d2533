"""E-7: winning at the target, the round limit, ties, scores."""

from __future__ import annotations

import pytest

from timelord.core import GameOver, Rng
from timelord.games.episodes.actions import PlayEpisode, SkipAbility, SkipEpisode
from timelord.games.episodes.game import EpisodesGame

EP = ["Doctor 5", "Companion 4", "Gadget 3", "Foe 5", "Plot 4", "Special 2"]  # Threat 11
DECK = ["Plot 9", "Plot 8", "Plot 7", "Plot 6", "Plot 5", "Plot 3", "Plot 2", "Plot 1"]


def test_e7_1_target_ends_game_at_once(table) -> None:
    """E-7.1 / E-R5: reaching the target wins at once: no draw of 4, no end phase."""
    st = table([[*EP, "Doctor 1"], ["Foe 9"]], deck=DECK, phase="episode", vp=[40, 45])
    st = st.apply(PlayEpisode((5, 4, 3, 5, 4, 2)))
    assert st.is_over and st.to_move is None
    assert st.winners() == [0] and st.scores() == [51.0, 45.0]
    assert st.view(0)["hand"] == ["Doctor 1"] and len(st.deck) == len(DECK)
    assert st.legal_actions() == []
    with pytest.raises(GameOver):
        st.apply(SkipEpisode())


def test_e7_1_exactly_target_wins(table) -> None:
    """E-7.1: reaching exactly the target counts."""
    st = table([EP, ["Foe 9"]], deck=DECK, phase="episode", vp=[39, 0])
    assert st.apply(PlayEpisode((5, 4, 3, 5, 4, 2))).winners() == [0]


def test_e7_1_below_target_goes_on(table) -> None:
    """E-7.1 negative: 38 + 11 = 49 < 50: the game continues."""
    st = table([EP, ["Foe 9"]], deck=DECK, phase="episode", vp=[38, 0])
    st = st.apply(PlayEpisode((5, 4, 3, 5, 4, 2)))
    assert not st.is_over and st.winners() == [] and st.vp[0] == 49


def test_e7_2_round_limit_highest_vp_wins(table) -> None:
    """E-7.2: after max_rounds rounds the most VP wins."""
    st = table(
        [["Foe 1", "Doctor 2"], ["Foe 2", "Doctor 3"]],
        deck=DECK,
        vp=[3, 7],
        max_rounds=1,
    )
    st = st.apply(SkipAbility())
    assert not st.is_over and st.to_move == 1
    st = st.apply(SkipAbility())
    assert st.is_over and st.winners() == [1] and st.view(0)["ended"] == "rounds"


def test_e7_2_round_limit_tie_shares(table) -> None:
    """E-7.2 / E-R4: tied leaders share the win."""
    st = table(
        [["Foe 1", "Doctor 2"], ["Foe 2", "Doctor 3"], ["Plot 1", "Doctor 4"]],
        deck=DECK,
        vp=[5, 2, 5],
        max_rounds=1,
    )
    for _ in range(3):
        st = st.apply(SkipAbility())
    assert st.is_over and st.winners() == [0, 2]


@pytest.mark.parametrize("players", [2, 6])
def test_e7_2_games_end_within_bound(players: int) -> None:
    """E-7.2 / E-R3: random games end within max_actions even with a tiny round limit."""
    game = EpisodesGame(players=players, max_rounds=3, target=10_000)
    rng = Rng(4)
    for seed in range(5):
        st = game.new_game(seed)
        steps = 0
        while not st.is_over:
            legal = st.legal_actions()
            st = st.apply_unchecked(legal[rng.below(len(legal))])
            steps += 1
        assert steps <= game.max_actions
        assert st.turn == 3 * players and st.view(None)["ended"] == "rounds"


def test_e7_3_scores_are_vp(table) -> None:
    """E-7.3: scores() reports each seat's VP, also mid-game."""
    st = table([["Foe 1", "Doctor 2"], ["Foe 2", "Doctor 3"]], deck=DECK, vp=[4, 9])
    assert st.scores() == [4.0, 9.0]
