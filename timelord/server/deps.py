"""The preamble of the table routes as FastAPI dependencies: the server's tables, the table
of the path (404 `table/not_found`), the seat a request opens (403 `seat/forbidden` for a
bad token; a spectator without one), and a seat that must be the caller's own."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from timelord.server.errors import ApiError, Code
from timelord.server.session import current_player, seat_for
from timelord.server.table import Live, Tables


def tables_of(request: HTTPConnection) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


async def table_of(table_id: str, tables: Annotated[Tables, Depends(tables_of)]) -> Live:
    return await tables.live(table_id)


async def seat_at(
    request: Request, live: Annotated[Live, Depends(table_of)], token: str | None = None
) -> int | None:
    return await seat_for(request, live, token)


async def own_seat(
    request: Request,
    live: Annotated[Live, Depends(table_of)],
    seat: int,
    token: str | None = None,
) -> int:
    """`seat`, if `token` (or, without one, the session's player) opens it; 403
    seat/forbidden otherwise."""
    if token is not None:
        mine = live.seat_of(token) == seat
    else:
        player = await current_player(request)
        mine = player is not None and seat in live.seats_of_player(player.id)
    if not mine:
        raise ApiError(Code.SEAT_FORBIDDEN, "this token does not open that seat")
    return seat


TablesDep = Annotated[Tables, Depends(tables_of)]
TableDep = Annotated[Live, Depends(table_of)]
SeatDep = Annotated[int | None, Depends(seat_at)]
OwnSeatDep = Annotated[int, Depends(own_seat)]
