"""render_view: readable text of a seat's view."""

from __future__ import annotations

from timelord.games.episodes.actions import ChooseOpponent, UseAbility
from timelord.games.episodes.game import EpisodesGame

EP = ["Doctor 9", "Companion 9", "Gadget 9", "Foe 1", "Plot 1", "Special 1"]


def test_render_shows_hand_by_suit_and_public_counts() -> None:
    game = EpisodesGame(players=3)
    st = game.new_game(1)
    text = game.render_view(st.view(0))
    assert "Seat 0 (you): 0 VP, 9 cards in hand" in text
    assert "Deck: 67 cards" in text
    assert "Doctors:" in text and "Tenth Doctor" in text
    assert "Now: You may discard one card to use its ability" in text
    other = game.render_view(st.view(1))
    assert "Now: Seat 0 may discard" in other
    assert "Spectator" in game.render_view(st.view(None))


def test_render_shows_known_cards_and_pending(table) -> None:
    deck = ["Plot 9", "Plot 8", "Plot 7", "Plot 6"]
    st = table([["Doctor 4", "Foe 5", *EP], ["Gadget 2"], ["Plot 3"]], deck=deck)
    st = st.apply(UseAbility("Doctor", 4))
    text = st.game.render_view(st.view(0))
    assert "Next cards of the deck (you peeked): Plot 9, Plot 8, Plot 7, Plot 6" in text
    assert "episode phase" in text
    st = st.apply(st.legal_actions()[-1])  # no episode -> seat 1 draws two peeked cards
    text = st.game.render_view(st.view(0))
    assert "You know Seat 1 holds: Plot 8, Plot 9" in text


def test_render_game_over(table) -> None:
    st = table([EP, ["Gadget 2"]], deck=["Plot 1"] * 4, phase="episode", vp=[47, 0])
    st = st.apply(st.legal_actions()[0])
    text = st.game.render_view(st.view(1))
    assert "Game over (reached the target). Winner(s): Seat 0" in text


def test_render_groups_copies_and_pending_choice(table) -> None:
    deck = ["Plot 9", "Plot 8", "Plot 7", "Plot 6"]
    st = table([["Gadget 4", "Foe 5", "Foe 5", *EP], ["Gadget 2"], ["Plot 3"]], deck=deck)
    text = st.game.render_view(st.view(0))
    assert "Foes:        1 (Foe 1), 5 x2 (Foe 5)" in text  # a test deck has no names
    st = st.apply(UseAbility("Gadget", 4))
    assert "Gadget drew 3 cards: Plot 7, Plot 8, Plot 9" in st.game.render_view(st.view(0))
    assert "Now: You choose which Gadget-drawn card to keep" in st.game.render_view(st.view(0))
    other = st.game.render_view(st.view(1))
    assert "Gadget drew 3 cards\n" in other and "Plot 9" not in other
    assert "Now: Seat 0 chooses which Gadget-drawn card to keep" in other


def test_render_shows_what_others_know_of_you(table) -> None:
    st = table([["Plot 4", *EP], ["Gadget 2", "Foe 3"], ["Special 3"]], deck=["Plot 9"] * 4)
    st = st.apply(UseAbility("Plot", 4)).apply(ChooseOpponent(1))
    text = st.game.render_view(st.view(1))
    assert "Seat 0 knows you hold: Gadget 2, Foe 3" in text
