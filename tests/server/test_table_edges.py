"""The table core's smaller hardening (issue 30, finding 10): out-of-range chat numbers,
/openapi.json's references, binary and non-UTF-8 frames, the rate limit from `serve`."""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from timelord.server.frames_log import BAD_UTF8, QuietBadFrames

from .helpers import Server
from .test_api import create


@pytest.mark.parametrize("after", [2**31, 2**63, 2**64, -1])
def test_chat_after_out_of_range_is_400_on_every_database(client: TestClient, after: int) -> None:
    table = create(client, "keys", ["human", "human"])
    answer = client.get(f"/api/tables/{table['id']}/chat", params={"after": after})
    assert answer.status_code == 400 and answer.json()["code"] == "request/malformed"
    top = client.get(f"/api/tables/{table['id']}/chat", params={"after": 2**31 - 1})
    assert top.status_code == 200 and top.json() == {"messages": []}


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _refs(value)]
    return []


def test_every_openapi_ref_resolves(local: TestClient) -> None:
    doc = local.get("/openapi.json").json()
    refs = set(_refs(doc))
    assert "#/components/schemas/RealtimeClock" in refs  # the clock bodies are named
    for ref in refs:
        assert ref.startswith("#/"), ref
        node: Any = doc
        for part in ref[2:].split("/"):
            assert isinstance(node, dict) and part in node, f"{ref} does not resolve"
            node = node[part]


def test_binary_frames_are_refused_not_played(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    token = table["seats"][0]["token"]
    with local.websocket_connect(f"/api/tables/{table['id']}/ws?token={token}") as ws:
        ws.receive_json()
        legal = local.get(f"/api/tables/{table['id']}", params={"token": token}).json()["legal"]
        ws.send_bytes(b'{"version": 0, "action": %s}' % repr(legal[0]).replace("'", '"').encode())
        refusal = ws.receive_json()
        assert refusal["code"] == "request/malformed" and refusal["status"] == 400
    assert local.get(f"/api/tables/{table['id']}").json()["version"] == 0


def test_bad_utf8_frames_log_one_line_a_minute_without_traceback() -> None:
    moment = [0.0]
    quiet = QuietBadFrames(every=60, now=lambda: moment[0])
    logger = logging.getLogger("test.frames")
    records: list[logging.LogRecord] = []

    def record() -> logging.LogRecord:
        try:
            b"\xff".decode()
        except UnicodeDecodeError:
            import sys

            made = logger.makeRecord(
                "uvicorn.error", logging.ERROR, "x", 1, BAD_UTF8, (), sys.exc_info()
            )
        return made

    for step in range(5):
        moment[0] = step
        made = record()
        if quiet.filter(made):
            records.append(made)
    moment[0] = 61
    made = record()
    assert quiet.filter(made)
    records.append(made)
    assert len(records) == 2 and all(r.exc_info is None for r in records)
    assert "4 more" in records[1].getMessage()


def test_serve_sets_the_rate_limit_and_bad_frames_leave_no_traceback(
    sqlite_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "log"
    server = Server(sqlite_url, 0.0, log, extra=("--rate", "1", "--burst", "3"))
    try:
        server.wait_ready()
        made = server.client.post("/api/tables", json={"game": "keys", "seats": ["human"] * 2})
        codes = [server.client.get("/api/tables").status_code for _ in range(8)]
        assert 200 in codes and codes.count(429) >= 4
        ws_url = server.url.replace("http", "ws", 1) + f"/api/tables/{made.json()['id']}/ws"
        asyncio.run(_bad_frames(ws_url, 3))
        # a refusal closes the connection: the requests pipelined behind it are never read
        answers = _pipelined(server.port, 20)
        assert answers.count(b"HTTP/1.1 ") == 1 and b" 429 " in answers
    finally:
        server.stop()
    text = log.read_text()
    assert text.count(BAD_UTF8) == 1 and "Traceback" not in text


async def _bad_frames(url: str, count: int) -> None:
    import websockets

    for _ in range(count):
        async with websockets.connect(url) as ws:
            await ws.recv()
            await ws.send(b"\xff\xfe", text=True)
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()


def _pipelined(port: int, count: int) -> bytes:
    """`count` GETs written at once on one connection; everything read back until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n" * count)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)
