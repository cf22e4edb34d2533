"""The board HTML a seat fetches is drawn once per (version, seat) (issue 29)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

import timelord.server.pages as pages


def test_a_board_is_drawn_once_per_version_and_seat(
    local: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[tuple[int | None, int]] = []
    real = pages.render_board

    def counting(game: Any, seat: int | None, snapshot: Any, *args: Any, **kw: Any) -> str:
        drawn.append((seat, snapshot["version"]))
        return real(game, seat, snapshot, *args, **kw)

    monkeypatch.setattr(pages, "render_board", counting)
    made = local.post(
        "/api/tables", json={"game": "keys", "seats": ["human", "human"], "seed": 3}
    ).json()
    token = made["seats"][0]["token"]
    path = f"/tables/{made['id']}/board"
    first = [local.get(f"{path}?token={token}").text for _ in range(3)]
    local.get(path)
    assert len(set(first)) == 1 and drawn == [(0, 0), (None, 0)]
    legal = local.get(f"/api/tables/{made['id']}?token={token}").json()["legal"]
    local.post(
        f"/api/tables/{made['id']}/actions?token={token}",
        json={"version": 0, "action": legal[0]},
    )
    local.get(f"{path}?token={token}")
    local.get(f"{path}?token={token}")
    assert drawn == [(0, 0), (None, 0), (0, 1)]


def _log_items(html: str) -> tuple[int, list[str]]:
    """The board log's `start` and its sentences, newest first."""
    found = re.search(r'<ol class="log" reversed start="(\d+)">(.*?)</ol>', html, re.S)
    assert found is not None, "the board has no log list"
    return int(found.group(1)), re.findall(r"<li[^>]*>(.*?)</li>", found.group(2))


def _played(local: TestClient, moves: int) -> tuple[str, str]:
    """A two-person Keys table after `moves` first-legal moves; its board path and a token."""
    made = local.post(
        "/api/tables", json={"game": "keys", "seats": ["human", "human"], "seed": 3}
    ).json()
    tokens = [s["token"] for s in made["seats"]]
    api = f"/api/tables/{made['id']}"
    for version in range(moves):
        snap = local.get(f"{api}?token={tokens[0]}").json()
        token = tokens[snap["to_move"]]
        legal = local.get(f"{api}?token={token}").json()["legal"]
        answer = local.post(
            f"{api}/actions?token={token}", json={"version": version, "action": legal[0]}
        )
        assert answer.status_code == 200
    return f"/tables/{made['id']}/board", tokens[0]


def test_a_board_asked_for_the_log_from_an_event_lists_only_the_events_from_it(
    local: TestClient,
) -> None:
    path, token = _played(local, 6)
    start, whole = _log_items(local.get(f"{path}?token={token}").text)
    assert start >= 3 and len(whole) == min(start, 60)
    partial = local.get(f"{path}?token={token}&log={start - 2}")
    assert partial.status_code == 200
    assert _log_items(partial.text) == (start, whole[:2])
    # the rest of the board is the same board
    cut = re.compile(r'<ol class="log".*?</ol>(<p class="muted">\(\d+ earlier events\)</p>)?', re.S)
    assert cut.sub("", partial.text) == cut.sub("", local.get(f"{path}?token={token}").text)


def test_a_board_asked_for_the_log_past_its_end_lists_none_and_the_cache_holds_one_per_seat(
    local: TestClient,
) -> None:
    path, token = _played(local, 4)
    start, _ = _log_items(local.get(f"{path}?token={token}").text)
    past = local.get(f"{path}?token={token}&log={start + 5}").text
    assert '<ol class="log"' not in past
    local.get(f"{path}?token={token}&log=1")
    local.get(f"{path}?token={token}&log=2")
    table = local.app.state.tables.loader.cache[path.split("/")[2]]  # type: ignore[attr-defined]
    kept = [key for key in table.encoded.current if key[0] == "board"]
    assert sorted(kept, key=str) == [("board", 0, 0), ("board", 0, 2)]


@pytest.mark.parametrize("bad", ["-1", "x", str(2**31)])
def test_a_board_refuses_a_log_that_is_not_an_event_number(local: TestClient, bad: str) -> None:
    path, token = _played(local, 0)
    answer = local.get(f"{path}?token={token}&log={bad}")
    assert answer.status_code == 400 and answer.json()["code"] == "request/malformed"
