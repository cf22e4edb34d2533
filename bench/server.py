"""The server under load: tables on loopback, each with bots and one scripted person over a
WebSocket. Run by hand (not a test):

    python bench/server.py [--tables 50] [--seconds 20] [--db sqlite|postgresql|both]

A real `timelord serve` process (uvicorn, SQLite file or a throw-away PostgreSQL cluster)
serves `--tables` tables of `--game` with one human seat and bots (bot delay 0 by default, so
the bots make as much load as they can). One asyncio client per table holds the human
seat's WebSocket; whenever its seat must act it sends the first legal action and times the
round trip until the snapshot of the next version arrives. A table that ends is replaced by
a new one. Printed per database: round trip p50 / p95 / max, the person's actions and all
actions (bots included) served per second, and the server's resident memory per table
(growth of its RSS from the idle server to the loaded one, divided by the tables), and its
CPU use (percent of one core, and milliseconds per action served, bots' moves included). The
issue's target: p95 <= 50 ms on a 2-core machine. For scale the same run measures the
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
from tests.server.helpers import Server, cluster, postgres_bin
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
    def __init__(self, server: Server, game: str, seats: list[str], options: dict[str, Any]):
        self.server = server
        self.game = game
        self.seats = seats
        self.options = options
        self.round_trips: list[float] = []
        self.finished_versions = 0
        self.live_versions: dict[str, int] = {}
        self.errors: list[str] = []
        self.stop = False

    async def create(self, http: httpx.AsyncClient, seed: int) -> Any:
        body = {"game": self.game, "seats": self.seats, "options": self.options, "seed": seed}
        answer = await http.post("/api/tables", json=body)
        answer.raise_for_status()
        return answer.json()

    async def person(self, http: httpx.AsyncClient, index: int) -> None:
        """One table after another, the human seat played over a WebSocket."""
        seed = index * 1000
        while not self.stop:
            table = await self.create(http, seed)
            seed += 1
            token = table["seats"][0]["token"]
            url = self.server.ws_url(f"/api/tables/{table['id']}/ws?token={token}")
            async with connect(url, max_size=2**24) as ws:
                snapshot = json.loads(await ws.recv())
                while not self.stop:
                    self.live_versions[table["id"]] = snapshot["version"]
                    if snapshot["over"]:
                        break
                    if not snapshot["legal"]:
                        snapshot = json.loads(await ws.recv())
                        continue
                    version = snapshot["version"]
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"version": version, "action": snapshot["legal"][0]}))
                    while True:
                        message = json.loads(await ws.recv())
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


async def measure(server: Server, args: argparse.Namespace) -> dict[str, float]:
    seats = ["human", *args.bots.split(",")]
    load = Load(server, args.game, seats, {"players": len(seats)})
    idle = rss_kib(server.process.pid)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        tasks = [asyncio.create_task(load.person(http, i)) for i in range(args.tables)]
        await asyncio.sleep(args.warmup)
        load.round_trips.clear()
        first = load.actions()
        start = time.perf_counter()
        cpu = cpu_seconds(server.process.pid)
        await asyncio.sleep(args.seconds)
        elapsed = time.perf_counter() - start
        cpu = cpu_seconds(server.process.pid) - cpu
        served = load.actions() - first
        trips = sorted(load.round_trips)
        loaded = rss_kib(server.process.pid)
        load.stop = True
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
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
        server = Server(url, args.bot_delay, workdir / f"{db}.log")
        try:
            server.wait_ready()
            return asyncio.run(measure(server, args))
        finally:
            server.stop()

    if db == "sqlite":
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
    args = parser.parse_args()
    players = 1 + len(args.bots.split(","))
    engine = engine_cost(args.game, players, {})
    print(
        f"{args.tables} tables of {args.game} (human + {args.bots}), bot delay {args.bot_delay}s, "
        f"{args.seconds:g}s measured; engine work per action {engine * 1000:.2f} ms"
    )
    print(
        f"{'db':<12}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}{'person/s':>10}{'actions/s':>11}"
        f"{'KiB/table':>11}{'CPU %':>7}{'CPU ms/act':>11}{'p95/engine':>12}{'errors':>8}  ok"
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
                f"{r['errors']:>8.0f}  {ok}",
                flush=True,
            )


if __name__ == "__main__":
    main()
