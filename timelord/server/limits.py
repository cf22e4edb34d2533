"""What one client, and everybody together, may hold of a server, so that one address cannot crowd
the others out.

A client is its address (`timelord.server.proxy.client_address`: the peer, or the address a
trusted proxy passed on), never a connection, so opening a new connection starts no fresh
allowance. Tables are counted in the database (every process sharing it sees the same
counts); sockets are counted by each process. Every refusal is 429 `rate/limited`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from dataclasses import dataclass
from typing import Any

from timelord.server.errors import rate_limited


@dataclass(frozen=True)
class Limits:
    """Every limit `timelord serve` takes, with its default (0 or less: no limit)."""

    #: tables in play created by one client address
    tables_per_client: int = 100
    #: of those, tables with at least one bot seat
    bot_tables_per_client: int = 20
    #: tables one client may create in any minute
    creations_per_minute: int = 60
    #: tables in play on the whole database, and of them tables with bots
    tables_total: int = 20_000
    bot_tables_total: int = 2_000
    #: WebSockets one client address may hold open at once (on one process); spectators'
    #: sockets on one table; one seat's sockets (its person's tabs). Spectators never take
    #: a seat's room: a seat's socket is counted against its own cap, not the table's
    sockets_per_client: int = 64
    sockets_per_table: int = 256
    sockets_per_seat: int = 8
    #: connections one client address may hold at once (after the forwarded address is
    #: resolved): its HTTP requests in progress and its open WebSockets together; more
    #: are refused 429 (a socket: 4429) before anything else runs (`admission`)
    connections_per_client: int = 128
    #: seconds a connection may take to send a request's headers (item 6)
    header_timeout: float = 10.0
    #: wall-clock seconds one bot move may think, whatever its simulation budget
    bot_move_seconds: float = 10.0
    #: bot decisions thinking at once on one process (the search pool is shared fairly)
    bot_workers: int = 2
    #: seconds after its last move that a table in play is archived (item 7)
    archive_after: float = 30 * 86400.0


def client_key(address: str, secret: bytes) -> str:
    """What the database keeps of a creator's address: a digest keyed with the database's
    `secret` (accounts.server_key), enough to count by; without the secret, trying every
    address against it finds nothing."""
    return hmac.new(secret, f"timelord-client:{address}".encode(), hashlib.sha256).hexdigest()[:32]


def check_count(count: int, limit: int, what: str) -> None:
    """429 `rate/limited` once `count` has reached a positive `limit`."""
    if limit > 0 and count >= limit:
        raise rate_limited(f"{what} (limit {limit}); finish or wait for some first")


class Sockets:
    """The WebSockets open on this process, by client address, and by table and seat (None:
    the table's spectators)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.by_client: Counter[str] = Counter()
        self.by_table: Counter[tuple[str, int | None]] = Counter()

    def open(self, client: str, table_id: str, seat: int | None = None) -> None:
        """Count one more socket, or 429 `rate/limited` if it would pass a limit: a
        spectator's against the table's spectators, a seat's against that seat's own."""
        check_count(
            self.by_client[client], self.limits.sockets_per_client, "too many sockets from you"
        )
        if seat is None:
            check_count(
                self.by_table[table_id, None],
                self.limits.sockets_per_table,
                "too many spectators' sockets on this table",
            )
        else:
            check_count(
                self.by_table[table_id, seat],
                self.limits.sockets_per_seat,
                "too many sockets open on this seat",
            )
        self.by_client[client] += 1
        self.by_table[table_id, seat] += 1

    def close(self, client: str, table_id: str, seat: int | None = None) -> None:
        self._drop(self.by_client, client)
        self._drop(self.by_table, (table_id, seat))

    @staticmethod
    def _drop(counter: Counter[Any], key: Any) -> None:
        counter[key] -= 1
        if counter[key] <= 0:
            del counter[key]
