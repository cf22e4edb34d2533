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
from timelord.server.names import check_name, name_key
from timelord.server.storage import Base, Store, StoredTable, TableRow

#: the cookie that carries the signed session id
COOKIE = "timelord_session"
#: the cookie that marks a browser that has logged in as a player before (see LOGIN_BURSTS)
DEVICE_COOKIE = "timelord_device"
#: how long a session lasts from its login
SESSION_DAYS = 30
PASSWORD_MIN = 8
PASSWORD_MAX = 256

Clock = Callable[[], dt.datetime]

__all__ = ["COOKIE", "DEVICE_COOKIE", "Accounts", "LoginLimit", "Player", "check_name", "name_key"]


class PlayerRow(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    #: the name's key (names.name_key: its confusable skeleton): names are unique by key,
    #: so neither case nor a look-alike letter makes a second "Ace"
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


def limited(wait: float) -> ApiError:
    """429 for a login (or a password check) tried again too soon."""
    return ApiError(
        Code.RATE_LIMITED, f"too many failed logins; try again in {int(wait) + 1} seconds"
    )


def no_session() -> ApiError:
    return ApiError(Code.SESSION_NONE, "not logged in")


class LoginLimit:
    """Failed logins allowed per key: `burst` at once, then one more every `refill` seconds.
    The burst depends on the key's kind (the text before its first ':'): `bursts` names
    them, `burst` is the rest. A name is limited whether it exists or not, so the limit
    itself says nothing about which names are taken. Kept in this process's memory."""

    def __init__(
        self,
        clock: Clock,
        burst: int = 5,
        refill: float = 60.0,
        bursts: dict[str, int] | None = None,
    ) -> None:
        self.clock = clock
        self.burst = burst
        self.refill = refill
        self.bursts = bursts or {}
        self._buckets: dict[str, tuple[float, float]] = {}

    def _size(self, key: str) -> float:
        return float(self.bursts.get(key.partition(":")[0], self.burst))

    def _level(self, key: str) -> float:
        now = self.clock().timestamp()
        level, stamp = self._buckets.get(key, (self._size(key), now))
        return min(self._size(key), level + (now - stamp) / self.refill)

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


#: How many failed logins each kind of key allows at once (one more a minute after):
#: one client guessing one name; one client guessing across names; everyone guessing one
#: name from a device that has not logged in as its player before. A device that has (it
#: holds that player's device cookie) is counted on its own, so strangers who exhaust a
#: name's bucket slow every new device's guessing but never lock the owner's devices out.
LOGIN_BURSTS = {"pair": 5, "client": 20, "name": 20, "device": 5}


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
        self.limit = LoginLimit(lambda: self.clock(), bursts=LOGIN_BURSTS)
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
            self._key = server_key(self.store, "cookie")
        return self._key

    def _sign(self, session_id: str) -> str:
        mac = hmac.new(self.key(), session_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def cookie_value(self, session_id: str) -> str:
        return f"{session_id}.{self._sign(session_id)}"

    def device_cookie(self, player_id: str) -> str:
        """A device cookie for a device that has just logged in as `player_id`: a random
        id signed together with the player, so it proves that this browser once knew the
        password, and nothing else."""
        device = secrets.token_urlsafe(16)
        return f"{device}.{self._sign(f'device:{player_id}:{device}')}"

    def _device_of(self, cookie: str | None, player_id: str | None) -> str | None:
        """The device id of a device cookie made for `player_id`, if its signature holds."""
        if not cookie or player_id is None or "." not in cookie or len(cookie) > 200:
            return None
        device, _, signature = cookie.rpartition(".")
        expected = self._sign(f"device:{player_id}:{device}")
        return device if hmac.compare_digest(signature, expected) else None

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
        self,
        player: Player,
        cookie: str | None,
        name: Any = None,
        password: Any = None,
        current: Any = None,
    ) -> tuple[Player, str | None]:
        """Rename and/or set a new password; the player and, when the password changed, the
        cookie of a new session. Replacing a password needs the `current` one (a page that
        runs script in the player's browser must not be able to take the account); wrong
        guesses count against the login limit. A new password ends every session of the
        player, this one too, and opens a fresh one: a device that should no longer be
        logged in is logged out, and a session id seen before the change is worthless."""
        values: dict[str, Any] = {}
        if name is not None:
            name = check_name(name)
            values |= {"name": name, "name_key": name_key(name)}
        if password is not None:
            check_password(password)
            if player.has_password:
                self._check_current(player, current)
            values["password_hash"] = self.hasher.hash(password)
        if not values:
            return player, None
        try:
            with self.store.engine.begin() as conn:
                conn.execute(update(PlayerRow).where(PlayerRow.id == player.id).values(**values))
                if password is not None:
                    conn.execute(delete(SessionRow).where(SessionRow.player_id == player.id))
        except IntegrityError as exc:
            raise taken(str(name)) from exc
        found = self.by_id(player.id)
        assert found is not None
        return found, self._open_session(player.id) if password is not None else None

    def _check_current(self, player: Player, current: Any) -> None:
        """401 `session/refused` unless `current` is the player's password (limited like a
        login, keyed on the player's name)."""
        keys = [f"pair:{player.id}:current-password"]
        wait = self.limit.wait(keys)
        if wait > 0:
            raise limited(wait)
        with self.store.engine.connect() as conn:
            digest = conn.execute(
                select(PlayerRow.password_hash).where(PlayerRow.id == player.id)
            ).scalar()
        given = current if isinstance(current, str) else ""
        try:
            self.hasher.verify(digest or self._unknown(), given)
            ok = digest is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok:
            self.limit.failed(keys)
            raise ApiError(Code.SESSION_REFUSED, "the current password is wrong")

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

    def login(
        self, name: Any, password: Any, client: str, device: str | None = None
    ) -> tuple[Player, str, str]:
        """A new session for the player if the password is theirs: the player, the session
        cookie and a device cookie (see `LOGIN_BURSTS`; `device` is the one the browser
        sent). 401 `session/refused` otherwise (also for an unknown name or a player
        without a password), 429 once this client, this client on this name, or (from a
        device that never logged in as the player) the name has failed too often."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise ApiError(Code.REQUEST_MALFORMED, "name and password must be strings")
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(PlayerRow.id, PlayerRow.password_hash).where(
                    PlayerRow.name_key == name_key(name)
                )
            ).first()
        known = self._device_of(device, row.id if row is not None else None)
        keys = [f"pair:{name_key(name)}:{client}"]
        keys += [f"device:{known}"] if known else [f"client:{client}", f"name:{name_key(name)}"]
        wait = self.limit.wait(keys)
        if wait > 0:
            raise limited(wait)
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
        kept = device if known and device is not None else self.device_cookie(row.id)
        return player, self._open_session(row.id), kept

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


def server_key(store: Store, name: str) -> bytes:
    """The database's secret called `name` (32 random bytes), made by the first process to
    ask for it and shared with every other process on the database through it."""
    with store.engine.begin() as conn:
        found = conn.execute(select(KeyRow.value).where(KeyRow.name == name)).scalar()
    if found is None:
        try:
            with store.engine.begin() as conn:
                conn.execute(insert(KeyRow).values(name=name, value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it first
        with store.engine.begin() as conn:
            found = conn.execute(select(KeyRow.value).where(KeyRow.name == name)).scalar_one()
    return bytes.fromhex(found)


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
