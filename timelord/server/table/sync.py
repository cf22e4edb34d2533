"""Several processes on one PostgreSQL database: each commit sends a notice in its own
transaction (`storage.CHANNEL`: "id:version" for a move, "id:meta" for a change of a
table's life, "id:undo", "id:chat"); this module follows them and brings the tables this
process holds up to date, which announces the change on this process's hub. A player's
sessions ending (a logout, a password change) is a notice too, `SESSIONS` + ":" + the
player's id (no table id starts with "~"), so every process closes the sockets those
sessions opened at once (`Sync.on_sessions_ended`), not at their next message."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import sqlalchemy as sa

from timelord.server.storage import CHANNEL, Store
from timelord.server.table.chat import Chat
from timelord.server.table.database import Db
from timelord.server.table.loading import Loader

log = logging.getLogger("timelord.server")

#: the "table id" of a notice that a player's sessions ended
SESSIONS = "~sessions"


def announce_sessions_ended(store: Store, player_id: str) -> None:
    """Tell the other processes on this PostgreSQL database that sessions of `player_id`
    ended (a SQLite database has one process: nothing to tell)."""
    if store.is_postgres:
        with store.engine.begin() as conn:
            notice = sa.text("SELECT pg_notify(:channel, :payload)")
            conn.execute(notice, {"channel": CHANNEL, "payload": f"{SESSIONS}:{player_id}"})


class Sync:
    def __init__(self, db: Db, loader: Loader, chat: Chat) -> None:
        self.db = db
        self.loader = loader
        self.chat = chat
        self._tasks: set[asyncio.Task[Any]] = set()
        #: called with a player's id when another process says sessions of it ended
        self.on_sessions_ended: list[Callable[[str], Coroutine[Any, Any, Any]]] = []

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
        if table_id == SESSIONS:
            for listener in self.on_sessions_ended:
                self._spawn(listener(what))
            return
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

    def tasks(self) -> list[asyncio.Task[Any]]:
        return list(self._tasks)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
