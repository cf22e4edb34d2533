"""Who a request comes from: the logged-in player of its session cookie, and the seat that
cookie opens at a table (wherever a seat token is taken, the cookie of the seat's player
opens it too)."""

from __future__ import annotations

from fastapi import Request, WebSocket
from fastapi.concurrency import run_in_threadpool

from timelord.server.accounts import COOKIE, Accounts, Player
from timelord.server.table import Live


def accounts_of(request: Request | WebSocket) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def current_player(request: Request | WebSocket) -> Player | None:
    """The logged-in player of the request's session cookie, or None."""
    cookie = request.cookies.get(COOKIE)
    if not cookie:
        return None
    return await run_in_threadpool(accounts_of(request).player_of, cookie)


async def seat_for(request: Request | WebSocket, live: Live, token: str | None) -> int | None:
    """The seat a request opens: its token's, else the seat tied to its session's player
    (the one to move if the player holds several), else none (a spectator). A bad token is
    refused even with a good cookie."""
    if token is not None:
        return live.seat_of(token)
    if not any(live.players):
        return None
    player = await current_player(request)
    if player is None:
        return None
    mine = live.seats_of_player(player.id)
    if not mine:
        return None
    to_move = live.state.to_move
    return to_move if to_move in mine else mine[0]
