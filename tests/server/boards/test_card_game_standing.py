"""The Card Game board's VP totals (issue 33, "Typed moves": the Card Game board shows no VP
totals as they stand): each line says the seat's VP as the engine counts them from public
facts (`view["standing"]`, C-6.4 applied now), and a Location under a face-down attack is
marked unknown rather than counted for its attacker."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from tests.server.boards.test_people import _play_until, _snap
from timelord.server.boards import render_board


def _line_vp(html: str, seat: int) -> str:
    """The "VP as it stands" words of `seat`'s line on the board."""
    line = html.split(f'data-seat="{seat}"', 1)[1]
    found = re.search(r"· (\d+ VP as it stands(?: \(\d+ Locations? unknown\))?) ·", unescape(line))
    assert found, line[:400]
    return found.group(1)


def _face_down_attack(state: Any, events: Any) -> bool:
    return bool(state.view(0)["standing"]["unknown"])


def test_c6_4_lines_show_the_engines_standing_and_unknown_locations() -> None:
    game, state, events = _play_until("card-game", _face_down_attack)
    view = state.view(0)
    told = view["standing"]
    html = render_board(game, 0, _snap(game, state, 0, events))
    for seat in range(game.players):
        words = _line_vp(html, seat)
        assert words.startswith(f"{told['vp'][seat]} VP as it stands")
    unknown = told["unknown"][0]
    location = view["locations"][unknown]
    assert "unknown)" in _line_vp(html, location["attacker"])
    assert "unknown)" in _line_vp(html, location["owner"])
    tile = html.split(f'data-tile="L{unknown}"', 1)[1].split('class="location"', 1)[0]
    assert "VP unknown until the attack turns up" in tile


def test_c6_4_a_face_down_attack_is_not_counted_for_its_attacker() -> None:
    """The board once counted a face-down attack for its attacker; the engine counts it for
    nobody until it turns up (it may hide a voiding Enemy), and so does the board."""
    game, state, events = _play_until("card-game", _face_down_attack)
    view = state.view(0)
    unknown = view["standing"]["unknown"][0]
    attacker = view["locations"][unknown]["attacker"]
    html = render_board(game, 0, _snap(game, state, 0, events))
    assert _line_vp(html, attacker).startswith(f"{view['standing']['vp'][attacker]} VP")


def test_a_view_stored_before_standing_is_counted_the_same_way() -> None:
    game, state, events = _play_until("card-game", _face_down_attack)
    snap = _snap(game, state, 0, events)
    new = render_board(game, 0, snap)
    del snap["view"]["standing"]
    old = render_board(game, 0, snap)
    for seat in range(game.players):
        assert _line_vp(old, seat) == _line_vp(new, seat)
