"""Nobody crowds others out (issue 30): spectators cannot take a seat's room for its socket
(finding 8)."""

from __future__ import annotations

import contextlib

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

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
