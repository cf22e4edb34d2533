"""The HTTP protocol `timelord serve` runs: uvicorn's, with what it lacks.

- A deadline for a request's headers: a connection whose request line and headers have not
  all arrived within `timeout` seconds is closed (uvicorn drops idle keep-alive connections
  but waits forever for a request that has begun).
- Refusals that cost next to nothing (with httptools, which uvicorn[standard] brings): a
  request whose client address is past its rate (`admission.Admission`) is answered with the
  429 built once, as soon as its headers are parsed, and its connection closed: no task and
  no ASGI call are made for it, and nothing the client sent after it (a pipelining flood's
  next requests) is parsed or read. Requests of the same connection before it are answered
  first. A client connecting itself that keeps coming after repeated refusals, still over its
  rate, has its new connections closed as they open, unread. With h11 the ASGI layer
  (`admission.Admit`) refuses, as for every ASGI server.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from timelord.server.admission import ADMITTED, REFUSED_BYTES, REFUSED_HEAD_BYTES, Admission


class _HeaderDeadline:
    """The deadline part, shared by uvicorn's two HTTP/1.1 protocols: armed when a connection
    opens and when a response ends, disarmed once a request's headers are all in."""

    timeout: float = 10.0
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        if self.timeout > 0:
            self._header_timer = self.loop.call_later(self.timeout, self._late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _late(self) -> None:
        self._header_timer = None
        current: object = self.transport.get_protocol()
        if current is self:  # not upgraded to a WebSocket meanwhile
            self.transport.close()


class H11HeaderTimeout(_HeaderDeadline, H11Protocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the headers are in; the app has the request now

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        self._arm()  # first: a pipelined request that follows disarms it again
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class _Refused(Exception):
    """Raised from a parser callback: the request was refused, so parsing stops there."""


def serving_protocol(timeout: float, admission: Admission | None = None) -> type[asyncio.Protocol]:
    """The protocol class for uvicorn's `http=` setting: httptools' when installed (uvicorn's
    own choice), else h11's; closing connections whose headers are late by `timeout` s (0:
    never), and refusing requests past `admission`'s rate as their headers arrive."""
    try:
        import httptools
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return type("H11HeaderTimeout", (H11HeaderTimeout,), {"timeout": timeout})

    class Parser(httptools.HttpRequestParser):
        """httptools' parser, except that a refusal raised by a callback ends the feed
        quietly (uvicorn would log it and answer 400)."""

        def feed_data(self, data: Any) -> None:
            try:
                super().feed_data(data)
            except httptools.HttpParserCallbackError as exc:
                if not isinstance(exc.__context__, _Refused):
                    raise

    class HttpToolsServing(_HeaderDeadline, HttpToolsProtocol):
        #: the answer to a refused request of this connection (nothing more of it is read)
        refusal: bytes | None = None

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.parser = Parser(self)
            with contextlib.suppress(AttributeError):  # as uvicorn sets its own parser
                self.parser.set_dangerous_leniencies(lenient_data_after_close=True)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            if (
                admission is not None
                and peer is not None
                and not admission.proxies.trusts(peer)
                and admission.flooding(peer)
            ):
                # refused again and again and still over its rate: not a byte more is
                # read or written for it until it has a request again (a proxy's clients
                # are told apart by their headers, so a proxy's connection is always read)
                self.refusal = b""
                transport.close()
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self.refusal is None:
                super().data_received(data)

        def on_headers_complete(self) -> None:
            self._disarm()
            if admission is not None and not self.parser.should_upgrade():
                scope = {"client": self.client, "headers": self.headers}
                if not admission.allow(admission.proxies.client_address(scope)):
                    head = self.parser.get_method() == b"HEAD"
                    self.refusal = REFUSED_HEAD_BYTES if head else REFUSED_BYTES
                    self.flow.pause_reading()
                    self._refuse()
                    raise _Refused
                scope_now: dict[str, Any] = self.scope  # type: ignore[assignment]
                scope_now.setdefault("extensions", {})[ADMITTED] = {}
            super().on_headers_complete()

        def _refuse(self) -> None:
            """The refusal written and the connection closed, once every request before it
            is answered (`on_response_complete` comes back here until then)."""
            if self.pipeline or (self.cycle is not None and not self.cycle.response_complete):
                return
            assert self.refusal is not None
            self.transport.write(self.refusal)
            self.transport.close()

        def on_response_complete(self) -> None:
            self._arm()
            super().on_response_complete()
            if self.refusal is not None and not self.transport.is_closing():
                self.flow.pause_reading()
                self._refuse()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    HttpToolsServing.timeout = timeout
    return HttpToolsServing
