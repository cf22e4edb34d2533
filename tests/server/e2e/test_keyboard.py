"""Every move can be made from the keyboard: number keys pick from the list of moves, Tab
reaches board elements, Enter acts or opens an element's menu, a number picks from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.e2e.test_play import MY_TURN_OR_OVER, VERSION_CHANGED, create_in_lobby


def _wait_turn(page: Any) -> str:
    page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
    assert not page.query_selector("[data-result]"), "the game ended before the test's moves"
    version: str = page.get_attribute(".frame", "data-version")
    return version


def test_keys_moves_by_keyboard(page: Any, server: str, artifacts: Path) -> None:
    page.goto(create_in_lobby(page, server, "keys", 11, artifacts / "lobby-keyboard.png"))
    # a number key makes the move numbered so in the list
    version = _wait_turn(page)
    page.keyboard.press("1")
    page.wait_for_function(VERSION_CHANGED, arg=version, timeout=30_000)
    # Enter on a focused board element with several moves opens its menu; 1 picks the first
    version = _wait_turn(page)
    tile = page.query_selector(".board-area [data-actions]")
    assert tile is not None, "no board element offers several moves"
    tile.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#menu:not([hidden]) [data-action]")
    assert page.evaluate("document.activeElement.closest('#menu') !== null")
    page.keyboard.press("Escape")
    assert page.is_hidden("#menu")
    # focus returns to the element whose menu it was, so Enter opens it again
    assert page.evaluate("document.activeElement.hasAttribute('data-actions')")
    page.keyboard.press("Enter")
    page.wait_for_selector("#menu:not([hidden]) [data-action]")
    page.keyboard.press("1")
    page.wait_for_function(VERSION_CHANGED, arg=version, timeout=30_000)
