"""The HTTP protocol `timelord serve` runs: connections whose request headers never finish are
closed, and a request past its address's rate is refused as its headers arrive, nothing
behind it parsed. uvicorn's protocols driven by hand with a fake timer and transport, and
once through a real `timelord serve`."""

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
from tests.support import aio
from timelord.server.admission import REFUSED_BYTES, REFUSED_HEAD_BYTES, Admission
from timelord.server.protocol import H11HeaderTimeout, serving_protocol
from timelord.server.proxy import Proxies


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


def _connect(kind: type[Any], loop: FakeLoop, app: Any = _ok) -> tuple[Any, Transport]:
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    config.load()
    protocol = kind(config=config, server_state=ServerState(), app_state={}, _loop=loop)
    transport = Transport()
    transport.protocol = protocol
    protocol.connection_made(transport)
    return protocol, transport


@pytest.mark.parametrize("kind", [H11HeaderTimeout, serving_protocol(3.0)])
def test_a_connection_whose_headers_stall_is_closed(kind: type[Any]) -> None:
    async def scenario() -> None:
        loop = FakeLoop(asyncio.get_running_loop())
        protocol, transport = _connect(kind, loop)
        assert [t.delay for t in loop.timers] == [kind.timeout]
        protocol.data_received(b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Half: ")
        loop.fire()
        assert transport.closed

    aio.run(scenario())


@pytest.mark.parametrize("kind", [H11HeaderTimeout, serving_protocol(3.0)])
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

    aio.run(scenario())


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


# -- refusals before the app ----------------------------------------------------------------


class Counted:
    """An app answering 200 that counts its calls and the scopes it was given."""

    def __init__(self) -> None:
        self.scopes: list[Any] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(scope)
        await _ok(scope, receive, send)


def _refusing(burst: float, trusted: tuple[str, ...] = ()) -> type[Any]:
    """The serving protocol over an admission that allows `burst` requests and then no more
    (its rate is one a day)."""
    return serving_protocol(3.0, Admission(Proxies(trusted), rate=1 / 86400, burst=burst))


GET = b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.66\r\n\r\n"


def test_a_refused_request_is_answered_before_the_app_and_nothing_behind_it_is_parsed() -> None:
    async def scenario() -> None:
        app = Counted()
        protocol, transport = _connect(_refusing(0), FakeLoop(asyncio.get_running_loop()), app)
        protocol.data_received(GET * 50)
        assert transport.written == REFUSED_BYTES and transport.closed
        protocol.data_received(GET)  # what the client still sends is not even parsed
        for _ in range(20):
            await asyncio.sleep(0)
        assert app.scopes == [] and not protocol.pipeline and protocol.cycle is None
        assert transport.written == REFUSED_BYTES

    aio.run(scenario())


def test_a_refusal_behind_pipelined_requests_waits_for_their_answers() -> None:
    async def scenario() -> None:
        app = Counted()
        protocol, transport = _connect(_refusing(2), FakeLoop(asyncio.get_running_loop()), app)
        protocol.data_received(GET * 50)
        assert transport.written == b"" and not transport.closed  # the first is being answered
        for _ in range(40):
            await asyncio.sleep(0)
        answers = transport.written.split(b"HTTP/1.1 ")[1:]
        assert [a.split(b" ")[0] for a in answers] == [b"200", b"200", b"429"]
        assert transport.written.endswith(REFUSED_BYTES) and transport.closed
        assert len(app.scopes) == 2  # the 47 behind the refusal never became requests
        assert all(s["extensions"] == {"timelord.admitted": {}} for s in app.scopes)

    aio.run(scenario())


def test_the_protocol_refuses_by_the_forwarded_address_behind_a_trusted_proxy() -> None:
    async def scenario() -> None:
        kind = _refusing(1, trusted=("127.0.0.1",))
        loop = FakeLoop(asyncio.get_running_loop())
        protocol, transport = _connect(kind, loop)
        protocol.data_received(GET)
        for _ in range(20):
            await asyncio.sleep(0)
        assert transport.written.startswith(b"HTTP/1.1 200")
        other = GET.replace(b"203.0.113.66", b"198.51.100.1")
        protocol, transport = _connect(kind, loop)  # the same proxy, another client
        protocol.data_received(other)
        for _ in range(20):
            await asyncio.sleep(0)
        assert transport.written.startswith(b"HTTP/1.1 200")
        protocol, transport = _connect(kind, loop)
        protocol.data_received(GET.replace(b"GET", b"HEAD"))
        assert transport.written == REFUSED_HEAD_BYTES  # no body after a HEAD's headers

    aio.run(scenario())


def test_a_client_refused_again_and_again_is_closed_unread_until_it_may_ask_again() -> None:
    async def scenario() -> None:
        now = [0.0]
        admission = Admission(
            Proxies(["10.0.0.1"]), rate=1.0, burst=1, clock=lambda: now[0], patience=2
        )
        kind = serving_protocol(3.0, admission)
        loop = FakeLoop(asyncio.get_running_loop())
        direct = b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n"
        protocol, transport = _connect(kind, loop)
        protocol.data_received(direct)  # its one request of the second
        for _ in range(20):
            await asyncio.sleep(0)
        assert transport.written.startswith(b"HTTP/1.1 200")
        for _ in range(2):  # drained, but told so each time until refused twice in a row
            protocol, transport = _connect(kind, loop)
            assert not transport.closed
            protocol.data_received(direct)
            assert transport.written == REFUSED_BYTES
        protocol, transport = _connect(kind, loop)  # and coming again at once
        assert transport.closed and transport.written == b""
        protocol.data_received(direct)
        assert transport.written == b""  # not read
        now[0] += 1.0  # a request earned back
        protocol, transport = _connect(kind, loop)
        assert not transport.closed
        protocol.data_received(direct)
        for _ in range(20):
            await asyncio.sleep(0)
        assert transport.written.startswith(b"HTTP/1.1 200")

    aio.run(scenario())


def test_a_trusted_proxys_connections_are_read_while_one_of_its_clients_is_refused() -> None:
    async def scenario() -> None:
        admission = Admission(Proxies(["127.0.0.1"]), rate=1 / 86400, burst=0, patience=1)
        kind = serving_protocol(3.0, admission)
        loop = FakeLoop(asyncio.get_running_loop())
        # the test transport's peer is 127.0.0.1, the proxy, here asking for itself (no
        # forwarded address), so it is the address refused: still, each of its connections
        # is read, as the next might carry another client's request
        for _ in range(3):
            protocol, transport = _connect(kind, loop)
            assert not transport.closed
            protocol.data_received(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n")
            assert transport.written == REFUSED_BYTES

    aio.run(scenario())
