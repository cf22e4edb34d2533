"""The table package's hub (issue 29): a committed change is announced once, after the
commit, and the fan-out and turn scheduling hear it; a refused action announces nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from timelord.server import create_app
from timelord.server.table.hub import Change, Kind

RATE = 1e6


@pytest.fixture
def heard(sqlite_url: str) -> Iterator[tuple[TestClient, list[Change]]]:
    app = create_app(sqlite_url, 0, rate=RATE, burst=RATE)
    changes: list[Change] = []
    app.state.tables.hub.listen(changes.append)
    with TestClient(app) as client:
        yield client, changes


def test_a_move_is_announced_once_with_its_table_at_the_new_version(
    heard: tuple[TestClient, list[Change]],
) -> None:
    client, changes = heard
    made = client.post(
        "/api/tables", json={"game": "keys", "seats": ["human", "human"], "seed": 3}
    ).json()
    token = made["seats"][0]["token"]
    assert [c.kind for c in changes] == [Kind.LOADED]
    snap = client.get(f"/api/tables/{made['id']}?token={token}").json()
    answer = client.post(
        f"/api/tables/{made['id']}/actions?token={token}",
        json={"version": 0, "action": snap["legal"][0]},
    )
    assert answer.status_code == 200
    moved = [c for c in changes if c.kind is Kind.MOVED]
    assert len(moved) == 1 and moved[0].live.version == 1


def test_a_refused_action_announces_nothing(heard: tuple[TestClient, list[Change]]) -> None:
    client, changes = heard
    made = client.post(
        "/api/tables", json={"game": "keys", "seats": ["human", "human"], "seed": 3}
    ).json()
    token = made["seats"][0]["token"]
    before = len(changes)
    stale = client.post(
        f"/api/tables/{made['id']}/actions?token={token}",
        json={"version": 5, "action": {"type": "pass"}},
    )
    assert stale.json()["code"] == "action/stale"
    assert len(changes) == before


def test_a_chat_line_is_announced_once_with_its_line(
    heard: tuple[TestClient, list[Change]],
) -> None:
    client, changes = heard
    made = client.post(
        "/api/tables", json={"game": "keys", "seats": ["human", "human"], "seed": 3}
    ).json()
    token = made["seats"][1]["token"]
    sent = client.post(f"/api/tables/{made['id']}/chat?token={token}", json={"text": "hello"})
    assert sent.status_code == 204
    chats = [c for c in changes if c.kind is Kind.CHAT]
    assert len(chats) == 1 and [line["text"] for line in chats[0].lines] == ["hello"]
