"""Server-side bots: which specs may sit at a table, and where their thinking runs.

A bot gets only its seat's view and the legal actions, as in the CLI. Cheap agents choose in
a worker thread; searches (ISMCTS) run in a small process pool so a long think never holds the
event loop or the other tables. A bot's generator is derived from the table's seed, its seat
and the version, so a decision is reproducible and two processes serving one table choose the
same move (only one of them can commit it).
"""

from __future__ import annotations

import asyncio
import functools
import json
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.pool import Pool
from typing import Any

from timelord.agents import AGENTS, Agent, make_agent
from timelord.core import Action, ConfigError, Game, Rng, View, load

HUMAN = "human"
#: a seat that waits for the first person to claim it (it becomes a human seat then)
OPEN = "open"

#: agents whose thinking is heavy enough to belong in another process
_SEARCHERS = frozenset({"ismcts"})


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
    if name not in AGENTS or (level and not level.isalpha()):
        known = ", ".join(["human", "open", *sorted(AGENTS), *sorted(own)])
        raise ConfigError(f"unknown seat {spec!r}; use {known}, with a named level such as :hard")
    make_agent(spec, game)
    return spec


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """The generator seed of a bot's decision at one version of one table."""
    return Rng(table_seed ^ (seat + 1) * 0x9E3779B97F4A7C15 ^ version * 0xBF58476D1CE4E5B9).next64()


class Bots:
    """Runs bots' decisions off the event loop."""

    def __init__(self, processes: int | None = None) -> None:
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="timelord-bot")
        self._processes: Pool | None = None
        self._process_count = processes or min(2, os.cpu_count() or 1)

    def _pool(self) -> Pool:
        if self._processes is None:
            # forkserver: the server has threads running, and forking those is unsafe
            context = multiprocessing.get_context("forkserver")
            self._processes = context.Pool(self._process_count)
        return self._processes

    async def choose(
        self,
        game: Game,
        agent: Agent,
        spec: str,
        view: View,
        legal: Sequence[Action],
        seed: int,
    ) -> Action:
        loop = asyncio.get_running_loop()
        if spec.partition(":")[0] in _SEARCHERS:
            options = json.dumps(game.options, sort_keys=True)
            answer: asyncio.Future[int] = loop.create_future()
            self._pool().apply_async(
                _choose_in_worker,
                (game.id, options, spec, view, [a.to_json() for a in legal], seed),
                callback=lambda index: loop.call_soon_threadsafe(_settle, answer, index, None),
                error_callback=lambda exc: loop.call_soon_threadsafe(_settle, answer, 0, exc),
            )
            return legal[await answer]
        if spec == "random":  # a coin toss costs less than the hop to a thread
            return agent.act(view, legal, Rng(seed))
        return await loop.run_in_executor(self._threads, agent.act, view, legal, Rng(seed))

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            # a search still thinking for a table that is going away is of no use to anyone
            self._processes.terminate()


def _settle(answer: asyncio.Future[int], index: int, error: BaseException | None) -> None:
    if answer.done():  # the bot's turn was cancelled meanwhile
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(index)


@functools.lru_cache(maxsize=64)
def _worker_agent(game_id: str, options: str, spec: str) -> tuple[Game, Agent]:
    game = load(game_id, **json.loads(options))
    return game, make_agent(spec, game)


def _choose_in_worker(
    game_id: str, options: str, spec: str, view: View, legal: list[dict[str, Any]], seed: int
) -> int:
    """In a pool process: the index in `legal` of the agent's choice."""
    game, agent = _worker_agent(game_id, options, spec)
    actions = [game.action_from_json(a) for a in legal]
    return actions.index(agent.act(view, actions, Rng(seed)))
