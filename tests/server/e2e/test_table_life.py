"""Two people at one open table in headless Chromium (two browser contexts): they join by
name, chat, one leaves and the stand-in plays, they come back and take the seat back, the
game ends and both press "Play again" and land at one new table. Screenshots of each step
are written to test-artifacts/ (git-ignored; TIMELORD_ARTIFACTS moves it) as life-*.png."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from tests.server.helpers import wait_for


def _post(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        f"{base}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(f"{base}{path}", timeout=10) as answer:
        return json.loads(answer.read())


def _join(page: Any, base: str, table_id: str, name: str, seat: int) -> str:
    page.goto(f"{base}/tables/{table_id}")
    page.wait_for_selector(f'#claim-seats [data-claim="{seat}"]')
    page.fill("#claim-name", name)
    page.click(f'#claim-seats [data-claim="{seat}"]')
    page.wait_for_url(re.compile(r"token="))
    page.wait_for_selector(".frame")
    return str(page.url)


def test_two_people_live_through_a_table(browser: Any, server: str, artifacts: Path) -> None:
    body = {
        "game": "keys",
        "options": {"round_limit": 8},
        "seats": ["open", "open"],
        "seed": 11,
        "stand_in": "random",
    }
    table = _post(server, "/api/tables", body)
    tid = table["id"]
    contexts = [
        browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
        for _ in range(2)
    ]
    try:
        ann, bob = (c.new_page() for c in contexts)
        errors: list[str] = []
        for p in (ann, bob):
            p.on("pageerror", lambda exc: errors.append(str(exc)))

        ann_url = _join(ann, server, tid, "Ann", 0)
        ann.screenshot(path=str(artifacts / "life-1-ann-joined.png"))
        bob_url = _join(bob, server, tid, "Bob", 1)
        for p in (ann, bob):
            p.wait_for_selector('.seat-info[data-seat="1"] .seat-name:has-text("Bob")')
        assert ann.inner_text('.seat-info[data-seat="0"] .seat-name') == "Ann (guest) (you)"
        assert bob.inner_text('.seat-info[data-seat="0"] .seat-name') == "Ann (guest)"
        bob.screenshot(path=str(artifacts / "life-2-bob-joined.png"))

        # chat: escaped, in both pages
        ann.fill("#chat-text", "<b>hello</b> Bob")
        ann.click("#chat-form button")
        for p in (ann, bob):
            p.wait_for_selector('#chat-log .chat-line:has-text("hello")')
            line = p.locator("#chat-log .chat-line").first
            assert line.inner_text() == "Ann (guest): <b>hello</b> Bob"
            assert p.locator("#chat-log b").count() == 0
        bob.fill("#chat-text", "hi Ann, back in a minute")
        bob.click("#chat-form button")
        ann.wait_for_selector('#chat-log .chat-line:has-text("back in a minute")')
        ann.screenshot(path=str(artifacts / "life-3-chat.png"))

        # Bob leaves: the stand-in plays his seat
        bob.click("#stand-in")
        bob.close()
        ann.wait_for_selector('.seat-info[data-seat="1"] .stand-in')
        ann.wait_for_selector('#chat-log .notice:has-text("standing in for Bob")')
        before = _get(server, f"/api/tables/{tid}")["version"]
        for _ in range(2):  # Ann plays; the stand-in answers each time
            ann.wait_for_selector("#legal [data-action]", timeout=20000)
            ann.locator("#legal [data-action]").first.click()
            wait_for(lambda b=before: _get(server, f"/api/tables/{tid}")["version"] > b, timeout=20)
            before = _get(server, f"/api/tables/{tid}")["version"]
            snap = _get(server, f"/api/tables/{tid}")
            if snap["over"]:
                break
            wait_for(
                lambda: (
                    _get(server, f"/api/tables/{tid}")["to_move"] == 0
                    or _get(server, f"/api/tables/{tid}")["over"]
                ),
                timeout=20,
            )
        ann.screenshot(path=str(artifacts / "life-4-stand-in-plays.png"))

        # Bob comes back and takes his seat
        bob = contexts[1].new_page()
        bob.on("pageerror", lambda exc: errors.append(str(exc)))
        bob.goto(bob_url)
        bob.wait_for_selector("#reclaim")
        bob.click("#reclaim")
        bob.wait_for_selector("#stand-in")
        ann.wait_for_selector('#chat-log .notice:has-text("Bob took their seat back")')
        assert _get(server, f"/api/tables/{tid}")["seats"][1]["stand_in"] is None
        bob.screenshot(path=str(artifacts / "life-5-bob-took-his-seat-back.png"))

        # to the end: both let the stand-in finish the short game
        for p in (ann, bob):
            if p.locator("#stand-in").count():
                p.click("#stand-in")
        for p in (ann, bob):
            p.wait_for_selector("[data-result]", timeout=60000)
            p.wait_for_selector("#rematch")
        ann.screenshot(path=str(artifacts / "life-6-game-over.png"))

        # both press Play again and land at one new table
        ann.click("#rematch")
        elsewhere = re.compile(rf"/tables/(?!{re.escape(tid)})")
        ann.wait_for_url(elsewhere, timeout=20000)
        bob.click("#rematch")
        bob.wait_for_url(elsewhere, timeout=20000)
        new_ann = ann.url.split("/tables/")[1].split("?")[0]
        new_bob = bob.url.split("/tables/")[1].split("?")[0]
        assert new_ann == new_bob != tid
        assert ann.url.endswith(ann_url.split("?")[1]) and bob.url.endswith(bob_url.split("?")[1])
        for p in (ann, bob):
            p.wait_for_selector(".frame")
            p.wait_for_selector('.seat-info[data-seat="0"] .seat-name:has-text("Bob")')
        ann.screenshot(path=str(artifacts / "life-7-play-again-ann.png"))
        bob.screenshot(path=str(artifacts / "life-7-play-again-bob.png"))
        assert errors == []
    finally:
        for c in contexts:
            c.close()


def test_the_lobby_plays_against_bots_in_one_click(page: Any, server: str, artifacts: Path) -> None:
    page.goto(server)
    page.fill("#my-name", "Cleo")
    page.check('input[name="game"][value="episodes"]')
    page.click("#play-bots")
    page.wait_for_url(re.compile(r"/tables/.+\?token="))
    page.wait_for_selector(".frame")
    assert page.inner_text('.seat-info[data-seat="0"] .seat-name') == "Cleo (guest) (you)"
    assert "Bot (casual)" in page.inner_text("#seats-bar")
    page.screenshot(path=str(artifacts / "life-8-play-against-bots.png"))
    page.goto(server)
    page.wait_for_selector("#your-tables li[data-table] a")
    assert "Episodes" in page.inner_text("#your-tables")
    page.screenshot(path=str(artifacts / "life-9-lobby-your-tables.png"))
    assert page.errors == []
