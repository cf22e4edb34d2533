"""Each game played to the end in headless Chromium: a table made in the lobby against a bot,
every move made by clicking a `data-action` control (board elements first), screenshots of
the start, the middle and the result saved as artifacts."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

#: Options that end games quickly, and the bot at the other seats.
TABLES: dict[str, dict[str, Any]] = {
    "keys": {"players": 2, "options": {"round_limit": 12}},
    "episodes": {"players": 2, "options": {"target": 15, "max_rounds": 8}, "bot": "random"},
    "card-game": {"players": 2, "options": {"max_turns": 12}},
    "clue": {"players": 3, "options": {"max_rounds": 4}},
}
BOT = "heuristic"
MAX_MOVES = 400
MID_MOVE = 4

MY_TURN_OR_OVER = (
    "() => !!(document.querySelector('[data-result]')"
    " || document.querySelector('.frame[data-my-turn=true]'))"
)
VERSION_CHANGED = (
    "v => { const f = document.querySelector('.frame');"
    " return !!f && f.dataset.version !== v || !!document.querySelector('[data-result]'); }"
)


def create_in_lobby(page: Any, base: str, game_id: str, seed: int, shot: Path) -> str:
    """Fill the lobby's form for `game_id` (seat 0 human, bots elsewhere); the seat-0 link."""
    spec = TABLES[game_id]
    page.goto(f"{base}/")
    page.check(f'input[name=game][value="{game_id}"]')
    page.click("#more summary")  # the table set-up, below "Play against bots"
    page.select_option("#players", str(spec["players"]))
    for name, value in spec["options"].items():
        page.fill(f'input[data-option="{name}"]', str(value))
    for seat in range(1, spec["players"]):
        page.select_option(f'select[data-seat="{seat}"]', spec.get("bot", BOT))
    page.fill("#seed", str(seed))
    page.click("#create")
    link = page.wait_for_selector("#seat-links a.seat-link")
    page.screenshot(path=str(shot))
    href: str = link.get_attribute("href")
    assert "token=" in href
    return href


def play_to_the_end(page: Any, rng: random.Random, shots: dict[str, Path]) -> dict[str, int]:
    """Click legal controls until the result screen shows; counts of board and list clicks."""
    clicks = {"board": 0, "list": 0, "target": 0}
    page.wait_for_selector(".frame")
    page.screenshot(path=str(shots["start"]))
    for move in range(MAX_MOVES):
        page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        if page.query_selector("[data-result]"):
            break
        assert page.title().startswith("(•) Your turn")
        assert page.get_attribute("[data-to-move]", "data-to-move") != ""
        version = page.get_attribute(".frame", "data-version")
        on_board = page.query_selector_all(".board-area [data-action], .board-area [data-actions]")
        where = "board" if on_board and rng.random() < 0.85 else "list"
        target = rng.choice(
            on_board if where == "board" else page.query_selector_all("#legal [data-action]")
        )
        target.scroll_into_view_if_needed()
        is_menu = target.get_attribute("data-actions") is not None
        target.click()
        if is_menu:
            page.wait_for_selector("#menu:not([hidden]) [data-action]")
            picks = page.query_selector_all(".board-area .pick")
            if picks and (clicks["target"] == 0 or rng.random() < 0.5):
                # a card, then its target on the board (the open menu may lie over it)
                rng.choice(picks).dispatch_event("click")
                clicks["target"] += 1
            else:
                rng.choice(page.query_selector_all("#menu [data-action]")).click()
        clicks[where] += 1
        page.wait_for_function(VERSION_CHANGED, arg=version, timeout=30_000)
        if move == MID_MOVE:
            page.screenshot(path=str(shots["mid"]))
    else:
        pytest.fail(f"no result after {MAX_MOVES} moves")
    result = page.wait_for_selector("[data-result]")
    page.screenshot(path=str(shots["result"]))
    data = json.loads(result.get_attribute("data-result"))
    assert isinstance(data["winners"], list)
    assert page.get_attribute("[data-to-move]", "data-to-move") == ""
    assert not page.query_selector_all("[data-action], [data-actions]")
    return clicks


@pytest.mark.parametrize("game_id", list(TABLES))
def test_play_a_table_against_bots_to_the_end(
    page: Any, server: str, artifacts: Path, game_id: str
) -> None:
    href = create_in_lobby(page, server, game_id, 7, artifacts / f"lobby-{game_id}.png")
    page.goto(href)
    shots = {k: artifacts / f"{game_id}-{k}.png" for k in ("start", "mid", "result")}
    clicks = play_to_the_end(page, random.Random(7), shots)
    assert clicks["board"] > 0, clicks
    if game_id in ("keys", "card-game"):
        assert clicks["target"] > 0, clicks
    for path in shots.values():
        if path.name.endswith("mid.png") and not path.exists():
            continue  # a game that ended before the middle shot
        assert path.stat().st_size > 10_000
    # a spectator sees the same finished table, with no hand and no controls
    page.goto(href.split("?")[0])
    page.wait_for_selector("[data-result]")
    assert not page.query_selector_all("[data-hand], [data-action], [data-actions]")
    page.go_back()
    page.wait_for_selector("[data-result]")
    # the finished table offers its replay, which steps through the record
    page.click(".replay-link")
    page.wait_for_selector(".frame")
    steps = int(page.get_attribute("#step", "max"))
    assert steps > 0
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#step').value === '1'")
    page.select_option("#replay-seat", "0")
    page.wait_for_selector("[data-hand]")
    page.screenshot(path=str(artifacts / f"{game_id}-replay.png"))
    assert page.errors == []
