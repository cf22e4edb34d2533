"""A frozen lease holder does not stall its table (issue 30, finding 9): a lease expires
`ttl` seconds (the server's clock) after its holder last renewed it, and a live holder keeps
renewing it. Two `Leases` stand for two processes on one PostgreSQL; the clock is moved by
hand."""

from __future__ import annotations

import asyncio

from fastapi.testclient import TestClient

from timelord.server import create_app
from timelord.server.lease import BUSY, MINE, MOVED, Leases

from .helpers import Cluster, FakeClock


def _table(url: str) -> str:
    with TestClient(create_app(url, bot_delay=0)) as client:
        made = client.post("/api/tables", json={"game": "keys", "seats": ["human", "human"]})
        return str(made.json()["id"])


def test_a_frozen_holders_lease_expires_and_a_live_ones_does_not(postgres: Cluster) -> None:
    url = postgres.new_database()
    table = _table(url)
    libpq = url.replace("postgresql+psycopg://", "postgresql://")

    async def run() -> None:
        clock = FakeClock()
        frozen = Leases(libpq, clock=clock, ttl=5)
        alive = Leases(libpq, clock=clock, ttl=5)
        other = Leases(libpq, clock=clock, ttl=5)
        try:
            assert await frozen.take(table, 0) == MINE
            assert frozen._keeper is not None
            frozen._keeper.cancel()  # the process is stopped: it renews nothing from now
            assert await other.take(table, 0) == BUSY
            clock.advance(4)
            assert await other.take(table, 0) == BUSY  # not yet expired
            clock.advance(2)
            assert await other.take(table, 0) == MINE  # 6 s after the last renewal
            await other.give_back(table, 0)

            assert await alive.take(table, 0) == MINE
            for _ in range(6):  # 12 s: the holder renews every ttl / 3
                clock.advance(2)
                await asyncio.sleep(0.05)  # its keeper runs (real time: a database round trip)
                await alive.renew()
                assert await other.take(table, 0) == BUSY
            await alive.give_back(table, 0)
            assert await other.take(table, 1) == MOVED  # the table is at version 0
        finally:
            for leases in (frozen, alive, other):
                await leases.close()

    asyncio.run(run())
