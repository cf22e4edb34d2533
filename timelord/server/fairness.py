"""Search time shared fairly: between client addresses first, and each address's tables
second (issue 18, item 3; issue 30, finding 7).

The search pool has a few workers. Every search that runs there (a bot's move, a stand-in's,
a hint, a review's decision) asks `FairQueue` for a worker, naming the client address it is
for (a table's creator; whoever asked for the hint or review) and its table. A freed worker
goes to the next address in a ring of the addresses with a search waiting, and within that
address to the next of its tables in a ring of its own: however many tables or requests one
address keeps waiting, another address's search gets a worker within (addresses waiting)
turns, and one of its tables within (its tables waiting) of its own turns.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator

Waiters = OrderedDict[str, deque[asyncio.Future[None]]]


class FairQueue:
    """At most `slots` holders at once; waiters are served round-robin by client, then by
    table within a client."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.busy = 0
        #: client -> (table -> its waiters, oldest first); the first of each ring goes next
        self._waiting: OrderedDict[str, Waiters] = OrderedDict()

    def waiting(self) -> int:
        """How many searches wait for a worker."""
        return sum(len(q) for tables in self._waiting.values() for q in tables.values())

    @contextlib.asynccontextmanager
    async def turn(self, table: str, client: str = "") -> AsyncIterator[None]:
        """Hold one slot for `table` of `client` for the body of the `async with`."""
        if self.busy < self.slots and not self._waiting:
            self.busy += 1
        else:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, OrderedDict()).setdefault(table, deque()).append(ready)
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._release()  # it was handed a slot just as it was cancelled
                else:
                    self._forget(client, table, ready)
                raise
        try:
            yield
        finally:
            self._release()

    def _forget(self, client: str, table: str, ready: asyncio.Future[None]) -> None:
        tables = self._waiting.get(client)
        queue = None if tables is None else tables.get(table)
        if tables is None or queue is None or ready not in queue:
            return
        queue.remove(ready)
        if not queue:
            del tables[table]
        if not tables:
            del self._waiting[client]

    def _release(self) -> None:
        """Give the freed slot to the first waiter of the next table of the next client in
        the rings; that table and that client go to the back of their rings."""
        while self._waiting:
            client, tables = next(iter(self._waiting.items()))
            table, queue = next(iter(tables.items()))
            ready = queue.popleft()
            if queue:
                tables.move_to_end(table)
            else:
                del tables[table]
            if tables:
                self._waiting.move_to_end(client)
            else:
                del self._waiting[client]
            if not ready.done():
                ready.set_result(None)
                return
        self.busy -= 1
