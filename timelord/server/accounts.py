"""Player accounts: names, optional passwords (argon2), server-side sessions behind a signed
cookie, and a limit on login guessing.

A session is a random id the browser holds in an HttpOnly, SameSite=Lax cookie, signed with
a key kept in the database (so every server process on one database accepts the others'
cookies); only the id's SHA-256 is stored, with the player and an expiry. Nothing secret is
ever handed to the page's scripts. A player without a password lives in the browser that
holds the cookie; with one, they can log in elsewhere. A refused login says the same whether
the name exists or not, and costs the same time.

Every method here is blocking (argon2 is slow on purpose); the API calls them in threads.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import DateTime, ForeignKey, Integer, String, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from timelord.server.errors import ApiError, Code
from timelord.server.storage import Base, Store, StoredTable, TableRow

#: the cookie that carries the signed session id
COOKIE = "timelord_session"
#: how long a session lasts from its login
SESSION_DAYS = 30
#: longest name, in characters
NAME_MAX = 32
PASSWORD_MIN = 8
PASSWORD_MAX = 256

Clock = Callable[[], dt.datetime]

__all__ = ["COOKIE", "Accounts", "LoginLimit", "Player", "check_name", "name_key"]


class PlayerRow(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    #: the name folded for comparison: names are unique regardless of case
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SeatPlayerRow(Base):
    """Which seats are tied to which player (also written into the table's seats), so a
    player's tables are found without reading every table."""

    __tablename__ = "seat_players"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )


class KeyRow(Base):
    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    has_password: bool
    created: dt.datetime

    def public(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "has_password": self.has_password,
            "created": self.created.isoformat(),
        }


def name_key(name: str) -> str:
    """The form two names are compared in: 'Ace' and 'ACE' are one player."""
    return name.casefold()


def check_name(name: Any) -> str:
    """`name` if it can be a player's name (1-32 printable characters, no surrounding
    spaces, no '/' since the name is part of the player page's address); 422 otherwise."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        raise ApiError(Code.PLAYER_INVALID, f"a name is 1 to {NAME_MAX} characters")
    if not name.isprintable() or name != name.strip() or "/" in name:
        raise ApiError(
            Code.PLAYER_INVALID,
            "a name is printable characters without '/' and without spaces at either end",
        )
    return name


def check_password(password: Any) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            Code.PLAYER_INVALID,
            f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters",
        )
    return password


def _utc(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def _player(row: Any) -> Player:
    return Player(row.id, row.name, row.password_hash is not None, _utc(row.created))


def refused() -> ApiError:
    """The one answer to every failed login: it does not say which part was wrong."""
    return ApiError(Code.SESSION_REFUSED, "wrong name or password")


def no_session() -> ApiError:
    return ApiError(Code.SESSION_NONE, "not logged in")


class LoginLimit:
    """Failed logins allowed per name and per client address: `burst` at once, then one
    more every `refill` seconds. A name is limited whether it exists or not, so the limit
    itself says nothing about which names are taken. Kept in this process's memory."""

    def __init__(self, clock: Clock, burst: int = 5, refill: float = 60.0) -> None:
        self.clock = clock
        self.burst = burst
        self.refill = refill
        self._buckets: dict[str, tuple[float, float]] = {}

    def _level(self, key: str) -> float:
        now = self.clock().timestamp()
        level, stamp = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), level + (now - stamp) / self.refill)

    def wait(self, keys: list[str]) -> float:
        """Seconds until every key may try again (0: now)."""
        return max((max(0.0, 1 - self._level(k)) * self.refill for k in keys), default=0.0)

    def failed(self, keys: list[str]) -> None:
        now = self.clock().timestamp()
        for key in keys:
            self._buckets[key] = (self._level(key) - 1, now)
        if len(self._buckets) > 100_000:  # forget the oldest half rather than grow forever
            for key in list(self._buckets)[: len(self._buckets) // 2]:
                del self._buckets[key]


class Accounts:
    """Players and sessions of one database."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        hasher: PasswordHasher | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or (lambda: dt.datetime.now(dt.UTC))
        self.hasher = hasher or PasswordHasher()
        self.limit = LoginLimit(lambda: self.clock())
        self._key: bytes | None = None
        self._dummy: str | None = None

    def _unknown(self) -> str:
        """A hash to verify against when a name is unknown, so that a refusal takes as long
        either way (made at the first login, not at every start)."""
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_hex(16))
        return self._dummy

    # -- the cookie ---------------------------------------------------------------------

    def key(self) -> bytes:
        """The signing key, made by the first process to need it and shared through the
        database by all."""
        if self._key is None:
            with self.store.engine.begin() as conn:
                found = conn.execute(select(KeyRow.value).where(KeyRow.name == "cookie")).scalar()
            if found is None:
                try:
                    with self.store.engine.begin() as conn:
                        conn.execute(
                            insert(KeyRow).values(name="cookie", value=secrets.token_hex(32))
                        )
                except IntegrityError:
                    pass  # another process made it first
                with self.store.engine.begin() as conn:
                    found = conn.execute(
                        select(KeyRow.value).where(KeyRow.name == "cookie")
                    ).scalar_one()
            self._key = bytes.fromhex(found)
        return self._key

    def _sign(self, session_id: str) -> str:
        mac = hmac.new(self.key(), session_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def cookie_value(self, session_id: str) -> str:
        return f"{session_id}.{self._sign(session_id)}"

    def _session_id(self, cookie: str | None) -> str | None:
        """The session id a cookie carries, if its signature holds."""
        if not cookie or "." not in cookie or len(cookie) > 200:
            return None
        session_id, _, signature = cookie.rpartition(".")
        if not hmac.compare_digest(signature, self._sign(session_id)):
            return None
        return session_id

    # -- players ------------------------------------------------------------------------

    def create(self, name: Any, password: Any = None) -> tuple[Player, str]:
        """A new player and a session for them (its cookie value); 409 if the name is taken."""
        name = check_name(name)
        digest = None if password is None else self.hasher.hash(check_password(password))
        now = self.clock()
        player_id = secrets.token_urlsafe(12)
        try:
            with self.store.engine.begin() as conn:
                conn.execute(
                    insert(PlayerRow).values(
                        id=player_id,
                        name=name,
                        name_key=name_key(name),
                        password_hash=digest,
                        created=now,
                    )
                )
        except IntegrityError as exc:
            raise taken(name) from exc
        player = Player(player_id, name, digest is not None, now)
        return player, self._open_session(player_id)

    def by_name(self, name: str) -> Player | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(PlayerRow.__table__).where(PlayerRow.name_key == name_key(name))
            ).first()
        return None if row is None else _player(row)

    def by_id(self, player_id: str) -> Player | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(select(PlayerRow.__table__).where(PlayerRow.id == player_id)).first()
        return None if row is None else _player(row)

    def change(
        self, player: Player, cookie: str | None, name: Any = None, password: Any = None
    ) -> Player:
        """Rename and/or set a new password. A new password ends every other session of the
        player (a device that should no longer be logged in is logged out)."""
        values: dict[str, Any] = {}
        if name is not None:
            name = check_name(name)
            values |= {"name": name, "name_key": name_key(name)}
        if password is not None:
            values["password_hash"] = self.hasher.hash(check_password(password))
        if not values:
            return player
        try:
            with self.store.engine.begin() as conn:
                conn.execute(update(PlayerRow).where(PlayerRow.id == player.id).values(**values))
                if password is not None:
                    keep = _hash(self._session_id(cookie) or "")
                    conn.execute(
                        delete(SessionRow).where(
                            SessionRow.player_id == player.id, SessionRow.id_hash != keep
                        )
                    )
        except IntegrityError as exc:
            raise taken(str(name)) from exc
        found = self.by_id(player.id)
        assert found is not None
        return found

    # -- sessions -----------------------------------------------------------------------

    def _open_session(self, player_id: str) -> str:
        session_id = secrets.token_urlsafe(32)
        now = self.clock()
        with self.store.engine.begin() as conn:
            conn.execute(
                insert(SessionRow).values(
                    id_hash=_hash(session_id),
                    player_id=player_id,
                    created=now,
                    expires=now + dt.timedelta(days=SESSION_DAYS),
                )
            )
        return self.cookie_value(session_id)

    def login(self, name: Any, password: Any, client: str) -> tuple[Player, str]:
        """A new session for the player if the password is theirs; 401 `session/refused`
        otherwise (also for an unknown name or a player without a password), 429 once a
        name or an address has failed too often."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise ApiError(Code.REQUEST_MALFORMED, "name and password must be strings")
        keys = [f"name:{name_key(name)}", f"client:{client}"]
        wait = self.limit.wait(keys)
        if wait > 0:
            raise ApiError(
                Code.RATE_LIMITED,
                f"too many failed logins; try again in {int(wait) + 1} seconds",
            )
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(PlayerRow.id, PlayerRow.password_hash).where(
                    PlayerRow.name_key == name_key(name)
                )
            ).first()
        digest = row.password_hash if row is not None else None
        try:
            self.hasher.verify(digest or self._unknown(), password)
            ok = digest is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            self.limit.failed(keys)
            raise refused()
        player = self.by_id(row.id)
        assert player is not None
        return player, self._open_session(row.id)

    def player_of(self, cookie: str | None) -> Player | None:
        """The player a cookie's session belongs to, while it lasts; None otherwise."""
        session_id = self._session_id(cookie)
        if session_id is None:
            return None
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(PlayerRow.__table__, SessionRow.expires)
                .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                .where(SessionRow.id_hash == _hash(session_id))
            ).first()
        if row is None or _utc(row.expires) <= self.clock():
            return None
        return _player(row)

    def logout(self, cookie: str | None) -> None:
        session_id = self._session_id(cookie)
        if session_id is None:
            return
        with self.store.engine.begin() as conn:
            conn.execute(delete(SessionRow).where(SessionRow.id_hash == _hash(session_id)))


def tie_seat(store: Store, table_id: str, seat: int, player_id: str) -> None:
    with store._writing(), store.engine.begin() as conn:
        conn.execute(
            insert(SeatPlayerRow).values(table_id=table_id, seat=seat, player_id=player_id)
        )


def tables_of(store: Store, player_id: str, limit: int = 50) -> list[StoredTable]:
    """The tables a player has a seat at, newest first (the player's own list: it holds
    tables in play, so it is shown to that player only)."""
    query = (
        select(TableRow.id, TableRow.created)
        .join(SeatPlayerRow, SeatPlayerRow.table_id == TableRow.id)
        .where(SeatPlayerRow.player_id == player_id)
        .distinct()
        .order_by(TableRow.created.desc())
        .limit(limit)
    )
    with store.engine.connect() as conn:
        ids = [table_id for table_id, _ in conn.execute(query)]
    return [found for table_id in ids if (found := store.table(table_id)) is not None]


def taken(name: str) -> ApiError:
    return ApiError(Code.PLAYER_TAKEN, f"the name {name!r} is taken")


def _hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()
