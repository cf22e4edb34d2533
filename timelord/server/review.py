"""The coach on the web: post-game reviews and in-game hints, run in the
fair search pool like every other search.

- `GET /api/tables/{id}/review?seat=N[&token=T]`: once the game is over, the review of seat N
  (`timelord.agents.coach.review`), computed in the bot pool in the background, one decision
  per pool task so bots at other tables keep their turns, and stored in the database. The
  first request starts it (202 with progress), later ones answer the progress until it is
  done (200 with the review). 403 `table/not_over` before the end. The record is public once
  the game is over, so any seat may be reviewed without a token; a token, when given, must
  open a seat of this table (403 `seat/forbidden` otherwise).
- `GET /api/tables/{id}/hint?token=T`: the coach's top moves for the token's seat, from its
  view only, within `HINT_SECONDS` in the bot pool; only on tables created with
  `"hints": true` (403 `hint/forbidden` otherwise), a table option that needs a bot at the
  table (a table of people only would be one player coached against the others; rated tables
  are to refuse it too).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import os
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from timelord.agents.coach import (
    Budget,
    Coach,
    Decision,
    decisions,
    hint,
    mark_costly,
    review_decision,
)
from timelord.core import Record, View, load
from timelord.server.bots import HUMAN, stopped
from timelord.server.deps import SeatDep, TableDep, tables_of
from timelord.server.errors import ApiError, Code, forbidden, malformed, responses
from timelord.server.table import Live, Tables

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api")
T = TypeVar("T")

#: seconds of search per decision of a web review (a 60-decision game takes a minute of pool);
#: the environment variable TIMELORD_REVIEW_SECONDS sets another (quick tests, big servers)
REVIEW_SECONDS = 1.0
#: seconds a hint may think
HINT_SECONDS = 1.5
#: hints (table, seat, version) kept answered or in progress, the oldest dropped first
HINTS_KEPT = 1024

_META = sa.MetaData()
#: finished reviews, one per table and seat (migration 0004)
REVIEWS = sa.Table(
    "reviews",
    _META,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("review", sa.JSON, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
#: tables whose seats may ask for hints (migration 0004)
HINT_TABLES = sa.Table(
    "hint_tables",
    _META,
    sa.Column("table_id", sa.String(32), primary_key=True),
)


class ReviewAnswer(BaseModel):
    status: str = Field(description="running or done", examples=["done"])
    seat: int
    done: int = Field(description="decisions reviewed so far")
    total: int = Field(description="decisions with a real choice")
    review: dict[str, Any] | None = Field(
        None,
        description="once done: {game, seat, steps, budget, method, decisions: [{step, "
        "played, best, loss, loss_error, costly, judged}], costly: [steps]}; each move is "
        "{action, label, value (expected win share, ties split), error (sampling and model "
        "error), low, high (the 95% interval, clipped to 0-1), samples, verdict}",
    )


class HintMove(BaseModel):
    action: dict[str, Any]
    label: str
    value: float = Field(description="expected win share from the seat's view")
    error: float = Field(
        description="error of value: sampling and the coach's model error (docs/coach.md)"
    )
    low: float = Field(description="the 95% interval's lower end, clipped to 0-1")
    high: float = Field(description="the 95% interval's upper end, clipped to 0-1")
    samples: int
    verdict: str = Field(
        description="best, worse, close (within the error of the best) or unsure (too few "
        "samples to rank)"
    )


class HintAnswer(BaseModel):
    version: int
    moves: list[HintMove]


@dataclass
class Running:
    total: int
    done: int = 0
    task: asyncio.Task[None] | None = None
    error: str | None = None
    items: list[dict[str, Any]] = field(default_factory=list)


def table_allows_hints(engine: sa.Engine, table_id: str) -> bool:
    """Whether the table was made with hints on (such a table is never rated)."""
    query = sa.select(HINT_TABLES.c.table_id).where(HINT_TABLES.c.table_id == table_id)
    with engine.connect() as conn:
        return conn.execute(query).first() is not None


class Coaching:
    """Reviews in progress, and the reading and writing of stored ones and of hint tables."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.running: dict[tuple[str, int], Running] = {}
        self._starting = asyncio.Lock()
        self.review_seconds = float(os.environ.get("TIMELORD_REVIEW_SECONDS", REVIEW_SECONDS))
        self.hint_seconds = HINT_SECONDS
        self.hints: dict[tuple[str, int, int], Shared] = {}

    def _store(self) -> sa.Engine:
        return self.tables.store.engine

    def _read(self, table_id: str, seat: int) -> dict[str, Any] | None:
        query = sa.select(REVIEWS.c.review).where(
            REVIEWS.c.table_id == table_id, REVIEWS.c.seat == seat
        )
        with self._store().connect() as conn:
            found = conn.execute(query).first()
        return None if found is None else dict(found[0])

    def _write(self, table_id: str, seat: int, result: dict[str, Any]) -> None:
        row = {
            "table_id": table_id,
            "seat": seat,
            "review": result,
            "created": dt.datetime.now(dt.UTC),
        }
        with self._store().begin() as conn:
            mine = (REVIEWS.c.table_id == table_id) & (REVIEWS.c.seat == seat)
            conn.execute(REVIEWS.delete().where(mine))
            conn.execute(REVIEWS.insert().values(**row))

    def allow_hints(self, table_id: str) -> None:
        with self._store().begin() as conn:
            conn.execute(HINT_TABLES.insert().values(table_id=table_id))

    def hints_allowed(self, table_id: str) -> bool:
        return table_allows_hints(self._store(), table_id)

    async def review(self, live: Live, seat: int, client: str = "") -> tuple[int, dict[str, Any]]:
        """(status, body) of the review of `seat`: stored, running or just started (its
        searches in the pool are `client`'s, the address that started it)."""
        key = (live.id, seat)
        stored = await self.tables.db.read(self._read, live.id, seat)
        if stored is not None:
            count = len(stored["decisions"])
            return 200, {
                "status": "done",
                "seat": seat,
                "done": count,
                "total": count,
                "review": stored,
            }
        async with self._starting:  # two first requests at once start one review
            running = self.running.get(key)
            if running is not None and running.error is not None:
                del self.running[key]
                raise ApiError(Code.REVIEW_FAILED, f"the review failed: {running.error}")
            if running is None:
                record = await self.tables.loader.record(live.id)
                # the replay that reads each decision's view is kept off the event loop
                chosen = await asyncio.to_thread(lambda: list(decisions(record, seat)))
                running = self.running[key] = Running(len(chosen))
                running.task = asyncio.create_task(
                    self._compute(live, seat, record, chosen, running, client)
                )
        return 202, {
            "status": "running",
            "seat": seat,
            "done": running.done,
            "total": running.total,
            "review": None,
        }

    async def _compute(
        self,
        live: Live,
        seat: int,
        record: Record,
        chosen: list[Decision],
        running: Running,
        client: str = "",
    ) -> None:
        game = live.game
        options = json.dumps(game.options, sort_keys=True)
        try:
            for decision in chosen:
                item = await self.tables.bots.run(
                    _review_step,
                    game.id,
                    options,
                    decision.step,
                    decision.view,
                    [a.to_json() for a in decision.legal],
                    decision.played.to_json(),
                    self.review_seconds,
                    table=live.id,
                    client=client,
                )
                running.items.append(item)
                running.done += 1
            costly = mark_costly(running.items)
            result = {
                "game": game.id,
                "seat": seat,
                "steps": len(record.actions),
                "budget": {"seconds": self.review_seconds * len(chosen), "rollouts": None},
                "method": "win share under the game's rollout policy, from the seat's view",
                "decisions": running.items,
                "costly": costly,
            }
            await self.tables.db.read(self._write, live.id, seat, result)
            del self.running[(live.id, seat)]
        except Exception as exc:  # reported to the next request, which may start again
            log.exception("review of table %s seat %s failed", live.id, seat)
            running.error = str(exc) or type(exc).__name__

    async def hint(self, live: Live, seat: int, client: str = "") -> dict[str, Any]:
        """The coach's top moves for `seat`, searched in the pool as `client`'s. A hint is
        a function of the seat's view, so every request for the same table, seat and
        version shares one search (asking again, or at once from many tabs, costs nothing
        more); the search stops once nobody waits for it (`Shared`)."""
        key = (live.id, seat, live.version)
        shared = self.hints.get(key)
        if shared is None or shared.failed():
            shared = Shared(asyncio.create_task(self._hint(live, seat, client)))
            self.hints[key] = shared
            while len(self.hints) > HINTS_KEPT:
                del self.hints[next(iter(self.hints))]
        return await shared.wait()

    async def _hint(self, live: Live, seat: int, client: str) -> dict[str, Any]:
        state = live.state
        version = live.version
        view = state.view(seat)
        legal = [a.to_json() for a in state.legal_actions()]
        options = json.dumps(live.game.options, sort_keys=True)
        moves = await self.tables.bots.run(
            _hint_step,
            live.game.id,
            options,
            view,
            legal,
            self.hint_seconds,
            table=live.id,
            client=client,
        )
        return {"version": version, "moves": moves}


class Shared:
    """One search several requests wait for: cancelled when the last of them gives up (its
    pool search is then told to stop), kept when finished so later requests reuse it."""

    def __init__(self, task: asyncio.Task[dict[str, Any]]) -> None:
        self.task = task
        self.waiting = 0

    def failed(self) -> bool:
        """Whether the search ended without an answer (the next asker starts another)."""
        task = self.task
        return task.done() and (task.cancelled() or task.exception() is not None)

    async def wait(self) -> dict[str, Any]:
        self.waiting += 1
        try:
            return await asyncio.shield(self.task)
        finally:
            self.waiting -= 1
            if self.waiting == 0 and not self.task.done():
                self.task.cancel()


def _review_step(
    game_id: str,
    options: str,
    step: int,
    view: View,
    legal: list[dict[str, Any]],
    played: dict[str, Any],
    seconds: float,
    ticket: int | None = None,
) -> dict[str, Any]:
    """In a pool process: one decision's review, from the seat's view only; it stops at
    its next sample once its `ticket`'s flag says the review was given up."""
    game = load(game_id, **json.loads(options))
    actions = [game.action_from_json(a) for a in legal]
    decision = Decision(step, view, actions, game.action_from_json(played))
    coach = Coach(game)
    coach.stopped = stopped(ticket)
    return review_decision(coach, decision, Budget(seconds=seconds))


def _hint_step(
    game_id: str,
    options: str,
    view: View,
    legal: list[dict[str, Any]],
    seconds: float,
    ticket: int | None = None,
) -> list[dict[str, Any]]:
    """In a pool process: the coach's top moves from `view`; it stops at its next sample
    once its `ticket`'s flag says the hint was given up."""
    game = load(game_id, **json.loads(options))
    return hint(game, view, [game.action_from_json(a) for a in legal], seconds, stopped(ticket))


def check_hints(value: Any, specs: list[str]) -> bool:
    """The create request's `hints` option: a boolean, true only with a bot at the table."""
    if not isinstance(value, bool):
        raise ApiError(Code.CONFIG_INVALID, "hints must be true or false")
    if value and all(spec == HUMAN for spec in specs):
        raise ApiError(Code.CONFIG_INVALID, "hints are for tables with a bot seat")
    return value


def coaching(request: Request) -> Coaching:
    """The app's `Coaching`, made on first use."""
    state = request.app.state
    found = getattr(state, "coaching", None)
    if found is None:
        found = state.coaching = Coaching(state.tables)
    assert isinstance(found, Coaching)
    return found


async def hints_allowed(request: Request, table_id: str) -> bool:
    """Whether seats at the table may ask for hints (for the seat's page)."""
    tables: Tables = request.app.state.tables
    found = coaching(request)
    return await tables.db.read(found.hints_allowed, table_id)


@router.get(
    "/tables/{table_id}/review",
    response_model=ReviewAnswer,
    responses={
        202: {"model": ReviewAnswer},
        **responses(
            Code.REQUEST_MALFORMED,
            Code.SEAT_FORBIDDEN,
            Code.TABLE_NOT_OVER,
            Code.TABLE_NOT_FOUND,
            Code.REVIEW_FAILED,
        ),
    },
    summary="A finished game's review of one seat (403 before the end)",
    description="200 with the review once computed and stored; 202 with progress "
    "(done/total decisions) while it runs in the bot pool (the first request starts it); "
    "403 table/not_over before the end; 403 seat/forbidden for a token that opens no seat "
    "of this table; 400 request/malformed for a seat not at the table; 404 table/not_found; "
    "500 review/failed (the next request starts it again).",
)
async def get_review(
    request: Request,
    live: TableDep,
    seat: int = Query(..., description="the seat to review"),
    token: str | None = None,
) -> JSONResponse:
    if token is not None:
        live.seat_of(token)  # 403 for a token of another table
    if not live.state.is_over:
        raise ApiError(Code.TABLE_NOT_OVER, "a review is given once the game is over")
    if not 0 <= seat < live.game.players:
        raise malformed(f"no seat {seat} at a {live.game.players}-player table")
    client = request.app.state.proxies.client_address(request.scope)
    key = await tables_of(request).creating.key_of(client)
    status, body = await coaching(request).review(live, seat, key)
    return JSONResponse(body, status_code=status)


@router.get(
    "/tables/{table_id}/hint",
    response_model=HintAnswer,
    responses=responses(
        Code.SEAT_FORBIDDEN,
        Code.HINT_FORBIDDEN,
        Code.TABLE_NOT_FOUND,
        Code.HINT_NOT_YOUR_TURN,
        Code.REQUEST_ABANDONED,
    ),
    summary="The coach's top moves for the seat of the token, from its view",
    description="Only on tables created with hints: true (403 hint/forbidden otherwise); "
    "403 seat/forbidden without a seat token; 409 hint/not_your_turn when the seat is not "
    "to move or the game is over. Works a fixed number of samples (the coach counts work in "
    "samples, not seconds, so the answer does not depend on the server's load) in the fair "
    "search pool; moves are best first with expected win share, its error, its 95% "
    "interval and a verdict. A client that hangs up before the answer stops the search "
    "(503 request/abandoned is written for nobody to read).",
)
async def get_hint(
    request: Request, live: TableDep, seat: SeatDep, token: str | None = None
) -> JSONResponse:
    if seat is None:
        raise forbidden("a hint is for a seat; use your seat's token")
    if not await hints_allowed(request, live.id):
        raise ApiError(Code.HINT_FORBIDDEN, "this table does not allow hints")
    if live.state.is_over or live.state.to_move != seat:
        raise ApiError(Code.HINT_NOT_YOUR_TURN, "a hint is given on your turn")
    client = request.app.state.proxies.client_address(request.scope)
    key = await tables_of(request).creating.key_of(client)
    found = await unless_gone(request, coaching(request).hint(live, seat, key))
    if found is None:  # nobody is there to read it, but the answer is still the schema's
        raise ApiError(Code.REQUEST_ABANDONED)
    return JSONResponse(found)


async def unless_gone(request: Request, work: Coroutine[Any, Any, T]) -> T | None:
    """`work`'s result, or None with `work` cancelled once the client hangs up: a search
    nobody will read stops instead of holding the pool (ASGI servers do not cancel a
    handler whose client went away)."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait((task, gone), return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return None
    return task.result()


async def _disconnected(request: Request) -> None:
    """Returns once the client has hung up (the request's body is read already)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
