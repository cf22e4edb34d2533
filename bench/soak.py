"""A soak of the server as people and attackers use it at once. Run by hand (not a test),
loopback only:

    python bench/soak.py [--minutes 3] [--tables 30] [--db URL]

A real `timelord serve` process (a SQLite file by default) serves `--tables` tables, each with
one person and a bot (random, heuristic and ismcts:easy in turn). The server is told that
127.0.0.1 is its proxy, so every simulated client speaks for its own address through
X-Forwarded-For, as behind a reverse proxy. For `--minutes`:

- well-behaved clients (one per table) hold the person's WebSocket and play the first legal
  action on their turn, timing each round trip (send to the snapshot of the next version);
  now and then one drops its socket and reconnects with `since`, and a finished table is
  replaced by a new one;
- vanishing clients open a socket on a random table, read one snapshot and drop the TCP
  connection without a close;
- one flooder, from a single address, opens sockets until refused, sends messages far past
  the rate limit, and creates tables with bots until refused;
- a stall client opens connections that send half a request and never finish it.

It prints the well-behaved clients' round trip p50 / p95 / max, the refusals by code, the
server's resident memory at each minute, and, from the database at the end, lost moves (a
move the server acknowledged that is not stored at its version) and doubled ones (a stored
version that does not follow its predecessor, or a move acknowledged twice): both must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.server import rss_kib
from tests.server.helpers import Server
from timelord.server.storage import Store

BOTS = ["random", "heuristic", "ismcts:easy"]


class Soak:
    def __init__(self, server: Server, tables: int) -> None:
        self.server = server
        self.tables = tables
        self.round_trips: list[float] = []
        self.refusals: collections.Counter[str] = collections.Counter()
        #: (table, version) -> the action the server acknowledged at that version
        self.acked: dict[tuple[str, int], Any] = {}
        self.doubled_acks = 0
        self.made: list[str] = []
        self.memory: list[tuple[float, int]] = []
        self.stop = False

    async def create(self, http: httpx.AsyncClient, address: str, bot: str) -> Any:
        answer = await http.post(
            "/api/tables",
            json={"game": "keys", "seats": ["human", bot]},
            headers={"X-Forwarded-For": address},
        )
        if answer.status_code != 201:
            self.refusals[f"create {answer.json()['code']}"] += 1
            return None
        table = answer.json()
        self.made.append(table["id"])
        return table

    async def person(self, http: httpx.AsyncClient, index: int) -> None:
        """One table after another, played over a WebSocket that now and then drops."""
        address = f"10.1.{index // 250}.{index % 250 + 1}"
        rng = random.Random(index)
        while not self.stop:
            table = await self.create(http, address, BOTS[index % len(BOTS)])
            if table is None:
                await asyncio.sleep(1)
                continue
            token = table["seats"][0]["token"]
            since = 0
            over = False
            while not self.stop and not over:
                url = self.server.ws_url(
                    f"/api/tables/{table['id']}/ws?token={token}&since={since}"
                )
                try:
                    async with connect(
                        url, additional_headers={"X-Forwarded-For": address}, max_size=2**24
                    ) as ws:
                        over, since = await self._play(ws, table["id"], rng)
                except (ConnectionClosed, OSError) as exc:
                    self.refusals[f"person socket {type(exc).__name__}"] += 1
                    await asyncio.sleep(0.5)

    async def _play(self, ws: Any, table_id: str, rng: random.Random) -> tuple[bool, int]:
        """Play until the game ends (True) or the client decides to drop the socket."""
        snapshot = json.loads(await ws.recv())
        while not self.stop:
            if "code" in snapshot:
                self.refusals[f"person {snapshot['code']}"] += 1
                snapshot = json.loads(await ws.recv())
                continue
            if snapshot["over"]:
                return True, snapshot["version"]
            if rng.random() < 0.02:  # vanish for a moment and reconnect
                return False, snapshot["version"]
            if not snapshot["legal"]:
                snapshot = json.loads(await ws.recv())
                continue
            version, action = snapshot["version"], snapshot["legal"][0]
            sent = time.perf_counter()
            await ws.send(json.dumps({"version": version, "action": action}))
            while True:
                message = json.loads(await ws.recv())
                if "code" in message:
                    self.refusals[f"person {message['code']}"] += 1
                    snapshot = json.loads(await ws.recv())
                    break
                if message["version"] > version:
                    self.round_trips.append(time.perf_counter() - sent)
                    key = (table_id, version + 1)
                    if key in self.acked:
                        self.doubled_acks += 1
                    self.acked[key] = action
                    snapshot = message
                    break
        return False, snapshot["version"]

    async def vanisher(self, index: int) -> None:
        rng = random.Random(1000 + index)
        while not self.stop:
            if not self.made:
                await asyncio.sleep(0.2)
                continue
            table = rng.choice(self.made)
            try:
                ws = await connect(
                    self.server.ws_url(f"/api/tables/{table}/ws"),
                    additional_headers={"X-Forwarded-For": f"10.2.0.{index + 1}"},
                )
                await ws.recv()
                ws.transport.abort()  # gone, without a close
            except (ConnectionClosed, OSError):
                self.refusals["vanisher socket"] += 1
            await asyncio.sleep(rng.random() * 0.5)

    async def flooder(self, http: httpx.AsyncClient) -> None:
        headers = {"X-Forwarded-For": "10.3.0.1"}
        sockets: list[Any] = []
        while not self.stop:
            while not self.made:
                await asyncio.sleep(0.2)
            table = random.choice(self.made)
            try:
                ws = await connect(
                    self.server.ws_url(f"/api/tables/{table}/ws"), additional_headers=headers
                )
                first = json.loads(await ws.recv())
                if "code" in first:
                    self.refusals[f"flood socket {first['code']}"] += 1
                    await ws.close()
                else:
                    sockets.append(ws)
            except (ConnectionClosed, OSError):
                self.refusals["flood socket closed"] += 1
            if sockets:
                ws = random.choice(sockets)
                try:
                    for _ in range(1000):  # far past the socket's rate limit
                        await ws.send('{"version": 0, "action": {"type": "nonsense"}}')
                except ConnectionClosed as closed:
                    sockets.remove(ws)
                    self.refusals[f"flood socket closed {closed.rcvd and closed.rcvd.code}"] += 1
            made = await http.post(
                "/api/tables",
                json={"game": "keys", "seats": ["ismcts:hard", "ismcts:hard"]},
                headers=headers,
            )
            if made.status_code == 201:
                self.made.append(made.json()["id"])
            else:
                self.refusals[f"flood create {made.json()['code']}"] += 1
            await asyncio.sleep(0.05)
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()

    async def staller(self) -> None:
        """Connections that send half a request; the server should close each."""
        loop = asyncio.get_running_loop()
        while not self.stop:
            conns = []
            for _ in range(20):
                sock = socket.create_connection(("127.0.0.1", self.server.port))
                sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
                sock.setblocking(False)
                conns.append(sock)
            for sock in conns:
                try:
                    data = await asyncio.wait_for(loop.sock_recv(sock, 10), 30)
                    self.refusals["stall closed by server" if not data else "stall answered"] += 1
                except TimeoutError:
                    self.refusals["stall still open after 30 s"] += 1
                sock.close()

    async def watch_memory(self, started: float) -> None:
        while not self.stop:
            self.memory.append((time.monotonic() - started, rss_kib(self.server.process.pid)))
            await asyncio.sleep(60)

    async def run(self, minutes: float) -> None:
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=self.server.url, timeout=60) as http:
            tasks = [asyncio.create_task(self.person(http, i)) for i in range(self.tables)]
            tasks += [asyncio.create_task(self.vanisher(i)) for i in range(5)]
            tasks += [
                asyncio.create_task(self.flooder(http)),
                asyncio.create_task(self.staller()),
                asyncio.create_task(self.watch_memory(started)),
            ]
            await asyncio.sleep(minutes * 60)
            self.stop = True
            self.memory.append((time.monotonic() - started, rss_kib(self.server.process.pid)))
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


def audit(store: Store, soak: Soak) -> tuple[int, int, int]:
    """(moves stored, lost, doubled) from the database after the run."""
    lost = doubled = stored = 0
    for table_id in set(soak.made):
        rows = store.actions(table_id, 0)
        stored += len(rows)
        versions = [row.version for row in rows]
        doubled += sum(1 for i, v in enumerate(versions) if v != i + 1)
        by_version = {row.version: row.action for row in rows}
        for (acked_table, version), action in soak.acked.items():
            if acked_table == table_id and by_version.get(version) != action:
                lost += 1
    return stored, lost, doubled + soak.doubled_acks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        url = args.db or f"sqlite:///{Path(work) / 'soak.sqlite3'}"
        extra = ("--trusted-proxy", "127.0.0.1", "--header-timeout", "5")
        server = Server(url, 0.0, Path(work) / "serve.log", extra=extra)
        try:
            server.wait_ready()
            idle = rss_kib(server.process.pid)
            soak = Soak(server, args.tables)
            asyncio.run(soak.run(args.minutes))
        finally:
            server.stop()
        store = Store(url)
        try:
            stored, lost, doubled = audit(store, soak)
        finally:
            store.close()
    trips = sorted(soak.round_trips)
    print(f"{args.tables} people, 5 vanishers, 1 flooder, 1 staller for {args.minutes:g} min")
    if trips:
        print(
            f"round trip of well-behaved moves: n={len(trips)} "
            f"p50 {statistics.median(trips) * 1000:.1f} ms, "
            f"p95 {trips[int(0.95 * (len(trips) - 1))] * 1000:.1f} ms, "
            f"max {trips[-1] * 1000:.1f} ms"
        )
    print("refusals and closes by kind:")
    for kind, count in sorted(soak.refusals.items()):
        print(f"  {kind}: {count}")
    print(
        f"memory: idle {idle / 1024:.0f} MiB; "
        + ", ".join(f"{at / 60:.1f} min {kib / 1024:.0f} MiB" for at, kib in soak.memory)
    )
    print(f"tables {len(set(soak.made))}, moves stored {stored}, acknowledged {len(soak.acked)}")
    print(f"lost moves {lost}, doubled moves {doubled}")


if __name__ == "__main__":
    main()
