"""A table's chat and notices: stored with the table's record, announced in order."""

from __future__ import annotations

import logging
from typing import Any

from timelord.server.errors import ApiError, Code, forbidden
from timelord.server.storage import Conflict
from timelord.server.table.database import Db
from timelord.server.table.hub import Hub, Kind
from timelord.server.table.live import Live

log = logging.getLogger("timelord.server")

#: the longest chat message, in characters
CHAT_LIMIT = 500


class Chat:
    def __init__(self, db: Db, hub: Hub) -> None:
        self.db = db
        self.hub = hub

    async def say(self, live: Live, seat: int | None, message: Any) -> None:
        """A seat's chat line, stored and sent to everyone at the table in order."""
        if seat is None:
            raise forbidden("spectators read the chat; only seats write")
        if not isinstance(message, str) or not message.strip():
            raise ApiError(Code.CHAT_INVALID, "a chat message is text of 1 to 500 characters")
        if len(message) > CHAT_LIMIT:
            raise ApiError(Code.CHAT_TOO_LONG, f"a chat message is at most {CHAT_LIMIT} characters")
        if live.seats[seat].get("muted"):
            raise ApiError(Code.CHAT_MUTED, "the table's creator muted this seat")
        await self.db.read(self.db.store.add_chat, live.id, seat, live.name(seat), message)
        await self.catch_up(live)

    async def notice(self, live: Live, message: str) -> None:
        """Tell the table something about itself (who stands in for whom): stored with the
        chat and shown in the table's log."""
        try:
            await self.db.read(self.db.store.add_chat, live.id, None, "table", message)
        except Conflict:
            log.warning("table %s: a notice was not stored", live.id)
            return
        await self.catch_up(live)

    async def catch_up(self, live: Live) -> None:
        """Announce the lines stored since the last one announced (by any process)."""
        async with live.chat_lock:
            lines = await self.db.read(self.db.store.chat, live.id, live.chat_seen)
            if lines:
                live.chat_seen = max(live.chat_seen, *(line["n"] for line in lines))
                self.hub.announce(Kind.CHAT, live, tuple(lines))

    async def lines(self, live: Live, after: int = 0) -> list[dict[str, Any]]:
        return await self.db.read(self.db.store.chat, live.id, after)
