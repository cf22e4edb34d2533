"""One process thinks for a bot move, however many serve its table, so no bot
move is searched twice, and a frozen one does not hold the table up.

Processes sharing one PostgreSQL database each follow every table they have loaded, and each
would run its bots. Before a bot that searches decides the move that takes a table past
version V (bots that decide at once take no lease: `bots.cheap`), its process takes the
table's lease for V: a row of `timelord_leases` naming the process and
when the lease expires, `ttl` seconds ahead by the server's clock. While it holds leases the
process renews them every `ttl / 3` seconds; a process that finds the lease held, unexpired,
does not think, and waits: for the move to arrive (a notice), or for the lease to come free.
A holder that dies, or is frozen (stopped, swapped out, cut off), stops renewing, and within
`ttl` its lease may be taken over: a lock tied to the holder's connection would wait for TCP
to notice, hours by default, and a stopped process's kernel keeps answering TCP. Should the
frozen holder wake and commit after all, the move is committed against its version, so one
of the two is refused as stale: a move is never played twice. Leases only move forward: a
lease for V is taken over by whoever asks for a later version. `timelord_leases` holds only
these short-lived rows (UNLOGGED: nothing in it outlives a crash usefully), so it is made
here on first use rather than by a migration. On SQLite one process serves a database and
every lease is granted at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from timelord.server.clocks import Clock, SystemClock

log = logging.getLogger("timelord.server")

#: what `Leases.take` found: this process thinks; another does; the move was already made
MINE, BUSY, MOVED = "mine", "busy", "moved"

_CREATE = """CREATE UNLOGGED TABLE IF NOT EXISTS timelord_leases (
    table_id text PRIMARY KEY, version integer NOT NULL, holder text NOT NULL,
    expires double precision NOT NULL)"""
_TAKE = """INSERT INTO timelord_leases AS l (table_id, version, holder, expires)
    VALUES (%(table)s, %(version)s, %(holder)s, %(expires)s)
    ON CONFLICT (table_id) DO UPDATE SET version = EXCLUDED.version,
        holder = EXCLUDED.holder, expires = EXCLUDED.expires
    WHERE l.expires < %(now)s OR l.version < EXCLUDED.version
        OR (l.version = EXCLUDED.version AND l.holder = EXCLUDED.holder)
    RETURNING l.holder"""


class Leases:
    """The leases this process holds, on one connection of its own."""

    def __init__(
        self, libpq_url: str | None, poll: float = 0.5, clock: Clock | None = None, ttl: float = 5.0
    ) -> None:
        #: None on SQLite: every lease is granted at once
        self.url = libpq_url
        self.poll = poll
        self.clock: Clock = clock or SystemClock()
        self.ttl = ttl
        #: this process, as the lease rows name it
        self.holder = secrets.token_hex(8)
        #: (table, version) of the leases held now
        self.held: set[tuple[str, int]] = set()
        self._conn: Any = None
        self._made = False
        self._lock = asyncio.Lock()
        self._keeper: asyncio.Task[None] | None = None

    async def take(self, table_id: str, version: int) -> str:
        """MINE if this process may think for the move after `version` now (it then holds
        the lease, renewed, until `give_back`), BUSY if another process holds it, MOVED if
        that move is already committed (the version is read once the lease is held). A
        failing database grants the lease: the commit that follows would fail too, and
        nothing is doubled by it."""
        if self.url is None:
            return MINE
        try:
            async with self._lock:
                now = self.clock.now()
                taken = await self._one(
                    _TAKE,
                    {
                        "table": table_id,
                        "version": version,
                        "holder": self.holder,
                        "expires": now + self.ttl,
                        "now": now,
                    },
                )
                if taken is None:
                    return BUSY
                found = await self._one("SELECT version FROM tables WHERE id = %s", (table_id,))
                if found != version:
                    await self._release(table_id)
                    return MOVED
                self.held.add((table_id, version))
                if self._keeper is None or self._keeper.done():
                    self._keeper = asyncio.create_task(self._keep_alive())
                return MINE
        except Exception as exc:
            log.warning("bot lease: %s; thinking without one", exc)
            await self._drop()
            return MINE

    async def give_back(self, table_id: str, version: int) -> None:
        if self.url is None:
            return
        self.held.discard((table_id, version))
        try:
            async with self._lock:
                await self._release(table_id)
        except Exception as exc:  # it expires by itself
            log.warning("bot lease: %s", exc)
            await self._drop()

    async def renew(self) -> None:
        """Push the expiry of every lease held `ttl` seconds ahead."""
        if not self.held:
            return
        async with self._lock:
            await self._one(
                "UPDATE timelord_leases SET expires = %s WHERE holder = %s RETURNING 1",
                (self.clock.now() + self.ttl, self.holder),
            )

    async def _keep_alive(self) -> None:
        """Renew every `ttl / 3` seconds while any lease is held."""
        while self.held:
            await self.clock.sleep(self.ttl / 3)
            try:
                await self.renew()
            except Exception as exc:
                log.warning("bot lease renewal: %s", exc)
                await self._drop()

    async def _release(self, table_id: str) -> None:
        await self._one(
            "DELETE FROM timelord_leases WHERE table_id = %s AND holder = %s RETURNING 1",
            (table_id, self.holder),
        )

    async def _one(self, sql: str, params: Any) -> Any:
        """The first column of the statement's first row, on the lease connection (the
        caller holds `_lock`)."""
        import psycopg

        if self._conn is None or self._conn.closed:
            assert self.url is not None
            self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        if not self._made:
            await self._conn.execute("SELECT pg_advisory_lock(7305)")  # one creator at a time
            try:
                await self._conn.execute(_CREATE)
            finally:
                await self._conn.execute("SELECT pg_advisory_unlock(7305)")
            self._made = True
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
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        await self._drop()
