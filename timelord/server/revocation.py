"""A socket lives no longer than what opened it.

A seat's socket was opened by a seat token or by the session cookie of the seat's player.
When the creator gives the seat a new link (the old token stops opening it), or the session
ends (logout, a password change that ends the player's sessions), the socket is told why
and closed with a coded close: 4403 `seat/forbidden` for a renewed link, 4401
`session/none` for an ended session. Nothing queued for it is sent after the revocation.

Two ways lead here, so neither can be missed: every message a socket sends is authorised
against the seat's current token or session (`authorise`), and the changes that revoke are
pushed to the sockets at once: a renewed link by the hub's life change (`watch_links`, for
a change made by any process), an ended session by the accounts routes calling
`sessions_changed` (on the process that ended it) and, on PostgreSQL, by the notice that
call sends every other process (`watch_sessions`).
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from timelord.server.errors import ApiError, Code
from timelord.server.table import Live, Tables
from timelord.server.table.fanout import Fanout, Outbox
from timelord.server.table.hub import Change, Kind
from timelord.server.table.sync import announce_sessions_ended

#: the close codes of a revoked socket (4000 + the status of its refusal)
LINK_RENEWED = 4403
SESSION_ENDED = 4401


def _refusal(error: Code, reason: str) -> str:
    body = ApiError(error, reason).body()
    return json.dumps({**body, "status": error.status})


RENEWED_TEXT = _refusal(
    Code.SEAT_FORBIDDEN, "this seat was given a new link; the one this socket used opens nothing"
)
ENDED_TEXT = _refusal(
    Code.SESSION_NONE, "the session that opened this seat ended (logged out or password changed)"
)


def token_opens(live: Live, token: str, seat: int) -> bool:
    """Whether `token` still opens `seat`."""
    try:
        return live.seat_of(token) == seat
    except ApiError:
        return False


def watch_links(tables: Tables) -> None:
    """Close the sockets whose seat token stopped opening their seat, at every life change
    the hub announces (a re-invite here or in another process)."""
    tables.hub.listen(partial(_links_changed, tables.fanout))


def _links_changed(fanout: Fanout, change: Change) -> None:
    if change.kind is not Kind.LIFE:
        return
    for outbox in list(fanout.sockets.get(change.live.id, ())):
        seat, token = outbox.seat, outbox.token
        if seat is not None and token is not None and not token_opens(change.live, token, seat):
            outbox.revoke(RENEWED_TEXT, LINK_RENEWED)


async def _session_opens(accounts: Any, outbox: Outbox, live: Live) -> bool:
    player = await run_in_threadpool(accounts.player_of, outbox.cookie)
    return (
        player is not None
        and player.id == outbox.player
        and outbox.seat in live.seats_of_player(player.id)
    )


async def sessions_changed(connection: HTTPConnection, player_id: str) -> int:
    """Close the sockets that a session of `player_id` opened and that it no longer opens
    (call it after a logout or a password change): this process's now, other processes'
    through a notice; how many this process closed."""
    tables: Tables = connection.app.state.tables
    closed = await close_ended(tables, connection.app.state.accounts, player_id)
    await tables.db.read(announce_sessions_ended, tables.store, player_id)
    return closed


def watch_sessions(tables: Tables, accounts: Any) -> None:
    """Close this process's sockets of sessions another process ended (its notice)."""
    tables.sync.on_sessions_ended.append(partial(close_ended, tables, accounts))


async def close_ended(tables: Tables, accounts: Any, player_id: str) -> int:
    """Close this process's sockets that a session of `player_id` opened and that no
    longer opens their seat; how many were closed."""
    closed = 0
    for table_id, outboxes in list(tables.fanout.sockets.items()):
        live = tables.loader.cache.get(table_id)
        for outbox in list(outboxes):
            if outbox.player != player_id or outbox.revoked is not None or live is None:
                continue
            if not await _session_opens(accounts, outbox, live):
                outbox.revoke(ENDED_TEXT, SESSION_ENDED)
                closed += 1
    return closed


async def authorise(connection: HTTPConnection, live: Live, outbox: Outbox) -> bool:
    """Whether the socket may still act for its seat (a spectator's always may: it can do
    nothing). A socket that may not is revoked here."""
    if outbox.seat is None:
        return True
    if outbox.token is not None:
        if token_opens(live, outbox.token, outbox.seat):
            return True
        outbox.revoke(RENEWED_TEXT, LINK_RENEWED)
        return False
    if await _session_opens(connection.app.state.accounts, outbox, live):
        return True
    outbox.revoke(ENDED_TEXT, SESSION_ENDED)
    return False
