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
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from timelord.agents import Agent, make_agent
from timelord.core import (
    Action,
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
from timelord.server import clocks, undo
from timelord.server.accounts import server_key, tie_seat
from timelord.server.bots import HUMAN, OPEN, Bots, bot_seed, check_spec
from timelord.server.clocks import Clock, SystemClock
from timelord.server.errors import ApiError, forbidden, not_found
from timelord.server.lease import MINE, MOVED, Leases
from timelord.server.limits import Limits, check_count, client_key
from timelord.server.names import nfc, reserved
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

    def __init__(
        self,
        seat: int | None,
        since: int,
        limit: int = 16,
        token: str | None = None,
        base: str = "",
        presence: bool = False,
    ) -> None:
        self.seat = seat
        self.since = since
        #: whether the client asked to be told of seat changes (`{"type": "seats"}`)
        self.presence = presence
        #: the seat's token and the server's address the client used (for a rematch link)
        self.token = token
        self.base = base
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
    #: per seat: {"agent", "token_hash", "name"?, "stand_in"?, "muted"?} as stored
    seats: list[dict[str, Any]]
    created: dt.datetime
    state: State
    #: the generator key the game was dealt from (else it was dealt from `seed`)
    key: bytes | None = None
    #: the creator chose the seed
    seeded: bool = False
    version: int = 0
    #: "open", "playing", "over" or "abandoned" (see `storage.TableRow.status`)
    status: str = "playing"
    owner_hash: str | None = None
    clock: dict[str, Any] | None = None
    stand_in: str = "heuristic"
    undo: bool = False
    undo_used: bool = False
    rematch: str | None = None
    rev: int = 0
    #: the state before the last action and that action (what an undo goes back to)
    previous: tuple[State, Action] | None = None
    #: events[v - 1]: the events of the action that made version v
    events: list[list[Event]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Outbox] = field(default_factory=set)
    agents: dict[tuple[int, str], Agent] = field(default_factory=dict)
    #: archived after a long pause: read-only, no bots
    archived: bool = False
    bot_task: asyncio.Task[None] | None = None
    clock_task: asyncio.Task[None] | None = None
    #: the number of the last chat line sent to this process's subscribers
    chat_seen: int = 0
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: per seat, the rate at which it may chat (`api.RateLimit`)
    chat_limits: dict[int, Any] = field(default_factory=dict)
    #: the time, as the server's `Clock` tells it
    now: Callable[[], float] = time.time
    #: per seat (None: spectator), the JSON text of each version's told events, comma-joined
    _told: dict[int | None, list[str]] = field(default_factory=dict)
    #: per seat, all of its told events' JSON text so far, comma-joined
    _told_joined: dict[int | None, str] = field(default_factory=dict)
    #: per seat, the full snapshot of the current version
    _snapshots: dict[int | None, str] = field(default_factory=dict)
    #: per seat, the id of the logged-in player the seat is tied to (None: a guest or bot)
    players: list[str | None] = field(default_factory=list)
    #: per person's seat, [decisions its person made, decisions its stand-in made], as seen
    #: by this process since it loaded the table (what ratings read: docs/ratings.md)
    decided: dict[int, list[int]] = field(default_factory=dict)

    def bot_seed(self, seat: int, version: int) -> int:
        """The seed of a bot's decision; at a keyed table an HMAC of the key, so a bot's
        choices tell nothing of the deal beyond what its own view does."""
        if self.key is None:
            return bot_seed(self.seed, seat, version)
        return derive_seed(self.key, "bot", seat, version)

    @property
    def specs(self) -> list[str]:
        return [s["agent"] for s in self.seats]

    @property
    def over(self) -> bool:
        """Whether nothing more is played here: the game ended or its creator ended it."""
        return self.state.is_over or self.status == "abandoned"

    def advance(self, state: State, events: list[Event], action: Action | None = None) -> None:
        self.previous = None if action is None else (self.state, action)
        self.state = state
        self.version += 1
        self.events.append(events)
        self._snapshots.clear()
        if state.is_over and self.status == "playing":
            self.status = "over"

    def rewind(self, state: State) -> None:
        """Go back one version to `state` (an undo): the last action never happened."""
        self.previous = None
        self.state = state
        self.version -= 1
        del self.events[self.version :]
        for told in self._told.values():
            del told[self.version :]
        self._told_joined = {s: ",".join(p for p in told if p) for s, told in self._told.items()}
        self._snapshots.clear()

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None without a token: a spectator); 403 for a bad one."""
        if token is None:
            return None
        digest = hash_token(token)
        for seat, entry in enumerate(self.seats):
            known = entry.get("token_hash")
            if known is not None and secrets.compare_digest(known, digest):
                return seat
        raise forbidden("this token opens no seat at this table")

    def seats_of_player(self, player_id: str) -> list[int]:
        """The seats tied to a logged-in player."""
        return [seat for seat, known in enumerate(self.players) if known == player_id]

    def owns(self, token: str | None) -> None:
        """403 `owner/forbidden` unless `token` is this table's creator's."""
        if (
            token is None
            or self.owner_hash is None
            or not secrets.compare_digest(self.owner_hash, hash_token(token))
        ):
            raise ApiError(403, "owner/forbidden", "this is not the token of the table's creator")

    def name(self, seat: int) -> str:
        """The seat's one name on every screen; seats that would share one (two bots of a
        level, two people called Sam) are told apart by their number."""
        plain = [seat_name(self.game, s, e) for s, e in enumerate(self.seats)]
        name = plain[seat]
        return f"{name} #{seat + 1}" if plain.count(name) > 1 else name

    def names(self) -> list[str]:
        return [self.name(s) for s in range(len(self.seats))]

    def guest(self, seat: int) -> bool:
        """Whether a person without an account sits at the seat (shown as a guest)."""
        entry = self.seats[seat]
        return entry["agent"] == HUMAN and not entry.get("player")

    def player(self, seat: int) -> str | None:
        """Who decides for the seat now: a bot spec, or None for its person."""
        entry = self.seats[seat]
        if entry["agent"] in (HUMAN, OPEN):
            return self.stand_in if entry.get("stand_in") else None
        return str(entry["agent"])

    def seats_json(self) -> list[dict[str, Any]]:
        """The snapshot's `seats`: name, kind, presence and stand-in of each seat."""
        present = {o.seat for o in self.subscribers}
        out = []
        for seat, entry in enumerate(self.seats):
            person = entry["agent"] in (HUMAN, OPEN)
            out.append(
                {
                    "seat": seat,
                    "name": self.name(seat),
                    "agent": entry["agent"],
                    "guest": self.guest(seat),
                    "connected": seat in present if person else True,
                    "stand_in": self.stand_in if person and entry.get("stand_in") else None,
                    "muted": bool(entry.get("muted")),
                }
            )
        return out

    def clock_json(self) -> dict[str, Any] | None:
        running = self.status == "playing" and not self.over
        return clocks.public(self.clock, self.state.to_move, self.now(), running)

    def snapshot_text(self, seat: int | None, since: int = 0) -> str:
        """The seat's snapshot as JSON text; the game's part is built once per version and
        kept until the next (one with `since` is rarer and built each time, so that odd
        `since` values cannot fill the memory); the table's part (seats, clock) is added
        each time, as of `now`."""
        if since:
            text = self._snapshot_text(seat, since)
        else:
            text = self._snapshots.get(seat) or ""
            if not text:
                text = self._snapshots[seat] = self._snapshot_text(seat, 0)
        life = {
            "status": self.status,
            "seats": self.seats_json(),
            "clock": self.clock_json(),
            "undo": self.undo,
            "rematch": self.rematch,
        }
        return f"{text[:-1]}, {json.dumps(life)[1:]}"

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
            if seat is not None and seat == to_move and not self.over
            else []
        )
        head = json.dumps(
            {
                "version": self.version,
                "over": self.over,
                "to_move": to_move,
                "seeded": self.seeded,
            }
        )[:-1]
        return (
            f'{head}, "view": {json.dumps(state.view(seat))}, "legal": {json.dumps(legal)}, '
            f'"events": [{told_since}]}}'
        )

    def summary(self) -> dict[str, Any]:
        over = self.over
        return {
            "id": self.id,
            "game": self.game.id,
            "options": self.game.options,
            "seats": [
                {
                    "seat": i,
                    "agent": entry["agent"],
                    "name": self.name(i),
                    "guest": self.guest(i),
                }
                for i, entry in enumerate(self.seats)
            ],
            "status": self.status,
            "version": self.version,
            "to_move": None if over else self.state.to_move,
            "created": self.created.isoformat(),
            "clock": self.clock_json(),
            "winners": self.state.winners() if over else None,
            "seeded": self.seeded,
        }


def _summary(stored: StoredTable) -> dict[str, Any]:
    game_name = stored.game
    return {
        "id": stored.id,
        "game": game_name,
        "options": stored.options,
        "seats": [
            {
                "seat": i,
                "agent": s["agent"],
                "name": s.get("name") or _default_name(i, s),
                "guest": s["agent"] == HUMAN and not s.get("player"),
            }
            for i, s in enumerate(stored.seats)
        ],
        "status": stored.status,
        "version": stored.version,
        "to_move": None,
        "created": stored.created.isoformat(),
        "clock": None if stored.clock is None else clocks.public(stored.clock, None, 0, False),
        "winners": None if stored.result is None else stored.result.get("winners"),
        "seeded": stored.seeded,
    }


def _default_name(seat: int, entry: dict[str, Any]) -> str:
    agent = entry["agent"]
    if agent == OPEN:
        return "Open seat"
    if agent == HUMAN:
        return f"Seat {seat}"
    return f"Bot ({agent})"


def seat_name(game: Game, seat: int, entry: dict[str, Any]) -> str:
    """A seat's display name: the person's own, "Bot (level)" for a bot, the game's name of
    the seat for a person who gave none, "Open seat" while nobody has claimed it."""
    name = entry.get("name")
    if name:
        return str(name)
    if entry["agent"] == HUMAN:
        return game.seat_name(seat)
    return _default_name(seat, entry)


def check_name(name: Any) -> str:
    """A display name as given (1-32 printable characters, not only spaces); 422
    `name/invalid` otherwise."""
    if (
        not isinstance(name, str)
        or not 1 <= len(name) <= 32
        or not name.isprintable()
        or not name.strip()
    ):
        raise ApiError(422, "name/invalid", "a name is 1 to 32 printable characters")
    name = nfc(name.strip())
    if reserved(name):
        raise ApiError(422, "name/invalid", f"{name!r} is reserved for seats, bots or roles")
    return name


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
        timer: Clock | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        #: the key of creators' address digests (`limits.client_key`), read at first use
        self._secret: bytes | None = None
        #: the operator's own agent specs that seats may name (`timelord serve --agent`)
        self.own = frozenset(own)
        #: where table clocks read the time (tests hand in a clock they move by hand)
        self.timer: Clock = timer or SystemClock()
        self.limits = limits or Limits()
        #: whether a create request may choose the seed (`timelord serve --allow-seed`)
        self.allow_seed = allow_seed
        self.clock = clock or (lambda: dt.datetime.fromtimestamp(self.timer.now(), dt.UTC))
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
        read on first use; clocks are checked by the sweep), listen to other processes,
        archive idle tables now and then."""
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
        for live in self._cache.values():
            tasks += [t for t in (live.bot_task, live.clock_task) if t is not None]
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

    def _client_secret(self) -> bytes:
        """The database's key for creators' address digests (blocking: run it in `_db`)."""
        if self._secret is None:
            self._secret = server_key(self.store, "client")
        return self._secret

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
        names: Any = None,
        clock: Any = None,
        stand_in: Any = None,
        allow_undo: Any = False,
    ) -> tuple[Live, list[str | None], str]:
        """A new table, the tokens of its human seats and its creator's token (given once,
        only hashes kept); 429 `rate/limited` past a limit of the creator's `client` address
        or of the server. A table with open seats waits for people to claim them. A
        logged-in `player` (id, name) sits in the first human seat, tied to it.
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
        given = _names(names, specs)
        clock_settings = clocks.settings(clock)
        stand_in_spec = "heuristic" if stand_in is None else stand_in
        try:
            stand_in_spec = check_spec(stand_in_spec, game, self.own)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(422, "config/invalid", f"stand_in: {exc}") from exc
        if stand_in_spec in (HUMAN, OPEN):
            raise ApiError(422, "config/invalid", "stand_in must be a bot, such as 'heuristic'")
        if not isinstance(allow_undo, bool):
            raise ApiError(422, "config/invalid", "undo must be true or false")
        creator = client_key(client, await self._db(self._client_secret))
        await self._db(
            self._check_limits, creator, any(spec not in (HUMAN, OPEN) for spec in specs)
        )
        tokens = [secrets.token_urlsafe(32) if spec == HUMAN else None for spec in specs]
        owner = secrets.token_urlsafe(32)
        try:
            state = new_state(game, seed, key)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(422, "config/invalid", f"cannot start this game: {exc}") from exc
        seats_json: list[dict[str, Any]] = []
        for spec, token, name in zip(specs, tokens, given, strict=True):
            entry: dict[str, Any] = {"agent": spec, "token_hash": token and hash_token(token)}
            if name is not None:
                entry["name"] = name
            seats_json.append(entry)
        if player is not None and HUMAN in specs:
            seats_json[specs.index(HUMAN)] |= {"player": player[0], "name": player[1]}
        status = "open" if OPEN in specs else "playing"
        if clock_settings is not None and status == "playing":
            clock_settings = clocks.start(clock_settings, game.players, self.timer.now())
        stored = await self._db(
            functools.partial(
                self.store.create_table,
                secrets.token_urlsafe(9),
                game.id,
                game.options,
                seed,
                seats_json,
                key=key,
                seeded=seeded,
                creator=creator,
                to_move=state.to_move,
                now=self.clock(),
                status=status,
                owner_hash=hash_token(owner),
                clock=clock_settings,
                stand_in=stand_in_spec,
                undo=allow_undo,
            )
        )
        live = self._from_stored(stored, game, state)
        if player is not None and HUMAN in specs:
            await self._db(tie_seat, self.store, live.id, specs.index(HUMAN), player[0])
        _tie_seats(live, seats_json)
        self._evict()
        self._cache[live.id] = live
        self._changed(live, tell=False)
        return live, tokens, owner

    def _from_stored(self, stored: StoredTable, game: Game, state: State) -> Live:
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
        _take_life(live, stored)
        live.now = self.timer.now
        return live

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
            self._changed(live, tell=False)
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
        live = self._from_stored(stored, game, state)
        live.archived = stored.status == "archived"
        _tie_seats(live, stored.seats)
        await self._catch_up(live)
        live.chat_seen = len(await self._db(self.store.chat, table_id, 0))
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
            live.advance(state, events, action)
        return True

    async def _resync(self, live: Live) -> None:
        """Read the table's life (seats, status, clock, rematch) back from the database, and
        its moves, going back first if another process took one back."""
        stored = await self._db(self.store.table, live.id)
        if stored is None:
            return
        rematch_before = live.rematch
        while stored.version < live.version:
            live.rewind(await self._state_at(live, live.version - 1))
        _take_life(live, stored)
        await self._catch_up(live)
        self._changed(live)
        if live.rematch is not None and rematch_before is None:
            self._tell_rematch(live)

    async def _state_at(self, live: Live, version: int) -> State:
        """The table's state at an earlier `version`, replayed from its record."""
        if live.previous is not None and version == live.version - 1:
            return live.previous[0]
        rows = await self._db(self.store.actions, live.id, 0)
        state = new_state(live.game, live.seed, live.key)
        for row in rows[:version]:
            state = state.apply(live.game.action_from_json(row.action))
        return state

    def _evict(self) -> None:
        if len(self._cache) < _CACHE_LIMIT:
            return
        for table_id, live in list(self._cache.items()):
            if live.over and not live.subscribers and not live.lock.locked():
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
        if not live.over:
            raise ApiError(403, "table/not_over", "the record is given once the game is over")
        rows = await self._db(self.store.actions, table_id, 0)
        state = live.state
        return Record(
            live.game.id,
            live.game.options,
            live.seed,
            [row.action for row in rows[: live.version]],
            list(live.specs),
            {"scores": state.scores(), "winners": state.winners() if state.is_over else []},
            None if live.key is None else live.key.hex(),
        )

    # -- actions --------------------------------------------------------------------------

    async def act(
        self, live: Live, seat: int | None, version: Any, action_data: Any, *, bot: bool = False
    ) -> None:
        """Apply `action_data` for `seat` made against `version`, or refuse it with its code
        (nothing changes then). `bot`: the seat's bot (or stand-in) decided it. The move that
        ends the game also records the table's results (and ratings) before it is answered."""
        await self._act(live, seat, version, action_data, bot=bot)
        if live.state.is_over and self.on_finish is not None:
            try:
                await self.on_finish(live)
            except Exception:  # the move stands; only its results could not be written
                log.exception("recording the results of table %s failed", live.id)

    async def _act(
        self, live: Live, seat: int | None, version: Any, action_data: Any, *, bot: bool = False
    ) -> None:
        async with live.lock:
            if not bot and seat is not None and live.player(seat) is not None:
                raise ApiError(
                    409,
                    "seat/stand_in",
                    f"{bot_name(live.stand_in)} plays this seat for you; take your seat back first",
                )
            if version != live.version:
                raise ApiError(
                    409,
                    "action/stale",
                    f"the table is at version {live.version}, not {version}; reload and retry",
                )
            state = live.state
            if live.over:
                reason = "the game is over; no more moves"
                if live.status == "abandoned":
                    reason = "the table's creator ended this table; no more moves"
                raise ApiError(422, "action/illegal", reason, "end")
            if live.status == "open":
                raise ApiError(409, "table/open", "the table waits for its open seats")
            if live.archived:
                raise ApiError(
                    409,
                    "table/archived",
                    "this table was archived after a long pause; it can be read but not played",
                )
            _check_turn(live, seat)
            assert seat is not None
            if bot and live.player(seat) is None:
                raise ApiError(409, "seat/stand_in", "the seat's person took it back")
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
            clock = live.clock
            if clock is not None and clock.get("since") is not None:
                clock = clocks.moved(clock, seat, self.timer.now())
            try:
                await self._write(
                    self.store.append,
                    live.id,
                    live.version + 1,
                    action.to_json(),
                    [e.to_json() for e in events],
                    result,
                    following.to_move,
                    clock,
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
            live.advance(following, events, action)
            if live.seats[seat]["agent"] == HUMAN:
                live.decided.setdefault(seat, [0, 0])[1 if bot else 0] += 1
            live.clock = clock
            self._changed(live)

    def explain(self, live: Live, seat: int | None, action_data: Any) -> dict[str, Any]:
        """Whether `action_data` would be legal for `seat` now and, if not, the engine's
        reason and rule; refused with the codes `act` uses, and it never changes the table."""
        state = live.state
        if live.over:
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

    async def take_back(self, live: Live, seat: int | None, version: Any) -> None:
        """Undo `seat`'s last action if the table allows it and the safe rule holds
        (`timelord.server.undo`); 409 `undo/forbidden` with the reason otherwise."""
        if seat is None:
            raise forbidden("a spectator cannot undo; use your seat's token")
        async with live.lock:
            if version != live.version:
                raise ApiError(
                    409, "action/stale", f"the table is at version {live.version}, not {version}"
                )
            if not live.undo:
                raise _no_undo("this table was created without undo")
            if live.over or live.status != "playing":
                raise _no_undo("the game is over")
            if live.version == 0:
                raise _no_undo("nothing has been played yet")
            before = await self._state_at(live, live.version - 1)
            rows = await self._db(self.store.actions, live.id, live.version - 1)
            action = live.game.action_from_json(rows[0].action)
            if before.to_move != seat:
                raise _no_undo("another seat has acted since your last move")
            reason = await asyncio.get_running_loop().run_in_executor(
                None,
                undo.why_not,
                live.game,
                before,
                action,
                live.state,
                live.events[-1],
                bot_seed(live.seed, seat, live.version),
            )
            if reason is not None:
                raise _no_undo(reason)
            clock = live.clock
            if clock is not None and clock.get("since") is not None:
                clock = clocks.taken_back(clock, seat, self.timer.now())
            try:
                await self._write(self.store.undo, live.id, live.version, clock)
            except Conflict as exc:
                raise ApiError(409, "action/stale", "the table moved on; reload") from exc
            live.rewind(before)
            live.clock = clock
            live.undo_used = True
            self._changed(live)
        await self.notice(live, f"{live.name(seat)} took their last move back.")

    def _changed(self, live: Live, tell: bool = True) -> None:
        if tell:
            for outbox in list(live.subscribers):
                outbox.push_snapshot(live.snapshot_text(outbox.seat, outbox.since))
        self._schedule_bot(live)
        self._schedule_clock(live)

    # -- seats ----------------------------------------------------------------------------

    async def _change_life(self, live: Live, change: Callable[[Live], dict[str, Any]]) -> None:
        """Apply `change` (it checks the live table and answers the columns to write, or
        raises) and store it; if another process changed the table first, read it back and
        try once more, so `change` decides on what is stored."""
        for _ in range(3):
            async with live.lock:
                values = change(live)
                if await self._db(
                    functools.partial(self.store.update_life, live.id, live.rev, **values)
                ):
                    live.rev += 1
                    _apply_life(live, values)
                    self._changed(live)
                    self._tell_seats(live)
                    return
            await self._resync_locked(live)
        raise ApiError(503, "server/unavailable", "the table kept changing; try again")

    async def claim(
        self, live: Live, seat: int, name: Any, extra: dict[str, Any] | None = None
    ) -> str:
        """Give the open `seat` to the person named `name`; their new token. `extra` is
        stored with the seat (an account, for instance). The table starts when its last open
        seat is claimed; 409 `seat/taken` if the seat is not open."""
        name = check_name(name)
        _check_seat_index(live, seat)
        token = secrets.token_urlsafe(32)

        def change(live: Live) -> dict[str, Any]:
            if live.seats[seat]["agent"] != OPEN or live.status != "open":
                raise ApiError(409, "seat/taken", "this seat is not open (someone claimed it)")
            seats = [dict(s) for s in live.seats]
            seats[seat] = {
                **(extra or {}),
                "agent": HUMAN,
                "token_hash": hash_token(token),
                "name": name,
                "claimed": True,
            }
            values: dict[str, Any] = {"seats": seats}
            if all(s["agent"] != OPEN for s in seats):
                values["status"] = "playing"
                if live.clock is not None:
                    values["clock"] = clocks.start(live.clock, live.game.players, self.timer.now())
            return values

        await self._change_life(live, change)
        await self.notice(live, f"{name} took seat {seat}.")
        return token

    async def tie(self, live: Live, seat: int, player_id: str) -> None:
        """Tie a claimed seat to a logged-in player: the seat opens with the player's
        session and its results count for the player."""
        await self._db(tie_seat, self.store, live.id, seat, player_id)
        _tie_seats(live, live.seats)

    async def invite(self, live: Live, owner: str | None, seat: int) -> str:
        """A fresh token for a person's seat (the creator's `owner` token); the old one stops
        opening it."""
        live.owns(owner)
        _check_seat_index(live, seat)
        token = secrets.token_urlsafe(32)

        def change(live: Live) -> dict[str, Any]:
            if live.seats[seat]["agent"] != HUMAN:
                raise ApiError(409, "seat/not_human", "only a person's seat can be sent a new link")
            seats = [dict(s) for s in live.seats]
            seats[seat]["token_hash"] = hash_token(token)
            return {"seats": seats}

        await self._change_life(live, change)
        return token

    async def end(self, live: Live, owner: str | None) -> None:
        """The creator ends the table: recorded as abandoned, with no winner."""
        live.owns(owner)

        def change(live: Live) -> dict[str, Any]:
            if live.over:
                raise ApiError(409, "table/over", "this table has ended already")
            return {"status": "abandoned", "result": {"abandoned": True, "winners": []}}

        await self._change_life(live, change)
        await self.notice(live, "The table's creator ended the table.")

    async def mute(self, live: Live, owner: str | None, seat: int, muted: bool) -> None:
        """The creator mutes (or unmutes) a seat's chat."""
        live.owns(owner)
        _check_seat_index(live, seat)

        def change(live: Live) -> dict[str, Any]:
            seats = [dict(s) for s in live.seats]
            seats[seat]["muted"] = muted
            return {"seats": seats}

        await self._change_life(live, change)

    async def stand_in_for(self, live: Live, seat: int, reason: str) -> None:
        """Let the table's stand-in bot play the person's `seat` until they come back."""

        def change(live: Live) -> dict[str, Any]:
            if live.over:
                raise ApiError(409, "table/over", "this table has ended")
            if live.seats[seat]["agent"] != HUMAN:
                raise ApiError(409, "seat/not_human", "only a person's seat has a stand-in")
            if live.seats[seat].get("stand_in"):
                return {}
            seats = [dict(s) for s in live.seats]
            seats[seat]["stand_in"] = True
            return {"seats": seats}

        was = bool(live.seats[seat].get("stand_in"))
        await self._change_life(live, change)
        if not was:
            await self.notice(
                live, f"{bot_name(live.stand_in)} is standing in for {live.name(seat)} ({reason})."
            )

    async def reclaim(self, live: Live, seat: int) -> None:
        """The person takes their seat back from the stand-in."""

        def change(live: Live) -> dict[str, Any]:
            if not live.seats[seat].get("stand_in"):
                return {}
            seats = [dict(s) for s in live.seats]
            seats[seat]["stand_in"] = False
            values: dict[str, Any] = {"seats": seats}
            if live.clock is not None and live.clock.get("since") is not None:
                now = self.timer.now()
                values["clock"] = clocks.reclaimed(live.clock, seat, live.state.to_move, now)
            return values

        was = bool(live.seats[seat].get("stand_in"))
        await self._change_life(live, change)
        if was:
            await self.notice(
                live, f"{live.name(seat)} took their seat back from {bot_name(live.stand_in)}."
            )

    # -- rematch --------------------------------------------------------------------------

    async def rematch(self, live: Live, seat: int | None) -> str:
        """The one new table after this one: same game, options, clock, stand-in and seat
        kinds, seats rotated by one; every seat's socket is told its new link (the seat's
        own token opens its new seat)."""
        if seat is None:
            raise forbidden("a spectator cannot ask for a rematch; use your seat's token")
        if not live.over:
            raise ApiError(409, "table/not_over", "a rematch is offered once the game is over")
        if live.rematch is not None:
            return live.rematch
        n = live.game.players
        seats = [dict(live.seats[(i - 1) % n]) for i in range(n)]
        for entry in seats:
            entry.pop("stand_in", None)
            entry.pop("muted", None)
        clock = live.clock
        if clock is not None:
            clock = clocks.start(clock, n, self.timer.now())
        fresh = StoredTable(
            secrets.token_urlsafe(9),
            live.game.id,
            dict(live.game.options),
            0,
            seats,
            0,
            "playing",
            None,
            live.created,
            secrets.token_bytes(KEY_BYTES),  # a new deal, never the old one again
            False,
            owner_hash=live.owner_hash,
            clock=clock,
            stand_in=live.stand_in,
            undo=live.undo,
        )
        try:
            made = await self._db(self.store.create_rematch, live.id, fresh)
        except Conflict as exc:
            raise not_found(live.id) from exc
        if live.rematch is None:
            live.rematch = made
            live.rev += 1
            self._tell_rematch(live)
            self._changed(live)
        await self.live(made)  # its bots start now
        return made

    def _tell_rematch(self, live: Live) -> None:
        n = live.game.players
        for outbox in list(live.subscribers):
            seat = None if outbox.seat is None else (outbox.seat + 1) % n
            url = rematch_url(
                outbox.base, live.rematch or "", outbox.token if seat is not None else None
            )
            outbox.push_message(json.dumps({"type": "rematch", "table": live.rematch, "url": url}))

    # -- chat -----------------------------------------------------------------------------

    async def chat(self, live: Live, seat: int | None, message: Any) -> None:
        """A seat's chat line, stored and sent to everyone at the table in order."""
        if seat is None:
            raise forbidden("spectators read the chat; only seats write")
        if not isinstance(message, str) or not message.strip():
            raise ApiError(422, "chat/invalid", "a chat message is text of 1 to 500 characters")
        if len(message) > CHAT_LIMIT:
            raise ApiError(
                422, "chat/too_long", f"a chat message is at most {CHAT_LIMIT} characters"
            )
        if live.seats[seat].get("muted"):
            raise ApiError(403, "chat/muted", "the table's creator muted this seat")
        await self._db(self.store.add_chat, live.id, seat, live.name(seat), message)
        await self._chat_catch_up(live)

    async def notice(self, live: Live, message: str) -> None:
        """Tell the table something about itself (who stands in for whom): stored with the
        chat and shown in the table's log."""
        try:
            await self._db(self.store.add_chat, live.id, None, "table", message)
        except Conflict:
            log.warning("table %s: a notice was not stored", live.id)
            return
        await self._chat_catch_up(live)

    async def _chat_catch_up(self, live: Live) -> None:
        async with live.chat_lock:
            lines = await self._db(self.store.chat, live.id, live.chat_seen)
            for line in lines:
                text = json.dumps({"type": "chat", **line})
                for outbox in list(live.subscribers):
                    outbox.push_message(text)
                live.chat_seen = max(live.chat_seen, line["n"])

    async def chat_lines(self, live: Live, after: int = 0) -> list[dict[str, Any]]:
        return await self._db(self.store.chat, live.id, after)

    # -- subscribers ----------------------------------------------------------------------

    def subscribe(
        self,
        live: Live,
        seat: int | None,
        since: int,
        token: str | None = None,
        base: str = "",
        presence: bool = False,
    ) -> Outbox:
        outbox = Outbox(seat, since, token=token, base=base, presence=presence)
        present = {o.seat for o in live.subscribers}
        live.subscribers.add(outbox)
        outbox.push_snapshot(live.snapshot_text(seat, since))
        if seat is not None and seat not in present:
            self._tell_seats(live)
        return outbox

    def unsubscribe(self, live: Live, outbox: Outbox) -> None:
        live.subscribers.discard(outbox)
        if outbox.seat is not None and outbox.seat not in {o.seat for o in live.subscribers}:
            self._tell_seats(live)

    def _tell_seats(self, live: Live) -> None:
        """Tell the table's sockets who sits where now (names, presence, stand-ins)."""
        text = json.dumps({"type": "seats", "seats": live.seats_json()})
        for outbox in list(live.subscribers):
            if outbox.presence:
                outbox.push_message(text)

    # -- bots and clocks ------------------------------------------------------------------

    def _schedule_bot(self, live: Live) -> None:
        if self._closing or live.over or live.archived or live.status != "playing":
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        seat = live.state.to_move
        if seat is None or live.player(seat) is None:
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
            spec = live.player(seat)
            if live.version != version or state.to_move != seat or spec is None:
                return
            agent = live.agents.get((seat, spec))
            if agent is None:
                agent = live.agents[seat, spec] = make_agent(spec, live.game)
            action = await self.bots.choose(
                live.game,
                agent,
                spec,
                partial(state.view, seat),
                state.legal_actions(),
                live.bot_seed(seat, version),
                live.id,
            )
            if live.player(seat) is None:  # the person took the seat back meanwhile
                return
            await self.act(live, seat, version, action.to_json(), bot=True)
        except ApiError as exc:
            if exc.status == 503:  # the database is away; try again in a while
                await asyncio.sleep(1)
            elif exc.code not in ("action/stale", "seat/stand_in"):
                log.error("bot at table %s seat %s stopped: %s", live.id, seat, exc.reason)
                return
        except asyncio.CancelledError:
            if self._closing:
                raise
            return
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

    def _schedule_clock(self, live: Live) -> None:
        """Wait for the deadline of the person to move, if there is one; a new change
        replaces the wait."""
        if live.clock_task is not None and not live.clock_task.done():
            live.clock_task.cancel()
        live.clock_task = None
        if self._closing or live.over or live.status != "playing":
            return
        seat = live.state.to_move
        due = clocks.deadline(live.clock, seat)
        if due is None or seat is None or live.player(seat) is not None:
            return
        live.clock_task = asyncio.create_task(self._time_out(live, live.version, seat, due))

    async def _time_out(self, live: Live, version: int, seat: int, due: float) -> None:
        """At the deadline, hand the seat that let its time run out to the stand-in."""
        try:
            await self.timer.sleep(due - self.timer.now())
            while self.timer.now() < due:  # a clock that wakes early
                await self.timer.sleep(due - self.timer.now())
            if live.version != version or live.state.to_move != seat or live.over:
                return
            live.clock_task = None
            await self.stand_in_for(live, seat, "time ran out")
        except asyncio.CancelledError:
            return
        except ApiError as exc:
            log.warning("table %s: no stand-in at the deadline: %s", live.id, exc.reason)

    # -- other processes (PostgreSQL) -----------------------------------------------------

    async def _listen(self) -> None:
        """Follow what other processes commit on this database (LISTEN/NOTIFY): moves
        ("id:version"), changes of a table's life ("id:meta"), undos ("id:undo") and chat
        ("id:chat"); after each (re)connection, catch up on every cached table, since
        notices may have been missed."""
        import psycopg

        while not self._closing:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.store.libpq_url(), autocommit=True
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    for cached in list(self._cache.values()):
                        self._spawn(self._resync(cached))
                        self._spawn(self._chat_catch_up(cached))
                    async for note in conn.notifies():
                        table_id, _, what = note.payload.partition(":")
                        live = self._cache.get(table_id)
                        if live is None:
                            continue
                        if what == "chat":
                            self._spawn(self._chat_catch_up(live))
                        elif what in ("meta", "undo"):
                            self._spawn(self._resync_locked(live))
                        elif what.isdigit() and int(what) > live.version:
                            self._spawn(self.refresh(live))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lost the database notice channel (%s); reconnecting", exc)
                await asyncio.sleep(0.5)

    async def _resync_locked(self, live: Live) -> None:
        async with live.lock:
            await self._resync(live)

    async def refresh(self, live: Live) -> None:
        """Bring a cached table up to the database's latest version and tell its watchers."""
        async with live.lock:
            if await self._catch_up(live):
                stored = await self._db(self.store.table, live.id)
                if stored is not None:
                    _take_life(live, stored)
                self._changed(live)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


#: the longest chat message, in characters
CHAT_LIMIT = 500

#: the columns of a table's life, as `StoredTable` and `Live` both name them
_LIFE = ("status", "owner_hash", "clock", "stand_in", "undo", "undo_used", "rematch", "rev")


def _take_life(live: Live, stored: StoredTable) -> None:
    """Copy what the database says of the table's life onto the live table."""
    live.seats = [dict(s) for s in stored.seats]
    for name in _LIFE:
        setattr(live, name, getattr(stored, name))


def _apply_life(live: Live, values: dict[str, Any]) -> None:
    for name, value in values.items():
        if name == "seats":
            live.seats = value
        elif name != "result":
            setattr(live, name, value)


def _no_undo(reason: str) -> ApiError:
    return ApiError(409, "undo/forbidden", reason)


def bot_name(spec: str) -> str:
    return f"Bot ({spec})"


def rematch_url(base: str, table_id: str, token: str | None) -> str:
    link = f"{base}/tables/{table_id}"
    return link if token is None else f"{link}?token={token}"


def _check_seat_index(live: Live, seat: int) -> None:
    if not 0 <= seat < len(live.seats):
        raise ApiError(404, "seat/not_found", f"this table has seats 0 to {len(live.seats) - 1}")


def _names(names: Any, specs: Sequence[str]) -> list[str | None]:
    """The names a create request gives its human seats (None where it gives none)."""
    if names is None:
        return [None] * len(specs)
    if not isinstance(names, list) or len(names) != len(specs):
        raise ApiError(422, "config/invalid", "names must be a list with one entry per seat")
    out: list[str | None] = []
    for name, spec in zip(names, specs, strict=True):
        if name is None:
            out.append(None)
        elif spec != HUMAN:
            raise ApiError(422, "config/invalid", "only human seats are given names")
        else:
            out.append(check_name(name))
    return out


def _check_turn(live: Live, seat: int | None) -> None:
    """403 seat/forbidden unless `seat` is the seat to move (a spectator never is)."""
    if seat is None:
        raise forbidden("a spectator cannot act; use your seat's token")
    to_move = live.state.to_move
    if seat != to_move:
        assert to_move is not None  # a game not over has a seat to move
        raise forbidden(f"it is {live.name(to_move)}'s turn, not yours")


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
