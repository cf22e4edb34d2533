"""Connections whose request headers never finish are closed (issue 18, item 6): uvicorn's
protocols driven by hand with a fake timer, and once through a real `timelord serve`."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState

from tests.server.helpers import Server
from timelord.server.proxy import H11HeaderTimeout, header_timeout_protocol


class Timer:
    def __init__(self, delay: float, callback: Callable[[], None]) -> None:
        self.delay = delay
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeLoop:
    """The running loop, except that timers are kept here to be fired by the test."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self.timers: list[Timer] = []

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(delay, callback)
        self.timers.append(timer)
        return timer

    def fire(self) -> None:
        for timer in list(self.timers):
            if not timer.cancelled:
                timer.callback()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loop, name)


class Transport:
    def __init__(self) -> None:
        self.closed = False
        self.written = b""
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_protocol(self) -> Any:
        return self.protocol

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _ok(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def _connect(kind: type[Any], loop: FakeLoop) -> tuple[Any, Transport]:
    config = uvicorn.Config(_ok, log_level="warning", lifespan="off")
    config.load()
    protocol = kind(config=config, server_state=ServerState(), app_state={}, _loop=loop)
    transport = Transport()
    transport.protocol = protocol
    protocol.connection_made(transport)
    return protocol, transport


@pytest.mark.parametrize("kind", [H11HeaderTimeout, header_timeout_protocol(3.0)])
def test_a_connection_whose_headers_stall_is_closed(kind: type[Any]) -> None:
    async def scenario() -> None:
        loop = FakeLoop(asyncio.get_running_loop())
        protocol, transport = _connect(kind, loop)
        assert [t.delay for t in loop.timers] == [kind.timeout]
        protocol.data_received(b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Half: ")
        loop.fire()
        assert transport.closed

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", [H11HeaderTimeout, header_timeout_protocol(3.0)])
def test_a_request_that_arrives_in_time_is_answered_and_the_clock_restarts(
    kind: type[Any],
) -> None:
    async def scenario() -> None:
        loop = FakeLoop(asyncio.get_running_loop())
        protocol, transport = _connect(kind, loop)
        protocol.data_received(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in range(20):  # let the app answer
            await asyncio.sleep(0)
        assert b"200" in transport.written.split(b"\r\n")[0]
        assert not transport.closed
        assert loop.timers[0].cancelled
        # the next request on this keep-alive connection has its own deadline
        armed = [t for t in loop.timers if not t.cancelled and t.delay == kind.timeout]
        assert len(armed) == 1
        protocol.data_received(b"GET / HTTP/1.1\r\nHo")
        loop.fire()
        assert transport.closed

    asyncio.run(scenario())


def test_serve_drops_a_half_sent_request(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, 0.0, tmp_path / "log", extra=("--header-timeout", "0.5"))
    try:
        server.wait_ready()
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as half:
            half.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
            assert half.recv(100) == b""  # closed by the server, long before 10 s
        assert server.client.get("/api/tables").status_code == 200
    finally:
        server.stop()
