"""Every table one server process serves: the table modules wired around one hub.

routes ──> creating / moves / seats / chat ──commit──> database
                     │ (after the commit)
                     └──announce──> hub ──> fanout (sockets)
                                         └─> turns (bots, clocks) ──> moves / seats
other processes ──NOTIFY──> sync ──> loading / chat ──announce──> hub
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable, Sequence

from timelord.server.bots import Bots
from timelord.server.clocks import Clock, SystemClock
from timelord.server.errors import ApiError
from timelord.server.lease import Leases
from timelord.server.limits import Limits
from timelord.server.storage import Store
from timelord.server.table.chat import Chat
from timelord.server.table.creating import Creating
from timelord.server.table.database import Db
from timelord.server.table.fanout import Fanout
from timelord.server.table.hub import Hub
from timelord.server.table.live import Live
from timelord.server.table.loading import Loader
from timelord.server.table.moves import Moves
from timelord.server.table.seats import Seats
from timelord.server.table.sync import Sync
from timelord.server.table.turns import Turns

log = logging.getLogger("timelord.server")


class Tables:
    """The table modules of one process over one database, and their life cycle."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.3,
        own: Sequence[str] = (),
        *,
        limits: Limits | None = None,
        allow_seed: bool = True,
        clock: Callable[[], dt.datetime] | None = None,
        timer: Clock | None = None,
    ) -> None:
        self.store = store
        #: the operator's own agent specs that seats may name (`timelord serve --agent`)
        self.own = frozenset(own)
        #: whether a create request may choose the seed (`timelord serve --allow-seed`)
        self.allow_seed = allow_seed
        #: where table clocks read the time (tests hand in a clock they move by hand)
        self.timer: Clock = timer or SystemClock()
        self.limits = limits or Limits()
        #: the wall clock of creation limits and archiving (tests set their own)
        self.clock = clock or (lambda: dt.datetime.fromtimestamp(self.timer.now(), dt.UTC))
        self.db = Db(store)
        self.hub = Hub()
        self.bots = Bots(self.limits)
        self.leases = Leases(store.libpq_url() if store.is_postgres else None, clock=self.timer)
        self.loader = Loader(self.db, self.hub, self.timer, self.limits, self._utcnow)
        self.chat = Chat(self.db, self.hub)
        self.moves = Moves(self.db, self.hub, self.loader, self.chat, self.timer)
        self.seats = Seats(self.db, self.hub, self.loader, self.chat, self.timer)
        self.creating = Creating(
            self.db, self.loader, self.timer, self.limits, self._utcnow, self.own, allow_seed
        )
        # listeners, in the order they hear a change: sockets first, then the next turn
        self.fanout = Fanout(self.hub)
        self.turns = Turns(
            self.hub,
            self.loader,
            self.moves,
            self.seats,
            self.bots,
            self.leases,
            self.timer,
            bot_delay,
        )
        self.sync = Sync(self.db, self.loader, self.chat)
        self._tasks: list[asyncio.Task[None]] = []

    def _utcnow(self) -> dt.datetime:
        return self.clock()

    async def live(self, table_id: str) -> Live:
        """The table, from memory or read back from the database; 404 if unknown."""
        return await self.loader.live(table_id)

    async def start(self) -> None:
        """Migrate, listen to other processes, archive idle tables, and bring every table
        in play whose bot is to move or whose clock runs into memory, so its bot thinks and
        its deadline is waited for (every other table is read on first use)."""
        await self.db.read(self.store.migrate)
        if self.store.is_postgres:
            self._tasks.append(asyncio.create_task(self.sync.listen()))
        await self.loader.archive()
        for table_id in await self.db.read(self.store.to_resume):
            try:
                await self.loader.live(table_id)
            except ApiError as exc:  # a table the code can no longer read stays in the DB
                log.error("cannot resume table %s: %s", table_id, exc.reason)
        self._tasks.append(asyncio.create_task(self.loader.archiving()))

    async def stop(self) -> None:
        self.turns.closing = True
        tasks = [*self._tasks, *self.sync.tasks(), *self.turns.tasks()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.bots.close()
        await self.leases.close()
        await self.db.aclose()
