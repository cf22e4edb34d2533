"""The table page wired to motion, sound and the readable log (issue 34 part B), at a real
Keys table of two people in Chromium: the other seat's move is played out on this seat's
board (and nothing moves under prefers-reduced-motion), its sound follows the header's
switch and the browser remembers it, the log groups events by turn and marks what came
since this seat's last move, and a live region says it is this seat's turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import call, wait_for

#: Recorded before any page script runs: every Web Animation started on an element of the
#: board (motion.js uses Element.animate) and every sound started (sound.js plays an Audio).
RECORD = """
window.__anims = [];
window.__sounds = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__anims.push(this.dataset?.tile ?? this.dataset?.card ?? this.className);
  return animate.apply(this, args);
};
HTMLMediaElement.prototype.play = function () {
  window.__sounds.push(this.src.split('/').pop());
  return Promise.resolve();
};
"""


def _play_turn(base: str, table: dict[str, Any], seat: int) -> None:
    """The seat's whole turn through the API, opening a door where it can (so the other
    seat's board has a door to turn over)."""
    tid, token = table["id"], table["seats"][seat]["token"]
    for _ in range(20):
        snap = call(base, f"/api/tables/{tid}?token={token}")
        if snap["to_move"] != seat or snap["over"]:
            return
        doors = [a for a in snap["legal"] if a["type"] == "OpenDoor"]
        action = (doors or snap["legal"])[0]
        call(
            base,
            f"/api/tables/{tid}/actions?token={token}",
            {"version": snap["version"], "action": action},
        )
    raise AssertionError("the turn did not end")


def _version(page: Any) -> int:
    return int(page.get_attribute(".frame", "data-version"))


def _my_turn(page: Any) -> bool:
    return bool(page.get_attribute(".frame", "data-my-turn") == "true")


def _table(base: str) -> dict[str, Any]:
    body = {"game": "keys", "seats": ["human", "human"], "seed": 5}
    return dict(call(base, "/api/tables", body))


@pytest.fixture
def reduced(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def _watch_other_move(base: str, page: Any) -> dict[str, Any]:
    """Seat 0's page while seat 0 and then seat 1 play a turn; what it animated and heard
    for seat 1's."""
    table = _table(base)
    page.add_init_script(RECORD)
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector(".log-turns")
    _play_turn(base, table, 0)
    wait_for(lambda: not _my_turn(page))
    page.wait_for_timeout(500)  # seat 0's own move has played out
    page.evaluate("() => { window.__anims.length = 0; window.__sounds.length = 0; }")
    before = _version(page)
    _play_turn(base, table, 1)
    wait_for(lambda: _version(page) > before and _my_turn(page))
    wait_for(lambda: "Your turn" in (page.text_content("#announce") or ""))
    return {
        "table": table,
        "anims": page.evaluate("window.__anims"),
        "sounds": page.evaluate("window.__sounds"),
    }


def test_another_seats_move_is_seen_heard_logged_and_announced(
    server: str, moving_page: Any
) -> None:
    page = moving_page
    seen = _watch_other_move(server, page)
    # the door seat 1 opened turns over on seat 0's board
    assert seen["anims"], "nothing moved when the other seat moved"
    assert any(str(a).isdigit() for a in seen["anims"]), seen["anims"]
    # one sound for the update, and it is the turn's (it matters most to this seat)
    assert seen["sounds"] == ["your-turn.wav"]
    # the log: newest group first, the other seat's moves marked fresh above the line
    # "since your last move", this seat's own move below it
    groups = page.eval_on_selector_all(
        "#log .log-turns > li", "els => els.map(e => [e.className, e.textContent])"
    )
    since = [i for i, (cls, _) in enumerate(groups) if cls == "log-since"]
    assert len(since) == 1, groups
    above, below = groups[: since[0]], groups[since[0] + 1 :]
    assert any("seat-1" in cls and "fresh" in cls for cls, _ in above), above
    assert "seat-0" in below[0][0] and "fresh" not in below[0][0], below
    assert "opens" in below[0][1] or "open" in below[0][1]
    # each group is headed by its seat's mark and name: seat index 1 is people's "Seat 2"
    assert page.locator("#log .log-turn.seat-1 > header .seat-dot").first.inner_text() == "2"
    # the live region said what happened and that it is this seat's turn
    said = page.text_content("#announce") or ""
    assert said.endswith("Your turn") or "Your turn" in said
    assert page.get_attribute("#announce", "aria-live") == "polite"
    assert not page.errors


def test_nothing_moves_under_reduced_motion(server: str, reduced: Any) -> None:
    seen = _watch_other_move(server, reduced)
    assert seen["anims"] == []
    assert reduced.evaluate("document.getAnimations().length") == 0


def test_the_sound_switch_is_remembered_at_the_table(server: str, page: Any) -> None:
    table = _table(server)
    page.add_init_script(RECORD)
    url = table["seats"][1]["url"]
    page.goto(url)
    page.wait_for_selector(".log-turns")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.click("#sound")
    page.reload()
    page.wait_for_selector(".log-turns")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    assert page.inner_text("#sound") == "Sound off"
    before = _version(page)
    _play_turn(server, table, 0)
    wait_for(lambda: _version(page) > before)
    wait_for(lambda: "Your turn" in (page.text_content("#announce") or ""))
    assert page.evaluate("window.__sounds") == []  # off: the turn came in silence
    page.click("#sound")
    page.reload()
    page.wait_for_selector(".log-turns")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.evaluate("window.__sounds") == []  # a page's first snapshot is not news
