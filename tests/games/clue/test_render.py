"""Terminal text: the board, the seat's cards and the notebook (with or without odds)."""

from __future__ import annotations

import timelord
from timelord.games.clue.render import render_board, render_notebook


def test_render_view_draws_the_board_and_the_seats_cards() -> None:
    game = timelord.load("clue", players=3)
    state = game.new_game(2)
    text = game.render_view(state.view(1))
    assert "TTTTT" in text and "Your cards:" in text and "Notebook" in text
    names = [game.card_names[c] for c in state.to_json()["hands"][1]]
    assert all(n in text for n in names)
    assert "Your cards" not in game.render_view(state.view(None))


def test_render_board_puts_movers_on_their_squares() -> None:
    game = timelord.load("clue")
    state = game.new_game(0)
    view = state.view(0)
    view["movers"] = [40, 9, 9, 9, 9, 9]
    assert "1" in render_board(view).split("\n", 1)[1].replace("10 ", "").replace("11 ", "")


def test_render_notebook_shows_odds_only_when_given() -> None:
    view = timelord.load("clue").new_game(1).view(0)
    plain = render_notebook(view)
    assert "%" not in plain and "hand" in plain
    odds = {c: 0.25 for c in range(21)}
    assert "25.0% envelope" in render_notebook(view, odds)


def test_render_names_a_cloister_bell_move() -> None:
    from timelord.games.clue.render import _event_text

    text = _event_text(["bell", 1, 8], ["x"] * 21, 0, {})
    assert text.strip() == "Cloister Bell: Seat 1 moved to Victorian London"
