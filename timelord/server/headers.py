"""Security headers on every HTTP answer, so that a string that slips past escaping still
cannot run: a Content-Security-Policy that runs only the server's own script files (no
inline script, no inline event handlers, no `eval`), no framing (clickjacking), no
Referer (seat tokens are in table addresses) and no content-type guessing.

The pages and boards are built for this policy: every script is a file under /static, page
data travels in `<script type="application/json">` blocks (read, never run), and boards
carry their actions in `data-*` attributes that the static scripts handle. Inline `style`
attributes stay allowed: boards place pieces with them, and a style cannot run script.
FastAPI's own /docs and /redoc pages load their viewer from a CDN with an inline script
and show no player's text, so they get the other headers but not the policy.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The policy of every page and answer (one line; directives joined by "; ").
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

#: Headers sent with every HTTP answer.
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

#: Paths served by FastAPI's documentation viewers, which need a CDN and an inline script.
DOC_PATHS = ("/docs", "/redoc")


class SecurityHeaders:
    """ASGI middleware adding `HEADERS`, and `CSP` outside the documentation viewers, to
    every HTTP response start (WebSocket traffic is left alone)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        extra = list(HEADERS)
        if not path.startswith(DOC_PATHS):
            extra.append((b"content-security-policy", CSP.encode()))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in extra}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)
