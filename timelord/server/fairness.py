"""Search time shared fairly: between client addresses first, and each address's tables
second, so that one address flooding
searches cannot make every other table wait.

The search pool has a few workers. Every search that runs there (a bot's move, a stand-in's,
a hint, a review's decision) asks `FairQueue` for a worker, naming the client address it is
for (a table's creator; whoever asked for the hint or review) and its table. A freed worker
goes to the next address in a ring of the addresses with a search waiting, and within that
address to the next of its tables in a ring of its own: however many tables or requests one
address keeps waiting, another address's search gets a worker within (addresses waiting)
turns, and one of its tables within (its tables waiting) of its own turns. One address holds
at most half the workers (at least one), so with two or more workers a single flooding
address never has them all, and another address's search starts at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator, Callable

Waiters = OrderedDict[str, deque[asyncio.Future[None]]]


class FairQueue:
    """At most `slots` holders at once, and at most `per_client` of them for one client
    (default: half the slots, at least one), so with two or more workers another address's
    search finds one free instead of waiting for a long one to end; waiters are served
    round-robin by client, then by table within a client."""

    def __init__(self, slots: int, per_client: int | None = None) -> None:
        self.slots = max(1, slots)
        self.per_client = max(1, self.slots // 2 if per_client is None else per_client)
        self.busy = 0
        #: slots held per client
        self.holding: Counter[str] = Counter()
        #: client -> (table -> its waiters, oldest first); the first of each ring goes next
        self._waiting: OrderedDict[str, Waiters] = OrderedDict()

    def waiting(self) -> int:
        """How many searches wait for a worker."""
        return sum(len(q) for tables in self._waiting.values() for q in tables.values())

    @contextlib.asynccontextmanager
    async def turn(self, table: str, client: str = "") -> AsyncIterator[None]:
        """Hold one slot for `table` of `client` for the body of the `async with`."""
        release = await self.hold(table, client)
        try:
            yield
        finally:
            release()

    async def hold(self, table: str, client: str = "") -> Callable[[], None]:
        """Wait for a slot for `table` of `client`; the function that gives it back (once,
        whoever calls it: a search's worker may be busy after its caller has gone, and its
        slot is given back when the worker is free, not when the caller leaves)."""
        if (
            self.busy < self.slots
            and client not in self._waiting
            and self.holding[client] < self.per_client
        ):
            self.busy += 1
            self.holding[client] += 1
        else:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, OrderedDict()).setdefault(table, deque()).append(ready)
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._release(client)  # it was handed a slot just as it was cancelled
                else:
                    self._forget(client, table, ready)
                raise
        given_back = False

        def release() -> None:
            nonlocal given_back
            if not given_back:
                given_back = True
                self._release(client)

        return release

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

    def _release(self, client: str) -> None:
        """`client` gives back a slot; it goes to the first waiter of the next table of the
        next client in the rings that holds fewer than `per_client` slots; that table and
        that client go to the back of their rings. With no such waiter the slot is free."""
        self.holding[client] -= 1
        if self.holding[client] <= 0:
            del self.holding[client]
        self.busy -= 1
        self._hand_out()

    def _hand_out(self) -> None:
        while self.busy < self.slots:
            client = next((c for c in self._waiting if self.holding[c] < self.per_client), None)
            if client is None:
                return
            tables = self._waiting[client]
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
                self.busy += 1
                self.holding[client] += 1
                ready.set_result(None)
