"""The HTTP and WebSocket contract that programs outside this repository are built against,
documented in /openapi.json.

Every refusal answers `{"code", "reason", "rule"}` with its status and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from timelord.server.accounts import COOKIE
from timelord.server.admission import RateLimit
from timelord.server.bodies import (
    MAX_BODY,
    MAX_SINCE,
    NO_BODY,
    action_request,
    body_doc,
    no_body,
    only,
    parse_json,
    read_json,
    since_text,
    version_of,
)
from timelord.server.deps import OwnSeatDep, SeatDep, TableDep, TablesDep, tables_of
from timelord.server.errors import ApiError, Code, malformed, rate_limited, responses, too_large
from timelord.server.review import check_hints, coaching
from timelord.server.revocation import authorise
from timelord.server.session import accounts_of, current_player, seat_for
from timelord.server.table import Live, Tables, seat_list, seat_url
from timelord.server.table.wire import snapshot_text

router = APIRouter(prefix="/api")


class _Closed(BaseModel):
    """A request body: a property it does not name is refused (400 request/malformed)."""

    model_config = ConfigDict(extra="forbid")


class RealtimeClock(_Closed):
    mode: Literal["realtime"]
    per_move: float = Field(ge=0, description="seconds added to the bank after each move")
    bank: float = Field(gt=0, description="seconds each seat starts with; also the bank's cap")


class AsyncClock(_Closed):
    mode: Literal["async"]
    per_move: float = Field(gt=0, description="seconds each move may take (hours to days)")


class CreateTable(_Closed):
    game: str = Field(examples=["keys"])
    options: dict[str, Any] | None = Field(
        None, examples=[{"players": 2}], description="the game's options (none: its defaults)"
    )
    seats: list[str] = Field(
        examples=[["human", "ismcts:hard"]],
        min_length=1,
        max_length=16,
        description="one per seat: human (a link), open (the first person to claim it), "
        "random, heuristic[:easy|medium|hard], ismcts[:easy|medium|hard], or an agent the "
        "server was started with (timelord serve --agent SPEC)",
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
    names: list[str | None] | None = Field(
        None, description="a display name per seat (1-32 printable characters; human seats only)"
    )
    clock: RealtimeClock | AsyncClock | None = Field(
        None, description="null: no clock; realtime: a Fischer bank; async: a deadline per move"
    )
    stand_in: str | None = Field(
        None, description="the bot that plays a person's seat while they are away (heuristic)"
    )
    undo: bool = Field(False, description="whether seats may take back their last action")


class SeatOut(BaseModel):
    seat: int
    agent: str
    token: str | None = Field(description="the seat's secret (human seats); given only once")
    url: str | None = Field(description="the seat's page in the browser client")


class TableCreated(BaseModel):
    id: str
    seats: list[SeatOut]
    watch_url: str
    owner_token: str = Field(description="the creator's secret: invite, end, mute; given once")


class SeatInfo(BaseModel):
    seat: int
    name: str = Field(description="the one name of the seat on every screen")
    agent: str = Field(description="human, open (not yet claimed) or the bot's spec")
    guest: bool = Field(description="a person without an account: shown as a guest everywhere")
    connected: bool = Field(description="a person has the table open (bots always do)")
    stand_in: str | None = Field(description="the bot playing for the seat's person now")
    stand_in_name: str | None = Field(None, description="that bot's name on screen")
    named: bool = Field(False, description="the seat's person gave its name")
    lesson_until: int | None = Field(
        None, description="a seat a lesson's page plays: the version where the lesson ends"
    )
    muted: bool = Field(description="the creator muted this seat's chat")


class ClockOut(BaseModel):
    mode: str = Field(description="realtime or async")
    remaining: list[float] = Field(description="seconds left per seat, now")
    deadline: str | None = Field(description="when the seat to move runs out (ISO-8601)")


class EventOut(BaseModel):
    kind: str
    text: str
    data: dict[str, Any]
    standin: bool = Field(
        False,
        description="present, and true, on the events of an action the seat's stand-in bot "
        "played for its person (absent otherwise)",
    )


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
    status: str = Field(description="open, playing, over or abandoned")
    seats: list[SeatInfo]
    clock: ClockOut | None
    undo: bool = Field(description="whether this table allows undo")
    rematch: str | None = Field(description="the rematch table's id, once one was asked for")


class ActionIn(_Closed):
    version: int
    action: dict[str, Any]


class ExplainIn(_Closed):
    action: dict[str, Any]


class UndoIn(_Closed):
    version: int = Field(description="the version you saw; 409 action/stale if it moved")


class ClaimIn(_Closed):
    name: str = Field(min_length=1, max_length=32, description="your display name")


class MuteIn(_Closed):
    muted: bool


class ChatIn(_Closed):
    text: str = Field(min_length=1, max_length=500)


class SeatLink(BaseModel):
    seat: int
    token: str = Field(description="the seat's new secret; given only here")
    url: str
    name: str


class Ended(BaseModel):
    id: str
    status: str = Field(examples=["abandoned"])


class Muted(BaseModel):
    seat: int
    muted: bool


class Rematch(BaseModel):
    table: str = Field(description="the new table's id (the same for every request)")
    seat: int = Field(description="your seat at the new table (seats rotate by one)")
    url: str = Field(description="your seat's link there (your token opens it)")


class UndoOffer(BaseModel):
    allowed: bool = Field(description="whether an undo by this seat would be accepted now")
    reason: str = Field(description="why not, in a player's words ('' when allowed)")


class ChatLine(BaseModel):
    n: int = Field(description="1, 2, ... in the order the table was told")
    seat: int | None = Field(description="the writer's seat; null for the table's notices")
    name: str
    text: str = Field(description="as written: escape it before showing it as HTML")
    at: str


class ChatLog(BaseModel):
    messages: list[ChatLine]


class Explanation(BaseModel):
    legal: bool = Field(description="whether the action would be accepted now")
    reason: str = Field(description="the engine's reason it would be refused ('' if legal)")
    rule: str = Field(description="the rule clause that forbids it ('' if legal or none)")


class TableSummary(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]] = Field(
        description='[{"seat", "agent", "name", "guest"}] (guest: a person without an account)'
    )
    status: str = Field(
        description="open (seats wait for people), playing, over, abandoned (ended by its "
        "creator) or archived (idle too long: read-only)"
    )
    version: int
    to_move: int | None
    created: str
    seeded: bool = Field(description="the creator chose the seed")
    clock: ClockOut | None
    winners: list[int] | None = Field(description="for a finished table, who won")


class TableList(BaseModel):
    tables: list[TableSummary]


def _json(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


C = Code
_TABLE = (C.REQUEST_MALFORMED, C.TABLE_NOT_FOUND)
_SEAT = (*_TABLE, C.SEAT_FORBIDDEN)


@router.post(
    "/tables",
    status_code=201,
    response_model=TableCreated,
    responses=responses(
        C.REQUEST_MALFORMED,
        C.REQUEST_TOO_LARGE,
        C.NAME_TAKEN,
        C.CONFIG_INVALID,
        C.NAME_INVALID,
        C.RATE_LIMITED,
    ),
    openapi_extra=body_doc(CreateTable),
    summary="Create a table",
    description="Seats are 'human' (each gets a token, given only here), 'open' (the first "
    "person to claim it gets it; the table starts when the last is claimed) or a bot spec; "
    "bots start playing at once. The answer's owner_token (given only here) invites, ends "
    "and mutes. 422 config/invalid for an unknown game, option, seat, clock or stand-in, "
    "or a seed where the operator does not allow one; names given to seats are checked as "
    "a claim's (409 name/taken for a player's name or a look-alike, 422 name/invalid); "
    "429 rate/limited past a limit on tables of one client address or of the server.",
)
async def create_table(request: Request, tables: TablesDep) -> Response:
    body = await read_json(request)
    if not isinstance(body, dict) or not set(body) <= _CREATE_KEYS:
        raise malformed(f"the body's keys are among {sorted(_CREATE_KEYS)}")
    if "game" not in body or "seats" not in body:
        raise malformed("the body needs game and seats")
    seats = body["seats"]
    hints = check_hints(body.get("hints", False), seats if isinstance(seats, list) else [])
    client = request.app.state.proxies.client_address(request.scope)
    player = await current_player(request)
    given = body.get("names")
    if isinstance(given, list) and isinstance(seats, list):
        # a friend's seat is named as a guest names one (claim, rename): never a player;
        # a logged-in creator's own seat (the first human one) takes the player's name
        own = seats.index("human") if player is not None and "human" in seats else None
        for seat, name in enumerate(given):
            if seat != own:
                await _not_a_players_name(request, name)
    live, tokens, owner = await tables.creating.create(
        body["game"],
        body.get("options"),
        seats,
        body.get("seed"),
        client,
        None if player is None else (player.id, player.name),
        names=body.get("names"),
        clock=body.get("clock"),
        stand_in=body.get("stand_in"),
        allow_undo=body.get("undo", False),
    )
    if hints:
        await tables.db.read(coaching(request).allow_hints, live.id)
    base = _base(request)
    answer = {
        "id": live.id,
        "seats": seat_list(live, tokens, base),
        "watch_url": seat_url(base, live.id, None),
        "owner_token": owner,
    }
    return JSONResponse(answer, status_code=201)


_CREATE_KEYS = frozenset(
    {"game", "options", "seats", "seed", "names", "clock", "stand_in", "undo", "hints"}
)


@router.get(
    "/tables",
    response_model=TableList,
    responses=responses(C.REQUEST_MALFORMED),
    summary="List tables, newest first",
)
async def list_tables(
    tables: TablesDep,
    status: str | None = Query(None, pattern="^(open|playing|over|abandoned|archived)$"),
    limit: int = Query(100, ge=1, le=1000),
) -> Response:
    return JSONResponse({"tables": await tables.loader.summaries(status, limit)})


@router.get(
    "/tables/{table_id}",
    response_model=Snapshot,
    responses=responses(*_SEAT),
    summary="A seat's snapshot (no token: the spectator's)",
    description="The seat's view, legal actions (to the seat to move) and events, oldest "
    "first; `since=V` keeps only events of actions after version V. The WebSocket "
    "/api/tables/{id}/ws?token=T[&since=V] sends this snapshot on connect and after every "
    'change, and accepts {"version", "action"} messages; a refusal arrives as '
    '{"code", "reason", "rule", "status"} with the status the HTTP route would answer. '
    "With &delta=1 the socket sends this snapshot on connect and then, per change, only "
    'what the seat lacked: {"type": "delta", "from": F, "version", "over", "to_move", '
    '"seeded", "events" (after F; F 0: all of them again), "view" or "view_patch" (a list '
    "of [pointer, value] to set and [pointer] to remove, RFC 6901 pointers into the view, "
    'lists replaced whole), "legal", "status", "clock", "undo", "rematch", "seats" (left '
    'out when unchanged)}, and {"type": "seats"} whenever who is present changes.',
)
async def snapshot(
    live: TableDep,
    seat: SeatDep,
    token: str | None = None,
    since: int | None = Query(None, ge=0, le=MAX_SINCE),
) -> Response:
    return _json(snapshot_text(live, seat, since or 0))


@router.post(
    "/tables/{table_id}/actions",
    response_model=Snapshot,
    responses=responses(
        *_SEAT,
        C.ACTION_STALE,
        C.SEAT_STAND_IN,
        C.TABLE_OPEN,
        C.TABLE_ARCHIVED,
        C.REQUEST_TOO_LARGE,
        C.ACTION_ILLEGAL,
        C.ACTION_INVALID,
    ),
    openapi_extra=body_doc(ActionIn),
    summary="Act for the seat of the token",
    description="409 action/stale unless version is the table's current version; "
    "422 action/illegal (with reason and rule) or action/invalid (malformed action); "
    "403 seat/forbidden for a wrong token or another seat's turn. A refusal changes nothing.",
)
async def act(
    request: Request,
    tables: TablesDep,
    live: TableDep,
    seat: SeatDep,
    token: str | None = None,
    since: int | None = Query(
        None, ge=0, le=MAX_SINCE, description="answer only the events after this version"
    ),
) -> Response:
    version, action = action_request(await read_json(request))
    await tables.moves.act(live, seat, version, action)
    return _json(snapshot_text(live, seat, since or 0))


@router.post(
    "/tables/{table_id}/explain",
    response_model=Explanation,
    responses=responses(*_SEAT, C.REQUEST_TOO_LARGE, C.ACTION_INVALID),
    openapi_extra=body_doc(ExplainIn),
    summary="Ask whether an action would be legal now, and why not",
    description="Checks the action for the seat of the token as the actions route would, "
    "without applying it: never changes the table. An illegal action answers 200 with "
    "legal false, the engine's reason and rule; 403 seat/forbidden for a wrong token or "
    "another seat's turn; 422 action/invalid for a malformed action.",
)
async def explain(
    request: Request, tables: TablesDep, live: TableDep, seat: SeatDep, token: str | None = None
) -> Response:
    body = only(await read_json(request), {"action"}, '{"action": {...}}')
    return JSONResponse(tables.moves.explain(live, seat, body["action"]))


@router.get(
    "/tables/{table_id}/record",
    responses=responses(C.TABLE_NOT_OVER, C.TABLE_NOT_FOUND),
    summary="The finished game's timelord Record (403 before the end)",
)
async def record(tables: TablesDep, table_id: str) -> Response:
    found = await tables.loader.record(table_id)
    return JSONResponse(found.to_json())


def _seat_link(request: Request, live: Live, seat: int, token: str) -> Response:
    url = seat_url(_base(request), live.id, token)
    return JSONResponse({"seat": seat, "token": token, "url": url, "name": live.name(seat)})


async def _not_a_players_name(request: Request, name: Any) -> None:
    """409 name/taken when a guest names a player (or a look-alike): a guest may not pass
    for a player; log in to sit as one."""
    if not isinstance(name, str):
        return  # the table refuses it as an invalid name
    if await run_in_threadpool(accounts_of(request).by_name, name) is not None:
        raise ApiError(Code.NAME_TAKEN, "that name (or one like it) is a player's")


@router.post(
    "/tables/{table_id}/seats/{seat}/claim",
    response_model=SeatLink,
    responses=responses(
        *_TABLE,
        C.SEAT_NOT_FOUND,
        C.SEAT_TAKEN,
        C.NAME_TAKEN,
        C.REQUEST_TOO_LARGE,
        C.NAME_INVALID,
    ),
    openapi_extra=body_doc(ClaimIn),
    summary="Claim an open seat by name",
    description="The first person to claim an open seat gets its token (given only here); "
    "the table starts when its last open seat is claimed. 409 seat/taken if the seat is not "
    "open, 409 name/taken for a guest naming a player (or a look-alike), 422 name/invalid "
    "unless the name is 1-32 printable characters and not one the server uses for seats, "
    "bots or roles, 404 seat/not_found. "
    "A logged-in player's seat is tied to the player and takes the player's name.",
)
async def claim(request: Request, tables: TablesDep, live: TableDep, seat: int) -> Response:
    body = only(await read_json(request), {"name"}, '{"name": "..."}')
    player = await current_player(request)
    if player is None:
        await _not_a_players_name(request, body["name"])
        token = await tables.seats.claim(live, seat, body["name"])
    else:
        token = await tables.seats.claim(live, seat, player.name, {"player": player.id})
        await tables.seats.tie(live, seat, player.id)
    return _seat_link(request, live, seat, token)


@router.post(
    "/tables/{table_id}/seats/{seat}/name",
    response_model=Snapshot,
    responses=responses(
        *_SEAT,
        C.SEAT_NOT_FOUND,
        C.SEAT_NOT_HUMAN,
        C.NAME_TAKEN,
        C.REQUEST_TOO_LARGE,
        C.NAME_INVALID,
    ),
    openapi_extra=body_doc(ClaimIn),
    summary="Set your seat's name",
    description="With the seat's token: the name others see (a friend invited by a link "
    "starts as the game's name of the seat); it stays with the seat in a rematch. 422 "
    "name/invalid unless 1-32 printable characters, 409 name/taken for a player's name (or "
    "a look-alike), 409 seat/not_human for a bot's seat, "
    "403 seat/forbidden for another seat's token or a seat that takes an account's name.",
)
async def name_seat(
    request: Request,
    tables: TablesDep,
    live: TableDep,
    seat: OwnSeatDep,
    token: str | None = None,
) -> Response:
    body = only(await read_json(request), {"name"}, '{"name": "..."}')
    await _not_a_players_name(request, body["name"])  # as a claim: a guest is no player
    await tables.seats.rename(live, seat, body["name"])
    return _json(snapshot_text(live, seat))


@router.post(
    "/tables/{table_id}/seats/{seat}/invite",
    response_model=SeatLink,
    responses=responses(*_TABLE, C.OWNER_FORBIDDEN, C.SEAT_NOT_FOUND, C.SEAT_NOT_HUMAN),
    openapi_extra=NO_BODY,
    summary="Give a person's seat a fresh link (the creator)",
    description="With the owner_token: a new token for the seat; the old one stops opening "
    "it, and the seat keeps its place. 403 owner/forbidden for another token, 409 "
    "seat/not_human for a bot's or an unclaimed open seat, 404 seat/not_found.",
)
async def invite(
    request: Request, tables: TablesDep, live: TableDep, seat: int, owner: str | None = None
) -> Response:
    await no_body(request)
    token = await tables.seats.invite(live, owner, seat)
    return _seat_link(request, live, seat, token)


@router.post(
    "/tables/{table_id}/end",
    response_model=Ended,
    responses=responses(*_TABLE, C.OWNER_FORBIDDEN, C.TABLE_OVER),
    openapi_extra=NO_BODY,
    summary="End the table (the creator)",
    description="With the owner_token: the table stops and is recorded as abandoned, with "
    "no winner. 403 owner/forbidden for another token, 409 table/over if it had ended.",
)
async def end(
    request: Request, tables: TablesDep, live: TableDep, owner: str | None = None
) -> Response:
    await no_body(request)
    await tables.seats.end(live, owner)
    return JSONResponse({"id": live.id, "status": live.status})


@router.post(
    "/tables/{table_id}/seats/{seat}/mute",
    response_model=Muted,
    responses=responses(*_TABLE, C.OWNER_FORBIDDEN, C.SEAT_NOT_FOUND, C.REQUEST_TOO_LARGE),
    openapi_extra=body_doc(MuteIn),
    summary="Mute or unmute a seat's chat (the creator)",
    description="With the owner_token; a muted seat's chat is refused with 403 chat/muted.",
)
async def mute(
    request: Request, tables: TablesDep, live: TableDep, seat: int, owner: str | None = None
) -> Response:
    body = only(await read_json(request), {"muted"}, '{"muted": true|false}')
    if not isinstance(body["muted"], bool):
        raise malformed("muted must be true or false")
    await tables.seats.mute(live, owner, seat, body["muted"])
    return JSONResponse({"seat": seat, "muted": body["muted"]})


@router.post(
    "/tables/{table_id}/seats/{seat}/stand-in",
    response_model=Snapshot,
    responses=responses(*_SEAT, C.TABLE_OVER, C.SEAT_NOT_HUMAN),
    openapi_extra=NO_BODY,
    summary="Let the stand-in bot play your seat while you are away",
    description="The table's stand-in plays the seat (from its view only) until you take it "
    "back; the table's log says so. Your own moves are refused with 409 seat/stand_in "
    "meanwhile. 403 seat/forbidden unless the token opens that seat, 409 table/over.",
)
async def stand_in(
    request: Request,
    tables: TablesDep,
    live: TableDep,
    seat: OwnSeatDep,
    token: str | None = None,
) -> Response:
    await no_body(request)
    await tables.seats.stand_in_for(live, seat, "their player asked")
    return _json(snapshot_text(live, seat))


@router.post(
    "/tables/{table_id}/seats/{seat}/reclaim",
    response_model=Snapshot,
    responses=responses(*_SEAT),
    openapi_extra=NO_BODY,
    summary="Take your seat back from the stand-in",
    description="Answers the snapshot; a seat nobody stands in for is left as it is. "
    "403 seat/forbidden unless the token opens that seat.",
)
async def reclaim(
    request: Request,
    tables: TablesDep,
    live: TableDep,
    seat: OwnSeatDep,
    token: str | None = None,
) -> Response:
    await no_body(request)
    await tables.seats.reclaim(live, seat)
    return _json(snapshot_text(live, seat))


@router.post(
    "/tables/{table_id}/undo",
    response_model=Snapshot,
    responses=responses(*_SEAT, C.ACTION_STALE, C.UNDO_FORBIDDEN, C.REQUEST_TOO_LARGE),
    openapi_extra=body_doc(UndoIn),
    summary="Take back your last action",
    description="Allowed on a table created with undo true, if since your action no other "
    "seat acted, nothing random was drawn and nothing hidden was shown to anyone; the record "
    "keeps only what was finally played. 409 undo/forbidden with the reason otherwise, 409 "
    "action/stale if version is not the table's, 403 seat/forbidden without a seat's token.",
)
async def take_back(
    request: Request, tables: TablesDep, live: TableDep, seat: SeatDep, token: str | None = None
) -> Response:
    body = only(await read_json(request), {"version"}, '{"version": int}')
    await tables.moves.take_back(live, seat, version_of(body["version"]))
    return _json(snapshot_text(live, seat))


@router.get(
    "/tables/{table_id}/undo",
    response_model=UndoOffer,
    responses=responses(*_SEAT),
    summary="Would an undo be accepted now?",
    description="Asks the undo route's rule for the seat of the token without taking "
    "anything back, so a page offers undo only when it would be accepted and says why "
    "when not. A spectator is answered allowed false; 403 seat/forbidden for a bad token.",
)
async def undo_offer(live: TableDep, tables: TablesDep, seat: SeatDep) -> Response:
    why = await tables.moves.may_take_back(live, seat)
    return JSONResponse({"allowed": why is None, "reason": why or ""})


@router.post(
    "/tables/{table_id}/rematch",
    response_model=Rematch,
    responses=responses(*_SEAT, C.REMATCH_NOT_OVER),
    openapi_extra=NO_BODY,
    summary="Play again: one new table for every request",
    description="After the end, any seat's token: a new table with the same game, options, "
    "clock, stand-in and seat kinds, seats rotated by one (seat s sits at s+1); every open "
    'socket of the old table is told {"type": "rematch", "table", "url"} with its new link, '
    "and a later request answers the same table. 409 table/not_over before the end.",
)
async def rematch(
    request: Request, tables: TablesDep, live: TableDep, seat: SeatDep, token: str | None = None
) -> Response:
    await no_body(request)
    made = await tables.seats.rematch(live, seat)
    assert seat is not None  # a spectator was refused
    new_seat = (seat + 1) % live.game.players
    url = seat_url(_base(request), made, token)
    return JSONResponse({"table": made, "seat": new_seat, "url": url})


@router.get(
    "/tables/{table_id}/chat",
    response_model=ChatLog,
    responses=responses(*_TABLE),
    summary="The table's chat and notices, in order (anyone may read)",
    description="Lines numbered above `after`; the table's own notices (who stands in for "
    "whom, who took their seat back, undos) have seat null. Chat is part of the table's "
    "record, not of the game.",
)
async def chat_log(
    tables: TablesDep, live: TableDep, after: int = Query(0, ge=0, le=MAX_SINCE)
) -> Response:
    return JSONResponse({"messages": await tables.chat.lines(live, after)})


@router.post(
    "/tables/{table_id}/chat",
    status_code=204,
    responses=responses(
        *_SEAT,
        C.CHAT_MUTED,
        C.REQUEST_TOO_LARGE,
        C.CHAT_INVALID,
        C.CHAT_TOO_LONG,
        C.RATE_LIMITED,
    ),
    openapi_extra=body_doc(ChatIn),
    summary="Say something at the table",
    description="As the WebSocket's {'type': 'chat', 'text'} message: at most 500 "
    "characters (422 chat/too_long, chat/invalid), a few a second per seat (429 "
    "rate/limited), 403 chat/muted for a muted seat and seat/forbidden for spectators.",
)
async def chat(
    request: Request, tables: TablesDep, live: TableDep, seat: SeatDep, token: str | None = None
) -> Response:
    body = only(await read_json(request), {"text"}, '{"text": "..."}')
    await _chat(tables, live, seat, body["text"])
    return Response(status_code=204)


#: how fast one seat may chat: a line every 2 seconds on average, 5 at once
CHAT_RATE = (0.5, 5.0)


async def _chat(tables: Tables, live: Live, seat: int | None, text: Any) -> None:
    if seat is not None:
        bucket = live.chat_limits.get(seat)
        if bucket is None:
            bucket = live.chat_limits[seat] = RateLimit(*CHAT_RATE)
        if not bucket.allow():
            raise rate_limited()
    await tables.chat.say(live, seat, text)


@router.websocket("/tables/{table_id}/ws")
async def watch(websocket: WebSocket, table_id: str) -> None:
    tables = tables_of(websocket)
    sockets = websocket.app.state.sockets
    client = websocket.app.state.proxies.client_address(websocket.scope)
    await websocket.accept()
    try:
        live = await tables.live(table_id)
        seat = await seat_for(websocket, live, websocket.query_params.get("token"))
        since = since_text(websocket.query_params.get("since"))
        sockets.open(client, live.id, seat)
    except ApiError as exc:
        await websocket.send_text(_error_text(exc))
        await websocket.close(4000 + exc.status)
        return
    try:
        await _serve_socket(websocket, tables, live, seat, since)
    finally:
        sockets.close(client, live.id, seat)


_CHAT = '{"type": "chat", "text": "..."}'


def _error_text(exc: ApiError) -> str:
    return json.dumps({**exc.body(), "status": exc.status})


async def _serve_socket(
    websocket: WebSocket, tables: Tables, live: Live, seat: int | None, since: int
) -> None:
    limits = websocket.app.state.limits
    bucket = RateLimit(*limits)
    token = websocket.query_params.get("token")
    base = str(websocket.base_url).rstrip("/").replace("ws", "http", 1)
    presence = websocket.query_params.get("seats") == "1"
    delta = websocket.query_params.get("delta") == "1"
    outbox = tables.fanout.subscribe(live, seat, since, token, base, presence, delta)
    if token is None and seat is not None:  # the session's cookie opened the seat
        player = await current_player(websocket)
        outbox.player = None if player is None else player.id
        outbox.cookie = websocket.cookies.get(COOKIE)

    async def send() -> None:
        while (text := await outbox.next()) is not None:
            await websocket.send_text(text)
        if outbox.revoked is not None:  # its link was renewed or its session ended
            refusal, code = outbox.revoked
            await websocket.send_text(refusal)
            await websocket.close(code)
        else:
            await websocket.close(1008, "too many messages unanswered")

    sender = asyncio.create_task(send())
    refused = 0
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            try:
                if not bucket.allow():
                    refused += 1
                    if refused > 4 * bucket.burst:
                        await websocket.close(1008, "flooding")
                        break
                    raise rate_limited()
                if raw is None:
                    raise malformed("this socket takes JSON in text frames, not binary ones")
                if not await authorise(websocket, live, outbox):
                    await sender  # it tells the client why and closes the socket
                    break
                if len(raw) > MAX_BODY:
                    raise too_large(MAX_BODY)
                body = parse_json(raw)
                if isinstance(body, dict) and body.get("type") == "chat":
                    await _chat(tables, live, seat, only(body, {"type", "text"}, _CHAT).get("text"))
                    continue
                version, action = action_request(body)
                await tables.moves.act(live, seat, version, action)
            except ApiError as exc:
                outbox.push_message(_error_text(exc))
    except WebSocketDisconnect:
        pass
    finally:
        tables.fanout.unsubscribe(live, outbox)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
