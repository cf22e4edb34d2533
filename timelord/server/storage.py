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
import threading
from collections.abc import Sequence
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
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError
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
    #: [{"agent": spec, "token_hash": sha256 hex or null}, ...] by seat
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: "playing" or "over"
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


@dataclass(frozen=True)
class StoredAction:
    version: int
    action: dict[str, Any]
    events: list[dict[str, Any]]


# The statements of every move, built once: building them per call cost more than SQLite's
# own commit.
_MOVED = (TableRow.id == bindparam("table_id")) & (TableRow.version == bindparam("previous"))
_PLAYING = _MOVED & (TableRow.status == "playing")
_STEP = (
    update(TableRow)
    .where(_PLAYING)
    .values(
        version=bindparam("version"), to_move=bindparam("to_move"), touched=bindparam("touched")
    )
)
_LAST_STEP = (
    update(TableRow)
    .where(_PLAYING)
    .values(
        version=bindparam("version"),
        status=bindparam("status"),
        result=bindparam("result"),
        to_move=None,
        touched=bindparam("touched"),
    )
)
_RECORD = insert(ActionRow)
_PG_APPEND = text(
    """
    WITH moved AS (
        UPDATE tables SET version = :version, status = :status,
            result = COALESCE(CAST(:result AS JSON), result),
            to_move = CAST(:to_move AS INTEGER), touched = :touched
        WHERE id = :table_id AND version = :previous AND status = 'playing'
        RETURNING id
    ), recorded AS (
        INSERT INTO actions (table_id, version, action, events)
        SELECT id, :version, CAST(:action AS JSON), CAST(:events AS JSON) FROM moved
        RETURNING table_id
    )
    SELECT pg_notify(:channel, :payload) FROM recorded
    """
)


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

    def migrate(self) -> None:
        """Bring the schema up to date (Alembic, scripts shipped in the package)."""
        from timelord.server.migrations import upgrade

        upgrade(self.engine)

    def close(self) -> None:
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
    ) -> StoredTable:
        """A new table at version 0, dealt from `key` when given, else from `seed`;
        `seeded` when the creator chose that seed."""
        now = now or dt.datetime.now(dt.UTC)
        row = TableRow(
            id=table_id,
            game=game,
            options=options,
            seed=seed,
            seats=seats,
            version=0,
            status="playing",
            result=None,
            created=now,
            rng_key=None if key is None else key.hex(),
            seeded=seeded,
            creator=creator,
            bots=any(seat["agent"] != "human" for seat in seats),
            to_move=to_move,
            touched=now,
        )
        with self._writing(), self.engine.begin() as conn:
            conn.execute(insert(TableRow).values(**_row_values(row)))
        return _stored(row)

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
            select(ActionRow.version, ActionRow.action, ActionRow.events)
            .where(ActionRow.table_id == table_id, ActionRow.version > after)
            .order_by(ActionRow.version)
        )
        with self.engine.connect() as conn:
            return [StoredAction(v, a, e) for v, a, e in conn.execute(query)]

    def append(
        self,
        table_id: str,
        version: int,
        action: dict[str, Any],
        events: Sequence[dict[str, Any]],
        result: dict[str, Any] | None,
        to_move: int | None = None,
    ) -> None:
        """Commit the action that takes the table from `version - 1` to `version`, after
        which `to_move` decides.

        `Conflict` if another writer got there first, or the table is no longer in play
        (archived), and nothing is written then. On PostgreSQL the same transaction notifies
        the other processes, delivered only once it commits.
        """
        now = dt.datetime.now(dt.UTC)
        if self.is_postgres:
            self._append_postgres(table_id, version, action, events, result, to_move, now)
            return
        params: dict[str, Any] = {
            "table_id": table_id,
            "previous": version - 1,
            "to_move": to_move,
            "touched": now,
        }
        if result is None:
            step, params["version"] = _STEP, version
        else:
            step = _LAST_STEP
            params |= {"version": version, "status": "over", "result": result}
        try:
            with self._writing(), self.engine.begin() as conn:
                if conn.execute(step, params).rowcount != 1:
                    raise Conflict(f"table {table_id} is no longer at version {version - 1}")
                conn.execute(
                    _RECORD,
                    {"table_id": table_id, "version": version, "action": action, "events": events},
                )
        except IntegrityError as exc:
            raise Conflict(f"table {table_id} version {version} was committed elsewhere") from exc

    def _append_postgres(
        self,
        table_id: str,
        version: int,
        action: dict[str, Any],
        events: Sequence[dict[str, Any]],
        result: dict[str, Any] | None,
        to_move: int | None,
        now: dt.datetime,
    ) -> None:
        """`append` as one statement in one round trip (a statement is its own transaction),
        notifying the other processes in it."""
        params = {
            "table_id": table_id,
            "previous": version - 1,
            "version": version,
            "status": "playing" if result is None else "over",
            "result": None if result is None else json.dumps(result),
            "action": json.dumps(action),
            "events": json.dumps(list(events)),
            "channel": CHANNEL,
            "payload": f"{table_id}:{version}",
            "to_move": to_move,
            "touched": now,
        }
        try:
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                notified = conn.execute(_PG_APPEND, params).rowcount
        except IntegrityError as exc:
            raise Conflict(f"table {table_id} version {version} was committed elsewhere") from exc
        if notified != 1:
            raise Conflict(f"table {table_id} is no longer at version {version - 1}")

    def in_play(self, creator: str | None = None, bots: bool = False) -> int:
        """Tables in play (of one creator; only those with a bot seat when `bots`)."""
        where = TableRow.status == "playing"
        if creator is not None:
            where &= TableRow.creator == creator
        if bots:
            where &= TableRow.bots.is_(True)
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).where(where)).scalar_one())

    def created_since(self, creator: str, since: dt.datetime) -> int:
        """Tables `creator` made at or after `since`."""
        query = select(func.count()).where(TableRow.creator == creator, TableRow.created >= since)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def archive(self, before: dt.datetime) -> list[str]:
        """Archive the tables in play that nobody moved at since `before`; their ids."""
        idle = (TableRow.status == "playing") & (TableRow.touched < before)
        with self._writing(), self.engine.begin() as conn:
            ids = list(conn.execute(select(TableRow.id).where(idle)).scalars())
            if ids:
                conn.execute(
                    update(TableRow)
                    .where(idle & TableRow.id.in_(ids))
                    .values(status="archived", to_move=None)
                )
        return ids

    def waiting_on_bots(self) -> list[str]:
        """Tables in play whose next move is a bot's (or not known): those to resume at once."""
        query = select(TableRow.id, TableRow.seats, TableRow.to_move).where(
            TableRow.status == "playing"
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            table_id
            for table_id, seats, to_move in rows
            if to_move is None
            or not 0 <= to_move < len(seats)
            or seats[to_move]["agent"] != "human"
        ]

    def _writing(self) -> contextlib.AbstractContextManager[Any]:
        return self._write_lock if self._write_lock is not None else contextlib.nullcontext()


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
