"""The table core's CPU per action, in this process, without HTTP or WebSocket framing.
Run by hand (not a test):

    python bench/server_core.py [--tables 20] [--actions 4000] [--db sqlite|postgresql|both]
        [--root CHECKOUT]

`Tables` (the server's table modules) over a SQLite file or a throw-away PostgreSQL cluster
serves `--tables` Keys tables of three random bots (bot delay 0), each watched by one
delta socket's outbox that a task drains as a socket's sender would; a table that ends is
replaced. Printed per database: the actions committed in the window, the process's CPU
time per action (commit, fan-out, delta texts, turns: everything but HTTP and WebSocket
framing), and that per action over the engine's own work per action measured in the same
run. CPU time, not wall time, so a loaded machine moves it less than `bench/server.py`'s
round trips. `--root` measures another checkout's code (the code before a change).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


async def measure(url: str, tables_wanted: int, actions: int) -> tuple[int, float]:
    """(actions committed, CPU seconds) over a window of at least `actions` actions."""
    from timelord.server.storage import Store
    from timelord.server.table import Tables

    tables = Tables(Store(url), bot_delay=0)
    await tables.start()
    live: list[Any] = []
    drains: list[asyncio.Task[None]] = []
    seed = 0

    async def drain(box: Any) -> None:
        while await box.next() is not None:
            pass

    async def add() -> None:
        nonlocal seed
        seed += 1
        made, _, _ = await tables.creating.create(
            "keys", {"players": 3}, ["random"] * 3, seed, client=f"c{seed}"
        )
        live.append(made)
        box = tables.fanout.subscribe(made, None, 0, delta=True)
        drains.append(asyncio.create_task(drain(box)))

    def total() -> int:
        return sum(t.version for t in live)

    try:
        for _ in range(tables_wanted):
            await add()
        await asyncio.sleep(2)  # warm-up
        first, cpu = total(), time.process_time()
        while total() - first < actions:
            await asyncio.sleep(0.2)
            for done in [t for t in live if t.over]:
                live.remove(done)
                first -= done.version  # its actions were counted; keep them in the window
                await add()
        return total() - first, time.process_time() - cpu
    finally:
        for task in drains:
            task.cancel()
        for task in drains:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await tables.stop()


def engine_cost() -> float:
    """CPU seconds per action of the engine's work for one served action."""
    import timelord
    from timelord import Rng

    game = timelord.load("keys", players=3)
    rng, count, start = Rng(1), 0, time.process_time()
    for seed in range(5):
        state = game.new_game(seed)
        while not state.is_over:
            state, events = state.apply_with_events(rng.choice(state.legal_actions()))
            json.dumps(state.view(None))
            json.dumps(game.tell(events, None))
            count += 1
    return (time.process_time() - start) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=4000)
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    sys.path.insert(1, str(HERE))
    import timelord
    from tests.server.helpers import cluster

    engine = engine_cost()
    print(
        f"{args.tables} Keys tables of 3 random bots, one delta outbox each; code of {args.root} "
        f"({timelord.BUILD}); engine work per action {engine * 1000:.3f} ms CPU"
    )
    dbs = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    with tempfile.TemporaryDirectory(prefix="timelord-core-") as tmp:
        for db in dbs:
            with contextlib.ExitStack() as stack:
                if db == "sqlite":
                    url = f"sqlite:///{tmp}/core.sqlite3"
                else:
                    url = stack.enter_context(cluster()).new_database()
                done, cpu = asyncio.run(measure(url, args.tables, args.actions))
            per = cpu / max(done, 1)
            print(
                f"{db:<12}{done:>7} actions  CPU {per * 1000:.3f} ms/action  "
                f"({per / engine:.1f} x the engine's work)",
                flush=True,
            )


if __name__ == "__main__":
    main()
