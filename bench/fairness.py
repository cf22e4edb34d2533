"""Does one address slow everyone? Run by hand (not a test):

    python bench/fairness.py [--answers 12] [--rounds 2] [--flooders 8] [--bot-tables 20]
                             [--floods hints tables 429] [--direct] [--bound 60] [--log FILE]

A real `timelord serve` process (SQLite, two search workers, bot delay 0) believes
X-Forwarded-For from loopback, so one process plays several client addresses. A victim
address plays a table of keys against an `ismcts:easy` bot and times its bot's answers:
from the person's move sent on the WebSocket to the snapshot in which the bot has answered.
For each flood from another address, `--rounds` times: `--answers` answers idle, then as
many under the flood; the pooled medians are compared (a shared machine's load drifts, so
each flood is held against idle answers taken beside it). Each measure is bounded by
`--bound` seconds. The floods:

- hints: `--flooders` loops, each at a hint table of its own, asking for a hint and playing
  on (the same position's hint is one shared search); the victim plays on until at least two
  hints were answered, so the flood is seen to be served while it is measured;
- bot tables: the flooder creates tables of two `ismcts:hard` bots up to its limit (20 by
  default), as open tables claimed afterwards and handed to a hard stand-in;
- 429s: `--flooders` connections pipelining GETs as fast as they can be written, from a
  process of their own at the lowest CPU priority (a remote attacker spends its own CPU; here
  it shares the server's machine), against a `--rate` low enough that most are refused;
  through the trusted proxy (its address forwarded), or with `--direct` from 127.0.0.2
  itself (whose connections the server closes unread once it keeps coming while refused).

Printed per flood: the victim's median and max bot answer time, its ratio to the idle median
(the target: within 1.5x), what the flooder got through, and for the 429 flood the victim's
GET latency against idle.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from websockets.asyncio.client import connect

from tests.server.helpers import Server

VICTIM = {"X-Forwarded-For": "198.51.100.1"}
FLOODER = {"X-Forwarded-For": "203.0.113.66"}
FLOODS = ["hints", "tables", "429"]
#: what a flood says of itself once measured
Report = Callable[[], Awaitable[str]]


async def bot_answers(server: Server, count: int) -> list[float]:
    """Seconds from the victim's move to its bot's answer, `count` times (new tables as
    games end)."""
    times: list[float] = []
    async with httpx.AsyncClient(base_url=server.url, headers=VICTIM, timeout=60) as http:
        while len(times) < count:
            body = {"game": "keys", "seats": ["human", "ismcts:easy"]}
            answer = await http.post("/api/tables", json=body)
            if answer.status_code != 201:
                raise RuntimeError(f"the victim's table was refused: {answer.text}")
            made = answer.json()
            url = server.url.replace("http", "ws", 1)
            path = f"{url}/api/tables/{made['id']}/ws?token={made['seats'][0]['token']}"
            async with connect(path, additional_headers=VICTIM) as ws:
                snap = json.loads(await ws.recv())
                while len(times) < count and not snap["over"]:
                    if snap.get("to_move") != 0 or not snap.get("legal"):
                        snap = json.loads(await ws.recv())
                        continue
                    version = snap["version"]
                    start = time.perf_counter()
                    await ws.send(json.dumps({"version": version, "action": snap["legal"][0]}))
                    while True:
                        snap = json.loads(await ws.recv())
                        if "version" not in snap:
                            continue
                        if snap["over"] or (snap["version"] > version and snap["to_move"] == 0):
                            break
                    # a move after which the person moves again had no bot answer to time
                    if not snap["over"] and snap["version"] > version + 1:
                        times.append(time.perf_counter() - start)
            # ended, so the victim's bot tables stay within its own limit however many it makes
            await http.post(f"/api/tables/{made['id']}/end", params={"owner": made["owner_token"]})
    return times


async def get_latency(server: Server, count: int = 20) -> float:
    """The victim's median GET /api/tables time, in seconds."""
    times = []
    async with httpx.AsyncClient(base_url=server.url, headers=VICTIM, timeout=60) as http:
        for _ in range(count):
            start = time.perf_counter()
            await http.get("/api/tables", params={"limit": 5})
            times.append(time.perf_counter() - start)
    return statistics.median(times)


@contextlib.asynccontextmanager
async def running(loops: list[Coroutine[Any, Any, None]]) -> AsyncIterator[None]:
    tasks = [asyncio.create_task(loop) for loop in loops]
    try:
        await asyncio.sleep(1.0)  # the flood is under way before the victim plays
        yield
    finally:
        for task in tasks:
            task.cancel()
        failed = Counter()
        for task in tasks:
            try:
                await task
            except asyncio.CancelledError:
                pass
            except Exception as exc:  # a flood that broke measures nothing: say so
                failed[repr(exc)[:120]] += 1
        for error, count in failed.items():
            print(f"  {count} flood loop(s) failed: {error}", flush=True)


async def hint_flood(
    server: Server, flooders: int, served: list[int], made: list[str]
) -> list[Any]:
    """`flooders` loops, each at a hint table of its own, asking for a hint and then
    playing on (a hint of a position already asked is answered from the first search, so a
    flood must move to make the server search again); a new table when a game ends."""
    body = {"game": "keys", "seats": ["human", "random"], "hints": True}

    async def loop() -> None:
        async with httpx.AsyncClient(base_url=server.url, headers=FLOODER, timeout=120) as http:
            while True:
                table = (await http.post("/api/tables", json=body)).json()
                url, token = f"/api/tables/{table['id']}", table["seats"][0]["token"]
                made.append(f"{url}/end?owner={table['owner_token']}")
                while True:
                    snap = (await http.get(url, params={"token": token})).json()
                    if snap["over"]:
                        break
                    if snap["to_move"] != 0:
                        await asyncio.sleep(0.05)
                        continue
                    answer = await http.get(f"{url}/hint", params={"token": token})
                    served.append(answer.status_code)
                    move = {"version": snap["version"], "action": snap["legal"][0]}
                    await http.post(f"{url}/actions", params={"token": token}, json=move)

    return [loop() for _ in range(flooders)]


async def end_tables(server: Server, made: list[str]) -> None:
    """End the flooder's tables (their end links), so the next measure is taken without
    them and the flooder's table limits start afresh."""
    async with httpx.AsyncClient(base_url=server.url, headers=FLOODER, timeout=60) as http:
        for end in made:
            await http.post(end)


async def paced(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """POST `url`, again after each 429 of the request rate, a second later as the answer
    asks (this flood's tables are the measure, not the rate; a table limit's 429 is kept)."""
    while True:
        answer = await http.post(url, **kwargs)
        if answer.status_code != 429 or "limit " in answer.json()["reason"]:
            return answer
        await asyncio.sleep(1.0)


async def bot_table_flood(server: Server, tables: int, made: list[str]) -> None:
    """Open tables against a hard bot, claimed afterwards and handed to a hard stand-in
    (so bots search on every turn), until the limit refuses: up to twice the limit."""
    async with httpx.AsyncClient(base_url=server.url, headers=FLOODER, timeout=60) as http:
        for _ in range(tables * 2):
            body = {"game": "keys", "seats": ["open", "ismcts:hard"], "stand_in": "ismcts:hard"}
            answer = await paced(http, "/api/tables", json=body)
            if answer.status_code != 201:
                continue
            table = answer.json()["id"]
            made.append(f"/api/tables/{table}/end?owner={answer.json()['owner_token']}")
            seat = await paced(http, f"/api/tables/{table}/seats/0/claim", json={"name": "F"})
            token = seat.json()["token"]
            stand_in = f"/api/tables/{table}/seats/0/stand-in"
            await paced(http, stand_in, params={"token": token})


def pipeline_flood(port: int, flooders: int, answered: Any, direct: bool = False) -> None:
    """In a process of its own (an attacker is not the victim's client): `flooders`
    connections pipelining GETs as fast as they can be written, through the trusted proxy
    (its address forwarded) or, `direct`, from 127.0.0.2 (not a trusted proxy); `answered`
    counts the responses read, the 429s among them, and connections closed unanswered."""
    os.nice(19)  # a remote attacker spends its own CPU, not the server's machine's
    one = b"GET /api/tables HTTP/1.1\r\nHost: x\r\n"
    if not direct:
        one += b"X-Forwarded-For: 203.0.113.66\r\n"
    # 50 pipelined, the last asking the server to close: each loop reads to the end
    request = (one + b"\r\n") * 49 + one + b"Connection: close\r\n\r\n"
    local = ("127.0.0.2", 0) if direct else None

    async def loop() -> None:
        while True:
            data = b""
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
                writer.write(request)
                with contextlib.suppress(OSError):
                    await writer.drain()
                data = await reader.read()
                writer.close()
            with answered.get_lock():
                answered[0] += data.count(b"HTTP/1.1 ")
                answered[1] += data.count(b"HTTP/1.1 429")
                answered[2] += not data

    async def main() -> None:
        await asyncio.gather(*(loop() for _ in range(flooders)))

    asyncio.run(main())


@contextlib.contextmanager
def flooding_process(port: int, flooders: int, direct: bool = False) -> Iterator[Any]:
    """The pipelined flood running in another process while the body runs."""
    answered = multiprocessing.Array("q", 3)  # responses read, 429s, connections unanswered
    process = multiprocessing.Process(
        target=pipeline_flood, args=(port, flooders, answered, direct), daemon=True
    )
    process.start()
    try:
        time.sleep(1.0)  # the flood is under way before the victim plays
        yield answered
    finally:
        process.terminate()
        process.join()


def line(name: str, idle: float, times: list[float], extra: str) -> None:
    median = statistics.median(times)
    print(
        f"{name:<12} bot answer median {median * 1000:7.0f} ms  max {max(times) * 1000:7.0f} ms"
        f"  x{median / idle:4.2f} idle  {extra}",
        flush=True,
    )


async def bounded(name: str, work: Coroutine[Any, Any, list[float]], seconds: float) -> list[float]:
    """`work`, or a line saying it did not finish within `seconds` (and an empty list)."""
    try:
        return await asyncio.wait_for(work, seconds)
    except TimeoutError:
        print(f"{name:<12} did not finish within {seconds:.0f} s", flush=True)
        return []


async def answers_until(server: Server, count: int, enough: Callable[[], bool]) -> list[float]:
    """At least `count` bot answer times, and more until `enough()` (the flood has shown
    itself: some of its requests were answered while the victim played)."""
    times = await bot_answers(server, count)
    while not enough():
        times += await bot_answers(server, max(1, count // 4))
    return times


async def measured(
    server: Server,
    args: argparse.Namespace,
    name: str,
    flood: Callable[[], contextlib.AbstractAsyncContextManager[Report]],
    enough: Callable[[], bool] = lambda: True,
) -> None:
    """`--rounds` rounds of the victim's answers idle and then under `flood`, pooled: the
    load of a shared machine drifts, so each flood is compared with idle answers taken
    beside it, not with one taken minutes before."""
    idle: list[float] = []
    loaded: list[float] = []
    extra = ""
    for _ in range(args.rounds):
        idle += await bot_answers(server, args.answers)
        async with flood() as report:
            work = answers_until(server, args.answers, enough)
            loaded += await bounded(name, work, args.bound)
            extra = await report()
    if loaded:
        line(name, statistics.median(idle), loaded, f"(idle median {_ms(idle)}) {extra}")
    else:
        print(f"{'':<12} {extra}", flush=True)


def _ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:.0f} ms"


async def main_async(server: Server, args: argparse.Namespace) -> None:
    idle_get = await get_latency(server)
    print(f"idle GET /api/tables median {idle_get * 1000:.1f} ms", flush=True)

    if "hints" in args.floods:
        served: list[int] = []

        @contextlib.asynccontextmanager
        async def hints() -> AsyncIterator[Report]:
            async def report() -> str:
                return f"flooder's hints (status: count): {dict(Counter(served))}"

            made: list[str] = []
            try:
                async with running(await hint_flood(server, args.flooders, served, made)):
                    yield report
            finally:
                await end_tables(server, made)

        def some_hints() -> bool:
            return len(served) >= 2

        await measured(server, args, "hints", hints, some_hints)

    if "tables" in args.floods:

        @contextlib.asynccontextmanager
        async def tables() -> AsyncIterator[Report]:
            made: list[str] = []

            async def report() -> str:
                return f"flooder's bot tables: {len(made)} (limit {args.bot_tables})"

            await bot_table_flood(server, args.bot_tables, made)
            await asyncio.sleep(1.0)
            try:
                yield report
            finally:
                await end_tables(server, made)

        await measured(server, args, "bot tables", tables)

    if "429" in args.floods:

        @contextlib.asynccontextmanager
        async def pipelined() -> AsyncIterator[Report]:
            idle_get = await get_latency(server)  # beside the flood, as the bot's answers
            with flooding_process(server.port, args.flooders, args.direct) as answered:
                started = time.perf_counter()

                async def report() -> str:
                    get = await get_latency(server)
                    seconds = time.perf_counter() - started
                    refused = answered[1] / max(1, answered[0])
                    return (
                        f"GET median {get * 1000:.1f} ms (idle {idle_get * 1000:.1f}); "
                        f"flooder answered {answered[0] / seconds:.0f}/s, {refused:.0%} of them "
                        f"429, {answered[2] / seconds:.0f}/s connections closed unanswered"
                    )

                yield report

        await measured(server, args, "429 flood", pipelined)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--answers", type=int, default=12, help="victim bot answers per measure")
    parser.add_argument("--flooders", type=int, default=8, help="concurrent flood loops")
    parser.add_argument("--bot-tables", type=int, default=20, help="the flooder's bot limit")
    parser.add_argument(
        "--floods", nargs="+", default=FLOODS, choices=FLOODS, help="which floods to measure"
    )
    parser.add_argument("--bound", type=float, default=60.0, help="seconds one measure may take")
    parser.add_argument("--rounds", type=int, default=2, help="idle/flood rounds per flood")
    parser.add_argument(
        "--rate",
        type=float,
        default=20.0,
        help="requests a second one address may make (burst twice that): low enough that "
        "the pipelined flood is refused, which is what it measures (a flood within the rate "
        "is traffic the operator allowed)",
    )
    parser.add_argument(
        "--direct",
        action="store_true",
        help="the pipelined flood connects from 127.0.0.2 itself, not through the trusted proxy",
    )
    parser.add_argument("--log", type=Path, help="where the server's log goes (default: away)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        extra = (
            "--trusted-proxy",
            "127.0.0.1",
            "--bot-tables-per-client",
            str(args.bot_tables),
            "--creations-per-minute",
            "1000",
            "--rate",
            str(args.rate),
            "--burst",
            str(2 * args.rate),
        )
        server = Server(url, 0.0, args.log, extra=extra)
        try:
            server.wait_ready()
            asyncio.run(main_async(server, args))
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
