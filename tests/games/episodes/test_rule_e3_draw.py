"""E-3: the draw phase, reshuffling the discard pile, and running dry."""

from __future__ import annotations

from collections import Counter

from timelord.games.episodes.actions import SkipAbility, SkipEpisode, UseAbility

FILLER = ["Doctor 2", "Doctor 3"]


def test_e3_1_next_player_draws_two_from_top(table) -> None:
    """E-3.1: the next seat's turn starts by drawing the top 2 cards."""
    st = table(
        [["Doctor 5", "Foe 3"], ["Plot 2"]],
        deck=["Gadget 4", "Special 1", "Companion 9"],
        phase="episode",
        settle=False,
    )
    st = st.apply(SkipEpisode())
    assert st.to_move == 1
    assert st.view(1)["hand"] == ["Gadget 4", "Plot 2", "Special 1"]
    assert st.view(1)["deck_size"] == 1


def test_e3_2_empty_deck_reshuffles_discard_pile(table) -> None:
    """E-3.2: a draw from an empty deck shuffles the discard pile into a new deck."""
    st = table(
        [["Doctor 5", "Foe 3"], ["Plot 2"]],
        deck=["Gadget 4"],
        discard=["Special 1", "Companion 9", "Foe 7"],
        phase="episode",
        settle=False,
    )
    st = st.apply(SkipEpisode())
    assert st.reshuffles == 1
    assert len(st.hands[1]) == 3
    assert "Gadget 4" in st.view(1)["hand"]
    assert st.view(1)["discard"] == [] and st.view(1)["deck_size"] == 2


def test_e3_2_no_reshuffle_while_deck_lasts(table) -> None:
    """E-3.2 negative: with enough cards in the deck the pile stays put."""
    st = table(
        [["Doctor 5", "Foe 3"], ["Plot 2"]],
        deck=["Gadget 4", "Gadget 5"],
        discard=["Special 1"],
        phase="episode",
        settle=False,
    )
    st = st.apply(SkipEpisode())
    assert st.reshuffles == 0 and st.view(0)["discard"] == ["Special 1"]


def test_e3_3_nothing_to_draw_loses_the_draw(table) -> None:
    """E-3.3: deck and pile both empty: the draw is lost and play goes on."""
    st = table(
        [["Doctor 5", "Foe 3"], ["Plot 2", "Doctor 4"]],
        phase="episode",
        settle=False,
    )
    st = st.apply(SkipEpisode())
    assert st.to_move == 1 and not st.is_over
    assert st.view(1)["hand"] == ["Doctor 4", "Plot 2"]
    assert st.legal_actions()[-1] == SkipAbility()


def test_e3_4_unsettled_draws_are_uniform(table) -> None:
    """E-3.4: a draw from the unsettled deck takes each card with equal chance."""
    hits: Counter[str] = Counter()
    for seed in range(600):
        st = table(
            [["Doctor 5", "Foe 3"], ["Plot 2"]],
            discard=["Gadget 4", "Special 1", "Companion 9"],
            phase="episode",
            settle=False,
            seed=seed * 7919,
        )
        st = st.apply(SkipEpisode())  # deck empty: the pile becomes the unsettled deck
        hits.update(x for x in st.view(1)["hand"] if x != "Plot 2")
    # each of the 3 cards is among the 2 drawn with chance 2/3: 400 of 600 expected
    assert set(hits) == {"Gadget 4", "Special 1", "Companion 9"}
    assert all(330 < k < 470 for k in hits.values())


def test_e3_4_peek_settles_order(table) -> None:
    """E-3.4: a Doctor peek settles the order; the next draws are the cards seen, in order."""
    ep = ["Doctor 9", "Companion 9", "Gadget 9", "Foe 1", "Plot 1", "Special 1"]
    st = table(
        [["Doctor 4", *ep], ["Plot 2"]], deck=["Gadget 4", "Special 1", "Foe 8"], stacked=False
    )
    assert st.fixed == 0
    st = st.apply(UseAbility("Doctor", 4))
    seen = st.view(0)["deck_top"]
    assert sorted(seen) == sorted(["Gadget 4", "Special 1", "Foe 8"]) and st.fixed == 3
    st = st.apply(SkipEpisode())  # seat 1 draws the first two seen cards
    assert Counter(st.view(0)["known_hands"][1]) == Counter(seen[:2])
    assert st.view(0)["deck_top"] == seen[2:]
