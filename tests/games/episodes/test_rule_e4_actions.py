"""E-4: the action phase and the six suit abilities."""

from __future__ import annotations

import pytest

from timelord.core import IllegalAction
from timelord.games.episodes.actions import (
    ChooseOpponent,
    KeepCard,
    SkipAbility,
    UseAbility,
)

# Seat 0 holds a playable episode in most tests, so after its ability the game waits in
# its episode phase instead of moving on to the next turn.
EP = ["Doctor 9", "Companion 9", "Gadget 9", "Foe 1", "Plot 1", "Special 1"]
DECK = ["Plot 9", "Plot 8", "Plot 7", "Plot 6", "Plot 5", "Plot 4", "Plot 3", "Plot 2", "Plot 1"]


def test_e4_1_one_ability_then_episode_phase(table) -> None:
    """E-4.1: after one ability the action phase is over."""
    st = table([["Companion 2", *EP], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Companion", 2))
    assert st.to_move == 0 and st.view(0)["phase"] == "episode"
    assert not any(isinstance(a, UseAbility) for a in st.legal_actions())


def test_e4_1_skip_is_allowed(table) -> None:
    """E-4.1: the player may use no ability; the hand is unchanged."""
    st = table([["Companion 2", "Foe 1"], ["Plot 2"]], deck=DECK)
    assert st.legal_actions()[-1] == SkipAbility()
    after = st.apply(SkipAbility())
    assert after.to_move == 1 and after.hands[0] == st.hands[0]


def test_e4_1_card_not_held_refused(table) -> None:
    """E-4.1 negative: only a held card can be discarded for its ability."""
    st = table([["Companion 2", "Foe 1"], ["Plot 2"]], deck=DECK)
    with pytest.raises(IllegalAction) as err:
        st.apply(UseAbility("Doctor", 9))
    assert err.value.rule == "E-4.1"


def test_e4_2_doctor_sees_next_seven_in_order(table) -> None:
    """E-4.2: the Doctor shows the next 7 cards, in draw order, without changing the deck."""
    st = table([["Doctor 4", *EP], ["Plot 2"]], deck=DECK)
    deck_before = st.deck[:]
    st = st.apply(UseAbility("Doctor", 4))
    assert st.view(0)["deck_top"] == DECK[:7]
    assert st.view(1)["deck_top"] == []
    assert st.deck == deck_before


def test_e4_2_doctor_with_short_deck_sees_all_without_reshuffle(table) -> None:
    """E-4.2: fewer than 7 cards: it sees them all; the pile is not shuffled in to look."""
    st = table([["Doctor 4", *EP], ["Plot 2"]], deck=DECK[:3], discard=["Gadget 2"])
    st = st.apply(UseAbility("Doctor", 4))
    assert st.view(0)["deck_top"] == DECK[:3]
    assert st.reshuffles == 0


def test_e4_3_companion_draws_two(table) -> None:
    """E-4.3: discard a Companion, draw 2."""
    st = table([["Companion 4", *EP], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Companion", 4))
    assert st.view(0)["phase"] == "episode"
    assert sorted(st.view(0)["hand"]) == sorted([*EP, "Plot 8", "Plot 9"])


def test_e4_4_foe_steals_a_random_card(table) -> None:
    """E-4.4: the thief gains one card of the victim's hand; the victim loses it."""
    st = table([["Foe 4", *EP], ["Plot 2", "Gadget 6"], ["Special 3"]], deck=DECK)
    st = st.apply(UseAbility("Foe", 4))
    assert st.legal_actions() == [ChooseOpponent(1), ChooseOpponent(2)]
    after = st.apply(ChooseOpponent(1))
    moved = [c for c in st.hands[1] if c not in after.hands[1]]
    assert len(moved) == 1 and len(after.hands[1]) == 1
    assert moved[0] in after.hands[0]


def test_e4_4_steal_is_random(table) -> None:
    """E-4.4: different generator states take different cards (not always the first)."""
    taken = set()
    for seed in range(20):
        st = table(
            [["Foe 4", "Doctor 1"], ["Plot 2", "Gadget 6", "Special 9"], ["Special 3"]],
            deck=DECK,
            seed=seed,
        )
        st = st.apply(UseAbility("Foe", 4)).apply(ChooseOpponent(1))
        taken.add(tuple(st.hands[1]))
    assert len(taken) == 3


def test_e4_5_plot_reveals_hand(table) -> None:
    """E-4.5: the Plot player sees the target's hand; nobody else learns it."""
    st = table([["Plot 4", *EP], ["Plot 2", "Gadget 6"], ["Special 3"]], deck=DECK)
    st = st.apply(UseAbility("Plot", 4)).apply(ChooseOpponent(1))
    assert st.view(0)["known_hands"][1] == ["Gadget 6", "Plot 2"]
    assert st.view(2)["known_hands"][1] == []
    assert len(st.hands[1]) == 2


def test_e4_6_gadget_keeps_one_discards_two(table) -> None:
    """E-4.6: draw 3, keep the chosen one, the others go to the discard pile."""
    st = table([["Gadget 4", *EP], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Gadget", 4))
    assert st.view(0)["drawn"] == ["Plot 7", "Plot 8", "Plot 9"]
    assert st.legal_actions() == [KeepCard("Plot", 7), KeepCard("Plot", 8), KeepCard("Plot", 9)]
    st = st.apply(KeepCard("Plot", 8))
    assert sorted(st.view(0)["hand"]) == sorted([*EP, "Plot 8"])
    assert st.view(1)["discard"] == ["Gadget 4", "Plot 7", "Plot 9"]


def test_e4_6_gadget_keep_must_be_drawn(table) -> None:
    """E-4.6 negative: only a drawn card can be kept."""
    st = table([["Gadget 4", "Doctor 1"], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Gadget", 4))
    with pytest.raises(IllegalAction) as err:
        st.apply(KeepCard("Doctor", 1))
    assert err.value.rule == "E-4.6"


def test_e4_6_gadget_short_deck_reshuffles_mid_draw(table) -> None:
    """E-4.6 / E-R7: one card left: draw it, reshuffle the pile (with the Gadget), go on."""
    st = table([["Gadget 4", *EP], ["Plot 2"]], deck=["Plot 9"], discard=["Foe 3"])
    st = st.apply(UseAbility("Gadget", 4))
    assert st.reshuffles == 1
    assert st.view(0)["drawn"] == ["Gadget 4", "Foe 3", "Plot 9"]
    assert st.view(0)["discard"] == [] and st.view(0)["deck_size"] == 0


def test_e4_6_gadget_with_one_card_available_keeps_it(table) -> None:
    """E-4.6: only the Gadget itself can come back: it is kept without a choice."""
    st = table([["Gadget 4", *EP], ["Plot 2"]])
    st = st.apply(UseAbility("Gadget", 4))
    assert st.view(0)["phase"] == "episode"
    assert sorted(st.view(0)["hand"]) == sorted([*EP, "Gadget 4"])


def test_e4_7_special_discards_random_card_face_up(table) -> None:
    """E-4.7: the target loses a random card, which lands face up on the pile."""
    st = table([["Special 4", *EP], ["Plot 2", "Gadget 6"], ["Foe 1"]], deck=DECK)
    st = st.apply(UseAbility("Special", 4)).apply(ChooseOpponent(1))
    assert len(st.hands[1]) == 1
    lost = st.view(2)["discard"][-1]
    assert lost in ("Plot 2", "Gadget 6") and lost not in st.view(1)["hand"]


def test_e4_8_no_target_no_targeted_ability(table) -> None:
    """E-4.8: with every opponent's hand empty, Foe, Plot and Special are not offered."""
    st = table([["Special 4", "Foe 1", "Plot 3", "Doctor 2"], []], deck=DECK)
    assert st.legal_actions() == [UseAbility("Doctor", 2), SkipAbility()]
    with pytest.raises(IllegalAction) as err:
        st.apply(UseAbility("Foe", 1))
    assert err.value.rule == "E-4.8"


def test_e4_8_cannot_target_self_or_empty_hand(table) -> None:
    """E-4.8 negative: the target is an opponent holding cards."""
    st = table([["Foe 4", "Doctor 1"], [], ["Special 3"], ["Plot 1"]], deck=DECK)
    st = st.apply(UseAbility("Foe", 4))
    assert st.legal_actions() == [ChooseOpponent(2), ChooseOpponent(3)]
    for bad in (ChooseOpponent(0), ChooseOpponent(1)):
        with pytest.raises(IllegalAction) as err:
            st.apply(bad)
        assert err.value.rule == "E-4.8"


def test_e4_9_ability_card_goes_face_up(table) -> None:
    """E-4.9: the discarded ability card is on the public pile."""
    st = table([["Doctor 4", *EP], ["Plot 2"]], deck=DECK)
    st = st.apply(UseAbility("Doctor", 4))
    assert st.view(1)["discard"] == ["Doctor 4"]
    assert st.view(None)["discard"] == ["Doctor 4"]
