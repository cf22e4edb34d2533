"""Clue's notebook panel: one column per player, honest percentages."""

from __future__ import annotations

from timelord.cli.panels import Grid, clue_notebook, percent
from timelord.cli.terminal import drop_section
from timelord.core import load
from timelord.games.clue.deduction import deduce
from timelord.games.clue.notebook import knowledge_from_view


def test_percent_never_rounds_a_possibility_away_or_into_certainty() -> None:
    assert percent(0, 1000) == Grid.OUT
    assert percent(1000, 1000) == Grid.HELD
    assert percent(1, 1000) == "<1%"
    assert percent(9, 1000) == "<1%"
    assert percent(10, 1000) == "1%"
    assert percent(999, 1000) == ">99%"
    assert percent(500, 1000) == "50%"


def test_the_grid_has_a_column_per_player_and_matches_the_deducer() -> None:
    game = load("clue", players=4)
    state = game.new_game(5)
    view = state.view(2)
    grid = clue_notebook(game, view, True)
    assert grid is not None
    assert grid.columns == ("Card", "Seat 1", "Seat 2", "You", "Seat 4", "Envelope")
    rows = {r.cells[0]: r.cells[1:] for r in grid.rows if not r.heading}
    assert len(rows) == len(game.card_names)
    odds = deduce(knowledge_from_view(view))
    for card in view["hand"]:
        assert rows[game.card_names[card]] == (Grid.OUT, Grid.OUT, Grid.HELD, Grid.OUT, Grid.OUT)
    for card, name in enumerate(game.card_names):
        env = rows[name][-1]
        assert (env == Grid.OUT) == (odds.envelope_count[card] == 0)
        assert env != "0%"
    plain = grid.plain().splitlines()
    assert plain[0] == "Notebook" and plain[1].split()[:2] == ["Card", "Seat"]


def test_without_odds_only_what_the_seat_saw_is_marked() -> None:
    game = load("clue", players=3)
    view = game.new_game(1).view(0)
    grid = clue_notebook(game, view, False)
    assert grid is not None
    marked = [r for r in grid.rows if not r.heading and any(c for c in r.cells[1:])]
    assert len(marked) == len(view["hand"]) + len(view["leftovers"])
    assert not any("%" in c for r in grid.rows for c in r.cells)
    assert clue_notebook(game, game.new_game(1).view(None), True) is None


def test_two_player_variant_has_a_column_for_the_side_cards() -> None:
    game = load("clue", players=2, variant="two-player")
    grid = clue_notebook(game, game.new_game(3).view(0), True)
    assert grid is not None and grid.columns == ("Card", "You", "Seat 2", "Aside", "Envelope")


def test_the_grid_replaces_the_games_own_notebook_block_only() -> None:
    text = "Board\nNotebook (odds)\n Who?\n  [x ] Jenny\nRecent:\n  Seat 1 moved"
    assert drop_section(text, "Notebook") == "Board\nRecent:\n  Seat 1 moved"
    assert drop_section(text, "Nothing") == text
