"""Colours on a terminal, plain text elsewhere."""

from __future__ import annotations

import io

from timelord.cli import readable
from timelord.cli.terminal import Screen, styled
from timelord.core import load


def _styles(game_id: str, text: str, **options: int) -> dict[str, str]:
    game = load(game_id, **options)
    out = styled(game, text)
    return {text[s.start : s.end]: str(s.style) for s in out.spans}


def test_suits_seats_and_colours_are_coloured() -> None:
    episodes = _styles("episodes", "Doctors: 7; Foes: 5; Seat 1 steals from you", players=3)
    assert episodes["Doctors"] != episodes["Foes"]
    assert "Seat 1" in episodes and "you" in episodes
    cards = _styles("card-game", "Red attacks Blue with an Enemy", players=2)
    assert "red" in cards["Red"] and "blue" in cards["Blue"] and "Enemy" in cards


def test_the_keys_grid_keeps_its_own_door_colours() -> None:
    game = load("keys", players=2)
    view = game.new_game(1).view(0)
    coloured = styled(game, game.render_view(view, ansi=True))
    assert coloured.plain == game.render_view(view)  # same picture, colours as styles
    assert len(coloured.spans) > 40


def test_plain_output_has_no_escape_codes() -> None:
    game = load("keys", players=2)
    out = io.StringIO()
    screen = Screen(out)
    assert not screen.rich
    screen.table(game, game.new_game(1).view(0), "keys", None)
    screen.events(game, "Your move", ["You open c1: Dalek door"], framed=True)
    assert "\x1b[" not in out.getvalue() and "You open c1: Dalek door" in out.getvalue()
    assert readable.picture(game, game.render_view(game.new_game(1).view(0))) in out.getvalue()
