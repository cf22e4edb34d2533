"""The browser side of `timelord serve`: the lobby, table, spectator and replay pages, and
the board fragments the pages show.

The pages are shells: their JavaScript talks to the JSON API and the WebSocket, and when a
snapshot arrives asks `GET /tables/{id}/board?token=T` for the board, drawn only from that
seat's snapshot (the one the API would send it), so a page shows nothing its seat was not
sent. A finished game's replay is drawn from its public record, step by step, for any seat.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

import timelord
from timelord.core.errors import ConfigError, GameError
from timelord.core.events import Event
from timelord.core.game import Game
from timelord.core.record import Record
from timelord.server.boards import render_board
from timelord.server.errors import ApiError
from timelord.server.tables import Live, Tables

router = APIRouter()
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))

#: The seat kinds the lobby offers (every agent kind and level the server can run).
SEAT_KINDS = (
    "human",
    "random",
    "heuristic",
    "heuristic:hard",
    "ismcts:easy",
    "ismcts:medium",
    "ismcts:hard",
)
#: Largest board request accepted (a snapshot or a record), in bytes.
MAX_BODY = 2_000_000


def _error(status: int, code: str, reason: str) -> JSONResponse:
    return JSONResponse({"code": code, "reason": reason}, status_code=status)


@lru_cache(maxsize=64)
def _game(game_id: str, options_json: str) -> Game:
    return timelord.load(game_id, **json.loads(options_json))


def load_game(game_id: str, options: Any) -> Game:
    """The game a table plays (cached, since games are stateless); `ConfigError` if bad."""
    if game_id not in timelord.GAMES:
        raise ConfigError(f"unknown game {game_id!r}")
    if not isinstance(options, dict):
        raise ConfigError("options must be an object")
    return _game(game_id, json.dumps(options, sort_keys=True))


@lru_cache(maxsize=1)
def lobby_games() -> list[dict[str, Any]]:
    """Each game with its default options, the seat counts it allows and option texts."""
    out = []
    for game_id, description in timelord.GAMES.items():
        game = timelord.load(game_id)
        counts = []
        for n in range(1, 9):
            try:
                timelord.load(game_id, players=n)
            except ConfigError:
                continue
            counts.append(n)
        options = {k: v for k, v in game.options.items() if k != "players" and v is not None}
        out.append(
            {
                "id": game_id,
                "description": description,
                "players": game.players,
                "counts": counts,
                "options": options,
                "docs": dict(type(game).options_doc),
            }
        )
    return out


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request) -> Response:
    """Choose a game, its options and seats; see the tables in progress and finished."""
    return templates.TemplateResponse(
        request,
        "lobby.html",
        {"games": lobby_games(), "seat_kinds": SEAT_KINDS, "games_json": lobby_games()},
    )


async def _seat_table(
    request: Request, table_id: str, token: str | None
) -> tuple[Live, int | None]:
    """The live table and the seat the token opens (None: a spectator); ApiError if not."""
    tables: Tables = request.app.state.tables
    live = await tables.live(table_id)
    return live, live.seat_of(token or None)


@router.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
async def table_page(request: Request, table_id: str, token: str = "") -> Response:
    """A seat's table (with its token) or the spectator's (without)."""
    try:
        live, seat = await _seat_table(request, table_id, token)
    except ApiError as exc:
        return templates.TemplateResponse(
            request, "error.html", {"reason": exc.reason}, status_code=exc.status
        )
    context = {
        "table_id": table_id,
        "token": token,
        "mode": "play",
        "game": live.game.id,
        "seat": "" if seat is None else seat,
    }
    return templates.TemplateResponse(request, "table.html", context)


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_page(request: Request, table_id: str) -> Response:
    """A finished game step by step, as any one seat (or a spectator) saw it."""
    context = {"table_id": table_id, "token": "", "mode": "replay", "game": "", "seat": ""}
    return templates.TemplateResponse(request, "table.html", context)


@router.get("/tables/{table_id}/board", response_class=HTMLResponse, tags=["boards"])
async def board(request: Request, table_id: str, token: str = "") -> Response:
    """The seat's board as an HTML fragment, drawn only from the seat's snapshot (the one
    GET /api/tables/{id}?token=T answers); the spectator's without a token."""
    live, seat = await _seat_table(request, table_id, token)
    snapshot = json.loads(live.snapshot_text(seat))
    try:
        html = render_board(live.game, seat, snapshot)
    except GameError as exc:
        return _error(422, "board/invalid", str(exc))
    return HTMLResponse(html)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _TooLarge
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"malformed JSON: {exc}") from exc


class _TooLarge(Exception):
    pass


@router.post("/boards/{game_id}/replay", tags=["boards"])
async def replay_board(request: Request, game_id: str) -> Response:
    """Step `step` of a finished game's record as `seat` saw it: `{"html", "step", "steps"}`.

    The record is public once the game is over, so the page may show any seat's view."""
    try:
        body = await _body(request)
        if not isinstance(body, dict):
            raise ConfigError("the body must be a JSON object")
        record = Record.from_json(body.get("record"))
        if record.game != game_id:
            raise ConfigError(f"the record is of {record.game!r}, not {game_id!r}")
        seat, step = body.get("seat"), body.get("step", 0)
        if isinstance(step, bool) or not isinstance(step, int):
            raise ConfigError("step must be an integer")
        game = load_game(game_id, record.options)
        game.check_seat(seat)
        html, steps = _replay_step(game, record, seat, step)
    except _TooLarge:
        return _error(413, "body/too_large", f"bodies are limited to {MAX_BODY} bytes")
    except GameError as exc:
        return _error(422, "replay/invalid", str(exc))
    return JSONResponse({"html": html, "step": min(max(step, 0), steps), "steps": steps})


def _replay_step(game: Game, record: Record, seat: int | None, step: int) -> tuple[str, int]:
    """Replay the record's first `step` actions (checked) and draw that moment for `seat`."""
    steps = len(record.actions)
    step = min(max(step, 0), steps)
    state = game.new_game(record.seed)
    events: list[Event] = []
    for i, data in enumerate(record.actions[:step]):
        try:
            state, new = state.apply_with_events(game.action_from_json(data))
        except GameError as exc:
            raise GameError(f"record step {i}: {exc}") from exc
        events.extend(new)
    snapshot = {
        "version": step,
        "over": state.is_over,
        "to_move": state.to_move,
        "view": state.view(seat),
        "legal": [],
        "events": game.tell(events, seat),
    }
    return render_board(game, seat, snapshot), steps
