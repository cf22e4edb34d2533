"""The HTTP and WebSocket contract (issue 12), documented in /openapi.json.

Every refusal answers `{"code", "reason", "rule"}` with its status and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from timelord.server.errors import ApiError, malformed, rate_limited, too_large
from timelord.server.session import current_player, seat_for
from timelord.server.tables import Live, Tables, seat_list

router = APIRouter(prefix="/api")

#: largest request body (create or action) and WebSocket message, in bytes
MAX_BODY = 16 * 1024
#: the largest `since` either route takes (a version never comes near it)
MAX_SINCE = 2**31 - 1


class ErrorBody(BaseModel):
    code: str = Field(examples=["action/stale"])
    reason: str
    rule: str = Field("", description="the rule clause that forbids an illegal action")


class _Closed(BaseModel):
    """A request body: a property it does not name is refused (400 request/malformed)."""

    model_config = ConfigDict(extra="forbid")


class CreateTable(_Closed):
    game: str = Field(examples=["keys"])
    options: dict[str, Any] | None = Field(
        None, examples=[{"players": 2}], description="the game's options (none: its defaults)"
    )
    seats: list[str] = Field(
        examples=[["human", "ismcts:hard"]],
        min_length=1,
        max_length=16,
        description="one per seat: human, random, heuristic[:easy|medium|hard], "
        "ismcts[:easy|medium|hard], or an agent the server was started with "
        "(timelord serve --agent SPEC)",
    )
    seed: int | None = Field(
        None,
        ge=0,
        le=2**63 - 1,
        description="only where the operator allows it (timelord serve --allow-seed; "
        "otherwise 422 config/invalid); the table is then marked seeded",
    )
    hints: bool = Field(
        False, description="seats may ask the coach for hints (needs a bot seat; off for rated)"
    )


class SeatOut(BaseModel):
    seat: int
    agent: str
    token: str | None = Field(description="the seat's secret (human seats); given only once")
    url: str | None = Field(description="the seat's page in the browser client")


class TableCreated(BaseModel):
    id: str
    seats: list[SeatOut]
    watch_url: str


class EventOut(BaseModel):
    kind: str
    text: str
    data: dict[str, Any]


class Snapshot(BaseModel):
    version: int = Field(description="actions applied so far; name it when you act")
    over: bool
    to_move: int | None
    seeded: bool = Field(
        description="the creator chose the seed, and so may know every hidden card"
    )
    view: dict[str, Any] = Field(description="the engine's view(seat) exactly")
    legal: list[dict[str, Any]] = Field(description="action JSON, only for the seat to move")
    events: list[EventOut] = Field(description="the seat's events, oldest first")


class ActionIn(_Closed):
    version: int
    action: dict[str, Any]


class ExplainIn(_Closed):
    action: dict[str, Any]


class Explanation(BaseModel):
    legal: bool = Field(description="whether the action would be accepted now")
    reason: str = Field(description="the engine's reason it would be refused ('' if legal)")
    rule: str = Field(description="the rule clause that forbids it ('' if legal or none)")


class TableSummary(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str = Field(description="playing, over or archived (idle too long: read-only)")
    version: int
    to_move: int | None
    created: str
    seeded: bool = Field(description="the creator chose the seed")


class TableList(BaseModel):
    tables: list[TableSummary]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}


def _body_doc(model: type[BaseModel]) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


def _tables(request: Request | WebSocket) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _json(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


async def read_json(request: Request) -> Any:
    """The request body as JSON: 413 past MAX_BODY (read no further), 400 if not JSON."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise too_large(MAX_BODY)
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_large(MAX_BODY)
        chunks.append(chunk)
    return parse_json(b"".join(chunks))


def parse_json(raw: bytes | str) -> Any:
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise malformed(f"the body is not JSON: {exc}") from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def action_request(body: Any) -> tuple[int, Any]:
    """(version, action) from `{"version", "action"}`; 400 if the body has another shape."""
    if not isinstance(body, dict) or set(body) != {"version", "action"}:
        raise malformed('the body must be {"version": int, "action": {...}}')
    version = body["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise malformed("version must be an integer")
    return version, body["action"]


def _since(value: int | None) -> int:
    return 0 if value is None else value


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


@router.post(
    "/tables",
    status_code=201,
    response_model=TableCreated,
    responses=_errors(400, 413, 422, 429),
    openapi_extra=_body_doc(CreateTable),
    summary="Create a table",
    description="Seats are 'human' (each gets a token, given only here) or a bot spec; "
    "bots start playing at once. 422 config/invalid for an unknown game, option or seat, "
    "or a seed where the operator does not allow one; 429 rate/limited past a limit on "
    "tables of one client address or of the server.",
)
async def create_table(request: Request) -> Response:
    body = await read_json(request)
    if not isinstance(body, dict) or not set(body) <= {
        "game",
        "options",
        "seats",
        "seed",
        "hints",
    }:
        raise malformed('the body must be {"game", "options", "seats", "seed", "hints"}')
    if "game" not in body or "seats" not in body:
        raise malformed("the body needs game and seats")
    from timelord.server.review import check_hints, coaching

    seats = body["seats"]
    hints = check_hints(body.get("hints", False), seats if isinstance(seats, list) else [])
    client = request.app.state.proxies.client_address(request.scope)
    player = await current_player(request)
    tables = _tables(request)
    live, tokens = await tables.create(
        body["game"],
        body.get("options"),
        seats,
        body.get("seed"),
        client,
        None if player is None else (player.id, player.name),
    )
    if hints:
        await tables._db(coaching(request).allow_hints, live.id)
    base = _base(request)
    answer = {
        "id": live.id,
        "seats": seat_list(live, tokens, base),
        "watch_url": f"{base}/tables/{live.id}",
    }
    return JSONResponse(answer, status_code=201)


@router.get(
    "/tables",
    response_model=TableList,
    responses=_errors(400),
    summary="List tables, newest first",
)
async def list_tables(
    request: Request,
    status: str | None = Query(None, pattern="^(playing|over|archived)$"),
    limit: int = Query(100, ge=1, le=1000),
) -> Response:
    tables = await _tables(request).summaries(status, limit)
    return JSONResponse({"tables": tables})


@router.get(
    "/tables/{table_id}",
    response_model=Snapshot,
    responses=_errors(400, 403, 404),
    summary="A seat's snapshot (no token: the spectator's)",
    description="The seat's view, legal actions (to the seat to move) and events, oldest "
    "first; `since=V` keeps only events of actions after version V. The WebSocket "
    "/api/tables/{id}/ws?token=T[&since=V] sends this snapshot on connect and after every "
    'change, and accepts {"version", "action"} messages; a refusal arrives as '
    '{"code", "reason", "rule", "status"} with the status the HTTP route would answer.',
)
async def snapshot(
    request: Request,
    table_id: str,
    token: str | None = None,
    since: int | None = Query(None, ge=0, le=MAX_SINCE),
) -> Response:
    live = await _tables(request).live(table_id)
    seat = await seat_for(request, live, token)
    return _json(live.snapshot_text(seat, _since(since)))


@router.post(
    "/tables/{table_id}/actions",
    response_model=Snapshot,
    responses=_errors(400, 403, 404, 409, 413, 422),
    openapi_extra=_body_doc(ActionIn),
    summary="Act for the seat of the token",
    description="409 action/stale unless version is the table's current version; "
    "422 action/illegal (with reason and rule) or action/invalid (malformed action); "
    "403 seat/forbidden for a wrong token or another seat's turn. A refusal changes nothing.",
)
async def act(request: Request, table_id: str, token: str | None = None) -> Response:
    tables = _tables(request)
    live = await tables.live(table_id)
    body = await read_json(request)
    seat = await seat_for(request, live, token)
    version, action = action_request(body)
    await tables.act(live, seat, version, action)
    return _json(live.snapshot_text(seat))


@router.post(
    "/tables/{table_id}/explain",
    response_model=Explanation,
    responses=_errors(400, 403, 404, 413, 422),
    openapi_extra=_body_doc(ExplainIn),
    summary="Ask whether an action would be legal now, and why not",
    description="Checks the action for the seat of the token as the actions route would, "
    "without applying it: never changes the table. An illegal action answers 200 with "
    "legal false, the engine's reason and rule; 403 seat/forbidden for a wrong token or "
    "another seat's turn; 422 action/invalid for a malformed action.",
)
async def explain(request: Request, table_id: str, token: str | None = None) -> Response:
    tables = _tables(request)
    live = await tables.live(table_id)
    body = await read_json(request)
    seat = await seat_for(request, live, token)
    if not isinstance(body, dict) or set(body) != {"action"}:
        raise malformed('the body must be {"action": {...}}')
    return JSONResponse(tables.explain(live, seat, body["action"]))


@router.get(
    "/tables/{table_id}/record",
    responses=_errors(403, 404),
    summary="The finished game's timelord Record (403 before the end)",
)
async def record(request: Request, table_id: str) -> Response:
    found = await _tables(request).record(table_id)
    return JSONResponse(found.to_json())


class RateLimit:
    """A token bucket: `rate` per second on average, bursts of up to `burst`."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


@router.websocket("/tables/{table_id}/ws")
async def watch(websocket: WebSocket, table_id: str) -> None:
    tables = _tables(websocket)
    sockets = websocket.app.state.sockets
    client = websocket.app.state.proxies.client_address(websocket.scope)
    await websocket.accept()
    try:
        live = await tables.live(table_id)
        seat = await seat_for(websocket, live, websocket.query_params.get("token"))
        since = since_text(websocket.query_params.get("since"))
        sockets.open(client, live.id)
    except ApiError as exc:
        await websocket.send_text(_error_text(exc))
        await websocket.close(4000 + exc.status)
        return
    try:
        await _serve_socket(websocket, tables, live, seat, since)
    finally:
        sockets.close(client, live.id)


def since_text(value: str | None) -> int:
    """`since` as the WebSocket's query gives it, held to the HTTP route's rule (an integer
    in 0..MAX_SINCE, else 400 request/malformed), read without converting a long text."""
    if value is None:
        return 0
    digits = value.lstrip("0") or "0"
    if not (value.isascii() and value.isdigit()) or len(digits) > len(str(MAX_SINCE)):
        raise malformed(f"since must be a version, 0 to {MAX_SINCE}")
    number = int(digits)
    if number > MAX_SINCE:
        raise malformed(f"since must be a version, 0 to {MAX_SINCE}")
    return number


def _error_text(exc: ApiError) -> str:
    return json.dumps({**exc.body(), "status": exc.status})


async def _serve_socket(
    websocket: WebSocket, tables: Tables, live: Live, seat: int | None, since: int
) -> None:
    limits = websocket.app.state.limits
    bucket = RateLimit(*limits)
    outbox = tables.subscribe(live, seat, since)

    async def send() -> None:
        while (text := await outbox.next()) is not None:
            await websocket.send_text(text)
        await websocket.close(1008, "too many messages unanswered")

    sender = asyncio.create_task(send())
    refused = 0
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                if not bucket.allow():
                    refused += 1
                    if refused > 4 * bucket.burst:
                        await websocket.close(1008, "flooding")
                        break
                    raise rate_limited()
                if len(raw) > MAX_BODY:
                    raise too_large(MAX_BODY)
                version, action = action_request(parse_json(raw))
                await tables.act(live, seat, version, action)
            except ApiError as exc:
                outbox.push_message(_error_text(exc))
    except WebSocketDisconnect:
        pass
    finally:
        tables.unsubscribe(live, outbox)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
