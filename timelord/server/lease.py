"""One process thinks for a bot move, however many serve its table (issue 18, item 4).

Processes sharing one PostgreSQL database each follow every table they have loaded, and each
would run its bots. Before a search bot decides the move that takes a table past version V
(bots that decide at once take no lease: `bots.cheap`), its process takes PostgreSQL's
advisory lock (table, V) on a connection of its own; another process that finds the lock
taken does not think, and waits: for the move to arrive (a notice), or for the lock to come
free. PostgreSQL frees a session's advisory locks when its connection ends, so when the
holder dies the next poll, within `poll` seconds, takes over.
On SQLite one process serves a database and there is nothing to share.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

log = logging.getLogger("timelord.server")


def lock_key(table_id: str, version: int) -> tuple[int, int]:
    """The advisory lock's two 32-bit keys: a digest of the table id, and the version.
    (The two-key space never meets the one-key locks the migrations take.)"""
    digest = int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=4).digest(), "big")
    return _int4(digest), _int4(version & 0xFFFFFFFF)


def _int4(n: int) -> int:
    return n - (1 << 32) if n >= 1 << 31 else n


#: what `Leases.take` found: this process thinks; another does; the move was already made
MINE, BUSY, MOVED = "mine", "busy", "moved"


class Leases:
    """Advisory locks held by this process, on one connection of its own."""

    def __init__(self, libpq_url: str | None, poll: float = 0.5) -> None:
        #: None on SQLite: every lease is granted at once
        self.url = libpq_url
        self.poll = poll
        self._conn: Any = None
        self._lock = asyncio.Lock()

    async def take(self, table_id: str, version: int) -> str:
        """MINE if this process may think for the move after `version` now (it then holds
        the lease until `give_back`), BUSY if another process holds it, MOVED if that move
        is already committed (a holder that just finished gave the lease back after its
        commit, so the version is read once the lease is held). A failing database grants
        the lease: the commit that follows would fail too, and nothing is doubled by it."""
        if self.url is None:
            return MINE
        try:
            async with self._lock:
                key = lock_key(table_id, version)
                if not await self._one("SELECT pg_try_advisory_lock(%s, %s)", key):
                    return BUSY
                found = await self._one("SELECT version FROM tables WHERE id = %s", (table_id,))
                if found == version:
                    return MINE
                await self._one("SELECT pg_advisory_unlock(%s, %s)", key)
                return MOVED
        except Exception as exc:
            log.warning("bot lease: %s; thinking without one", exc)
            await self._drop()
            return MINE

    async def give_back(self, table_id: str, version: int) -> None:
        if self.url is None:
            return
        try:
            async with self._lock:
                await self._one("SELECT pg_advisory_unlock(%s, %s)", lock_key(table_id, version))
        except Exception as exc:  # the connection went: its locks went with it
            log.warning("bot lease: %s", exc)
            await self._drop()

    async def _one(self, sql: str, params: tuple[Any, ...]) -> Any:
        """The first column of the statement's row, on the lease connection (the caller
        holds `_lock`)."""
        import psycopg

        if self._conn is None or self._conn.closed:
            assert self.url is not None
            self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        cursor = await self._conn.execute(sql, params)
        row = await cursor.fetchone()
        return None if row is None else row[0]

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await conn.close()
            except Exception as exc:  # already gone
                log.debug("bot lease connection: %s", exc)

    async def close(self) -> None:
        await self._drop()
