"""Server-side bots: which specs may sit at a table, and where their thinking runs.

A bot gets only its seat's view and the legal actions, as in the CLI. Cheap agents choose in
a worker thread; every search (an ISMCTS bot's or stand-in's move, a hint, a review's
decision) runs in a small process pool so a long think never holds the event loop, and the
pool's workers are handed out by one `FairQueue`, fair between client addresses first and
their tables second, so no address's searches keep another's waiting. A search is bounded in
wall-clock time as well as in simulations (`Limits.bot_move_seconds`); a worker stays
counted as busy until its search has really stopped, and a search whose caller gave up
(cancelled, or past its bound) is told to stop at its next simulation through a shared flag
(`_Tickets`). Should a bot's search overrun its bound, the move is the heuristic's, not the
first legal one. A bot's generator is derived from the table's secret, its seat and the
version (`Live.bot_seed`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.pool import Pool
from typing import Any, TypeVar

from timelord.agents import AGENTS, TABLE_TIME_CAP, Agent, make_agent
from timelord.core import Action, ConfigError, Game, Rng, View, load
from timelord.server.fairness import FairQueue
from timelord.server.limits import Limits

log = logging.getLogger("timelord.server")

HUMAN = "human"
T = TypeVar("T")
#: a seat that waits for the first person to claim it (it becomes a human seat then)
OPEN = "open"

#: agents whose thinking is heavy enough to belong in another process
_SEARCHERS = frozenset({"ismcts"})
#: bots whose move costs less than a database round trip: never worth a lease
_CHEAP = frozenset({"random", "heuristic"})


def cheap(spec: str) -> bool:
    """Whether a bot decides faster than processes could agree who decides (`lease`): its
    move is deterministic in its seed, so two processes that both decide make the same move,
    and the version check of the commit keeps one."""
    return spec.partition(":")[0] in _CHEAP


#: agents whose level names a file to read (a trained policy's folder, a tabular policy):
#: only the operator may name one, through `timelord serve --agent`
_OPERATOR_ONLY = frozenset({"ppo", "cfr"})


def check_spec(spec: Any, game: Game, own: frozenset[str] = frozenset()) -> str:
    """`spec` if it names a seat kind the server offers ("human", an agent and optionally a
    named level, or one of the operator's `own` agents, `timelord serve --agent`);
    `ConfigError` otherwise. Levels with raw settings ("ismcts:sims=10^9") are refused: a
    stranger could otherwise ask the server for an unbounded search; and only the operator
    names code to import, never a request."""
    if not isinstance(spec, str):
        raise ConfigError(f"a seat must be a string such as 'human' or 'random', not {spec!r}")
    if spec in (HUMAN, OPEN):
        return spec
    if spec in own:
        make_agent(spec, game)
        return spec
    name, _, level = spec.partition(":")
    if name not in AGENTS or name in _OPERATOR_ONLY or (level and not level.isalpha()):
        offered = sorted(set(AGENTS) - _OPERATOR_ONLY)
        known = ", ".join(["human", "open", *offered, *sorted(own)])
        raise ConfigError(f"unknown seat {spec!r}; use {known}, with a named level such as :hard")
    make_agent(spec, game)
    return spec


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """The generator seed of a bot's decision at one version of a seeded table (whoever
    knows the seed knows the deal anyway; keyed tables derive theirs one-way, `Live.bot_seed`)."""
    return Rng(table_seed ^ (seat + 1) * 0x9E3779B97F4A7C15 ^ version * 0xBF58476D1CE4E5B9).next64()


class _Tickets:
    """Stop flags shared with the pool's processes: a search holds a ticket (an index) while
    it runs, and setting its flag makes the searcher's clock read infinity, so the search
    ends at its next simulation (its caller no longer wants the answer). Under the same
    index the process running the search writes its pid, so the server can tell a busy
    process from one that is gone."""

    def __init__(self, context: Any, size: int) -> None:
        self.flags = context.RawArray("b", size)
        self.pids = context.RawArray("i", size)
        self.free = list(range(size))

    def take(self) -> int | None:
        if not self.free:
            return None  # more searches than tickets: this one runs to its own bound
        ticket = self.free.pop()
        self.flags[ticket] = 0
        self.pids[ticket] = 0
        return ticket

    def gone(self, ticket: int | None) -> bool:
        """Whether the process that ran `ticket`'s search has exited (the pool replaces a
        process that died; its search will never answer)."""
        pid = 0 if ticket is None else self.pids[ticket]
        if pid <= 0:
            return False  # not started, or not known: it is busy until it answers
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False

    def stop(self, ticket: int | None) -> None:
        if ticket is not None:
            self.flags[ticket] = 1

    def give_back(self, ticket: int | None) -> None:
        if ticket is not None:
            self.free.append(ticket)


class Bots:
    """Runs bots' decisions off the event loop."""

    def __init__(
        self,
        limits: Limits | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """`sleep`: how the watch over a stopped search's process waits (a test's fake
        clock)."""
        self.limits = limits or Limits()
        self.sleep = sleep
        #: the watches over stopped searches whose processes are still busy
        self._watches: set[asyncio.Task[None]] = set()
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="timelord-bot")
        self._processes: Pool | None = None
        self._process_count = max(1, self.limits.bot_workers)
        #: the search workers, handed round the clients and tables waiting for one
        self.queue = FairQueue(self._process_count)
        # forkserver: the server has threads running, and forking those is unsafe
        self._context = multiprocessing.get_context("forkserver")
        self._tickets = _Tickets(self._context, 4 * self._process_count + 16)

    def _pool(self) -> Pool:
        if self._processes is None:
            tickets = self._tickets
            self._processes = self._context.Pool(
                self._process_count,
                initializer=_start_worker,
                initargs=(tickets.flags, tickets.pids),
            )
        return self._processes

    async def choose(
        self,
        game: Game,
        agent: Agent,
        spec: str,
        view_of: Callable[[], View],
        legal: Sequence[Action],
        seed: int,
        table: str = "",
        client: str = "",
    ) -> Action:
        """The agent's choice for the seat to move at `table` (created by `client`);
        `view_of` builds the seat's view, only for a bot that reads it (a random bot does
        not)."""
        loop = asyncio.get_running_loop()
        if spec.partition(":")[0] in _SEARCHERS:
            return await self._search(game, spec, view_of(), legal, seed, table, client)
        if spec == "random":  # a coin toss costs less than the hop to a thread
            return agent.act_on(view_of, legal, Rng(seed))
        return await loop.run_in_executor(self._threads, agent.act_on, view_of, legal, Rng(seed))

    async def _search(
        self,
        game: Game,
        spec: str,
        view: View,
        legal: Sequence[Action],
        seed: int,
        table: str,
        client: str,
    ) -> Action:
        """A search in the pool, told to stop after `bot_move_seconds`; should it overrun
        that by far, it is told to stop and the move is the heuristic's."""
        bound = self.limits.bot_move_seconds
        options = json.dumps(game.options, sort_keys=True)
        args = (game.id, options, timed(spec, bound), view, [a.to_json() for a in legal], seed)
        wait = None if bound <= 0 else 2 * bound + 5
        try:
            index = await self.run(_choose_in_worker, *args, table=table, client=client, wait=wait)
        except TimeoutError:
            log.error("a %s search ran past %.0f s; playing the heuristic's move", spec, bound)
            fallback = make_agent("heuristic", game)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._threads, fallback.act, view, list(legal), Rng(seed)
            )
        return legal[index]

    async def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        table: str = "",
        client: str = "",
        wait: float | None = None,
    ) -> T:
        """`fn(*args, ticket)` in the search pool, when the fair queue gives `client`'s
        `table` a worker: a bot's move, a hint, a review's decision. If the caller is
        cancelled, or `wait` seconds pass (TimeoutError), `fn` is told to stop (its ticket's
        flag) and the caller goes at once; the worker stays held in the queue until its
        process is really free (`fn` returned) or gone, so no search is queued behind a
        process still busy with one nobody wants."""
        loop = asyncio.get_running_loop()
        release = await self.queue.hold(table, client)
        ticket = self._tickets.take()
        answer: asyncio.Future[T] = loop.create_future()
        finished = asyncio.Event()

        def free() -> None:
            if not finished.is_set():
                finished.set()
                self._tickets.give_back(ticket)
                release()

        def done(value: Any, error: BaseException | None) -> None:
            free()
            _settle(answer, value, error)

        try:
            self._pool().apply_async(
                _ticketed,
                (fn, args, ticket),
                callback=lambda value: loop.call_soon_threadsafe(done, value, None),
                error_callback=lambda exc: loop.call_soon_threadsafe(done, None, exc),
            )
        except BaseException:
            free()
            raise
        try:
            return await asyncio.wait_for(asyncio.shield(answer), wait)
        except (TimeoutError, asyncio.CancelledError):
            self._tickets.stop(ticket)
            if not finished.is_set():
                watch = loop.create_task(self._watch(ticket, finished, free))
                self._watches.add(watch)
                watch.add_done_callback(self._watches.discard)
            raise

    async def _watch(
        self, ticket: int | None, finished: asyncio.Event, free: Callable[[], None]
    ) -> None:
        """A stopped search's worker is free when its search returns (`done`); should its
        process die instead, the pool replaces it and the search never returns: then the
        worker is freed here, once the process is seen gone."""
        while not finished.is_set():
            await self.sleep(_WATCH_EVERY)
            if not finished.is_set() and self._tickets.gone(ticket):
                log.error("a search's process exited without answering; its worker is free")
                free()

    def close(self) -> None:
        for watch in list(self._watches):
            watch.cancel()  # the processes it watches are about to go with the pool
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            # a search still thinking for a table that is going away is of no use to anyone
            self._processes.terminate()


#: seconds between looks at whether a stopped search's process is still there
_WATCH_EVERY = 1.0
#: the stop flags and the pids of the searches' processes, in a pool process (`_start_worker`)
_FLAGS: Any = None
_PIDS: Any = None


def stopped(ticket: int | None) -> Callable[[], bool]:
    """In a pool process: whether the search holding `ticket` was told to stop."""
    flags = _FLAGS
    if ticket is None or flags is None:
        return lambda: False
    return lambda: bool(flags[ticket])


def stoppable_clock(ticket: int | None) -> Callable[[], float]:
    """A searcher's clock that reads infinity once its ticket is told to stop, so a search
    bounded in time ends at its next simulation."""
    asked = stopped(ticket)
    return lambda: math.inf if asked() else time.perf_counter()


def timed(spec: str, seconds: float) -> str:
    """A searcher's spec with a wall-clock bound of `seconds` added ("ismcts:hard/time=10")."""
    if seconds <= 0:
        return spec
    name, _, level = spec.partition(":")
    return f"{name}:{level + '/' if level else ''}time={seconds:g}"


def _start_worker(flags: Any, pids: Any) -> None:
    """A pool process: it yields the CPU to the process that answers people (moves,
    snapshots), reads the stop flags of its searches and says which process runs each."""
    global _FLAGS, _PIDS
    os.nice(10)
    _FLAGS = flags
    _PIDS = pids


def _ticketed(fn: Callable[..., T], args: tuple[Any, ...], ticket: int | None) -> T:
    """In a pool process: `fn(*args, ticket)`, its ticket marked with this process's pid."""
    if ticket is not None and _PIDS is not None:
        _PIDS[ticket] = os.getpid()
    return fn(*args, ticket)


def _settle(answer: asyncio.Future[Any], index: Any, error: BaseException | None) -> None:
    if answer.done():  # the bot's turn was cancelled meanwhile
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(index)


@functools.lru_cache(maxsize=64)
def _worker_agent(game_id: str, options: str, spec: str) -> tuple[Game, Agent]:
    game = load(game_id, **json.loads(options))
    agent = make_agent(spec, game)
    agent.time_cap = TABLE_TIME_CAP  # a crowded pool plays a weaker move in time, not late
    return game, agent


def _choose_in_worker(
    game_id: str,
    options: str,
    spec: str,
    view: View,
    legal: list[dict[str, Any]],
    seed: int,
    ticket: int | None = None,
) -> int:
    """In a pool process: the index in `legal` of the agent's choice (its search stops
    early when its `ticket` is told to)."""
    game, agent = _worker_agent(game_id, options, spec)
    if hasattr(agent, "clock"):
        agent.clock = stoppable_clock(ticket)
    actions = [game.action_from_json(a) for a in legal]
    return actions.index(agent.act(view, actions, Rng(seed)))
