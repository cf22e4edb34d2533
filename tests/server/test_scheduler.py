"""One search scheduler (issue 30, finding 7): fair between client addresses first and tables
second; hints and reviews queue with the bots; a search the caller gave up on stops; the
fallback move is the heuristic's."""

from __future__ import annotations

import asyncio
import json
import os
import time
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.requests import Request

from timelord.agents import make_agent
from timelord.agents.coach import Stopped
from timelord.core import Rng, load
from timelord.server import bots as bots_module
from timelord.server.bots import Bots, stoppable_clock, stopped
from timelord.server.fairness import FairQueue
from timelord.server.limits import Limits
from timelord.server.review import Coaching, _hint_step, _review_step, unless_gone


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


def niceness(ticket: int | None = None) -> int:
    """In a pool process: its CPU niceness."""
    return os.nice(0)


def test_search_workers_run_below_the_process_answering_people() -> None:
    """People's requests come before bots' thinking: the pool's processes are 10 steps of
    CPU priority below the server (or at the lowest, 19)."""

    async def run() -> int:
        bots = Bots(Limits(bot_workers=1))
        try:
            return await asyncio.wait_for(bots.run(niceness), 60)
        finally:
            bots.close()

    assert asyncio.run(run()) == min(19, os.nice(0) + 10)


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


class FakeClock:
    """`sleep` for the code under test; time moves only when the test says."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    async def sleep(self, seconds: float) -> None:
        woken = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.now + seconds, woken))
        await woken

    async def advance(self, seconds: float, step: float = 0.5) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + step)
            for at, woken in list(self.sleepers):
                if at <= self.now and not woken.done():
                    self.sleepers.remove((at, woken))
                    woken.set_result(None)
            for _ in range(5):
                await asyncio.sleep(0)


class HeldPool:
    """A pool whose searches answer only when the test says (a busy process)."""

    def __init__(self) -> None:
        self.tasks: list[tuple[Any, Any]] = []

    def apply_async(self, fn: Any, args: Any, callback: Any, error_callback: Any) -> None:
        self.tasks.append((args, callback))


def _dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    import subprocess

    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def test_a_stopped_searchs_worker_is_held_until_its_process_is_free_or_gone() -> None:
    """A cancelled search's caller goes at once, but its worker is counted busy for as long
    as its process is busy (however long past the stop), so the next search is not queued
    in the pool behind it; the worker is freed when the search returns, or, should its
    process die instead, when the process is seen gone."""

    async def run() -> None:
        clock = FakeClock()
        bots = Bots(Limits(bot_workers=1), sleep=clock.sleep)
        pool = HeldPool()
        bots._processes = pool  # type: ignore[assignment]
        first = asyncio.create_task(bots.run(spin, 120.0, table="a", client="x"))
        for _ in range(5):
            await asyncio.sleep(0)
        (_, args, ticket), callback = pool.tasks[0]
        assert args == (120.0,)
        bots._tickets.pids[ticket] = os.getpid()  # a live process runs it
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first  # the caller leaves at once
        assert bots._tickets.flags[ticket] == 1  # told to stop
        second = asyncio.create_task(bots.run(spin, 0.0, table="b", client="y"))
        await clock.advance(600.0)  # ten minutes of a process that does not stop
        assert bots.queue.busy == 1 and len(pool.tasks) == 1  # the second waits its turn
        callback(5.0)  # the process is free at last
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(pool.tasks) == 2  # and the second search has the worker
        (_, _, ticket), _ = pool.tasks[1]
        bots._tickets.pids[ticket] = _dead_pid()  # its process dies mid-search
        second.cancel()
        with pytest.raises(asyncio.CancelledError):
            await second
        assert bots.queue.busy == 1
        await clock.advance(1.0)
        assert bots.queue.busy == 0  # a process that is gone holds no worker

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


def test_one_address_holds_at_most_half_the_workers() -> None:
    """With two workers, a flooding address's searches hold one; another address's search
    starts at once instead of waiting for a long search to end."""

    async def run() -> None:
        queue = FairQueue(2)
        gate = asyncio.Event()
        started: list[str] = []

        async def search(client: str, table: str) -> None:
            async with queue.turn(table, client):
                started.append(client)
                await gate.wait()

        flood = [asyncio.create_task(search("flood", f"t{n}")) for n in range(5)]
        await asyncio.sleep(0)
        assert started == ["flood"] and queue.busy == 1  # one worker stays free
        other = asyncio.create_task(search("other", "mine"))
        await asyncio.sleep(0)
        assert started == ["flood", "other"]
        gate.set()
        await asyncio.gather(*flood, other)
        assert queue.busy == 0 and not queue.holding

    asyncio.run(run())


def test_hint_and_review_steps_stop_at_their_flag() -> None:
    """A hint or review step counts its work in samples, not seconds, so only the stop flag
    ends one whose asker gave up: told to stop, it raises `Stopped` at its next sample."""
    game = load("keys", players=2)
    state = game.new_game(Rng(3))
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    legal = [a.to_json() for a in state.legal_actions()]
    options = json.dumps(game.options, sort_keys=True)
    old = bots_module._FLAGS
    bots_module._FLAGS = [0, 1]
    try:
        assert _hint_step("keys", options, view, legal, 0.1, ticket=0)  # not told: answers
        with pytest.raises(Stopped):
            _hint_step("keys", options, view, legal, 1000.0, ticket=1)
        with pytest.raises(Stopped):
            _review_step("keys", options, 0, view, legal, legal[0], 1000.0, ticket=1)
    finally:
        bots_module._FLAGS = old


class _Bots:
    """A search pool that counts its searches and holds each until `gate` opens."""

    def __init__(self) -> None:
        self.started = 0
        self.cancelled = 0
        self.gate = asyncio.Event()

    async def run(self, *args: Any, **kwargs: Any) -> list[Any]:
        self.started += 1
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        return ["move"]


def test_asking_the_same_hint_again_shares_one_search_and_the_last_to_leave_stops_it() -> None:
    """A hint is a function of the seat's view: eight requests at once for one position
    start one search, a later one reuses its answer, and a search every asker gave up is
    cancelled (so its pool search is told to stop)."""
    game = load("keys", players=2)
    state = game.new_game(Rng(3))
    seat = state.to_move
    live = SimpleNamespace(id="t", version=4, state=state, game=game)

    async def run() -> None:
        pool = _Bots()
        coaching = Coaching(SimpleNamespace(bots=pool))  # type: ignore[arg-type]
        asks = [asyncio.create_task(coaching.hint(live, seat)) for _ in range(8)]  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        assert pool.started == 1
        pool.gate.set()
        answers = await asyncio.gather(*asks)
        assert all(a == {"version": 4, "moves": ["move"]} for a in answers)
        assert await coaching.hint(live, seat) == answers[0]  # type: ignore[arg-type]
        assert pool.started == 1
        pool.gate.clear()
        live.version = 5
        asks = [asyncio.create_task(coaching.hint(live, seat)) for _ in range(2)]  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        asks[0].cancel()
        await asyncio.sleep(0.01)
        assert pool.cancelled == 0  # another asker still waits
        asks[1].cancel()
        await asyncio.sleep(0.01)
        assert (pool.started, pool.cancelled) == (2, 1)

    asyncio.run(run())


def test_a_hint_stops_when_its_client_hangs_up() -> None:
    """The server does not cancel a handler whose client went away; `unless_gone` does."""
    messages = [{"type": "http.request", "body": b"", "more_body": False}]
    hung_up = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await hung_up.wait()
        return {"type": "http.disconnect"}

    async def run() -> None:
        cancelled = asyncio.Event()

        async def search() -> str:
            try:
                await asyncio.sleep(120)
            except asyncio.CancelledError:
                cancelled.set()
                raise
            return "late"

        request = Request({"type": "http", "method": "GET", "headers": []}, receive)
        waiting = asyncio.create_task(unless_gone(request, search()))
        await asyncio.sleep(0.01)
        hung_up.set()
        assert await asyncio.wait_for(waiting, 5) is None
        assert cancelled.is_set()
        request = Request({"type": "http", "method": "GET", "headers": []}, receive)
        assert await unless_gone(request, asyncio.sleep(0, "now")) == "now"

    asyncio.run(run())


def test_a_hint_search_that_failed_is_started_again_by_the_next_asker() -> None:
    game = load("keys", players=2)
    state = game.new_game(Rng(3))
    live = SimpleNamespace(id="t", version=1, state=state, game=game)
    calls: list[int] = []

    class Failing:
        async def run(self, *args: Any, **kwargs: Any) -> list[Any]:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("the pool broke")
            return ["move"]

    async def run() -> None:
        coaching = Coaching(SimpleNamespace(bots=Failing()))  # type: ignore[arg-type]
        with pytest.raises(RuntimeError):
            await coaching.hint(live, state.to_move)  # type: ignore[arg-type]
        assert (await coaching.hint(live, state.to_move))["moves"] == ["move"]  # type: ignore[arg-type]

    asyncio.run(run())
