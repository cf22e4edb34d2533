"""Players over HTTP: sign-up, log-in and out, the session's player, profiles, histories and
leaderboards; and the results a table leaves when it ends (what ratings are
built from).

The session cookie opens every seat tied to its player wherever a seat token is taken
(`seat_for`), so a logged-in person needs no link to return to their tables.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

import timelord
from timelord.server.accounts import (
    COOKIE,
    DEVICE_COOKIE,
    SESSION_DAYS,
    Accounts,
    Player,
    no_session,
)
from timelord.server.bodies import body_doc, read_json
from timelord.server.bots import HUMAN
from timelord.server.errors import ApiError, Code, malformed, responses
from timelord.server.proxy import Proxies
from timelord.server.ratings import (
    GUEST,
    SeatResult,
    bot_subject,
    history,
    is_rated,
    leaderboard,
    player_subject,
    ratings_of,
    record_finish,
    totals,
)
from timelord.server.review import table_allows_hints
from timelord.server.revocation import sessions_changed
from timelord.server.session import current_player
from timelord.server.storage import Store
from timelord.server.table import Live

router = APIRouter(prefix="/api", tags=["players"])

#: history entries per page at most
PAGE_MAX = 100


class Players:
    """Accounts plus the results and ratings tables leave behind, over one store."""

    def __init__(self, store: Store, accounts: Accounts) -> None:
        self.store = store
        self.accounts = accounts

    async def finished(self, live: Live) -> None:
        """Record a table that just ended: every seat's place and score, and if the table
        is rated (`is_rated`) the rating updates of its players and bots."""
        state = live.state
        scores = state.scores()
        seats = [
            SeatResult(
                _subject(live, seat),
                live.name(seat),
                float(scores[seat]),
                bot_subject(live.stand_in) if _stood_in(live, seat) else None,
            )
            for seat in range(len(live.specs))
        ]
        await run_in_threadpool(
            record_finish,
            self.store,
            live.id,
            live.game.id,
            seats,
            state.winners(),
            is_rated(live, await run_in_threadpool(table_allows_hints, self.store.engine, live.id)),
            self.accounts.clock(),
        )


def _players(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


def _stood_in(live: Live, seat: int) -> bool:
    """Whether the stand-in made most of a person's seat's decisions: the seat's result is
    then the stand-in bot's, not its person's (docs/ratings.md)."""
    own, stand_in = live.decided.get(seat, (0, 0))
    return stand_in > own


def _subject(live: Live, seat: int) -> str:
    player = live.players[seat] if seat < len(live.players) else None
    if player is not None:
        return player_subject(player)
    spec = live.specs[seat]
    return GUEST if spec == HUMAN else bot_subject(spec)


# -- the contract -------------------------------------------------------------------------


class SignUp(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=32, examples=["Ace"])
    password: str | None = Field(
        None, min_length=8, max_length=256, description="optional: log in from other devices"
    )


class LogIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(examples=["Ace"])
    password: str


class Change(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, min_length=1, max_length=32, description="a new name")
    password: str | None = Field(
        None,
        min_length=8,
        max_length=256,
        description="a new password (ends every session and opens a new one for this device)",
    )
    current_password: str | None = Field(
        None, description="the password now: needed to replace one (not to set the first)"
    )


class PlayerOut(BaseModel):
    name: str
    has_password: bool
    created: str


class RatingOut(BaseModel):
    game: str
    mu: float
    sigma: float
    rating: float = Field(description="the conservative rating shown: mu - 3 sigma")
    low: float = Field(description="mu - sigma (the interval holds mu with 68% belief)")
    high: float = Field(description="mu + sigma")
    games: int = Field(description="rated tables of this game")
    wins: float = Field(description="rated wins (a tie for first counts 1/k)")


class Profile(BaseModel):
    name: str
    created: str
    ratings: list[RatingOut]
    games: int = Field(description="finished tables played, rated or not")
    wins: float


class HistorySeat(BaseModel):
    seat: int
    name: str
    kind: str = Field(description="player, bot or guest")
    place: int
    score: float
    you: bool = Field(description="the seat is the player's")


class HistoryEntry(BaseModel):
    table: str
    game: str
    date: str = Field(description="when the table ended, ISO-8601")
    rated: bool
    place: int
    rating: dict[str, float] | None = Field(description="the rating after this table")
    seats: list[HistorySeat]
    replay: str


class HistoryPage(BaseModel):
    games: list[HistoryEntry]
    next: str | None = Field(description="pass as `before` for the next (older) page")


class LeaderEntry(BaseModel):
    rank: int
    name: str = Field(description="a player's name, or a bot's spec")
    kind: str = Field(description="player or bot")
    mu: float
    sigma: float
    rating: float
    low: float
    high: float
    games: int
    wins: float


class Leaderboard(BaseModel):
    game: str
    people_only: bool
    entries: list[LeaderEntry]


def _fields(body: Any, allowed: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(body, dict) or not set(body) <= allowed or not required <= set(body):
        names = ", ".join(sorted(allowed))
        raise malformed(f"the body must be an object with {names} ({', '.join(required)} needed)")
    return body


def _with_cookie(request: Request, response: Response, cookie: str) -> Response:
    response.set_cookie(
        COOKIE,
        cookie,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


#: how long a browser is remembered as one that has logged in as its player
DEVICE_DAYS = 365


def _client(request: Request) -> str:
    """The real client's address (the forwarded one behind a trusted proxy)."""
    proxies: Proxies = request.app.state.proxies
    return proxies.client_address(request.scope)


@router.post(
    "/players",
    status_code=201,
    response_model=PlayerOut,
    responses=responses(
        Code.REQUEST_MALFORMED, Code.PLAYER_TAKEN, Code.REQUEST_TOO_LARGE, Code.PLAYER_INVALID
    ),
    openapi_extra=body_doc(SignUp),
    summary="Sign up: a new player, logged in",
    description="Names are 1-32 printable characters, unique regardless of case; 409 "
    "player/taken for a name in use, 422 player/invalid for a bad name or password "
    "(8-256 characters). Answers with the session cookie (HttpOnly, SameSite=Lax).",
)
async def sign_up(request: Request) -> Response:
    body = _fields(await read_json(request), {"name", "password"}, {"name"})
    accounts = _players(request).accounts
    player, cookie = await run_in_threadpool(accounts.create, body["name"], body.get("password"))
    # the new player's session replaces the one this browser held (it ends on the server)
    await run_in_threadpool(accounts.logout, request.cookies.get(COOKIE))
    return _with_cookie(request, JSONResponse(player.public(), status_code=201), cookie)


@router.post(
    "/session",
    response_model=PlayerOut,
    responses=responses(
        Code.REQUEST_MALFORMED, Code.SESSION_REFUSED, Code.REQUEST_TOO_LARGE, Code.RATE_LIMITED
    ),
    openapi_extra=body_doc(LogIn),
    summary="Log in with a name and password",
    description="200 and a new session cookie (a session the browser held before ends); "
    "401 session/refused for a wrong name or password (the same answer either way), 429 "
    "rate/limited after repeated failures from this client, or on this name from a "
    "browser that has not logged in as its player before (so strangers cannot lock the "
    "player out of a browser they used).",
)
async def log_in(request: Request) -> Response:
    body = _fields(await read_json(request), {"name", "password"}, {"name", "password"})
    accounts = _players(request).accounts
    player, cookie, device = await run_in_threadpool(
        accounts.login,
        body["name"],
        body["password"],
        _client(request),
        request.cookies.get(DEVICE_COOKIE),
    )
    # a new session id at every login: one the browser held before ends here
    await run_in_threadpool(accounts.logout, request.cookies.get(COOKIE))
    response = _with_cookie(request, JSONResponse(player.public()), cookie)
    response.set_cookie(
        DEVICE_COOKIE,
        device,
        max_age=DEVICE_DAYS * 86400,
        path="/api/session",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


@router.get(
    "/session",
    response_model=PlayerOut,
    responses=responses(Code.SESSION_NONE),
    summary="The logged-in player (401 session/none without a live session)",
)
async def who(request: Request) -> Response:
    player = await current_player(request)
    if player is None:
        raise no_session()
    return JSONResponse(player.public())


@router.delete(
    "/session",
    status_code=204,
    summary="Log out: the session ends on the server and the cookie is cleared",
)
async def log_out(request: Request) -> Response:
    player = await current_player(request)
    await run_in_threadpool(_players(request).accounts.logout, request.cookies.get(COOKIE))
    if player is not None:
        await sessions_changed(request, player.id)  # its sockets close now
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.patch(
    "/session",
    response_model=PlayerOut,
    responses=responses(
        Code.REQUEST_MALFORMED,
        Code.SESSION_NONE,
        Code.SESSION_REFUSED,
        Code.PLAYER_TAKEN,
        Code.REQUEST_TOO_LARGE,
        Code.PLAYER_INVALID,
        Code.RATE_LIMITED,
    ),
    openapi_extra=body_doc(Change),
    summary="Rename the logged-in player or set (or reset) their password",
    description="Only the logged-in session can change its player. Replacing a password "
    "needs `current_password` (401 session/refused if wrong, 429 after repeated failures). "
    "A new password ends every session of the player and answers with a new session "
    "cookie; ratings and history follow a renamed player.",
)
async def change(request: Request) -> Response:
    body = _fields(await read_json(request), {"name", "password", "current_password"}, set())
    player = await current_player(request)
    if player is None:
        raise no_session()
    accounts = _players(request).accounts
    changed, cookie = await run_in_threadpool(
        accounts.change,
        player,
        request.cookies.get(COOKIE),
        body.get("name"),
        body.get("password"),
        body.get("current_password"),
    )
    await sessions_changed(request, player.id)  # sockets of sessions it ended close now
    response = JSONResponse(changed.public())
    return response if cookie is None else _with_cookie(request, response, cookie)


async def _named(request: Request, name: str) -> Player:
    player = await run_in_threadpool(_players(request).accounts.by_name, name)
    if player is None:
        raise ApiError(Code.PLAYER_NOT_FOUND, f"there is no player {name!r}")
    return player


async def profile(request: Request, player: Player) -> dict[str, Any]:
    store = _players(request).store
    subject = player_subject(player.id)
    ratings = await run_in_threadpool(ratings_of, store, subject)
    games, wins = await run_in_threadpool(totals, store, subject)
    return {
        "name": player.name,
        "created": player.created.isoformat(),
        "ratings": ratings,
        "games": games,
        "wins": wins,
    }


@router.get(
    "/players/{name}",
    response_model=Profile,
    responses=responses(Code.PLAYER_NOT_FOUND),
    summary="A player's profile: ratings per game, games played, wins",
)
async def player_profile(request: Request, name: str) -> Response:
    return JSONResponse(await profile(request, await _named(request, name)))


def _game(game: str) -> str:
    if game not in timelord.GAMES:
        raise ApiError(Code.GAME_NOT_FOUND, f"there is no game {game!r}")
    return game


async def history_page(
    request: Request, player: Player, game: str | None, before: str | None, limit: int
) -> dict[str, Any]:
    moment = None
    if before is not None:
        try:
            moment = dt.datetime.fromisoformat(before)
        except ValueError as exc:
            raise malformed("before must be an ISO-8601 date and time") from exc
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.UTC)
    store = _players(request).store
    games = await run_in_threadpool(
        history, store, player_subject(player.id), game, moment, limit + 1
    )
    following = games[limit - 1]["date"] if len(games) > limit else None
    return {"games": games[:limit], "next": following}


@router.get(
    "/players/{name}/games",
    response_model=HistoryPage,
    responses=responses(Code.REQUEST_MALFORMED, Code.PLAYER_NOT_FOUND),
    summary="A player's finished tables, newest first, paged",
    description="Only finished tables are listed, each with every seat's name, place and "
    "score and a link to its replay; `before` (ISO-8601, from `next`) pages back.",
)
async def player_games(
    request: Request,
    name: str,
    game: str | None = Query(None, description="only this game"),
    before: str | None = Query(None, description="only tables finished before this moment"),
    limit: int = Query(20, ge=1, le=PAGE_MAX),
) -> Response:
    player = await _named(request, name)
    if game is not None:
        _game(game)
    return JSONResponse(await history_page(request, player, game, before, limit))


@router.get(
    "/leaderboard/{game}",
    response_model=Leaderboard,
    responses=responses(Code.REQUEST_MALFORMED, Code.GAME_NOT_FOUND),
    summary="A game's ratings, people and bots in one pool, best first",
    description="Sorted by the conservative rating mu - 3 sigma; `people=true` leaves the "
    "bots out. Only subjects with at least one rated table are listed.",
)
async def game_leaderboard(
    request: Request,
    game: str,
    limit: int = Query(50, ge=1, le=500),
    people: bool = Query(False, description="people only"),
) -> Response:
    store = _players(request).store
    entries = await run_in_threadpool(leaderboard, store, _game(game), limit, people)
    return JSONResponse({"game": game, "people_only": people, "entries": entries})
