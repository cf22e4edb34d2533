"""E-5: playing an episode."""

from __future__ import annotations

from itertools import product

import pytest

from timelord.core import IllegalAction, Rng
from timelord.games.episodes.actions import PlayEpisode, SkipEpisode
from timelord.games.episodes.hands import episodes

EP = ["Doctor 5", "Companion 4", "Gadget 3", "Foe 5", "Plot 4", "Special 2"]  # 12 vs 11
DECK = ["Plot 9", "Plot 8", "Plot 7", "Plot 6", "Plot 5", "Plot 3", "Plot 2", "Plot 1"]


def test_e5_1_episode_offered_with_all_six_suits(table) -> None:
    """E-5.1: one card of each suit makes an episode."""
    st = table([EP, ["Foe 9"]], deck=DECK, phase="episode")
    assert st.legal_actions() == [PlayEpisode((5, 4, 3, 5, 4, 2)), SkipEpisode()]


def test_e5_1_missing_suit_no_episode(table) -> None:
    """E-5.1 negative: without a Special there is no episode, and only "no episode" is
    offered; with six cards in hand the player is still asked (E-8.8)."""
    hand = [c for c in EP if not c.startswith("Special")] + ["Doctor 9"]
    st = table([hand, ["Foe 9"]], deck=DECK, phase="episode")
    assert st.to_move == 0 and st.legal_actions() == [SkipEpisode()]
    with pytest.raises(IllegalAction):
        st.apply(PlayEpisode((5, 4, 3, 5, 4, 2)))


def test_e5_1_card_not_held_refused(table) -> None:
    """E-5.1 negative: every card of the episode must be in hand."""
    st = table([EP, ["Foe 9"]], deck=DECK, phase="episode")
    with pytest.raises(IllegalAction) as err:
        st.apply(PlayEpisode((9, 4, 3, 5, 4, 2)))
    assert err.value.rule == "E-5.1"
    with pytest.raises(IllegalAction) as err:
        st.apply(PlayEpisode((5, 4, 3)))
    assert err.value.rule == "E-5.1"


def test_e5_1_each_distinct_combination_once() -> None:
    """E-5.1: duplicates of equal cards do not repeat a combination."""
    hand = sorted([16 * 0 + 5, 16 * 0 + 5, 16 * 0 + 7, 16 + 4, 32 + 3, 48 + 1, 64 + 1, 80 + 1])
    combos = episodes(hand)
    assert combos == [(5, 4, 3, 1, 1, 1), (7, 4, 3, 1, 1, 1)]


def test_e5_1_episodes_match_every_choice_of_one_card_a_suit() -> None:
    """E-5.1, E-5.2: on random hands, some missing a suit at either end of the code order or
    between (rejected before the combinations are built), the episodes are exactly the
    choices of one held FP per suit whose Defenders beat the Threat."""
    rng = Rng(55)
    missing = 0
    for _ in range(3000):
        hand = sorted(16 * rng.below(6) + 1 + rng.below(15) for _ in range(4 + rng.below(9)))
        fps = [sorted({c & 15 for c in hand if c >> 4 == s}) for s in range(6)]
        missing += not all(fps)
        expected = [c for c in product(*fps) if sum(c[:3]) > sum(c[3:])]
        assert episodes(hand) == expected
    assert 1000 < missing < 3000


def test_e5_2_threat_must_be_strictly_exceeded(table) -> None:
    """E-5.2: equal totals are not an episode (12 vs 12)."""
    hand = ["Doctor 5", "Companion 4", "Gadget 3", "Foe 6", "Plot 4", "Special 2"]
    st = table([hand, ["Foe 9"]], deck=DECK, phase="episode", settle=False)
    assert st.legal_actions() == [SkipEpisode()]
    with pytest.raises(IllegalAction) as err:
        st.apply(PlayEpisode((5, 4, 3, 6, 4, 2)))
    assert err.value.rule == "E-5.2"


def test_e5_2_only_winning_combinations_listed(table) -> None:
    """E-5.2: of two Foes only the one the Defenders beat is offered."""
    st = table([[*EP, "Foe 9"], ["Foe 9"]], deck=DECK, phase="episode")
    assert [a for a in st.legal_actions() if isinstance(a, PlayEpisode)] == [
        PlayEpisode((5, 4, 3, 5, 4, 2))
    ]


def test_e5_3_threat_scores_and_cards_go_face_up(table) -> None:
    """E-5.3: VP equal to the Threat (11); the six cards on the pile in suit order."""
    st = table([EP, ["Foe 9"]], deck=DECK, phase="episode")
    st = st.apply(PlayEpisode((5, 4, 3, 5, 4, 2)))
    assert st.vp == [11, 0]
    assert st.view(1)["discard"] == EP


def test_e5_4_draw_four_after_episode(table) -> None:
    """E-5.4: the player draws 4 after the episode (then the turn passes)."""
    st = table([[*EP, "Doctor 1"], ["Foe 9"]], deck=DECK, phase="episode")
    st = st.apply(PlayEpisode((5, 4, 3, 5, 4, 2)))
    assert sorted(st.view(0)["hand"]) == sorted(
        ["Doctor 1", "Plot 9", "Plot 8", "Plot 7", "Plot 6"]
    )
    assert st.to_move == 1


def test_e5_1_one_episode_per_turn(table) -> None:
    """E-5.1: after an episode the turn moves on even if a second one is in hand."""
    st = table([[*EP, *EP], ["Foe 9"]], deck=DECK, phase="episode")
    st = st.apply(PlayEpisode((5, 4, 3, 5, 4, 2)))
    assert st.to_move == 1 or st.view(0)["phase"] == "discard"
    assert not any(isinstance(a, PlayEpisode) for a in st.legal_actions())
