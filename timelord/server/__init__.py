"""The web server: `timelord serve`, tables with people and bots, stored in a database.

`create_app(db_url, bot_delay)` builds the ASGI app (see `timelord.server.app`). It is
imported on first use, so the CLI can read the server's plain modules (its limits, for
`serve --help`) in an install without the `web` extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from timelord.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from timelord.server.app import create_app

        return create_app
    raise AttributeError(f"module 'timelord.server' has no attribute {name!r}")
