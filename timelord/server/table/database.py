"""How the table modules reach the store without blocking the event loop, and how a
database failure becomes 503 `server/unavailable`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from timelord.server.errors import ApiError, Code
from timelord.server.storage import Store

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

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.store.close()


def unavailable(exc: Exception) -> ApiError:
    log.error("database error: %s", exc)
    return ApiError(Code.SERVER_UNAVAILABLE, "the database did not answer")
