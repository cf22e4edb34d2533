"""Nobody crowds others out (issue 30): spectators cannot take a seat's room for its socket
(finding 8); table limits hold under simultaneous creations and count open tables
(finding 7)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import datetime as dt

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from timelord.server import create_app
from timelord.server.limits import Limits

from .test_trust import _app, _as, _create


def test_spectators_filling_a_table_leave_every_seat_room(sqlite_url: str) -> None:
    """Finding 8: 4 addresses x the spectators' cap fill the table; each seat still gets its
    socket, and a seat's own sockets are capped on their own."""
    limits = Limits(sockets_per_client=4, sockets_per_table=8, sockets_per_seat=2)
    with _app(sqlite_url, limits=limits) as client, contextlib.ExitStack() as held:
        made = _create(client, ["human", "human"]).json()
        path = f"/api/tables/{made['id']}/ws"
        for n in range(4):
            for _ in range(2):
                ws = held.enter_context(client.websocket_connect(path, headers=_as(f"10.9.0.{n}")))
                ws.receive_json()
        assert _refused(client, path, _as("10.9.0.9")) == 4429  # the spectators are full
        for seat in (0, 1):
            mine = f"{path}?token={made['seats'][seat]['token']}"
            for _ in range(2):
                ws = held.enter_context(client.websocket_connect(mine))
                assert ws.receive_json()["version"] == 0
            assert _refused(client, mine, None) == 4429  # a seat's own cap


def _refused(client: TestClient, path: str, headers: dict[str, str] | None) -> int:
    with client.websocket_connect(path, headers=headers or {}) as ws:
        assert ws.receive_json()["code"] == "rate/limited"
        try:
            ws.receive_json()
        except WebSocketDisconnect as closed:
            return closed.code
    raise AssertionError("the socket was not closed")


def test_fifty_simultaneous_creations_against_a_limit_of_twenty_make_twenty(
    db_url: str,
) -> None:
    """Finding 7: the limit's count and the table's insert are one step, on SQLite and on
    PostgreSQL (where other processes create too)."""
    limits = Limits(bot_tables_per_client=20, creations_per_minute=100)
    with _app(db_url, limits=limits) as client:

        def make(_: int) -> int:
            answer = _create(client, ["human", "random"], via="203.0.113.7")
            return int(answer.status_code)

        with concurrent.futures.ThreadPoolExecutor(50) as pool:
            codes = list(pool.map(make, range(50)))
        assert codes.count(201) == 20 and codes.count(429) == 30
        listed = client.get("/api/tables", params={"limit": 1000}).json()["tables"]
        assert len(listed) == 20


def test_open_tables_count_toward_the_limits_and_are_archived(sqlite_url: str) -> None:
    """Finding 7: a table waiting for its open seat holds the server's room as one in play
    does, and is archived when nobody joins it."""
    now = [dt.datetime.now(dt.UTC)]
    app = create_app(sqlite_url, 0, limits=Limits(bot_tables_per_client=2, archive_after=3600))
    app.state.tables.clock = lambda: now[0]
    with TestClient(app) as client:
        made = [_create(client, ["open", "random"]) for _ in range(3)]
        assert [m.status_code for m in made] == [201, 201, 429]
        now[0] += dt.timedelta(minutes=61)
        tables = app.state.tables
        archived = client.portal.call(tables.loader.archive)  # type: ignore[union-attr]
        assert set(archived) == {m.json()["id"] for m in made[:2]}
        assert _create(client, ["open", "random"]).status_code == 201  # room again
