"""The coach in the browser: a finished game's review chart on the replay page for each game,
whose costly marks jump the replay to their step, and the Hint button at a hint table. Both
show each value's 95% interval inside 0-100% and the coach's verdict in words (never a bare
"±" that reads "±0" as certainty), and say plainly when the coach is unsure."""

from __future__ import annotations

import json
import re
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


#: a value as the page writes it: "48% (95%: 30-66%)"
_VALUED = re.compile(r"(\d+)% \(95%: (\d+)-(\d+)%\)")
#: the verdicts' first words, as coach.js writes them
_VERDICTS = ("best:", "worse:", "close:", "unsure:")


def _honest(text: str) -> int:
    """How many values `text` shows; each must sit inside its interval, inside 0-100%."""
    assert "±" not in text
    found = _VALUED.findall(text)
    for value, low, high in found:
        assert 0 <= int(low) <= int(value) <= int(high) <= 100, text
    return len(found)


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
        assert _honest(page.inner_text(".costly-list")) == len(review["costly"])
    for point in points:
        tip = point.text_content() or ""  # the <title> of the point
        assert _honest(tip) == 1 and any(v in tip for v in _VERDICTS), tip
    unsure = [d for d in review["decisions"] if d["verdict"] == "unsure" and not d["costly"]]
    note = page.query_selector(".review-unsure")
    if unsure:
        assert note is not None
        assert f"unsure of {len(unsure)} of {len(review['decisions'])}" in note.inner_text()
    else:
        assert note is None
    page.screenshot(path=str(artifacts / f"review-{game_id}.png"), full_page=True)
    assert page.errors == []


def _move(label: str, value: float, low: float, high: float, verdict: str) -> dict[str, Any]:
    return {"label": label, "value": value, "error": 0.1, "low": low, "high": high,
            "samples": 24, "verdict": verdict}  # fmt: skip


def test_review_words_for_costly_unsure_and_close_decisions(
    page: Any, server: str, artifacts: Path
) -> None:
    """The review's texts from a review of known numbers (the server's review is replaced
    by a fixed one, so the check does not wait on the coach): intervals inside 0-100%,
    the gain with its interval, and the unsure decisions counted in plain words."""
    table = _finished(server, "keys")
    decisions = [
        {"step": 1, "played": _move("stay put", 0.2, 0.05, 0.4, "worse"),
         "best": [_move("move to d1", 0.9, 0.75, 1.0, "best")], "loss": 0.7,
         "loss_error": 0.1, "costly": True, "judged": True, "verdict": "worse"},
        {"step": 3, "played": _move("stay put", 0.5, 0.0, 1.0, "unsure"),
         "best": [_move("move to d2", 0.55, 0.0, 1.0, "unsure")], "loss": 0.05,
         "loss_error": 0.3, "costly": False, "judged": False, "verdict": "unsure"},
        {"step": 5, "played": _move("move to e4", 0.61, 0.5, 0.72, "close"),
         "best": [_move("move to e4", 0.61, 0.5, 0.72, "close")], "loss": 0.0,
         "loss_error": 0.0, "costly": False, "judged": True, "verdict": "close"},
    ]  # fmt: skip
    review = {"game": "keys", "seat": 1, "steps": 8, "decisions": decisions, "costly": [1]}
    page.route(
        f"**/api/tables/{table}/review?seat=1",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps({"review": review})
        ),
    )
    page.goto(f"{server}/tables/{table}/replay")
    page.wait_for_selector(".frame")
    page.click("[data-review-seat='1']")
    page.wait_for_selector(".review-chart")
    costly = page.inner_text(".costly-list")
    assert "played stay put, 20% (95%: 5-40%); better was: move to d1, +70%" in costly
    assert "+70% win share (95%: +50 to +90%)" in costly
    assert "The coach is unsure of 1 of 3 decisions" in page.inner_text(".review-unsure")
    tips = [p.text_content() or "" for p in page.query_selector_all(".review-chart [data-jump]")]
    assert "unsure:" in tips[1] and "close:" in tips[2] and "worse:" in tips[0]
    assert all(_honest(tip) == 1 for tip in tips)
    assert page.query_selector_all(".review-chart .unsure")  # the unsure point is marked
    page.locator(".review-body").screenshot(path=str(artifacts / "review-words.png"))
    assert page.errors == []


def test_an_unsure_hint_says_so_in_words(page: Any, server: str) -> None:
    """The hint's texts from an answer of known numbers (the server's hint is replaced by a
    fixed one, as a loaded server's short budget gives): every move's interval and verdict,
    and the plain warning."""
    body = {"game": "keys", "seats": ["human", "random"], "seed": 4, "hints": True}
    table = _api(server, "POST", "/api/tables", body)
    moves = [_move("move to d1", 0.5, 0.0, 1.0, "unsure"), _move("stay", 0.4, 0.0, 0.9, "unsure")]
    page.route(
        "**/hint?*",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps({"moves": moves})
        ),
    )
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector(".frame[data-my-turn=true]")
    page.click("#hint")
    page.wait_for_selector(".hint-box li")
    items = [li.inner_text() for li in page.query_selector_all(".hint-box li")]
    assert items[0].startswith("move to d1 — 50% (95%: 0-100%) expected win share; unsure:")
    assert "40% (95%: 0-90%)" in items[1]
    assert "The coach is unsure" in page.inner_text(".hint-unsure")
    assert page.errors == []


def test_hint_button_at_a_hint_table(page: Any, server: str) -> None:
    body = {"game": "keys", "seats": ["human", "random"], "seed": 4, "hints": True}
    table = _api(server, "POST", "/api/tables", body)
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector(".frame[data-my-turn=true]")
    page.click("#hint")
    page.wait_for_selector(".hint-box li", timeout=120_000)  # a loaded machine
    moves = page.query_selector_all(".hint-box li")
    assert 1 <= len(moves) <= 3
    verdicts = [m.get_attribute("data-verdict") for m in moves]
    for move, verdict in zip(moves, verdicts, strict=True):
        assert verdict in ("best", "worse", "close", "unsure")
        assert _honest(move.inner_text()) == 1
        assert f"{verdict}:" in move.inner_text()
    warning = page.query_selector(".hint-unsure")
    assert (warning is not None) == ("unsure" in verdicts)
    if warning is not None:
        assert "The coach is unsure" in warning.inner_text()
    plain = {"game": "keys", "seats": ["human", "random"], "seed": 4}
    other = _api(server, "POST", "/api/tables", plain)
    page.goto(other["seats"][0]["url"])
    page.wait_for_selector(".frame")
    assert page.query_selector("#hint") is None
    assert page.errors == []
