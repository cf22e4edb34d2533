"""The server under load: tables on loopback, each with bots and one scripted person over a
WebSocket. Run by hand (not a test):

    python bench/server.py [--tables 50] [--seconds 20] [--db sqlite|postgresql|both]
        [--think 0] [--bot-delay 0] [--processes 1] [--whole] [--root CHECKOUT]

A real `timelord serve` process (uvicorn, SQLite file or a throw-away PostgreSQL cluster)
serves `--tables` tables of `--game` with one human seat and bots (bot delay 0 by default, so
the bots make as much load as they can; `--think 2 --bot-delay 1` is a human pace). One
asyncio client per table holds the human seat's WebSocket, with `delta=1` as the browser
does (`--whole`: whole snapshots, as the browser did before); whenever its seat must act it
waits `--think` seconds, sends the first legal action and times the round trip until the
next version arrives. A table that ends is replaced by a new one. `--processes 2` (with
PostgreSQL) starts two servers on the one database, the tables shared out between them.
`--root` serves another checkout's code (a run of the code before a change, for a
before/after in one session).

Printed per database: round trip p50 / p95 / max, the person's actions and all actions
(bots included) served per second, the servers' resident memory per table (growth of their
RSS from idle to loaded, divided by the tables), and their CPU use (percent of one core, and
milliseconds per action served, bots' moves included). The issue's targets: p95 <= 50 ms at
50 tables at a human pace on an idle 2-core machine; CPU per action <= 0.4 ms on SQLite and
0.8 ms on PostgreSQL. `load` is the machine's one-minute load average as the row is
printed: on a shared machine a figure is only worth its load. For scale the same run measures the
engine's own cost of one action as the server does it (apply_with_events, view, legal
actions and JSON), in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from websockets.asyncio.client import connect

import timelord
from tests.server.helpers import ROOT, Server, cluster, postgres_bin
from timelord import Rng

TARGET_P95_MS = 50.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Load:
    def __init__(
        self,
        servers: list[Server],
        game: str,
        seats: list[str],
        options: dict[str, Any],
        think: float = 0.0,
        whole: bool = False,
    ):
        self.servers = servers
        self.think = think
        self.whole = whole
        self.game = game
        self.seats = seats
        self.options = options
        self.round_trips: list[float] = []
        self.finished_versions = 0
        self.live_versions: dict[str, int] = {}
        self.errors: list[str] = []
        self.stop = False

    async def told(self, ws: Any, known: dict[str, Any] | None = None) -> dict[str, Any]:
        """The next snapshot or refusal the socket sends: a delta applied to `known` (only
        what the person reads: version, over, legal), messages about the table skipped."""
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            kind = message.get("type")
            if kind == "delta" and known is not None:
                return {**known, **{k: message[k] for k in ("version", "over", "legal")}}
            if kind is None:
                return message

    async def create(self, http: httpx.AsyncClient, seed: int) -> Any:
        body = {"game": self.game, "seats": self.seats, "options": self.options, "seed": seed}
        answer = await http.post("/api/tables", json=body)
        answer.raise_for_status()
        return answer.json()

    async def person(self, http: httpx.AsyncClient, server: Server, index: int) -> None:
        """One table after another on `server`, the human seat played over a WebSocket."""
        seed = index * 1000
        while not self.stop:
            table = await self.create(http, seed)
            seed += 1
            token = table["seats"][0]["token"]
            query = f"?token={token}" + ("" if self.whole else "&delta=1")
            url = server.ws_url(f"/api/tables/{table['id']}/ws{query}")
            async with connect(url, max_size=2**24) as ws:
                snapshot = await self.told(ws)
                while not self.stop:
                    self.live_versions[table["id"]] = snapshot["version"]
                    if snapshot["over"]:
                        break
                    if not snapshot["legal"]:
                        snapshot = await self.told(ws, snapshot)
                        continue
                    if self.think:
                        await asyncio.sleep(self.think)
                    version = snapshot["version"]
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"version": version, "action": snapshot["legal"][0]}))
                    while True:
                        message = await self.told(ws, snapshot)
                        if "code" in message:
                            self.errors.append(message["code"])
                            break
                        if message["version"] > version:
                            self.round_trips.append(time.perf_counter() - sent)
                            snapshot = message
                            break
                        snapshot = message
            self.finished_versions += self.live_versions.pop(table["id"], 0)

    def actions(self) -> int:
        return self.finished_versions + sum(self.live_versions.values())


def engine_cost(game_id: str, players: int, options: dict[str, Any]) -> float:
    """Seconds per action of the engine work the server does for one action."""
    game = timelord.load(game_id, players=players, **options)
    rng = Rng(1)
    count = 0
    start = time.perf_counter()
    for seed in range(5):
        state = game.new_game(seed)
        while not state.is_over:
            legal = state.legal_actions()
            state, events = state.apply_with_events(rng.choice(legal))
            json.dumps(state.view(0))
            json.dumps([a.to_json() for a in state.legal_actions()])
            json.dumps(game.tell(events, 0))
            count += 1
    return (time.perf_counter() - start) / count


async def measure(servers: list[Server], args: argparse.Namespace) -> dict[str, float]:
    seats = ["human", *args.bots.split(",")]
    load = Load(servers, args.game, seats, {"players": len(seats)}, args.think, args.whole)
    pids = [server.process.pid for server in servers]
    idle = sum(rss_kib(pid) for pid in pids)
    clients = [httpx.AsyncClient(base_url=server.url, timeout=60) for server in servers]
    try:
        tasks = [
            asyncio.create_task(
                load.person(clients[i % len(servers)], servers[i % len(servers)], i)
            )
            for i in range(args.tables)
        ]
        await asyncio.sleep(args.warmup)
        load.round_trips.clear()
        first = load.actions()
        start = time.perf_counter()
        cpu = sum(cpu_seconds(pid) for pid in pids)
        await asyncio.sleep(args.seconds)
        elapsed = time.perf_counter() - start
        cpu = sum(cpu_seconds(pid) for pid in pids) - cpu
        served = load.actions() - first
        trips = sorted(load.round_trips)
        loaded = sum(rss_kib(pid) for pid in pids)
        load.stop = True
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    finally:
        for client in clients:
            await client.aclose()
    if not trips:
        raise RuntimeError("no round trips measured")
    return {
        "p50": statistics.median(trips) * 1000,
        "p95": trips[int(0.95 * (len(trips) - 1))] * 1000,
        "max": trips[-1] * 1000,
        "person": len(trips) / elapsed,
        "served": served / elapsed,
        "kib": (loaded - idle) / args.tables,
        "cpu": cpu / elapsed * 100,
        "cpu_ms": cpu / max(served, 1) * 1000,
        "errors": len(load.errors),
    }


def run_one(db: str, args: argparse.Namespace, workdir: Path) -> dict[str, float]:
    def serve(url: str) -> dict[str, float]:
        servers = []
        try:
            for n in range(args.processes):
                log = workdir / f"{db}-{n}.log"
                servers.append(Server(url, args.bot_delay, log, root=args.root))
            for server in servers:
                server.wait_ready()
            return asyncio.run(measure(servers, args))
        finally:
            for server in servers:
                server.stop()

    if db == "sqlite":
        if args.processes != 1:
            raise SystemExit("several processes share a PostgreSQL database, not SQLite")
        return serve(f"sqlite:///{workdir / 'bench.sqlite3'}")
    if postgres_bin() is None:
        raise SystemExit("PostgreSQL is not installed")
    with cluster() as pg:
        return serve(pg.new_database())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--game", default="keys")
    parser.add_argument("--bots", default="random,random", help="the bot seats beside the person")
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--think", type=float, default=0.0, help="the person's seconds per move")
    parser.add_argument("--processes", type=int, default=1, help="servers on one PostgreSQL")
    parser.add_argument("--whole", action="store_true", help="whole snapshots, no deltas")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout that serves")
    args = parser.parse_args()
    players = 1 + len(args.bots.split(","))
    engine = engine_cost(args.game, players, {})
    print(
        f"{args.tables} tables of {args.game} (human + {args.bots}), bot delay {args.bot_delay}s, "
        f"{args.seconds:g}s measured, person thinks {args.think:g}s, "
        f"{args.processes} process(es), {'whole snapshots' if args.whole else 'deltas'}, "
        f"code of {args.root}; engine work per action {engine * 1000:.2f} ms"
    )
    print(
        f"{'db':<12}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}{'person/s':>10}{'actions/s':>11}"
        f"{'KiB/table':>11}{'CPU %':>7}{'CPU ms/act':>11}{'p95/engine':>12}{'errors':>8}  ok"
        "  load"
    )
    dbs = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    with tempfile.TemporaryDirectory(prefix="timelord-bench-") as tmp:
        for db in dbs:
            r = run_one(db, args, Path(tmp))
            ok = "yes" if r["p95"] <= TARGET_P95_MS else "NO"
            print(
                f"{db:<12}{r['p50']:>8.1f}{r['p95']:>8.1f}{r['max']:>8.1f}{r['person']:>10.1f}"
                f"{r['served']:>11.1f}{r['kib']:>11.0f}{r['cpu']:>7.0f}{r['cpu_ms']:>11.2f}"
                f"{r['p95'] / 1000 / engine:>12.0f}"
                f"{r['errors']:>8.0f}  {ok:<4}{os.getloadavg()[0]:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
