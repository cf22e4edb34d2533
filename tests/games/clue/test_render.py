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
    assert "%" not in plain and "yours" in plain
    odds = {c: 0.25 for c in range(21)}
    assert "25% envelope" in render_notebook(view, odds)


def test_the_notebook_has_a_column_per_player_and_never_rounds_odds_to_zero() -> None:
    game = timelord.load("clue", players=4)
    state = game.new_game(1)
    view = state.view(2)
    odds = {c: 0.004 for c in range(21)}
    odds[view["hand"][0]] = 0.0
    text = render_notebook(view, odds)
    header = text.split("\n")[1].split()
    assert header == ["S0", "S1", "you", "S3"]
    row = next(
        ln for ln in text.split("\n") if ln.strip().startswith(game.card_names[view["hand"][0]])
    )
    assert row.split()[-5:] == ["-", "-", "X", "-", "yours"]
    assert "<1% envelope" in text and "0% envelope" not in text.replace("<1% envelope", "")


def test_percent_says_less_than_one_percent_and_zero_only_when_ruled_out() -> None:
    from timelord.games.clue.render import percent

    assert [percent(p) for p in (0.0, 1e-9, 0.009, 0.5, 0.995, 1.0)] == [
        "0%",
        "<1%",
        "<1%",
        "50%",
        ">99%",
        "100%",
    ]


def test_menus_name_moves_by_where_they_lead_and_powers_without_ids() -> None:
    from timelord.games.clue.actions import Move, UsePassage, UsePower

    game = timelord.load("clue", players=4)
    view = game.new_game(1).view(0)
    assert game.action_label(view, Move(8)) == "enter Victorian London"
    assert game.action_label(view, Move(9)) == "enter the TARDIS"
    square = game.board.node_at[(3, 12)]  # next to Skaro's door row, on the centre grid
    label = game.action_label(view, Move(square))
    assert label.startswith("move towards ") and " away (square m4)" in label
    assert "passage to The Moon" in game.action_label(view, UsePassage(1))
    power = game.action_label(view, UsePower())
    assert power.startswith(f"use {game.suspects[view['characters'][0]]}'s power: ")
    assert "-" not in power.split(": ")[1]


def test_the_board_has_a_legend_with_every_location_and_its_doors() -> None:
    game = timelord.load("clue")
    text = game.render_view(game.new_game(0).view(0))
    for name in game.locations:
        assert name in text
    assert "V Victorian London (door r10" in text and "T the TARDIS (doors" in text


def test_the_glossary_explains_every_location_power_and_intrigue_card() -> None:
    game = timelord.load("clue")
    glossary = game.glossary()
    wanted = {*game.locations, *(f"{s}'s power" for s in game.suspects)}
    wanted |= set(game.intrigue_names.values())
    assert wanted <= set(glossary)
    assert all(e["text"] and e["source"] for e in glossary.values())
    assert glossary["Cloister Bell"]["source"] == "reconstruction"
    assert glossary["Pocketwatch"]["source"] == "confirmed"
    from timelord.games.clue.actions import PlayCard

    assert game.action_card(PlayCard("cloister-bell")) == "Cloister Bell"
    assert game.action_card(PlayCard("nothing")) is None


def test_render_names_a_cloister_bell_move() -> None:
    from timelord.games.clue.render import _event_text

    text = _event_text(["bell", 1, 8], ["x"] * 21, 0, {})
    assert text.strip() == "Cloister Bell: Seat 1 moved to Victorian London"
    assert _event_text(["power", 1, "scan"], ["x"] * 21, 0, {}) == (
        "Seat 1 used a power: a look at a random card of another hand"
    )


def test_the_notebook_marks_what_the_deducer_proves() -> None:
    from types import SimpleNamespace

    view = timelord.load("clue", players=3).new_game(4).view(0)
    card = next(c for c in range(21) if c not in view["hand"] and c not in view["leftovers"])
    holder = {c: (0.5, 0.5, 0.0) for c in range(21)}
    holder[card] = (0.0, 1.0, 0.0)
    odds = SimpleNamespace(envelope={c: 0.0 for c in range(21)}, holder=holder)
    row = next(
        ln
        for ln in render_notebook(view, odds).split("\n")
        if ln.strip().startswith(timelord.load("clue").card_names[card])
    )
    assert row.split()[-5:] == ["-", "X", "-", "0%", "envelope"]
