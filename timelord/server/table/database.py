"""How the table modules reach the store without blocking the event loop, and how a
database failure becomes 503 `server/unavailable`.

A move's commit, the hot path, takes no worker thread: on SQLite it runs in the event loop
(a local commit is quicker than a thread hop), on PostgreSQL as one statement on one of a
few autocommit connections the event loop drives itself (one round trip; handing the
blocking call to a thread and back cost more CPU than the statement)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from timelord.server.errors import ApiError, Code
from timelord.server.storage import Conflict, Store

log = logging.getLogger("timelord.server")

T = TypeVar("T")


class Db:
    """The store, and the worker threads its blocking calls run in."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # SQLite takes one writer at a time anyway; PostgreSQL gets a few connections at once
        self._pool = ThreadPoolExecutor(
            max_workers=8 if store.is_postgres else 4, thread_name_prefix="timelord-db"
        )
        #: PostgreSQL: the event loop's connections for moves, opened on the first one
        self._writers: Writers | None = None

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker thread."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, fn, *args)
        except SQLAlchemyError as exc:
            raise unavailable(exc) from exc

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """A commit: on SQLite in the event loop itself (a local commit takes well under a
        millisecond, less than handing it to a thread and back, since the thread would hold
        the interpreter lock all the while anyway); elsewhere in a worker thread."""
        if not self.store.is_sqlite:
            return await self.read(fn, *args)
        try:
            return fn(*args)
        except SQLAlchemyError as exc:
            raise unavailable(exc) from exc

    async def append(
        self,
        table_id: str,
        version: int,
        action: dict[str, Any],
        events: Sequence[dict[str, Any]],
        result: dict[str, Any] | None,
        to_move: int | None,
        clock: dict[str, Any] | None,
        standin: bool = False,
    ) -> None:
        """`Store.append` (same arguments, same `Conflict`), committed before it returns."""
        store = self.store
        if not store.is_postgres:
            await self.write(
                store.append, table_id, version, action, events, result, to_move, clock, standin
            )
            return
        if self._writers is None:
            self._writers = Writers(store.libpq_url())
        sql, params = store.append_postgres_statement(
            table_id, version, action, events, result, to_move, clock, standin
        )
        try:
            recorded = await self._writers.execute(sql, params)
        except Conflict as exc:
            raise Conflict(f"table {table_id} version {version} was committed elsewhere") from exc
        except Exception as exc:  # psycopg.Error: the database is away
            raise unavailable(exc) from exc
        if recorded != 1:
            raise Conflict(f"table {table_id} is no longer at version {version - 1}")

    async def aclose(self) -> None:
        """Close the event loop's connections, then the threads and the store."""
        if self._writers is not None:
            await self._writers.close()
        self.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.store.close()


class Writers:
    """Up to `size` PostgreSQL connections in autocommit mode, driven by the event loop:
    each statement is its own transaction, committed when its answer arrives. A connection
    is opened when all are busy, and dropped when a statement fails on it other than by a
    unique violation (which leaves it usable)."""

    def __init__(self, url: str, size: int = 4) -> None:
        self.url = url
        self._idle: list[Any] = []
        self._open: set[Any] = set()
        self._room = asyncio.Semaphore(size)

    async def execute(self, sql: str, params: dict[str, Any]) -> int:
        """Run `sql` and commit it: its row count; `Conflict` for a unique violation."""
        import psycopg  # only a PostgreSQL server needs the driver

        async with self._room:
            conn = self._idle.pop() if self._idle else None
            if conn is None or conn.closed:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                self._open.add(conn)
            try:
                cursor = await conn.execute(sql, params)
            except psycopg.IntegrityError as exc:
                self._idle.append(conn)
                raise Conflict(str(exc)) from exc
            except BaseException:
                self._open.discard(conn)
                await conn.close()
                raise
            self._idle.append(conn)
            return cursor.rowcount

    async def close(self) -> None:
        for conn in list(self._open):
            await conn.close()
        self._open.clear()
        self._idle.clear()


def unavailable(exc: Exception) -> ApiError:
    log.error("database error: %s", exc)
    return ApiError(Code.SERVER_UNAVAILABLE, "the database did not answer")
