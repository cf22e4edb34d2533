"""Where tables live: SQLAlchemy 2 over SQLite (default) or PostgreSQL, schema by Alembic.

The state of record of a table is its seed plus its accepted actions; each action row carries
the version it brought the table to, and (table, version) is unique, so two writers (two
requests, or two server processes sharing one PostgreSQL) can never both commit version V.
Every method here is blocking; the service calls them from worker threads.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: the channel processes sharing a PostgreSQL database announce committed actions on
CHANNEL = "timelord_actions"


class Base(DeclarativeBase):
    metadata = MetaData()


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: [{"agent": spec, "token_hash": sha256 hex or null, "name"?, "stand_in"?: bool,
    #: "muted"?: bool}, ...] by seat; agent "open" is a seat waiting for a person to claim it
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: "open" (seats wait for people), "playing", "over" or "abandoned" (ended by its creator)
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    #: the table's generator key (hex), None when the creator chose the seed (then `seeded`)
    rng_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seeded: Mapped[bool] = mapped_column(Boolean, default=False)
    #: `limits.client_key` of the creator's address, for per-client limits
    creator: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    #: a seat is not a person's (for the limits on tables with bots)
    bots: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the seat to move after the last commit (None: over, or not known before revision 0002)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the last commit (or the creation); a table in play idle for long is archived
    touched: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: sha256 of the creator's token (invite, end, mute); null for tables made before 0003
    owner_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: the clock's settings and state (`timelord.server.clocks`), null for no clock
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the bot spec that plays a seat whose player is away
    stand_in: Mapped[str] = mapped_column(String(64), default="heuristic")
    undo: Mapped[bool] = mapped_column(Boolean, default=False)
    #: whether any seat took an action back (such a table is not rated: docs/ratings.md)
    undo_used: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the table made by the first rematch request, once there is one
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: bumped by every change of seats, status or rematch outside a move, so two writers of
    #: such a change cannot both win
    rev: Mapped[int] = mapped_column(Integer, default=0)


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    #: the table's version once this action is applied (1 for the first action)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the transition's events with their private parts (`Event.to_json`), told per seat later
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    #: the stand-in bot played this action for the seat's person (migration 0008)
    standin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ChatRow(Base):
    __tablename__ = "chat"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    #: 1, 2, ... in the order the table was told
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: the seat that wrote it; null for the table's own notices (who stands in for whom)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class StoredTable:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    version: int
    status: str
    result: dict[str, Any] | None
    created: dt.datetime
    key: bytes | None = None
    seeded: bool = False
    owner_hash: str | None = None
    clock: dict[str, Any] | None = None
    stand_in: str = "heuristic"
    undo: bool = False
    undo_used: bool = False
    rematch: str | None = None
    rev: int = 0
    #: `limits.client_key` of the creator's address (whose share of the search pool)
    creator: str | None = None


@dataclass(frozen=True)
class StoredAction:
    version: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    standin: bool = False


# A move's statements as SQL text, handed to the driver itself: through SQLAlchemy the
# statement handling (parameters, type processors) cost more than SQLite's own commit. JSON
# columns hold `json.dumps` text and times SQLAlchemy's text form, as its own writes do.
_SQLITE_STEP = """UPDATE tables SET version = :version, to_move = :to_move, touched = :touched,
    clock = :clock WHERE id = :table_id AND version = :previous AND status = 'playing'"""
_SQLITE_LAST_STEP = """UPDATE tables SET version = :version, status = 'over', result = :result,
    clock = :clock, to_move = NULL, touched = :touched
    WHERE id = :table_id AND version = :previous AND status = 'playing'"""
_SQLITE_RECORD = """INSERT INTO actions (table_id, version, action, events, standin)
    VALUES (:table_id, :version, :action, :events, :standin)"""
_PG_APPEND = text(
    """
    WITH moved AS (
        UPDATE tables SET version = :version, status = :status,
            result = COALESCE(CAST(:result AS JSON), result), clock = CAST(:clock AS JSON),
            to_move = CAST(:to_move AS INTEGER), touched = :touched
        WHERE id = :table_id AND version = :previous AND status = 'playing'
        RETURNING id
    ), recorded AS (
        INSERT INTO actions (table_id, version, action, events, standin)
        SELECT id, :version, CAST(:action AS JSON), CAST(:events AS JSON), :standin FROM moved
        RETURNING table_id
    )
    SELECT pg_notify(:channel, :payload) FROM recorded
    """
)


#: `_PG_APPEND` as psycopg takes it
_PG_APPEND_SQL = re.sub(r":([a-z_]+)", r"%(\1)s", str(_PG_APPEND))

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


#: the statuses of a table that holds the server's room: in play, or waiting for people
_HELD = ("playing", "open")
#: the advisory lock key that makes a creation's limit check and insert one step
_CREATE_LOCK = 0x71E10E


class Conflict(Exception):
    """Another writer committed this version first."""


def default_url() -> str:
    """A SQLite file in the user's data directory, so `timelord serve` needs no set-up."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("timelord"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tables.sqlite3'}"


def _stored(row: TableRow) -> StoredTable:
    created = row.created
    if created.tzinfo is None:  # SQLite drops the zone; everything is written in UTC
        created = created.replace(tzinfo=dt.UTC)
    return StoredTable(
        row.id,
        row.game,
        dict(row.options),
        row.seed,
        list(row.seats),
        row.version,
        row.status,
        row.result,
        created,
        None if row.rng_key is None else bytes.fromhex(row.rng_key),
        bool(row.seeded),
        row.owner_hash,
        row.clock,
        row.stand_in or "heuristic",
        bool(row.undo),
        bool(row.undo_used),
        row.rematch,
        row.rev or 0,
        row.creator,
    )


class Store:
    """Blocking access to the tables and actions of one database."""

    def __init__(self, url: str) -> None:
        self.url: URL = make_url(url)
        self.is_postgres = self.url.get_backend_name() == "postgresql"
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_size"] = 8
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            # SQLite allows one writer; queue them here rather than in its busy loop
            self._write_lock: threading.Lock | None = threading.Lock()
        else:
            self._write_lock = None
        #: the connection SQLite moves are committed on, and the statements compiled for it
        self._writer: Any = None
        #: PostgreSQL: each worker thread's connection for moves, and all of them (to close)
        self._local = threading.local()
        self._held: list[Any] = []
        self._held_lock = threading.Lock()

    def migrate(self) -> None:
        """Bring the schema up to date (Alembic, scripts shipped in the package)."""
        from timelord.server.migrations import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        with self._held_lock:
            held, self._held = self._held, []
        for conn in held:
            conn.close()
        self.engine.dispose()

    def libpq_url(self) -> str:
        """The database address in the form psycopg connects to directly (LISTEN)."""
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        *,
        key: bytes | None = None,
        seeded: bool = True,
        creator: str | None = None,
        to_move: int | None = None,
        now: dt.datetime | None = None,
        check: Callable[[Any], None] | None = None,
        **life: Any,
    ) -> StoredTable:
        """A new table at version 0, dealt from `key` when given, else from `seed`;
        `seeded` when the creator chose that seed; `life` sets the columns of a table's life
        (status, owner_hash, clock, stand_in, undo) where their defaults do not fit.
        `check(conn)` runs in the inserting transaction, after every other creation's (it
        counts against limits and raises to refuse): counts and insert are one step."""
        row = _new_row(table_id, game, options, seed, seats, life)
        now = now or row.created
        row.created = now
        row.rng_key = None if key is None else key.hex()
        row.seeded = seeded
        row.creator = creator
        row.bots = any(seat["agent"] not in ("human", "open") for seat in seats)
        row.to_move = to_move
        row.touched = now
        with self._writing(), self.engine.begin() as conn:
            if check is not None:
                if self.is_postgres:  # one creation's count-and-insert at a time, everywhere
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATE_LOCK})
                check(conn)
            conn.execute(insert(TableRow).values(**_row_values(row)))
        return _stored(row)

    def create_rematch(self, old_id: str, new: StoredTable) -> str:
        """Make `new` the rematch of `old_id` unless it has one already; the id of the
        rematch that stands (the first request's, however many arrive at once)."""
        life = {k: getattr(new, k) for k in ("status", "owner_hash", "clock", "stand_in", "undo")}
        row = _new_row(new.id, new.game, new.options, new.seed, new.seats, life)
        row.rng_key = None if new.key is None else new.key.hex()
        row.seeded = new.seeded
        row.bots = any(seat["agent"] not in ("human", "open") for seat in new.seats)
        row.touched = row.created
        claim = (
            update(TableRow)
            .where(TableRow.id == old_id, TableRow.rematch.is_(None))
            .values(rematch=new.id, rev=TableRow.rev + 1)
        )
        with self._writing(), self.engine.begin() as conn:
            if conn.execute(claim).rowcount == 1:
                conn.execute(insert(TableRow).values(**_row_values(row)))
                self._notify(conn, f"{old_id}:meta")
                return new.id
            found = conn.execute(select(TableRow.rematch).where(TableRow.id == old_id)).scalar()
        if found is None:
            raise Conflict(f"table {old_id} is gone")
        return str(found)

    def update_life(self, table_id: str, rev: int, **values: Any) -> bool:
        """Change a table's seats, status, result or clock outside a move, if nobody else
        did since revision `rev` (then bump it and tell the other processes); False if
        another writer got there first."""
        change = (
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.rev == rev)
            .values(rev=rev + 1, **values)
        )
        with self._writing(), self.engine.begin() as conn:
            if conn.execute(change).rowcount != 1:
                return False
            self._notify(conn, f"{table_id}:meta")
        return True

    def undo(self, table_id: str, version: int, clock: dict[str, Any] | None) -> None:
        """Take back the action that made `version` (the record keeps only what was finally
        played) and mark the table as one where undo was used; `Conflict` if the table is no
        longer at `version`."""
        back = (
            update(TableRow)
            .where(
                TableRow.id == table_id, TableRow.version == version, TableRow.status == "playing"
            )
            .values(version=version - 1, undo_used=True, clock=clock)
        )
        drop = delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.version == version)
        with self._writing(), self.engine.begin() as conn:
            if conn.execute(back).rowcount != 1:
                raise Conflict(f"table {table_id} is no longer at version {version}")
            conn.execute(drop)
            self._notify(conn, f"{table_id}:undo")

    def add_chat(self, table_id: str, seat: int | None, name: str, message: str) -> dict[str, Any]:
        """Store one chat line (or, with seat None, a notice of the table) after the last."""
        at = dt.datetime.now(dt.UTC)
        last = select(func.coalesce(func.max(ChatRow.n), 0)).where(ChatRow.table_id == table_id)
        for _ in range(8):
            try:
                with self._writing(), self.engine.begin() as conn:
                    n = int(conn.execute(last).scalar() or 0) + 1
                    conn.execute(
                        insert(ChatRow).values(
                            table_id=table_id, n=n, seat=seat, name=name, text=message, at=at
                        )
                    )
                    self._notify(conn, f"{table_id}:chat")
            except IntegrityError:  # another process wrote line n first
                continue
            return _chat_json(n, seat, name, message, at)
        raise Conflict(f"table {table_id}: chat line not stored")

    def chat(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The table's chat lines and notices numbered above `after`, in order."""
        query = (
            select(ChatRow.n, ChatRow.seat, ChatRow.name, ChatRow.text, ChatRow.at)
            .where(ChatRow.table_id == table_id, ChatRow.n > after)
            .order_by(ChatRow.n)
        )
        with self.engine.connect() as conn:
            return [_chat_json(*row) for row in conn.execute(query)]

    def _notify(self, conn: Any, payload: str) -> None:
        """Tell the other processes on this PostgreSQL database, once `conn` commits."""
        if self.is_postgres:
            conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})

    def table(self, table_id: str) -> StoredTable | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(TableRow.__table__).where(TableRow.id == table_id)).first()
        return None if found is None else _stored(TableRow(**found._mapping))

    def tables(self, status: str | None = None, limit: int = 200) -> list[StoredTable]:
        query = select(TableRow.__table__).order_by(TableRow.created.desc()).limit(limit)
        if status is not None:
            query = query.where(TableRow.status == status)
        with self.engine.connect() as conn:
            return [_stored(TableRow(**r._mapping)) for r in conn.execute(query)]

    def actions(self, table_id: str, after: int = 0) -> list[StoredAction]:
        """The table's actions with versions above `after`, in order."""
        query = (
            select(ActionRow.version, ActionRow.action, ActionRow.events, ActionRow.standin)
            .where(ActionRow.table_id == table_id, ActionRow.version > after)
            .order_by(ActionRow.version)
        )
        with self.engine.connect() as conn:
            return [StoredAction(v, a, e, bool(b)) for v, a, e, b in conn.execute(query)]

    def append(
        self,
        table_id: str,
        version: int,
        action: dict[str, Any],
        events: Sequence[dict[str, Any]],
        result: dict[str, Any] | None,
        to_move: int | None = None,
        clock: dict[str, Any] | None = None,
        standin: bool = False,
    ) -> None:
        """Commit the action that takes the table from `version - 1` to `version`, after
        which `to_move` decides (and the table's clock as that move leaves it); `standin`:
        the stand-in bot played it for the seat's person.

        `Conflict` if another writer got there first, or the table is no longer in play
        (archived), and nothing is written then. On PostgreSQL the same transaction notifies
        the other processes, delivered only once it commits.
        """
        if self.is_postgres:
            self._append_postgres(
                table_id, version, action, events, result, to_move, clock, standin
            )
            return
        params = {
            "table_id": table_id,
            "version": version,
            "previous": version - 1,
            "to_move": to_move,
            "touched": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f"),
            "clock": json.dumps(clock),
        }
        step = _SQLITE_STEP
        if result is not None:
            step, params["result"] = _SQLITE_LAST_STEP, json.dumps(result)
        record = {
            "table_id": table_id,
            "version": version,
            "action": json.dumps(action),
            "events": json.dumps(list(events)),
            "standin": standin,
        }
        with self._writing():
            conn = self._sqlite_writer()
            try:
                if conn.execute(step, params).rowcount != 1:
                    raise Conflict(f"table {table_id} is no longer at version {version - 1}")
                conn.execute(_SQLITE_RECORD, record)
                conn.commit()
            except sqlite3.IntegrityError as exc:
                conn.rollback()
                raise Conflict(
                    f"table {table_id} version {version} was committed elsewhere"
                ) from exc
            except sqlite3.Error as exc:
                conn.rollback()
                raise OperationalError("append", record, exc) from exc
            except Conflict:
                conn.rollback()
                raise

    def _held_connection(self) -> Any:
        """This thread's own pooled connection in autocommit mode, kept from one move to
        the next."""
        found = getattr(self._local, "conn", None)
        if found is None:
            found = self._local.conn = self.engine.raw_connection()
            driver: Any = found.driver_connection
            driver.autocommit = True
            with self._held_lock:
                self._held.append(found)
        return found

    def _drop_held(self) -> None:
        """Forget this thread's connection (it failed); the next move takes a new one."""
        found = getattr(self._local, "conn", None)
        self._local.conn = None
        if found is not None:
            with self._held_lock:
                self._held.remove(found)
            found.invalidate()

    def _sqlite_writer(self) -> sqlite3.Connection:
        """The one connection SQLite moves are committed on (under the write lock), taken
        from the engine's pool once: a move's commit then costs SQLite's work and little
        more (through SQLAlchemy Core its statement handling cost twice the commit)."""
        if self._writer is None:
            self._writer = self.engine.raw_connection()
        found = self._writer.driver_connection
        assert isinstance(found, sqlite3.Connection)
        return found

    def append_postgres_statement(
        self,
        table_id: str,
        version: int,
        action: dict[str, Any],
        events: Sequence[dict[str, Any]],
        result: dict[str, Any] | None,
        to_move: int | None = None,
        clock: dict[str, Any] | None = None,
        standin: bool = False,
    ) -> tuple[str, dict[str, Any]]:
        """`append` on PostgreSQL as one statement and its parameters, for psycopg itself
        (a statement is its own transaction on an autocommit connection; it notifies the
        other processes in it): the server runs it on its event loop's own connections
        (`timelord.server.table.database`), one round trip, no worker thread. It returns
        one row if the action was recorded, none if the table is no longer at
        `version - 1` or in play; a unique violation if another writer recorded `version`."""
        params = {
            "table_id": table_id,
            "previous": version - 1,
            "version": version,
            "status": "playing" if result is None else "over",
            "result": None if result is None else json.dumps(result),
            "action": json.dumps(action),
            "events": json.dumps(list(events)),
            "clock": None if clock is None else json.dumps(clock),
            "channel": CHANNEL,
            "payload": f"{table_id}:{version}",
            "to_move": to_move,
            "touched": dt.datetime.now(dt.UTC),
            "standin": standin,
        }
        return _PG_APPEND_SQL, params

    def _append_postgres(
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
        """`append` on a connection this worker thread keeps, in autocommit mode (the one
        statement commits itself: one round trip, not BEGIN, statement and COMMIT)."""
        import psycopg

        sql, params = self.append_postgres_statement(
            table_id, version, action, events, result, to_move, clock, standin
        )
        raw = self._held_connection()
        try:
            cursor = raw.driver_connection.execute(sql, params)
            notified = cursor.rowcount
        except psycopg.IntegrityError as exc:
            raise Conflict(f"table {table_id} version {version} was committed elsewhere") from exc
        except psycopg.Error as exc:
            self._drop_held()
            raise OperationalError("append", params, exc) from exc
        if notified != 1:
            raise Conflict(f"table {table_id} is no longer at version {version - 1}")

    def in_play(
        self,
        creator: str | None = None,
        bots: bool = False,
        moved_since: dt.datetime | None = None,
        conn: Any = None,
    ) -> int:
        """Tables in play or waiting for their open seats (of one creator; only those with
        a bot seat when `bots`; only those moved at since `moved_since` when given), on
        `conn` where given."""
        where: Any = TableRow.status.in_(_HELD)
        if creator is not None:
            where &= TableRow.creator == creator
        if bots:
            where &= TableRow.bots.is_(True)
        if moved_since is not None:
            where &= TableRow.touched >= moved_since
        return self._count(where, conn)

    def created_since(self, creator: str, since: dt.datetime, conn: Any = None) -> int:
        """Tables `creator` made at or after `since`."""
        return self._count((TableRow.creator == creator) & (TableRow.created >= since), conn)

    def _count(self, where: Any, conn: Any) -> int:
        if conn is not None:
            return int(conn.execute(select(func.count()).where(where)).scalar_one())
        with self.engine.connect() as own:
            return int(own.execute(select(func.count()).where(where)).scalar_one())

    def archive(self, before: dt.datetime) -> list[str]:
        """Archive the tables in play or waiting for open seats that nobody moved at (or
        joined) since `before`; their ids."""
        idle = TableRow.status.in_(_HELD) & (TableRow.touched < before)
        with self._writing(), self.engine.begin() as conn:
            ids = list(conn.execute(select(TableRow.id).where(idle)).scalars())
            if ids:
                conn.execute(
                    update(TableRow)
                    .where(idle & TableRow.id.in_(ids))
                    .values(status="archived", to_move=None)
                )
        return ids

    def to_resume(self) -> list[str]:
        """Tables in play whose next move is a bot's (or not known) or whose clock runs:
        those a starting server brings into memory, so bots think and deadlines are kept."""
        query = select(TableRow.id, TableRow.seats, TableRow.to_move, TableRow.clock).where(
            TableRow.status == "playing"
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            table_id
            for table_id, seats, to_move, clock in rows
            if to_move is None
            or not 0 <= to_move < len(seats)
            or seats[to_move]["agent"] != "human"
            or seats[to_move].get("stand_in")
            or (clock is not None and clock.get("since") is not None)
        ]

    def _writing(self) -> contextlib.AbstractContextManager[Any]:
        return self._write_lock if self._write_lock is not None else contextlib.nullcontext()


def _new_row(
    table_id: str,
    game: str,
    options: dict[str, Any],
    seed: int,
    seats: list[dict[str, Any]],
    life: dict[str, Any],
) -> TableRow:
    values: dict[str, Any] = {
        "status": "playing",
        "owner_hash": None,
        "clock": None,
        "stand_in": "heuristic",
        "undo": False,
    }
    unknown = set(life) - set(values)
    if unknown:
        raise TypeError(f"unknown table columns {sorted(unknown)}")
    values |= life
    return TableRow(
        id=table_id,
        game=game,
        options=options,
        seed=seed,
        seats=seats,
        version=0,
        result=None,
        created=dt.datetime.now(dt.UTC),
        undo_used=False,
        rematch=None,
        rev=0,
        **values,
    )


def _chat_json(
    n: int, seat: int | None, name: str, message: str, at: dt.datetime
) -> dict[str, Any]:
    if at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return {"n": n, "seat": seat, "name": name, "text": message, "at": at.isoformat()}


def _row_values(row: TableRow) -> dict[str, Any]:
    return {c.name: getattr(row, c.key) for c in TableRow.__table__.columns}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers run beside the writer; NORMAL sync still survives a killed process
    (only power loss can drop the last commits), and foreign keys must be asked for."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
