"""Server-side bots: which specs may sit at a table, and where their thinking runs.

A bot gets only its seat's view and the legal actions, as in the CLI. Cheap agents choose in
a worker thread; searches (ISMCTS) run in a small process pool so a long think never holds the
event loop, and the pool's workers go round the tables with a search waiting (`FairQueue`), so
one table's bots cannot keep another's waiting. A search is bounded in wall-clock time as well
as in simulations (`Limits.bot_move_seconds`). A bot's generator is derived from the table's
secret, its seat and the version (`Live.bot_seed`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
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


class Bots:
    """Runs bots' decisions off the event loop."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="timelord-bot")
        self._processes: Pool | None = None
        self._process_count = max(1, self.limits.bot_workers)
        #: the search workers, handed round the tables waiting for one
        self.queue = FairQueue(self._process_count)

    def _pool(self) -> Pool:
        if self._processes is None:
            # forkserver: the server has threads running, and forking those is unsafe
            context = multiprocessing.get_context("forkserver")
            self._processes = context.Pool(self._process_count, initializer=_lower_priority)
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
    ) -> Action:
        """The agent's choice for the seat to move at `table`; `view_of` builds the seat's
        view, only for a bot that reads it (a random bot does not)."""
        loop = asyncio.get_running_loop()
        if spec.partition(":")[0] in _SEARCHERS:
            async with self.queue.turn(table):
                return await self._search(game, spec, view_of(), legal, seed)
        if spec == "random":  # a coin toss costs less than the hop to a thread
            return agent.act_on(view_of, legal, Rng(seed))
        return await loop.run_in_executor(self._threads, agent.act_on, view_of, legal, Rng(seed))

    async def _search(
        self, game: Game, spec: str, view: View, legal: Sequence[Action], seed: int
    ) -> Action:
        """A search in the pool, told to stop after `bot_move_seconds`; should a worker
        overrun that by far, the move is the first legal one and the table goes on."""
        loop = asyncio.get_running_loop()
        bound = self.limits.bot_move_seconds
        options = json.dumps(game.options, sort_keys=True)
        answer: asyncio.Future[int] = loop.create_future()
        self._pool().apply_async(
            _choose_in_worker,
            (game.id, options, timed(spec, bound), view, [a.to_json() for a in legal], seed),
            callback=lambda index: loop.call_soon_threadsafe(_settle, answer, index, None),
            error_callback=lambda exc: loop.call_soon_threadsafe(_settle, answer, 0, exc),
        )
        if bound <= 0:
            return legal[await answer]
        try:
            return legal[await asyncio.wait_for(answer, 2 * bound + 5)]
        except TimeoutError:
            log.error("a %s search ran past %.0f s; playing the first legal move", spec, bound)
            return legal[0]

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the search pool (the coach's reviews and hints): one task of about
        a bot move's size, queued with the bots' own."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()
        self._pool().apply_async(
            fn,
            args,
            callback=lambda value: loop.call_soon_threadsafe(_settle, answer, value, None),
            error_callback=lambda exc: loop.call_soon_threadsafe(_settle, answer, None, exc),
        )
        return await answer

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            # a search still thinking for a table that is going away is of no use to anyone
            self._processes.terminate()


def timed(spec: str, seconds: float) -> str:
    """A searcher's spec with a wall-clock bound of `seconds` added ("ismcts:hard/time=10")."""
    if seconds <= 0:
        return spec
    name, _, level = spec.partition(":")
    return f"{name}:{level + '/' if level else ''}time={seconds:g}"


def _lower_priority() -> None:
    """Searches yield the CPU to the process that answers people (moves, snapshots)."""
    os.nice(10)


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
    game_id: str, options: str, spec: str, view: View, legal: list[dict[str, Any]], seed: int
) -> int:
    """In a pool process: the index in `legal` of the agent's choice."""
    game, agent = _worker_agent(game_id, options, spec)
    actions = [game.action_from_json(a) for a in legal]
    return actions.index(agent.act(view, actions, Rng(seed)))
