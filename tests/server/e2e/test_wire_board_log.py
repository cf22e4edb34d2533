"""The table page fetches its board per change without the log it already holds (`log=N`)
and still shows every event's sentence as the board writes it, at a real Keys table of two
people in Chromium."""

from __future__ import annotations

import re
from typing import Any

from tests.server.helpers import call, wait_for


def _act(base: str, table: dict[str, Any], seat: int) -> None:
    tid, token = table["id"], table["seats"][seat]["token"]
    snap = call(base, f"/api/tables/{tid}?token={token}")
    assert snap["to_move"] == seat, snap["to_move"]
    body = {"version": snap["version"], "action": snap["legal"][0]}
    call(base, f"/api/tables/{tid}/actions?token={token}", body)


def test_the_board_is_fetched_without_the_log_held_and_the_log_keeps_every_sentence(
    server: str, page: Any
) -> None:
    body = {"game": "keys", "seats": ["human", "human"], "seed": 5}
    table = call(server, "/api/tables", body)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/board" in r.url else None)
    page.goto(table["seats"][0]["url"])
    page.wait_for_selector(".log-turns")
    version = int(page.get_attribute(".frame", "data-version"))
    for _ in range(4):
        snap = call(server, f"/api/tables/{table['id']}?token={table['seats'][0]['token']}")
        _act(server, table, snap["to_move"])
        version += 1
        wait_for(lambda v=version: int(page.get_attribute(".frame", "data-version")) >= v)
    # the first fetch (and the first once the socket named the seats) is the whole board;
    # later ones name the events whose sentences the page holds
    logs = [re.search(r"[?&]log=(\d+)", url) for url in asked]
    assert logs[0] is None and len(logs) >= 4, asked
    assert all(found is not None for found in logs[2:]), asked
    held = [int(found.group(1)) for found in logs if found is not None]
    assert held == sorted(held) and held[0] > 0, held
    # every event's sentence is the one the whole board writes for it
    whole = call(server, f"/tables/{table['id']}/board?token={table['seats'][0]['token']}")
    # (a turn's own sentence is the heading of its group in the page's log)
    sentences = re.findall(r"<li[^>]*data-kind=\"(?!turn\")[^\"]*\">(.*?)</li>", whole)
    assert sentences
    shown = page.eval_on_selector_all("#log .log-turns li li", "els => els.map(e => e.textContent)")
    for sentence in sentences:
        plain = re.sub(r"<[^>]+>", "", sentence).replace("&#39;", "'").replace("&amp;", "&")
        assert any(plain in text for text in shown), (plain, shown)
    assert not page.errors
