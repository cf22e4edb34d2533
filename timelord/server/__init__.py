"""The web server: `timelord serve`, tables with people and bots, stored in a database.

`create_app(db_url, bot_delay)` builds the ASGI app (see `timelord.server.app`).
"""

from __future__ import annotations

from timelord.server.app import create_app

__all__ = ["create_app"]
