"""Who may come in, decided before anything else is spent on a request: the request rate of
one client address, and how many connections it holds at once.

A client is its address (`Proxies.client_address`: the peer, or behind a `--trusted-proxy`
the address it passed on), so a new connection starts no fresh allowance. A refusal is 429
`rate/limited`, made of bytes built once, and it closes the connection, so nothing a client
pipelined behind a refused request is ever read. Refused requests should cost the other
clients almost nothing, so they are turned away as early as the server can tell who sent
them: `Admit`, the outermost ASGI layer, before routing, bodies and sessions; and under
`timelord serve` earlier still, in the HTTP protocol itself, as soon as a request's headers
are parsed (`protocol.serving_protocol`): no task, no ASGI call, and the rest of what the
client sent is not parsed; and a client connecting itself (not through a trusted proxy)
that keeps coming after `patience` refusals in a row has its new connections closed as they
open, unread, until its allowance has grown back a request (a client that waits as its 429
asks, a second, never meets this).

Connections are counted per address after the forwarded address is resolved: an HTTP
request counts while it is in progress (a proxy's connection carries many clients' requests
one after another, so a request is what one client holds), a WebSocket while it is open.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from timelord.server.errors import rate_limited
from timelord.server.headers import CSP, HEADERS
from timelord.server.proxy import Proxies

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the key a protocol that has already charged a request's rate puts in its scope's
#: "extensions", so the ASGI layer does not charge it twice
ADMITTED = "timelord.admitted"


class RateLimit:
    """A token bucket: `rate` per second on average, bursts of up to `burst`."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.clock = clock
        self.stamp = clock()
        #: requests refused since the last one allowed
        self.refused = 0

    def allow(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            self.refused += 1
            return False
        self.refused = 0
        self.level -= 1
        return True


class Admission:
    """The request buckets and open connections of every client address (the most recent
    `remember` addresses' buckets; connections of every address holding one)."""

    def __init__(
        self,
        proxies: Proxies,
        rate: float,
        burst: float,
        connections: int = 0,
        remember: int = 4096,
        clock: Callable[[], float] = time.monotonic,
        patience: int = 8,
    ) -> None:
        self.proxies = proxies
        self.rate = rate
        self.burst = burst
        #: connections one address may hold at once (0 or less: no cap)
        self.connections = connections
        self.remember = remember
        self.clock = clock
        #: refusals in a row (each answered 429) after which a client still over its rate
        #: is a flood: `timelord serve` then closes its new connections unread
        self.patience = patience
        self._buckets: dict[str, RateLimit] = {}
        self.holding: Counter[str] = Counter()

    def allow(self, address: str) -> bool:
        """Whether one more request of `address` is within its rate (and take it if so)."""
        bucket = self._buckets.pop(address, None) or RateLimit(self.rate, self.burst, self.clock)
        self._buckets[address] = bucket  # most recent last, so the oldest go first
        if len(self._buckets) > self.remember:
            del self._buckets[next(iter(self._buckets))]
        return bucket.allow()

    def flooding(self, address: str) -> bool:
        """Whether `address` was refused `patience` times in a row and has not earned
        another request since (nothing is taken)."""
        bucket = self._buckets.get(address)
        if bucket is None or bucket.refused < self.patience:
            return False
        return bucket.level + (self.clock() - bucket.stamp) * bucket.rate < 1

    def enter(self, address: str) -> bool:
        """Count one more connection of `address`, or False (counting nothing) at the cap."""
        if 0 < self.connections <= self.holding[address]:
            return False
        self.holding[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.holding[address] -= 1
        if self.holding[address] <= 0:
            del self.holding[address]


def _refusal_headers(body: bytes) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1"),
        (b"connection", b"close"),
        *HEADERS,
        (b"content-security-policy", CSP.encode()),
    ]


_BODY = json.dumps(rate_limited().body()).encode()
#: a 429 as ASGI messages: the connection is closed after it (`connection: close`)
REFUSED_START = {"type": "http.response.start", "status": 429, "headers": _refusal_headers(_BODY)}
REFUSED_BODY = {"type": "http.response.body", "body": _BODY}
#: the same 429 as the bytes a protocol writes to the connection itself
REFUSED_BYTES = b"".join(
    [
        b"HTTP/1.1 429 Too Many Requests\r\n",
        *(name + b": " + value + b"\r\n" for name, value in _refusal_headers(_BODY)),
        b"\r\n",
        _BODY,
    ]
)
#: the same for a HEAD request, which has no body
REFUSED_HEAD_BYTES = REFUSED_BYTES[: REFUSED_BYTES.index(b"\r\n\r\n") + 4]
#: what a WebSocket past the connection cap is told before it is closed with 4429
REFUSED_SOCKET = json.dumps({**rate_limited("too many connections from you").body(), "status": 429})


class Admit:
    """The outermost ASGI layer: an HTTP request past its address's rate, or past the
    connections its address may hold, is answered 429 and its connection closed before
    anything else runs; a WebSocket past the connections cap is accepted only to be told
    `rate/limited` and closed with 4429 (as a socket past the socket caps is)."""

    def __init__(self, app: ASGIApp, admission: Admission) -> None:
        self.app = app
        self.admission = admission

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        admission = self.admission
        address = admission.proxies.client_address(scope)
        if kind == "http":
            charged = ADMITTED in scope.get("extensions", {})
            if not (charged or admission.allow(address)) or not admission.enter(address):
                await send(REFUSED_START)
                await send(REFUSED_BODY)
                return
        elif not admission.enter(address):
            await _refuse_socket(receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            admission.leave(address)


async def _refuse_socket(receive: Receive, send: Send) -> None:
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": REFUSED_SOCKET})
    await send({"type": "websocket.close", "code": 4429})
