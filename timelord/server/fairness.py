"""Bot thinking time shared fairly between tables (issue 18, item 3).

The search pool has a few workers; a table whose bots all search hard must not hold every one
of them while another table's bot waits. `FairQueue` hands out the workers one decision at a
time, going round the tables that have a decision waiting, so each table with a bot to move
gets a worker within (tables waiting) turns, whatever the others asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator


class FairQueue:
    """At most `slots` holders at once; waiters are served round-robin by table."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.busy = 0
        #: table id -> its waiters, oldest first; the table served next is first in the ring
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @contextlib.asynccontextmanager
    async def turn(self, table: str) -> AsyncIterator[None]:
        """Hold one slot for `table` for the body of the `async with`."""
        if self.busy < self.slots and not self._waiting:
            self.busy += 1
        else:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(table, deque()).append(ready)
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._release()  # it was handed a slot just as it was cancelled
                else:
                    self._forget(table, ready)
                raise
        try:
            yield
        finally:
            self._release()

    def _forget(self, table: str, ready: asyncio.Future[None]) -> None:
        queue = self._waiting.get(table)
        if queue is not None and ready in queue:
            queue.remove(ready)
            if not queue:
                del self._waiting[table]

    def _release(self) -> None:
        """Give the freed slot to the first waiter of the next table in the ring; that
        table goes to the back of the ring."""
        while self._waiting:
            table, queue = next(iter(self._waiting.items()))
            ready = queue.popleft()
            if queue:
                self._waiting.move_to_end(table)
            else:
                del self._waiting[table]
            if not ready.done():
                ready.set_result(None)
                return
        self.busy -= 1
