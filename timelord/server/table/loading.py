"""The tables in this process's memory: read back from the database on first use, caught up
with what other writers committed, dropped when memory is needed, archived when idle."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from timelord.core import Game, GameError, Record, State, load
from timelord.core.events import Event
from timelord.core.record import rules_of
from timelord.server.clocks import Clock
from timelord.server.errors import ApiError, Code, not_found
from timelord.server.limits import Limits
from timelord.server.storage import StoredTable
from timelord.server.table.database import Db
from timelord.server.table.hub import Hub, Kind
from timelord.server.table.live import Live, new_state, stored_summary

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

#: tables kept in memory beyond those in play (finished ones are dropped first)
CACHE_LIMIT = 2000


class Loader:
    """The cache of live tables, over the database of record."""

    def __init__(
        self,
        db: Db,
        hub: Hub,
        timer: Clock,
        limits: Limits,
        utcnow: Callable[[], dt.datetime],
    ) -> None:
        self.db = db
        self.hub = hub
        self.timer = timer
        self.limits = limits
        #: the wall clock archiving reads (the server's `Tables.clock`)
        self.utcnow = utcnow
        self.cache: dict[str, Live] = {}
        self.cache_limit = CACHE_LIMIT
        self._load_lock = asyncio.Lock()

    def from_stored(self, stored: StoredTable, game: Game, state: State) -> Live:
        """A live table for a stored row, at `state` (its opening unless caught up)."""
        live = Live(
            stored.id,
            game,
            stored.seed,
            [dict(s) for s in stored.seats],
            stored.created,
            state,
            stored.key,
            stored.seeded,
        )
        live.take_life(stored)
        live.tie_seats(stored.seats)
        live.now = self.timer.now
        live.creator = stored.creator or ""
        return live

    def add(self, live: Live) -> None:
        """Keep a table just made or read in memory, and announce it (its bots start)."""
        self.evict()
        self.cache[live.id] = live
        self.hub.announce(Kind.LOADED, live)

    async def live(self, table_id: str) -> Live:
        """The table, from the cache or read back from the database; 404 if unknown."""
        live = self.cache.get(table_id)
        if live is not None:
            return live
        if not _ID.fullmatch(table_id):
            raise not_found(table_id)
        async with self._load_lock:
            cached = self.cache.get(table_id)
            if cached is not None:
                return cached
            live = await self._load(table_id)
            self.add(live)
        return live

    async def _load(self, table_id: str) -> Live:
        stored = await self.db.read(self.db.store.table, table_id)
        if stored is None:
            raise not_found(table_id)
        options = dict(stored.options)
        try:
            if "rules" not in options:  # stored before rules versions were kept: find its own
                rows = await self.db.read(self.db.store.actions, table_id, 0)
                past = Record(stored.game, options, stored.seed, [r.action for r in rows])
                past.key = None if stored.key is None else stored.key.hex()
                options = rules_of(past)
            game = load(stored.game, **options)
            state = new_state(game, stored.seed, stored.key)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(Code.RECORD_CORRUPT, f"table {table_id}: {exc}") from exc
        live = self.from_stored(stored, game, state)
        live.archived = stored.status == "archived"
        await self.catch_up(live)
        live.chat_seen = len(await self.db.read(self.db.store.chat, table_id, 0))
        return live

    async def catch_up(self, live: Live) -> bool:
        """Apply what other writers committed past the cached version (replay: seed +
        actions); whether there was any. The caller holds the table's lock or owns a table
        nobody else can see yet, and announces the change."""
        rows = await self.db.read(self.db.store.actions, live.id, live.version)
        if not rows:
            return False
        game = live.game
        for row in rows:
            if row.version != live.version + 1:
                raise ApiError(Code.RECORD_CORRUPT, f"table {live.id} lacks a version")
            try:
                action = game.action_from_json(row.action)
                state = live.state.apply(action)
                events = [Event.from_json(e) for e in row.events]
            except GameError as exc:
                raise ApiError(
                    Code.RECORD_CORRUPT, f"table {live.id} v{row.version}: {exc}"
                ) from exc
            live.advance(state, events, action, row.standin)
        return True

    async def refresh(self, live: Live) -> None:
        """Bring a cached table up to the database's latest version and announce it."""
        async with live.lock:
            if await self.catch_up(live):
                stored = await self.db.read(self.db.store.table, live.id)
                if stored is not None:
                    live.take_life(stored)
                self.hub.announce(Kind.MOVED, live)

    async def resync(self, live: Live) -> None:
        """Read the table's life (seats, status, clock, rematch) back from the database, and
        its moves, going back first if another process took one back; under the lock."""
        async with live.lock:
            stored = await self.db.read(self.db.store.table, live.id)
            if stored is None:
                return
            rematch_before = live.rematch
            while stored.version < live.version:
                live.rewind(await self.state_at(live, live.version - 1))
            live.take_life(stored)
            await self.catch_up(live)
            fresh_rematch = live.rematch is not None and rematch_before is None
            self.hub.announce(Kind.REMATCH if fresh_rematch else Kind.LIFE, live)

    async def state_at(self, live: Live, version: int) -> State:
        """The table's state at an earlier `version`, replayed from its record."""
        if live.previous is not None and version == live.version - 1:
            return live.previous[0]
        rows = await self.db.read(self.db.store.actions, live.id, 0)
        state = new_state(live.game, live.seed, live.key)
        for row in rows[:version]:
            state = state.apply(live.game.action_from_json(row.action))
        return state

    def evict(self) -> None:
        """Make room: drop finished tables nobody watches once the cache is full."""
        if len(self.cache) < self.cache_limit:
            return
        for table_id, live in list(self.cache.items()):
            if live.over and not +live.watchers and not live.lock.locked():
                del self.cache[table_id]

    async def archive(self) -> list[str]:
        """Archive the tables in play nobody moved at for `limits.archive_after` seconds: they
        stay readable but leave memory and the list of tables in play; their ids."""
        if self.limits.archive_after <= 0:
            return []
        before = self.utcnow() - dt.timedelta(seconds=self.limits.archive_after)
        archived = await self.db.write(self.db.store.archive, before)
        for table_id in archived:
            live = self.cache.pop(table_id, None)
            if live is not None:
                live.archived = True
                self.hub.announce(Kind.LIFE, live)
        return archived

    async def archiving(self) -> None:
        """Archive now and then, for ever (a task of the server's life)."""
        period = min(3600.0, max(1.0, self.limits.archive_after / 10))
        while True:
            await asyncio.sleep(period)
            with contextlib.suppress(ApiError):
                await self.archive()

    async def summaries(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Tables newest first; those in memory as they are now."""
        out = []
        for stored in await self.db.read(self.db.store.tables, status, limit):
            live = self.cache.get(stored.id)
            out.append(live.summary() if live is not None else stored_summary(stored))
        return out

    async def record(self, table_id: str) -> Record:
        """The finished game's record; 403 `table/not_over` before the end."""
        live = await self.live(table_id)
        if not live.over:
            raise ApiError(Code.TABLE_NOT_OVER, "the record is given once the game is over")
        rows = await self.db.read(self.db.store.actions, table_id, 0)
        state = live.state
        return Record(
            live.game.id,
            live.game.options,
            live.seed,
            [row.action for row in rows[: live.version]],
            list(live.specs),
            {"scores": state.scores(), "winners": state.winners() if state.is_over else []},
            None if live.key is None else live.key.hex(),
            [i for i, row in enumerate(rows[: live.version]) if row.standin],
        )
