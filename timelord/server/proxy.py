"""Who a request comes from, behind a reverse proxy or not.

`client_address` is what every per-client limit counts by. A forwarded address
(`X-Forwarded-For`) is believed only when the peer itself is one of the proxies the operator
named (`timelord serve --trusted-proxy ADDR`); from anyone else the header is ignored, so a
client cannot pose as many. The server's own proxy-header handling is switched off
(`timelord serve` passes proxy_headers=False to uvicorn) so that this is the only place that
decides.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any


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
