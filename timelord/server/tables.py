"""The tables a server process serves: cache, actions, snapshots, bots and subscribers.

The database holds the state of record (seed + accepted actions); a `Live` table here is a
cache of it. An action is applied under the table's lock: checked, committed with the next
version (refused if another writer committed that version first), and only then applied to
the cache and announced to subscribers, so nobody is ever told of a move that could be lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import hashlib
import json
import logging
import re
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from timelord.agents import Agent, make_agent
from timelord.core import (
    ConfigError,
    Game,
    GameError,
    IllegalAction,
    InvalidAction,
    Record,
    State,
    load,
)
from timelord.core.events import Event
from timelord.core.keyed import KEY_BYTES, KeyedRng, derive_seed
from timelord.server.accounts import tie_seat
from timelord.server.bots import HUMAN, Bots, bot_seed, check_spec
from timelord.server.errors import ApiError, forbidden, not_found
from timelord.server.lease import MINE, MOVED, Leases
from timelord.server.limits import Limits, check_count, client_key
from timelord.server.storage import CHANNEL, Conflict, Store, StoredTable

log = logging.getLogger("timelord.server")

T = TypeVar("T")

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: tables kept in memory beyond those in play (finished ones are dropped first)
_CACHE_LIMIT = 2000


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Outbox:
    """What waits to be sent to one WebSocket client, bounded: a newer snapshot replaces an
    unsent older one (it says everything the older said), so a slow reader only ever costs
    one pending snapshot and never holds up the table."""

    def __init__(self, seat: int | None, since: int, limit: int = 16) -> None:
        self.seat = seat
        self.since = since
        self.limit = limit
        self.overflowed = False
        self._items: deque[tuple[bool, str]] = deque()
        self._ready = asyncio.Event()

    def push_snapshot(self, text: str) -> None:
        self._items = deque(item for item in self._items if not item[0])
        self._items.append((True, text))
        self._ready.set()

    def push_message(self, text: str) -> None:
        if len(self._items) >= self.limit:
            self.overflowed = True
        else:
            self._items.append((False, text))
        self._ready.set()

    async def next(self) -> str | None:
        """The next text to send; None once the client fell too far behind."""
        while not self._items and not self.overflowed:
            self._ready.clear()
            await self._ready.wait()
        if self.overflowed:
            return None
        return self._items.popleft()[1]


@dataclass
class Live:
    """One table as this process knows it (a cache of the database)."""

    id: str
    game: Game
    seed: int
    specs: list[str]
    token_hashes: list[str | None]
    created: dt.datetime
    state: State
    #: the generator key the game was dealt from (else it was dealt from `seed`)
    key: bytes | None = None
    #: the creator chose the seed
    seeded: bool = False
    version: int = 0
    #: events[v - 1]: the events of the action that made version v
    events: list[list[Event]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Outbox] = field(default_factory=set)
    agents: dict[int, Agent] = field(default_factory=dict)
    #: archived after a long pause: read-only, no bots
    archived: bool = False
    bot_task: asyncio.Task[None] | None = None
    #: per seat (None: spectator), the JSON text of each version's told events, comma-joined
    _told: dict[int | None, list[str]] = field(default_factory=dict)
    #: per seat, all of its told events' JSON text so far, comma-joined
    _told_joined: dict[int | None, str] = field(default_factory=dict)
    #: per seat, the full snapshot of the current version
    _snapshots: dict[int | None, str] = field(default_factory=dict)
    #: per seat, the id of the logged-in player the seat is tied to (None: a guest or bot)
    players: list[str | None] = field(default_factory=list)
    #: per seat, the name of the player it is tied to (None: untied)
    names: list[str | None] = field(default_factory=list)

    def bot_seed(self, seat: int, version: int) -> int:
        """The seed of a bot's decision; at a keyed table an HMAC of the key, so a bot's
        choices tell nothing of the deal beyond what its own view does."""
        if self.key is None:
            return bot_seed(self.seed, seat, version)
        return derive_seed(self.key, "bot", seat, version)

    def advance(self, state: State, events: list[Event]) -> None:
        self.state = state
        self.version += 1
        self.events.append(events)
        self._snapshots.clear()

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None without a token: a spectator); 403 for a bad one."""
        if token is None:
            return None
        digest = hash_token(token)
        for seat, known in enumerate(self.token_hashes):
            if known is not None and secrets.compare_digest(known, digest):
                return seat
        raise forbidden("this token opens no seat at this table")

    def seats_of_player(self, player_id: str) -> list[int]:
        """The seats tied to a logged-in player."""
        return [seat for seat, known in enumerate(self.players) if known == player_id]

    def snapshot_text(self, seat: int | None, since: int = 0) -> str:
        """The seat's snapshot as JSON text; the full one is built once per version and kept
        until the next (one with `since` is rarer and built each time, so that odd `since`
        values cannot fill the memory)."""
        if since:
            return self._snapshot_text(seat, since)
        text = self._snapshots.get(seat)
        if text is None:
            text = self._snapshots[seat] = self._snapshot_text(seat, 0)
        return text

    def _snapshot_text(self, seat: int | None, since: int) -> str:
        state = self.state
        told = self._told.setdefault(seat, [])
        joined = self._told_joined.get(seat, "")
        for events in self.events[len(told) :]:
            part = json.dumps(self.game.tell(events, seat))[1:-1]
            told.append(part)
            if part:
                joined = f"{joined},{part}" if joined else part
        self._told_joined[seat] = joined
        told_since = ",".join(p for p in told[since:] if p) if since else joined
        to_move = state.to_move
        legal = (
            [a.to_json() for a in state.legal_actions()]
            if seat is not None and seat == to_move
            else []
        )
        head = json.dumps(
            {
                "version": self.version,
                "over": state.is_over,
                "to_move": to_move,
                "seeded": self.seeded,
            }
        )[:-1]
        return (
            f'{head}, "view": {json.dumps(state.view(seat))}, "legal": {json.dumps(legal)}, '
            f'"events": [{told_since}]}}'
        )

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.id,
            "options": self.game.options,
            "seats": [{"seat": i, "agent": spec} for i, spec in enumerate(self.specs)],
            "status": "over" if self.state.is_over else "playing",
            "version": self.version,
            "to_move": self.state.to_move,
            "created": self.created.isoformat(),
            "seeded": self.seeded,
        }


def _summary(stored: StoredTable) -> dict[str, Any]:
    return {
        "id": stored.id,
        "game": stored.game,
        "options": stored.options,
        "seats": [{"seat": i, "agent": s["agent"]} for i, s in enumerate(stored.seats)],
        "status": stored.status,
        "version": stored.version,
        "to_move": None,
        "created": stored.created.isoformat(),
        "seeded": stored.seeded,
    }


def new_state(game: Game, seed: int, key: bytes | None) -> State:
    """The opening state of a table: from its keyed generator, or from a chosen seed."""
    return game.new_game(seed if key is None else KeyedRng(key))


class Tables:
    """Every table this process serves, over one database."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.3,
        own: Sequence[str] = (),
        *,
        limits: Limits | None = None,
        allow_seed: bool = True,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        #: the operator's own agent specs that seats may name (`timelord serve --agent`)
        self.own = frozenset(own)
        self.limits = limits or Limits()
        #: whether a create request may choose the seed (`timelord serve --allow-seed`)
        self.allow_seed = allow_seed
        self.clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self.bots = Bots(self.limits)
        self.leases = Leases(store.libpq_url() if store.is_postgres else None)
        self._cache: dict[str, Live] = {}
        self._load_lock = asyncio.Lock()
        # SQLite takes one writer at a time anyway; PostgreSQL gets a few connections at once
        self._db_pool = ThreadPoolExecutor(
            max_workers=8 if store.is_postgres else 4, thread_name_prefix="timelord-db"
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self._listener: asyncio.Task[None] | None = None
        self._closing = False
        #: called once a move of this process ends a table (results and ratings)
        self.on_finish: Callable[[Live], Awaitable[None]] | None = None

    # -- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Migrate, resume the tables in play whose bots are to move (every other table is
        read on first use), listen to other processes, archive idle tables now and then."""
        await self._db(self.store.migrate)
        if self.store.is_postgres:
            self._listener = asyncio.create_task(self._listen())
        await self.archive()
        for table_id in await self._db(self.store.waiting_on_bots):
            try:
                await self.live(table_id)
            except ApiError as exc:  # a table the code can no longer read stays in the DB
                log.error("cannot resume table %s: %s", table_id, exc.reason)
        self._spawn(self._archiving())

    async def archive(self) -> list[str]:
        """Archive the tables in play nobody moved at for `limits.archive_after` seconds: they
        stay readable but leave memory and the list of tables in play; their ids."""
        if self.limits.archive_after <= 0:
            return []
        before = self.clock() - dt.timedelta(seconds=self.limits.archive_after)
        archived = await self._write(self.store.archive, before)
        for table_id in archived:
            live = self._cache.pop(table_id, None)
            if live is not None:
                live.archived = True
                if live.bot_task is not None:
                    live.bot_task.cancel()
        return archived

    async def _archiving(self) -> None:
        period = min(3600.0, max(1.0, self.limits.archive_after / 10))
        while not self._closing:
            await asyncio.sleep(period)
            with contextlib.suppress(ApiError):
                await self.archive()

    async def stop(self) -> None:
        self._closing = True
        tasks = [t for t in (self._listener, *self._tasks) if t is not None]
        tasks += [live.bot_task for live in self._cache.values() if live.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.bots.close()
        await self.leases.close()
        self._db_pool.shutdown(wait=True)
        self.store.close()

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """A commit: on SQLite in the event loop itself (a local commit takes well under a
        millisecond, less than handing it to a thread and back, since the thread would hold
        the interpreter lock all the while anyway); elsewhere in a worker thread."""
        if not self.store.is_sqlite:
            return await self._db(fn, *args)
        try:
            return fn(*args)
        except SQLAlchemyError as exc:
            log.error("database error: %s", exc)
            raise ApiError(503, "server/unavailable", "the database did not answer") from exc

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._db_pool, fn, *args)
        except SQLAlchemyError as exc:
            log.error("database error: %s", exc)
            raise ApiError(503, "server/unavailable", "the database did not answer") from exc

    # -- tables ---------------------------------------------------------------------------

    async def create(
        self,
        game_id: Any,
        options: Any,
        seats: Any,
        seed: Any,
        client: str = "unknown",
        player: tuple[str, str] | None = None,
        *,
        public_deal: bool = False,
    ) -> tuple[Live, list[str | None]]:
        """A new table and the tokens of its human seats (given once, only hashes kept);
        429 `rate/limited` past a limit of the creator's `client` address or of the server.
        A logged-in `player` (id, name) sits in the first human seat, tied to it.
        `public_deal`: the seed is one everybody may know (a lesson's, in the game's data),
        taken whatever `allow_seed` says; the table is marked seeded like any other."""
        game, specs = _configure(game_id, options, seats, self.own)
        key: bytes | None = None
        seeded = seed is not None
        if seed is None:
            key, seed = secrets.token_bytes(KEY_BYTES), 0
        elif not self.allow_seed and not public_deal:
            raise ApiError(
                422,
                "config/invalid",
                "this server deals every table itself; a seed is taken only where the "
                "operator allows it (timelord serve --allow-seed)",
            )
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ApiError(422, "config/invalid", "seed must be an integer in 0..2^63-1")
        creator = client_key(client)
        await self._db(self._check_limits, creator, any(spec != HUMAN for spec in specs))
        tokens = [secrets.token_urlsafe(32) if spec == HUMAN else None for spec in specs]
        hashes = [None if t is None else hash_token(t) for t in tokens]
        table_id = secrets.token_urlsafe(9)
        try:
            state = new_state(game, seed, key)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(422, "config/invalid", f"cannot start this game: {exc}") from exc
        seats_json: list[dict[str, Any]] = [
            {"agent": s, "token_hash": h} for s, h in zip(specs, hashes, strict=True)
        ]
        if player is not None and HUMAN in specs:
            seats_json[specs.index(HUMAN)] |= {"player": player[0], "name": player[1]}
        stored = await self._db(
            functools.partial(
                self.store.create_table,
                table_id,
                game.id,
                game.options,
                seed,
                seats_json,
                key=key,
                seeded=seeded,
                creator=creator,
                to_move=state.to_move,
                now=self.clock(),
            )
        )
        live = Live(table_id, game, seed, specs, hashes, stored.created, state, key, seeded)
        if player is not None and HUMAN in specs:
            await self._db(tie_seat, self.store, table_id, specs.index(HUMAN), player[0])
        _tie_seats(live, seats_json)
        self._evict()
        self._cache[table_id] = live
        self._schedule_bot(live)
        return live, tokens

    def _check_limits(self, creator: str, bots: bool) -> None:
        """429 `rate/limited` if one more table would pass a limit (blocking: a worker)."""
        limits, store = self.limits, self.store
        minute_ago = self.clock() - dt.timedelta(minutes=1)
        check_count(
            store.created_since(creator, minute_ago),
            limits.creations_per_minute,
            "you created too many tables in the last minute",
        )
        check_count(
            store.in_play(creator), limits.tables_per_client, "you have too many tables in play"
        )
        check_count(store.in_play(), limits.tables_total, "this server has too many tables in play")
        if bots:
            check_count(
                store.in_play(creator, bots=True),
                limits.bot_tables_per_client,
                "you have too many tables with bots in play",
            )
            check_count(
                store.in_play(bots=True),
                limits.bot_tables_total,
                "this server has too many tables with bots in play",
            )

    async def live(self, table_id: str) -> Live:
        """The table, from the cache or read back from the database; 404 if unknown."""
        live = self._cache.get(table_id)
        if live is not None:
            return live
        if not _ID.fullmatch(table_id):
            raise not_found(table_id)
        async with self._load_lock:
            cached = self._cache.get(table_id)
            if cached is not None:
                return cached
            live = await self._load(table_id)
            self._evict()
            self._cache[table_id] = live
            self._schedule_bot(live)
        return live

    async def _load(self, table_id: str) -> Live:
        stored = await self._db(self.store.table, table_id)
        if stored is None:
            raise not_found(table_id)
        try:
            game = load(stored.game, **stored.options)
            state = new_state(game, stored.seed, stored.key)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(500, "record/corrupt", f"table {table_id}: {exc}") from exc
        live = Live(
            stored.id,
            game,
            stored.seed,
            [s["agent"] for s in stored.seats],
            [s.get("token_hash") for s in stored.seats],
            stored.created,
            state,
            stored.key,
            stored.seeded,
        )
        live.archived = stored.status == "archived"
        _tie_seats(live, stored.seats)
        await self._catch_up(live)
        return live

    async def _catch_up(self, live: Live) -> bool:
        """Apply what other writers committed past the cached version (replay: seed + actions).
        The caller holds the table's lock or owns a table nobody else can see yet."""
        rows = await self._db(self.store.actions, live.id, live.version)
        if not rows:
            return False
        game = live.game
        for row in rows:
            if row.version != live.version + 1:
                raise ApiError(500, "record/corrupt", f"table {live.id} lacks a version")
            try:
                action = game.action_from_json(row.action)
                state = live.state.apply(action)
                events = [Event.from_json(e) for e in row.events]
            except GameError as exc:
                raise ApiError(
                    500, "record/corrupt", f"table {live.id} v{row.version}: {exc}"
                ) from exc
            live.advance(state, events)
        return True

    def _evict(self) -> None:
        if len(self._cache) < _CACHE_LIMIT:
            return
        for table_id, live in list(self._cache.items()):
            if live.state.is_over and not live.subscribers and not live.lock.locked():
                del self._cache[table_id]

    async def summaries(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Tables newest first; those in memory as they are now."""
        out = []
        for stored in await self._db(self.store.tables, status, limit):
            live = self._cache.get(stored.id)
            out.append(live.summary() if live is not None else _summary(stored))
        return out

    async def record(self, table_id: str) -> Record:
        live = await self.live(table_id)
        if not live.state.is_over:
            raise ApiError(403, "table/not_over", "the record is given once the game is over")
        rows = await self._db(self.store.actions, table_id, 0)
        state = live.state
        return Record(
            live.game.id,
            live.game.options,
            live.seed,
            [row.action for row in rows[: live.version]],
            list(live.specs),
            {"scores": state.scores(), "winners": state.winners()},
            None if live.key is None else live.key.hex(),
        )

    # -- actions --------------------------------------------------------------------------

    async def act(self, live: Live, seat: int | None, version: Any, action_data: Any) -> None:
        """Apply `action_data` for `seat` made against `version`, or refuse it with its code
        (nothing changes then). The move that ends the game also records the table's
        results (and ratings) before it is answered."""
        await self._act(live, seat, version, action_data)
        if live.state.is_over and self.on_finish is not None:
            try:
                await self.on_finish(live)
            except Exception:  # the move stands; only its results could not be written
                log.exception("recording the results of table %s failed", live.id)

    async def _act(self, live: Live, seat: int | None, version: Any, action_data: Any) -> None:
        async with live.lock:
            if version != live.version:
                raise ApiError(
                    409,
                    "action/stale",
                    f"the table is at version {live.version}, not {version}; reload and retry",
                )
            state = live.state
            if state.is_over:
                raise ApiError(422, "action/illegal", "the game is over; no more moves", "end")
            if live.archived:
                raise ApiError(
                    409,
                    "table/archived",
                    "this table was archived after a long pause; it can be read but not played",
                )
            _check_turn(live, seat)
            try:
                action = live.game.action_from_json(action_data)
                following, events = state.apply_with_events(action)
            except IllegalAction as exc:
                raise ApiError(422, "action/illegal", exc.reason, exc.rule) from exc
            except (InvalidAction, GameError) as exc:
                raise ApiError(422, "action/invalid", str(exc)) from exc
            result = (
                {"scores": following.scores(), "winners": following.winners()}
                if following.is_over
                else None
            )
            try:
                await self._write(
                    self.store.append,
                    live.id,
                    live.version + 1,
                    action.to_json(),
                    [e.to_json() for e in events],
                    result,
                    following.to_move,
                )
            except Conflict as exc:
                if not await self._catch_up(live):
                    stored = await self._db(self.store.table, live.id)
                    if stored is not None and stored.status == "archived":
                        live.archived = True
                        raise ApiError(
                            409, "table/archived", "this table was archived after a long pause"
                        ) from exc
                self._changed(live)
                raise ApiError(
                    409, "action/stale", "another server committed a move first; reload"
                ) from exc
            live.advance(following, events)
            self._changed(live)

    def explain(self, live: Live, seat: int | None, action_data: Any) -> dict[str, Any]:
        """Whether `action_data` would be legal for `seat` now and, if not, the engine's
        reason and rule; refused with the codes `act` uses, and it never changes the table."""
        state = live.state
        if state.is_over:
            return {"legal": False, "reason": "the game is over; no more moves", "rule": "end"}
        _check_turn(live, seat)
        try:
            action = live.game.action_from_json(action_data)
            state.check(action)
        except IllegalAction as exc:
            return {"legal": False, "reason": exc.reason, "rule": exc.rule}
        except (InvalidAction, GameError) as exc:
            raise ApiError(422, "action/invalid", str(exc)) from exc
        return {"legal": True, "reason": "", "rule": ""}

    def _changed(self, live: Live) -> None:
        for outbox in list(live.subscribers):
            outbox.push_snapshot(live.snapshot_text(outbox.seat, outbox.since))
        self._schedule_bot(live)

    # -- subscribers ----------------------------------------------------------------------

    def subscribe(self, live: Live, seat: int | None, since: int) -> Outbox:
        outbox = Outbox(seat, since)
        live.subscribers.add(outbox)
        outbox.push_snapshot(live.snapshot_text(seat, since))
        return outbox

    def unsubscribe(self, live: Live, outbox: Outbox) -> None:
        live.subscribers.discard(outbox)

    # -- bots -----------------------------------------------------------------------------

    def _schedule_bot(self, live: Live) -> None:
        if self._closing or live.state.is_over or live.archived:
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        seat = live.state.to_move
        if seat is None or live.specs[seat] == HUMAN:
            return
        live.bot_task = asyncio.create_task(self._bot_turn(live, seat))

    async def _bot_turn(self, live: Live, seat: int) -> None:
        version = live.version
        held = False
        try:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            # one process thinks for this move; the others wait for it (or for the lease)
            while live.version == version:
                found = await self.leases.take(live.id, version)
                if found == MINE:
                    held = True
                    break
                if found == MOVED:
                    await self.refresh(live)
                    break
                await asyncio.sleep(self.leases.poll)
            state = live.state
            if live.version != version or state.to_move != seat:
                return
            spec = live.specs[seat]
            agent = live.agents.get(seat)
            if agent is None:
                agent = live.agents[seat] = make_agent(spec, live.game)
            action = await self.bots.choose(
                live.game,
                agent,
                spec,
                partial(state.view, seat),
                state.legal_actions(),
                live.bot_seed(seat, version),
                live.id,
            )
            await self.act(live, seat, version, action.to_json())
        except ApiError as exc:
            if exc.status == 503:  # the database is away; try again in a while
                await asyncio.sleep(1)
            elif exc.code != "action/stale":  # stale: someone else moved; the next turn follows
                log.error("bot at table %s seat %s stopped: %s", live.id, seat, exc.reason)
                return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot at table %s seat %s failed", live.id, seat)
            return
        finally:
            if held:
                await self.leases.give_back(live.id, version)
            if live.bot_task is asyncio.current_task():
                live.bot_task = None
            if live.version != version:  # moved meanwhile, here or by another process
                self._schedule_bot(live)
        self._schedule_bot(live)

    # -- other processes (PostgreSQL) -----------------------------------------------------

    async def _listen(self) -> None:
        """Follow moves other processes commit on this database (LISTEN/NOTIFY); after each
        (re)connection, catch up on every cached table, since notices may have been missed."""
        import psycopg

        while not self._closing:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.store.libpq_url(), autocommit=True
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    for cached in list(self._cache.values()):
                        self._spawn(self.refresh(cached))
                    async for note in conn.notifies():
                        table_id, _, version = note.payload.partition(":")
                        live = self._cache.get(table_id)
                        if live is not None and version.isdigit() and int(version) > live.version:
                            self._spawn(self.refresh(live))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lost the database notice channel (%s); reconnecting", exc)
                await asyncio.sleep(0.5)

    async def refresh(self, live: Live) -> None:
        """Bring a cached table up to the database's latest version and tell its watchers."""
        async with live.lock:
            if await self._catch_up(live):
                self._changed(live)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _check_turn(live: Live, seat: int | None) -> None:
    """403 seat/forbidden unless `seat` is the seat to move (a spectator never is)."""
    if seat is None:
        raise forbidden("a spectator cannot act; use your seat's token")
    to_move = live.state.to_move
    if seat != to_move:
        assert to_move is not None  # a game not over has a seat to move
        raise forbidden(f"it is {live.game.seat_name(to_move)}'s turn, not yours")


def _configure(
    game_id: Any, options: Any, seats: Any, own: frozenset[str]
) -> tuple[Game, list[str]]:
    """The game and seat specs a create request asks for, or 422 `config/invalid`."""
    if not isinstance(game_id, str):
        raise ApiError(422, "config/invalid", "game must be a game id such as 'keys'")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(422, "config/invalid", "options must be an object")
    if not isinstance(seats, list) or not seats or len(seats) > 16:
        raise ApiError(422, "config/invalid", "seats must be a list such as ['human', 'random']")
    options = dict(options)
    options.setdefault("players", len(seats))
    try:
        game = load(game_id, **options)
        if game.players != len(seats):
            raise ConfigError(f"{game.players} players but {len(seats)} seats given")
        specs = [check_spec(spec, game, own) for spec in seats]
    except (GameError, ValueError, TypeError) as exc:
        raise ApiError(422, "config/invalid", str(exc)) from exc
    return game, specs


def _tie_seats(live: Live, seats: Sequence[dict[str, Any]]) -> None:
    """The players a table's stored seats are tied to."""
    live.players = [s.get("player") for s in seats]
    live.names = [s.get("name") for s in seats]


def seat_list(live: Live, tokens: Sequence[str | None], base: str) -> list[dict[str, Any]]:
    """The seats part of a create answer: each human seat's token and link."""
    return [
        {
            "seat": seat,
            "agent": spec,
            "token": token,
            "url": None if token is None else f"{base}/tables/{live.id}?token={token}",
        }
        for seat, (spec, token) in enumerate(zip(live.specs, tokens, strict=True))
    ]
