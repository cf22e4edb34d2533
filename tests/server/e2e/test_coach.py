"""The coach in the browser: a finished game's review chart on the replay page for each game,
whose costly marks jump the replay to their step, and the Hint button at a hint table."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

#: tables of a heuristic (seat 0) against random bots that end in a few hundred moves
TABLES: dict[str, dict[str, Any]] = {
    "keys": {"players": 2},
    "episodes": {"players": 2, "target": 15, "max_rounds": 8},
    "card-game": {"players": 2, "max_turns": 12},
    "clue": {"players": 3, "max_rounds": 12},
}


def _api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _finished(base: str, game_id: str) -> str:
    """A table of bots (a heuristic at seat 0, random ones after) played to the end."""
    options = TABLES[game_id]
    first = "heuristic:hard" if game_id == "clue" else "heuristic"
    seats = [first] + ["random"] * (options["players"] - 1)
    body = {"game": game_id, "options": options, "seats": seats, "seed": 5}
    table = _api(base, "POST", "/api/tables", body)["id"]
    deadline = time.monotonic() + 120
    while not _api(base, "GET", f"/api/tables/{table}")["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return str(table)


@pytest.mark.parametrize("game_id", list(TABLES))
def test_review_chart_marks_decisions_and_jumps_the_replay(
    page: Any, server: str, artifacts: Path, game_id: str
) -> None:
    table = _finished(server, game_id)
    page.goto(f"{server}/tables/{table}/replay")
    page.wait_for_selector(".frame")
    # the random seat 1 is the one with mistakes to show
    page.click("[data-review-seat='1']")
    page.wait_for_selector(".review-chart", timeout=120_000)
    review = _api(server, "GET", f"/api/tables/{table}/review?seat=1")["review"]
    points = page.query_selector_all(".review-chart [data-jump]")
    assert len(points) == len(review["decisions"]) > 0
    assert len(page.query_selector_all(".review-chart .costly")) == len(review["costly"])
    # a point (the worst decision if any was costly) shows the position before that move
    target = review["costly"][0] if review["costly"] else review["decisions"][-1]["step"]
    page.locator(f".review-chart [data-jump='{target}']").dispatch_event("click")
    page.wait_for_function(f"() => document.querySelector('#step').value === '{target}'")
    assert page.input_value("#replay-seat") == "1"
    if review["costly"]:
        assert "better was:" in page.inner_text(".costly-list")
    page.screenshot(path=str(artifacts / f"review-{game_id}.png"), full_page=True)
    assert page.errors == []


def test_hint_button_at_a_hint_table(page: Any, server: str) -> None:
    body = {"game": "keys", "seats": ["human", "random"], "seed": 4, "hints": True}
    table = _api(server, "POST", "/api/tables", body)
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector(".frame[data-my-turn=true]")
    page.click("#hint")
    page.wait_for_selector(".hint-box li", timeout=30_000)
    assert 1 <= len(page.query_selector_all(".hint-box li")) <= 3
    plain = {"game": "keys", "seats": ["human", "random"], "seed": 4}
    other = _api(server, "POST", "/api/tables", plain)
    page.goto(other["seats"][0]["url"])
    page.wait_for_selector(".frame")
    assert page.query_selector("#hint") is None
    assert page.errors == []
