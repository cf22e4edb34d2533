"""The players' browser pages: a player's page (ratings per game, each with a rating chart
drawn on the server as SVG, and the history of finished tables with replay links), a
leaderboard per game, and the account part of the lobby (who you are, your ratings and
your tables, read from the server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

import timelord
from timelord.server.accounts import Player, tables_of
from timelord.server.errors import ApiError, Code
from timelord.server.players_api import PAGE_MAX, history_page, profile
from timelord.server.ratings import chart_points, chart_svg, leaderboard, player_subject
from timelord.server.session import accounts_of, current_player
from timelord.server.storage import Store

router = APIRouter()
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))


def _store(request: Request) -> Store:
    store: Store = request.app.state.tables.store
    return store


def _error(request: Request, exc: ApiError) -> Response:
    return templates.TemplateResponse(
        request, "error.html", {"reason": exc.reason}, status_code=exc.status
    )


@router.get("/players/{name}", response_class=HTMLResponse, include_in_schema=False)
async def player_page(request: Request, name: str, before: str | None = None) -> Response:
    """A player's ratings with their charts, and their finished tables, newest first."""
    player = await run_in_threadpool(accounts_of(request).by_name, name)
    if player is None:
        return _error(request, ApiError(Code.PLAYER_NOT_FOUND, f"there is no player {name!r}"))
    try:
        games = await history_page(request, player, None, before, 20)
    except ApiError as exc:
        return _error(request, exc)
    about = await profile(request, player)
    charts = {}
    for rating in about["ratings"]:
        points = await run_in_threadpool(
            chart_points, _store(request), player_subject(player.id), rating["game"]
        )
        charts[rating["game"]] = Markup(
            chart_svg(points, f"{player.name}'s rating in {rating['game']}")
        )
    context = {"player": about, "charts": charts, "history": games, "games": timelord.GAMES}
    return templates.TemplateResponse(request, "player.html", context)


@router.get("/leaderboard/{game}", response_class=HTMLResponse, include_in_schema=False)
async def leaderboard_page(request: Request, game: str, people: bool = False) -> Response:
    """A game's ratings, people and bots together (or people only)."""
    if game not in timelord.GAMES:
        return _error(request, ApiError(Code.GAME_NOT_FOUND, f"there is no game {game!r}"))
    entries = await run_in_threadpool(leaderboard, _store(request), game, PAGE_MAX, people)
    context = {"game": game, "entries": entries, "people": people, "games": timelord.GAMES}
    return templates.TemplateResponse(request, "leaderboard.html", context)


async def lobby_account(request: Request) -> dict[str, Any] | None:
    """What the lobby shows a logged-in player: name, ratings and their tables (in play
    and finished), from the server; None for a guest."""
    player: Player | None = await current_player(request)
    if player is None:
        return None
    about = await profile(request, player)
    mine = await run_in_threadpool(tables_of, _store(request), player.id)
    tables = [
        {
            "id": t.id,
            "game": t.game,
            "status": t.status,
            "created": t.created.isoformat(),
            "seats": [s.get("name") or s["agent"] for s in t.seats],
        }
        for t in mine
    ]
    return {"name": player.name, "ratings": about["ratings"], "tables": tables}
