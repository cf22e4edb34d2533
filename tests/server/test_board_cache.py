"""The board HTML a seat fetches is drawn once per (version, seat) (issue 29)."""

from __future__ import annotations

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
