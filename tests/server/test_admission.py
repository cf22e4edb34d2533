"""Admission: how many connections one client address holds at once (its HTTP requests in
progress and its WebSockets), counted by the address a trusted proxy passed on, refused
before any route runs; and that the refusal the protocol writes is the one the app sends."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import Server, wait_for
from tests.support import aio
from timelord.server import create_app
from timelord.server.admission import (
    REFUSED_BODY,
    REFUSED_BYTES,
    REFUSED_START,
    Admission,
    Admit,
)
from timelord.server.headers import CSP, HEADERS
from timelord.server.limits import Limits
from timelord.server.proxy import Proxies

PROXY = ("10.0.0.1", 4000)


class Held:
    """An app whose HTTP requests and sockets stay in progress until `release`."""

    def __init__(self) -> None:
        self.release = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
        await self.release.wait()
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})


def _scope(kind: str, forwarded: str | None, peer: str = PROXY[0]) -> dict[str, Any]:
    headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
    return {"type": kind, "client": (peer, 5000), "headers": headers}


async def _call(gate: Admit, scope: dict[str, Any]) -> list[Any]:
    """What the app (or the gate) sent for `scope`, once it has sent anything or ended."""
    sent: list[Any] = []

    async def receive() -> Any:
        return {"type": "websocket.connect"}

    async def send(message: Any) -> None:
        sent.append(message)

    task = asyncio.create_task(gate(scope, receive, send))
    for _ in range(10):
        await asyncio.sleep(0)
    sent.append(task)
    return sent


def test_connections_per_forwarded_address_are_capped_for_http_and_websockets() -> None:
    async def scenario() -> None:
        app = Held()
        gate = Admit(app, Admission(Proxies([PROXY[0]]), rate=1e6, burst=1e6, connections=2))
        a, b = "203.0.113.66", "198.51.100.1"
        first = await _call(gate, _scope("http", a))
        socket = await _call(gate, _scope("websocket", a))
        assert socket[0] == {"type": "websocket.accept"}
        refused = await _call(gate, _scope("http", a))
        assert refused[:2] == [REFUSED_START, REFUSED_BODY]
        refused_socket = await _call(gate, _scope("websocket", a))
        told = json.loads(refused_socket[1]["text"])
        assert (told["code"], told["status"]) == ("rate/limited", 429)
        assert refused_socket[2] == {"type": "websocket.close", "code": 4429}
        other = await _call(gate, _scope("http", b))  # the same proxy, another client
        assert other[:-1] == [] and not other[-1].done()  # admitted, in progress
        app.release.set()
        await asyncio.gather(first[-1], socket[-1], other[-1])
        assert gate.admission.holding == {}  # every connection given back
        again = await _call(gate, _scope("http", a))
        assert again[0]["status"] == 200

    aio.run(scenario())


def test_an_untrusted_peer_is_counted_as_itself_whatever_it_forwards() -> None:
    async def scenario() -> None:
        gate = Admit(Held(), Admission(Proxies(), rate=1e6, burst=1e6, connections=1))
        await _call(gate, _scope("http", "203.0.113.66", peer="192.0.2.7"))
        refused = await _call(gate, _scope("http", "198.51.100.1", peer="192.0.2.7"))
        assert refused[0] == REFUSED_START

    aio.run(scenario())


def test_a_socket_held_open_counts_against_its_addresss_connections(sqlite_url: str) -> None:
    app = create_app(sqlite_url, 0, limits=Limits(connections_per_client=1))
    with TestClient(app, client=PROXY) as client:
        table = client.post("/api/tables", json={"game": "keys", "seats": ["human"] * 2}).json()
        with client.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
            assert ws.receive_json()["version"] == 0
            refused = client.get("/api/tables")
            assert (refused.status_code, refused.json()["code"]) == (429, "rate/limited")
            with client.websocket_connect(f"/api/tables/{table['id']}/ws") as second:
                assert second.receive_json()["code"] == "rate/limited"
                with pytest.raises(WebSocketDisconnect) as closed:
                    second.receive_json()
                assert closed.value.code == 4429
        assert client.get("/api/tables").status_code == 200


def test_the_protocols_refusal_is_the_apps_to_the_byte() -> None:
    head, _, body = REFUSED_BYTES.partition(b"\r\n\r\n")
    status, *lines = head.split(b"\r\n")
    assert status == b"HTTP/1.1 429 Too Many Requests"
    headers = [tuple(line.split(b": ", 1)) for line in lines]
    assert headers == REFUSED_START["headers"] and body == REFUSED_BODY["body"]
    assert {*HEADERS, (b"content-security-policy", CSP.encode())} <= set(headers)
    assert json.loads(body)["code"] == "rate/limited"


def test_serve_caps_connections_per_address(sqlite_url: str, tmp_path: Path) -> None:
    """`timelord serve --connections-per-client`: a socket held open takes the one
    connection the address may hold, so its next request is refused until it closes."""
    import websockets.sync.client

    server = Server(sqlite_url, 0.0, tmp_path / "log", extra=("--connections-per-client", "1"))
    try:
        server.wait_ready()
        made = server.client.post("/api/tables", json={"game": "keys", "seats": ["human"] * 2})
        with websockets.sync.client.connect(
            server.ws_url(f"/api/tables/{made.json()['id']}/ws")
        ) as ws:
            assert json.loads(ws.recv())["version"] == 0
            refused = server.client.get("/api/tables")
            assert (refused.status_code, refused.json()["code"]) == (429, "rate/limited")
        assert wait_for(lambda: server.client.get("/api/tables").status_code == 200)
    finally:
        server.stop()
