"""Several processes on one PostgreSQL database: each commit sends a notice in its own
transaction (`storage.CHANNEL`: "id:version" for a move, "id:meta" for a change of a
table's life, "id:undo", "id:chat"); this module follows them and brings the tables this
process holds up to date, which announces the change on this process's hub."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from timelord.server.storage import CHANNEL
from timelord.server.table.chat import Chat
from timelord.server.table.database import Db
from timelord.server.table.loading import Loader

log = logging.getLogger("timelord.server")


class Sync:
    def __init__(self, db: Db, loader: Loader, chat: Chat) -> None:
        self.db = db
        self.loader = loader
        self.chat = chat
        self._tasks: set[asyncio.Task[None]] = set()

    async def listen(self) -> None:
        """Follow what other processes commit (LISTEN/NOTIFY); after each (re)connection,
        catch up on every cached table, since notices may have been missed."""
        import psycopg  # only a PostgreSQL server needs the driver

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.db.store.libpq_url(), autocommit=True
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    for cached in list(self.loader.cache.values()):
                        self._spawn(self.loader.resync(cached))
                        self._spawn(self.chat.catch_up(cached))
                    async for note in conn.notifies():
                        self.heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lost the database notice channel (%s); reconnecting", exc)
                await asyncio.sleep(0.5)

    def heard(self, payload: str) -> None:
        table_id, _, what = payload.partition(":")
        live = self.loader.cache.get(table_id)
        if live is None:
            return
        if what == "chat":
            self._spawn(self.chat.catch_up(live))
        elif what in ("meta", "undo"):
            self._spawn(self.loader.resync(live))
        elif what.isdigit() and int(what) > max(live.version, live.committing):
            # (a notice of this process's own commit, read back before that commit
            # returned, is left alone: the commit brings the table to that version)
            self._spawn(self.loader.refresh(live))

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._tasks)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
