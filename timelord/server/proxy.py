"""Who a request comes from, behind a reverse proxy or not, and connections that stall.

`client_address` is what every per-client limit counts by. A forwarded address
(`X-Forwarded-For`) is believed only when the peer itself is one of the proxies the operator
named (`timelord serve --trusted-proxy ADDR`); from anyone else the header is ignored, so a
client cannot pose as many. The server's own proxy-header handling is switched off
(`timelord serve` passes proxy_headers=False to uvicorn) so that this is the only place that
decides.

`header_timeout_protocol` gives uvicorn a protocol that closes a connection whose request
line and headers have not all arrived within `timeout` seconds (item 6): uvicorn drops idle
keep-alive connections but waits forever for a request that has begun.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


class Proxies:
    """The addresses (or networks, `10.0.0.0/8`) whose forwarded headers are believed."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.networks = [ipaddress.ip_network(t.strip(), strict=False) for t in trusted]

    def trusts(self, peer: str) -> bool:
        found = _address(peer)
        return found is not None and any(found in net for net in self.networks)

    def client_address(self, scope: Mapping[str, Any]) -> str:
        """The client's address: the peer, or, when the peer is a trusted proxy, the last
        address in X-Forwarded-For that is not itself a trusted proxy (the one the nearest
        proxy saw; entries further left were written by the client and prove nothing)."""
        client = scope.get("client")
        peer = str(client[0]) if client else "unknown"
        if not self.networks or not self.trusts(peer):
            return peer
        hops: list[str] = []
        for name, value in scope.get("headers", ()):
            if name.lower() == b"x-forwarded-for":
                hops += value.decode("latin-1").split(",")
        for hop in reversed(hops):
            found = _address(hop)
            if found is None:
                return peer  # a proxy would not write that: trust none of it
            if not self.trusts(str(found)):
                return str(found)
        return peer

    def scheme(self, scope: Mapping[str, Any]) -> str | None:
        """The scheme the client used (X-Forwarded-Proto), when a trusted proxy says so."""
        client = scope.get("client")
        if not self.networks or not client or not self.trusts(str(client[0])):
            return None
        for name, value in scope.get("headers", ()):
            if name.lower() == b"x-forwarded-proto":
                found = value.decode("latin-1").split(",")[-1].strip().lower()
                if found in ("http", "https"):
                    return found
        return None


class ForwardedScheme:
    """ASGI middleware: behind a trusted proxy that holds TLS, links the server writes (a
    seat's `url`, `watch_url`) name https (or wss) as the client sees them."""

    def __init__(self, app: Any, proxies: Proxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            found = self.proxies.scheme(scope)
            if found is not None:
                secure = found == "https"
                scheme = ("wss" if secure else "ws") if scope["type"] == "websocket" else found
                scope = {**scope, "scheme": scheme}
        await self.app(scope, receive, send)


class _HeaderDeadline:
    """The deadline part, shared by uvicorn's two HTTP/1.1 protocols: armed when a connection
    opens and when a response ends, disarmed once a request's headers are all in."""

    timeout: float = 10.0
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
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


def header_timeout_protocol(timeout: float) -> type[asyncio.Protocol]:
    """The protocol class for uvicorn's `http=` setting: httptools' when installed (uvicorn's
    own choice), else h11's, closing connections whose headers are late by `timeout` s."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return type("H11HeaderTimeout", (H11HeaderTimeout,), {"timeout": timeout})

    class HttpToolsHeaderTimeout(_HeaderDeadline, HttpToolsProtocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            self._arm()
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    HttpToolsHeaderTimeout.timeout = timeout
    return HttpToolsHeaderTimeout
