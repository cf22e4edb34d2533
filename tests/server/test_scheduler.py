"""One search scheduler (issue 30, finding 7): fair between client addresses first and tables
second; hints and reviews queue with the bots; a search the caller gave up on stops; the
fallback move is the heuristic's."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from timelord.agents import make_agent
from timelord.core import Rng, load
from timelord.server import bots as bots_module
from timelord.server.bots import Bots, stoppable_clock, stopped
from timelord.server.fairness import FairQueue
from timelord.server.limits import Limits


def test_a_freed_worker_goes_round_the_clients_before_their_tables() -> None:
    """One address with 12 searches waiting over 6 tables; another address's single search
    is served at the next free worker, not after the 12."""

    async def run() -> list[str]:
        queue = FairQueue(1)
        order: list[str] = []
        gate = asyncio.Event()

        async def search(client: str, table: str) -> None:
            async with queue.turn(table, client):
                order.append(client)
                await gate.wait()

        holder = asyncio.create_task(search("flood", "t0"))
        await asyncio.sleep(0)
        tasks = [asyncio.create_task(search("flood", f"t{n % 6}")) for n in range(12)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(search("other", "mine")))
        await asyncio.sleep(0)
        assert queue.waiting() == 13
        gate.set()
        await asyncio.gather(holder, *tasks)
        return order

    order = asyncio.run(run())
    assert order.index("other") <= 2, order


def test_hints_and_reviews_wait_for_the_fair_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Bots.run` (the coach's hints and reviews) takes a worker from the same queue."""
    submitted: list[Any] = []

    class Pool:
        def apply_async(self, fn: Any, args: Any, callback: Any, error_callback: Any) -> None:
            submitted.append(args)
            callback("done")

    async def run() -> None:
        bots = Bots(Limits(bot_workers=1))
        monkeypatch.setattr(bots, "_pool", lambda: Pool())
        async with bots.queue.turn("busy", "someone"):
            hint = asyncio.create_task(bots.run(print, "x", table="t", client="me"))
            await asyncio.sleep(0.01)
            assert submitted == [] and bots.queue.waiting() == 1  # it waits its turn
        assert await hint == "done"
        assert len(submitted) == 1

    asyncio.run(run())


def test_a_stopped_tickets_clock_reads_infinity() -> None:
    flags = [0, 0]
    old = bots_module._FLAGS
    bots_module._FLAGS = flags
    try:
        clock = stoppable_clock(1)
        assert clock() < float("inf")
        flags[1] = 1
        assert clock() == float("inf")
        assert stoppable_clock(0)() < float("inf")
    finally:
        bots_module._FLAGS = old


def spin(limit: float, ticket: int | None = None) -> float:
    """In a pool process: busy until told to stop (or `limit` seconds); how long it ran."""
    started = time.monotonic()
    asked = stopped(ticket)
    while not asked() and time.monotonic() - started < limit:
        pass
    return time.monotonic() - started


def test_a_cancelled_search_stops_and_frees_its_worker() -> None:
    """A search of up to two minutes, cancelled once running, stops (its flag): the one
    worker is free for the next search, which would otherwise wait the two minutes."""

    async def run() -> None:
        bots = Bots(Limits(bot_workers=1))
        try:
            long = asyncio.create_task(bots.run(spin, 120.0, table="a", client="x"))
            while len(bots._tickets.free) == len(bots._tickets.flags):
                await asyncio.sleep(0.01)  # until it has its ticket and is in the pool
            long.cancel()
            with pytest.raises(asyncio.CancelledError):
                await long
            ran = await asyncio.wait_for(bots.run(spin, 0.0, table="b", client="y"), 60)
            assert ran < 1.0
        finally:
            bots.close()

    asyncio.run(run())


def test_an_overrun_search_plays_the_heuristics_move(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load("keys", players=2)
    for seed in range(40):
        state = game.new_game(Rng(seed))
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        view = state.view(seat)
        heuristic = make_agent("heuristic", game).act(view, legal, Rng(seed))
        if heuristic != legal[0]:
            break
    else:
        pytest.skip("no opening where the heuristic differs from the first legal move")

    async def overrun(*args: Any, **kwargs: Any) -> Any:
        raise TimeoutError

    async def run() -> Any:
        bots = Bots(Limits(bot_workers=1))
        monkeypatch.setattr(bots, "run", overrun)
        try:
            return await bots._search(game, "ismcts:hard", view, legal, seed, "t", "c")
        finally:
            bots.close()

    assert asyncio.run(run()) == heuristic
