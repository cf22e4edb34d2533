"""A socket lives no longer than what opened it (issue 30, finding 3): a re-invite, a logout
and a password change close the sockets their old token or session opened, with a coded
close, and nothing is sent to them after."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from timelord.server import create_app

from .test_api import create


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as client:
        yield client


def _closed_with(ws: Any, code: str, close: int) -> None:
    """The next thing the socket is sent is the refusal, and then it closes."""
    refusal = ws.receive_json()
    assert refusal["code"] == code, refusal
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == close


def test_a_reinvite_closes_the_old_links_socket(web: TestClient) -> None:
    table = create(web, "keys", ["human", "human"])
    old = table["seats"][0]["token"]
    path = f"/api/tables/{table['id']}/ws"
    with web.websocket_connect(f"{path}?token={old}") as ws:
        assert ws.receive_json()["version"] == 0
        fresh = web.post(
            f"/api/tables/{table['id']}/seats/0/invite", params={"owner": table["owner_token"]}
        ).json()["token"]
        _closed_with(ws, "seat/forbidden", 4403)
    with web.websocket_connect(f"{path}?token={fresh}") as ws:
        assert ws.receive_json()["version"] == 0  # the new link opens the seat


def test_a_message_with_a_renewed_link_is_refused_and_closed(web: TestClient) -> None:
    """Every message is authorised against the seat's current token: a socket that missed
    the push (another process renewed it) is closed at its next message."""
    table = create(web, "keys", ["human", "human"])
    token = table["seats"][0]["token"]
    with web.websocket_connect(f"/api/tables/{table['id']}/ws?token={token}") as ws:
        snap = ws.receive_json()
        live = web.app.state.tables.loader.cache[table["id"]]  # type: ignore[attr-defined]
        live.seats[0]["token_hash"] = "renewed elsewhere"  # as a resync from another process
        ws.send_json({"version": 0, "action": snap["legal"][0]})
        _closed_with(ws, "seat/forbidden", 4403)
    assert web.get(f"/api/tables/{table['id']}").json()["version"] == 0  # nothing was played


def _player_at_table(client: TestClient, name: str) -> dict[str, Any]:
    assert client.post("/api/players", json={"name": name, "password": "a long secret"}).is_success
    return create(client, "keys", ["human", "human"])  # the player sits in seat 0


def _say(client: TestClient, table: dict[str, Any], text: str) -> None:
    token = table["seats"][1]["token"]
    said = client.post(
        f"/api/tables/{table['id']}/chat", params={"token": token}, json={"text": text}
    )
    assert said.status_code == 204


def test_logout_closes_the_sockets_its_session_opened(web: TestClient) -> None:
    table = _player_at_table(web, "Ann")
    path = f"/api/tables/{table['id']}/ws"
    with web.websocket_connect(path) as mine, web.websocket_connect(path) as second:
        assert mine.receive_json()["legal"]  # the cookie opened seat 0: it sees its moves
        second.receive_json()
        assert web.delete("/api/session").status_code == 204
        _say(web, table, "after the logout")  # what an open socket would be sent now
        _closed_with(mine, "session/none", 4401)
        _closed_with(second, "session/none", 4401)  # every socket the session opened
    with web.websocket_connect(path) as ws:
        assert ws.receive_json()["legal"] == []  # now a spectator's socket


def test_a_password_change_closes_the_other_sessions_sockets(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as first:
        table = _player_at_table(first, "Bea")
        second = TestClient(first.app)
        login = {"name": "Bea", "password": "a long secret"}
        assert second.post("/api/session", json=login).status_code == 200
        with second.websocket_connect(f"/api/tables/{table['id']}/ws") as other:
            assert other.receive_json()["legal"]
            new = {"password": "another long secret", "current_password": "a long secret"}
            changed = first.patch("/api/session", json=new)
            assert changed.status_code == 200, changed.text
            _say(first, table, "after the change")
            _closed_with(other, "session/none", 4401)


def _revoked(app: Any, table_id: str) -> bool:
    """Whether every socket open on `table_id` in `app`'s process was revoked."""
    outboxes = app.state.tables.fanout.sockets.get(table_id, ())
    return bool(outboxes) and all(o.revoked is not None for o in outboxes)


@pytest.mark.parametrize("how", ["logout", "password"])
def test_ending_a_session_on_one_process_closes_its_sockets_on_another(
    postgres: Any, how: str
) -> None:
    """Two processes on one PostgreSQL database: a session's socket on one is closed as soon
    as the session ends on the other (its notice), without waiting for its next message."""
    url = postgres.new_database()
    with (
        TestClient(create_app(url, bot_delay=0)) as here,
        TestClient(create_app(url, bot_delay=0)) as there,
    ):
        table = _player_at_table(here, "Cy")
        there.cookies = here.cookies  # the same session, heard by the other process
        with here.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
            assert ws.receive_json()["legal"]
            if how == "logout":
                assert there.delete("/api/session").status_code == 204
            else:
                new = {"password": "another long secret", "current_password": "a long secret"}
                assert there.patch("/api/session", json=new).status_code == 200
            # the notice travels through the database: wait for it, a bounded poll
            deadline = time.monotonic() + 20
            while not _revoked(here.app, table["id"]) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _revoked(here.app, table["id"])
            _closed_with(ws, "session/none", 4401)
