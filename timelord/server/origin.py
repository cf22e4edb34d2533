"""Changes come from the server's own pages, and the API reads JSON only: the one place that
stops another site's page from acting for a player whose browser holds our session cookie.

A browser marks every request it sends with where the page that sent it came from: `Origin`
on every POST, PUT, PATCH and DELETE and on every WebSocket handshake, and (current
browsers) `Sec-Fetch-Site`. A state-changing request or a WebSocket handshake is refused with
403 `origin/forbidden` when either header says another origin sent it: another host,
scheme or port (a page on the same host at another port is "same-site", not ours), or the
opaque origin `null` of a sandboxed frame or a `data:` page. The server's own origin is the
scheme and `Host` the request came in with, or behind a trusted proxy (`--trusted-proxy`) the
`X-Forwarded-Proto` and `X-Forwarded-Host` that proxy passed on. A request with neither
header did not come from a browser page (programs: the terminal client, bots, curl) and a
seat token or a session cookie it carries is its own to use.

The JSON API (`/api/...`) takes bodies only as `application/json`: a body of another type,
or of none, is refused with 415 `request/media_type` before any route reads it. The types a
page can send to another site without asking first (a form, `text/plain`, a typeless blob)
are exactly the ones refused, so even a browser without either header cannot post there.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import JSONResponse

from timelord.server.errors import ApiError, Code
from timelord.server.proxy import Proxies

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

#: methods that only read (a browser may send them from any page: they change nothing)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: what Sec-Fetch-Site may say of a request we take: our page, or the person typing the URL
OWN_FETCH_SITES = frozenset({"same-origin", "none"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _header(scope: Scope, name: bytes) -> str | None:
    """The last value of a request header (latin-1, as HTTP carries it), or None."""
    found = None
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            found = value.decode("latin-1")
    return found


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the scheme's default port filled in; None if unreadable."""
    scheme = {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme.lower())
    try:
        parts = urlsplit(f"{scheme}://{netloc.strip()}")
        port = parts.port or _DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return scheme, parts.hostname.lower(), port


def own_origin(scope: Scope, proxies: Proxies) -> tuple[str, str, int] | None:
    """The origin the client reached this server at: the request's scheme and Host, or the
    forwarded host where a trusted proxy names one (the scheme it forwards is already the
    scope's, `proxy.ForwardedScheme`)."""
    host = _header(scope, b"host")
    client = scope.get("client")
    if client and proxies.networks and proxies.trusts(str(client[0])):
        forwarded = _header(scope, b"x-forwarded-host")
        if forwarded:
            host = forwarded.split(",")[-1].strip()
    if not host:
        return None
    return _origin(str(scope.get("scheme", "http")), host)


def foreign(scope: Scope, proxies: Proxies) -> str | None:
    """Why a browser says another site sent this request, or None if nothing says so."""
    site = _header(scope, b"sec-fetch-site")
    if site is not None and site.strip().lower() not in OWN_FETCH_SITES:
        return f"Sec-Fetch-Site is {site.strip()!r}"
    origin = _header(scope, b"origin")
    if origin is None:
        return None
    parts = urlsplit(origin.strip())
    theirs = _origin(parts.scheme, parts.netloc) if parts.scheme and parts.netloc else None
    if theirs is None or theirs != own_origin(scope, proxies):
        return f"Origin {origin.strip()!r} is not this server's"
    return None


def json_body_refused(scope: Scope) -> bool:
    """Whether an API request carries a body that is not declared JSON."""
    length = _header(scope, b"content-length")
    chunked = "chunked" in (_header(scope, b"transfer-encoding") or "").lower()
    if not chunked and (length is None or length.strip() in ("", "0")):
        return False
    kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    return kind != "application/json"


class SameOrigin:
    """ASGI middleware: 403 `origin/forbidden` for a state-changing request or a WebSocket
    handshake another site's page sent; 415 `request/media_type` for an API body that is not
    JSON. Both are answered before any route runs."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], proxies: Proxies):
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" and scope["method"] not in SAFE_METHODS:
            why = foreign(scope, self.proxies)
            if why is not None:
                refusal = ApiError(Code.ORIGIN_FORBIDDEN, f"refused: {why}")
                await JSONResponse(refusal.body(), refusal.status)(scope, receive, send)
                return
            if str(scope.get("path", "")).startswith("/api/") and json_body_refused(scope):
                refusal = ApiError(Code.REQUEST_MEDIA_TYPE)
                await JSONResponse(refusal.body(), refusal.status)(scope, receive, send)
                return
        elif kind == "websocket":
            why = foreign(scope, self.proxies)
            if why is not None:
                await _refuse_socket(receive, send, ApiError(Code.ORIGIN_FORBIDDEN, why))
                return
        await self.app(scope, receive, send)


async def _refuse_socket(receive: Receive, send: Send, refusal: ApiError) -> None:
    """As every socket refused at its opening: accepted, told why, closed with 4000+status."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    text = json.dumps({**refusal.body(), "status": refusal.status})
    await send({"type": "websocket.send", "text": text})
    await send({"type": "websocket.close", "code": 4000 + refusal.status})
