"""The browser side of `timelord serve`: the lobby, table, spectator and replay pages, and
the board fragments the pages show.

The pages are shells: their JavaScript talks to the JSON API and the WebSocket, and when a
snapshot arrives asks `GET /tables/{id}/board?token=T` for the board, drawn only from that
seat's snapshot (the one the API would send it), so a page shows nothing its seat was not
sent. A finished game's replay is drawn from its public record, step by step, for any seat.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

import timelord
from timelord.core.errors import ConfigError, CorruptRecord, GameError
from timelord.core.events import Event
from timelord.core.game import Game, State
from timelord.core.record import Record
from timelord.core.rulebook import Section, game_rulings, parse_rules, rules_text
from timelord.learn import LEARNER, LESSON_BOT, Lesson, has_lesson, load_lesson, plan
from timelord.server.boards import render_board
from timelord.server.bodies import MAX_SINCE
from timelord.server.errors import ApiError, Code, responses
from timelord.server.player_pages import lobby_account
from timelord.server.player_pages import router as player_router
from timelord.server.review import hints_allowed
from timelord.server.session import seat_for
from timelord.server.table import Live, Tables, seat_list
from timelord.server.table.wire import mark_standin, snapshot_text

router = APIRouter()
router.include_router(player_router)
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))

#: The seat kinds the lobby offers, in words, with what was measured of each bot
#: (docs/strength.md: four-player matches, seats rotated).
SEAT_KINDS = (
    ("human", "A friend, by a private link"),
    ("open", "Anyone who joins by name (open seat)"),
    ("random", "Bot, beginner: any legal move"),
    ("heuristic", "Bot, casual: rules of thumb (beats beginners 3 times in 4 or more)"),
    ("heuristic:hard", "Bot, casual+ (in Clue, a sharp detective: won 97% against casual bots)"),
    ("ismcts:easy", "Bot, thinker: looks a little ahead"),
    ("ismcts:medium", "Bot, strong thinker: looks further ahead"),
    (
        "ismcts:hard",
        "Bot, hard: won 33-47% of 4-player games against casual bots (25% is fair);"
        " in Clue it beats the sharp detective",
    ),
    ("ismcts:expert", "Bot, expert: the hard bot with more thinking (up to a second a move)"),
)

#: The clocks the lobby offers: (label, clock or None)
CLOCKS = (
    ("No clock", None),
    ("5 minutes each, +5 seconds a move", {"mode": "realtime", "per_move": 5, "bank": 300}),
    ("15 minutes each, +10 seconds a move", {"mode": "realtime", "per_move": 10, "bank": 900}),
    ("A day per move", {"mode": "async", "per_move": 86400}),
    ("Three days per move", {"mode": "async", "per_move": 3 * 86400}),
)

#: Options as the rules speak of them (label, help); options not named here are not offered
OPTION_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "keys": {"round_limit": ("Rounds to play", "after these, nobody has won")},
    "episodes": {
        "target": ("Victory points to win", "the first to reach them wins at once"),
        "max_rounds": ("Rounds to play", "after these, the most victory points win"),
    },
    "card-game": {"max_turns": ("Turns to play", "after these, the game is scored as usual")},
    "clue": {
        "variant": ("Variant", "standard, or two-player (four face-down side cards)"),
        "intrigue": ("Intrigue deck", "play with the intrigue cards (off: original Clue)"),
        "powers": ("Character powers", "each character's once-per-game power"),
        "max_rounds": ("Rounds before an unsolved case is closed", ""),
    },
}


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
        words = OPTION_WORDS.get(game_id, {})
        options = {k: v for k, v in game.options.items() if k in words and v is not None}
        name = game_title(game_id)
        out.append(
            {
                "id": game_id,
                "name": name,
                "description": description,
                # the description less the name it starts with ("(2-4 players)")
                "blurb": description.removeprefix(name).lstrip(", "),
                "players": game.players,
                "counts": counts,
                "options": options,
                "labels": {k: words[k][0] for k in options},
                "docs": {k: words[k][1] for k in options},
            }
        )
    return out


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    """The site's icon, for browsers that ask for /favicon.ico whatever the page says."""
    icon = Path(__file__).parent / "static" / "favicon.svg"
    return Response(icon.read_bytes(), media_type="image/svg+xml")


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby(request: Request) -> Response:
    """Choose a game, its options and seats; see the tables in progress and finished; once
    logged in, your name, ratings and tables."""
    own = [(spec, f"Bot: {spec}") for spec in sorted(request.app.state.tables.own)]
    return templates.TemplateResponse(
        request,
        "lobby.html",
        {
            "games": lobby_games(),
            "seat_kinds": [*SEAT_KINDS, *own],
            "clocks": CLOCKS,
            "games_json": lobby_games(),
            "allow_seed": request.app.state.tables.allow_seed,
            "lessons": lesson_games(),
            "account": await lobby_account(request),
        },
    )


async def _seat_table(
    request: Request, table_id: str, token: str | None
) -> tuple[Live, int | None]:
    """The live table and the seat the token opens (None: a spectator); ApiError if not."""
    tables: Tables = request.app.state.tables
    live = await tables.live(table_id)
    return live, await seat_for(request, live, token or None)


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
        "game_name": game_title(live.game.id),
        "seat": "" if seat is None else seat,
        "seeded": live.seeded,
        "hints": "1" if seat is not None and await hints_allowed(request, live.id) else "",
    }
    return templates.TemplateResponse(request, "table.html", context)


#: each game's name as a player knows it
GAME_TITLES = {
    "episodes": "Episodes",
    "keys": "Keys to the TARDIS",
    "card-game": "Doctor Who: The Card Game",
    "clue": "Clue: Doctor Who",
}


def game_title(game_id: str) -> str:
    return GAME_TITLES.get(game_id, game_id)


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_page(request: Request, table_id: str) -> Response:
    """A finished game step by step, as any one seat (or a spectator) saw it."""
    context = {
        "table_id": table_id,
        "token": "",
        "mode": "replay",
        "game": "",
        "seat": "",
        "hints": "",
    }
    return templates.TemplateResponse(request, "table.html", context)


def _refusals(*codes: Code) -> dict[int | str, dict[str, Any]]:
    """The coded JSON refusals of a board route, whatever media type its answer has."""
    body = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    return {
        status: {"description": doc["description"], "content": body}
        for status, doc in responses(*codes).items()
    }


@router.get(
    "/tables/{table_id}/board",
    response_class=HTMLResponse,
    tags=["boards"],
    responses=_refusals(
        Code.REQUEST_MALFORMED, Code.SEAT_FORBIDDEN, Code.TABLE_NOT_FOUND, Code.BOARD_INVALID
    ),
)
async def board(
    request: Request,
    table_id: str,
    token: str = "",
    log: int | None = Query(
        None,
        ge=0,
        le=MAX_SINCE,
        description="the log lists only the seat's events from this one on (numbered from 0 "
        "in the order of the snapshot's `events`): a page that holds the sentences of the "
        "events before asks for the rest, so a fetch per change does not carry the log again",
    ),
) -> Response:
    """The seat's board as an HTML fragment, drawn only from the seat's snapshot (the one
    GET /api/tables/{id}?token=T answers); the spectator's without a token. Drawn once per
    (version, seat) and kept until the table changes: every page of the seat shares it (and
    with `log`, the latest `log` asked for: the pages of one seat ask for the same)."""
    live, seat = await _seat_table(request, table_id, token)
    log = log or 0
    key = ("board", seat, log)
    html = live.encoded.current.get(key)
    if html is not None:
        return HTMLResponse(html)
    snapshot = json.loads(snapshot_text(live, seat))
    result = final_result(live.state)
    if result is None and live.over:  # ended by its creator: nobody won
        result = {"scores": live.state.scores(), "winners": []}
    try:
        html = render_board(live.game, seat, snapshot, result, log_from=log)
    except GameError as exc:
        raise ApiError(Code.BOARD_INVALID, str(exc)) from exc
    if log:  # one `log` kept per seat and version, so odd values cannot fill the memory
        for old in [k for k in live.encoded.current if k[:2] == ("board", seat) and k[2]]:
            del live.encoded.current[old]
    live.encoded.current[key] = html
    return HTMLResponse(html)


def final_result(state: State) -> dict[str, Any] | None:
    """A finished game's scores and winners as the engine computes them (public once the
    game is over: the server stores the same with the record); None while it is played."""
    if not state.is_over:
        return None
    return {"scores": state.scores(), "winners": state.winners()}


#: How many finished games each app keeps replayed for the replay page.
REPLAYS_KEPT = 8


class _Replay:
    """Every state of a finished game and the events of each step (a game over never
    changes, so it is replayed once for all its viewers and steps)."""

    def __init__(
        self, game: Game, record: Record, names: list[str], guests: list[bool] | None = None
    ) -> None:
        self.game = game
        self.names = names
        #: per seat, whether a guest sat there (the board marks them)
        self.guests = guests or [False] * len(names)
        #: the steps (0: the first action) a person's stand-in played, as the record says
        self.standin = frozenset(record.standin)
        state = game.new_game(record.start())
        self.states: list[State] = [state]
        self.events: list[list[Event]] = []
        for i, data in enumerate(record.actions):
            try:
                state, new = state.apply_with_events(game.action_from_json(data))
            except GameError as exc:
                raise CorruptRecord(f"record step {i}: {exc}") from exc
            self.states.append(state)
            self.events.append(new)

    def draw(self, seat: int | None, step: int) -> str:
        """Step `step` (0: the deal) as `seat` saw it, without controls."""
        state = self.states[step]
        told: list[dict[str, Any]] = []
        for i, events in enumerate(self.events[:step]):
            # marked as the table marked them, so the log says who played (boards.common)
            acting = self.states[i].to_move if i in self.standin else None
            told += mark_standin(self.game.tell(events, seat), acting)
        snapshot = {
            "version": step,
            "over": state.is_over,
            "to_move": state.to_move,
            "view": state.view(seat),
            "legal": [],
            "events": told,
            "seats": [
                {"seat": i, "name": n, "guest": g}
                for i, (n, g) in enumerate(zip(self.names, self.guests, strict=True))
            ],
        }
        return render_board(self.game, seat, snapshot, final_result(state), replay=True)


async def _replay(request: Request, table_id: str) -> _Replay:
    """The finished game's replay, from this app's few kept ones or replayed now (in a
    worker thread: a long game takes a moment, and other tables must not wait)."""
    state = request.app.state
    kept: OrderedDict[str, _Replay] | None = getattr(state, "web_replays", None)
    if kept is None:
        kept = state.web_replays = OrderedDict()
    found = kept.get(table_id)
    if found is None:
        tables: Tables = state.tables
        record = await tables.loader.record(table_id)
        live = await tables.live(table_id)
        guests = [live.guest(s) for s in range(len(live.seats))]
        found = kept[table_id] = await run_in_threadpool(
            _Replay, live.game, record, live.names(), guests
        )
        while len(kept) > REPLAYS_KEPT:
            kept.popitem(last=False)
    kept.move_to_end(table_id)
    return found


@router.get(
    "/tables/{table_id}/replay/board",
    tags=["boards"],
    responses=_refusals(
        Code.REQUEST_MALFORMED, Code.TABLE_NOT_OVER, Code.TABLE_NOT_FOUND, Code.REPLAY_INVALID
    ),
)
async def replay_board(
    request: Request, table_id: str, step: int = 0, seat: int | None = None
) -> Response:
    """Step `step` of a finished game as `seat` saw it (no seat: a spectator):
    `{"html", "step", "steps"}`. The record is public once the game is over, so any seat's
    view may be shown; 403 `table/not_over` before."""
    replay = await _replay(request, table_id)
    try:
        replay.game.check_seat(seat)
    except GameError as exc:
        raise ApiError(Code.REPLAY_INVALID, str(exc)) from exc
    steps = len(replay.events)
    step = min(max(step, 0), steps)
    html = await run_in_threadpool(replay.draw, seat, step)
    return JSONResponse(
        {
            "html": html,
            "step": step,
            "steps": steps,
            "players": replay.game.players,
            "names": replay.names,
        }
    )


#: Rulebook markup a clause's text may use: `code`, **strong**, *emphasis*; and the clause
#: ids its text cites.
_MARKUP = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*")
_CITE = re.compile(r"\b([A-Z]{1,2}-(?:card-[a-z0-9-]+|R?\d+(?:\.\d+)?))\b")


def _clause(ids: list[str], text: str, known: set[str]) -> dict[str, Any]:
    """One clause as the rules template draws it (templates/rules.html): its ids as anchors,
    then its text as parts (plain, code, strong, emphasis, links to the clauses it cites)."""
    return {"ids": ids, "parts": _inline(text, known)}


def _inline(text: str, known: set[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    at = 0
    for m in _MARKUP.finditer(text):
        out += _cited(text[at : m.start()], known)
        if m[1] is not None:
            out.append({"tag": "code", "text": m[1]})
        else:
            tag = "strong" if m[2] is not None else "em"
            out.append({"tag": tag, "parts": _cited(m[2] or m[3], known)})
        at = m.end()
    return out + _cited(text[at:], known)


def _cited(text: str, known: set[str]) -> list[dict[str, Any]]:
    """Plain text, with every clause id it cites that the page holds as a link."""
    out: list[dict[str, Any]] = []
    at = 0
    for m in _CITE.finditer(text):
        if m[1] in known:
            out += [{"tag": "", "text": text[at : m.start()]}, {"tag": "a", "text": m[1]}]
            at = m.end()
    return [*out, {"tag": "", "text": text[at:]}]


@lru_cache(maxsize=16)
def rules_page_context(game_id: str) -> dict[str, Any]:
    """The rulebook of a game as the rules page shows it: sections with anchored clauses."""
    sections = parse_rules(rules_text(game_id))
    rulings = game_rulings(game_id)
    if rulings:
        # refusals cite rulings too ("[K-R19]"): they get anchors like the clauses
        sections.append(Section("", "Rulings: how timelord decides where the rulebook is silent"))
        sections[-1].clauses.extend(rulings)
    known = {s.id for s in sections if s.id} | {
        i for s in sections for c in s.clauses for i in c.ids
    }
    out = []
    for n, section in enumerate(sections):
        if not section.clauses:
            continue
        out.append(
            {
                "id": section.id,
                "title": section.title,
                "anchor": section.id or f"section-{n}",
                "clauses": [_clause(c.ids, c.text, known) for c in section.clauses],
            }
        )
    example = next((c.ids[0] for s in sections for c in s.clauses if c.ids), "")
    title = timelord.GAMES[game_id].split(" (")[0]
    return {"game": game_id, "title": title, "sections": out, "example": example}


@router.get("/rules/{game_id}", response_class=HTMLResponse, include_in_schema=False)
def rules_page(request: Request, game_id: str) -> Response:
    """A game's rules with an anchor per clause (`/rules/keys#K-5.3`), the same text as
    `timelord rules GAME`; refusals and hints link here."""
    try:
        context = rules_page_context(game_id)
    except (ConfigError, KeyError):
        return templates.TemplateResponse(
            request, "error.html", {"reason": f"no rules for {game_id!r}"}, status_code=404
        )
    return templates.TemplateResponse(request, "rules.html", context)


#: The games with a how-to-play page (templates/howto/GAME.html), in the lobby's order.
HOW_TO_PLAY = ("card-game", "episodes", "keys", "clue")


@router.get("/how-to-play/{game_id}", response_class=HTMLResponse, include_in_schema=False)
def how_to_play_page(request: Request, game_id: str) -> Response:
    """Rules for people: a short illustrated page (goal, a turn, an example, how to win, what
    is hidden from whom) beside the clause list, which it links clause by clause."""
    if game_id not in HOW_TO_PLAY:
        return templates.TemplateResponse(
            request, "error.html", {"reason": f"no how-to-play page for {game_id!r}"}, 404
        )
    others = [{"id": g, "name": game_title(g)} for g in HOW_TO_PLAY if g != game_id]
    context = {"game": game_id, "title": game_title(game_id), "others": others}
    return templates.TemplateResponse(request, "how_to_play.html", context)


@router.get("/how-to-play/{game_id}/glossary.json", include_in_schema=False)
def glossary_json(game_id: str) -> Response:
    """Each card's, tile's and power's short text by name (public game data), for the log's
    chips (static/log.js)."""
    if game_id not in timelord.GAMES:
        raise ApiError(Code.GAME_NOT_FOUND, f"no game {game_id!r}")
    words = timelord.load(game_id).glossary()
    return JSONResponse({name: dict(entry) for name, entry in words.items()})


@lru_cache(maxsize=8)
def _lesson(game_id: str) -> tuple[Lesson, list[dict[str, Any]]]:
    """A game's lesson and its plan (every move of the guided game), planned once."""
    lesson = load_lesson(game_id)
    return lesson, [ply.to_json() for ply in plan(lesson)]


def lesson_games() -> list[str]:
    """The games that have a lesson, in the lobby's order."""
    return [g for g in timelord.GAMES if has_lesson(g)]


@router.get("/learn/{game_id}", response_class=HTMLResponse, include_in_schema=False)
def learn_page(request: Request, game_id: str) -> Response:
    """Learn to play: what the lesson teaches, and a button that starts it."""
    try:
        lesson, plies = _lesson(game_id)
    except (ConfigError, KeyError) as exc:
        return templates.TemplateResponse(
            request, "error.html", {"reason": f"no lesson for {game_id!r}: {exc}"}, status_code=404
        )
    steps = sum(1 for p in plies if p["seat"] == LEARNER)
    context = {"lesson": lesson.to_json(), "steps": steps, "game": game_id}
    return templates.TemplateResponse(request, "learn.html", context)


@router.post(
    "/api/learn/{game_id}",
    status_code=201,
    tags=["learn"],
    summary="Start a lesson",
    responses=responses(Code.REQUEST_MALFORMED, Code.LESSON_NOT_FOUND),
    openapi_extra={
        "requestBody": {
            "required": False,
            "content": {
                "application/json": {
                    "schema": {"type": "object", "properties": {}, "additionalProperties": False}
                }
            },
        }
    },
)
async def start_lesson(request: Request, game_id: str) -> Response:
    """A lesson table: the game's lesson deal (public: it is in the game's data, so it is
    dealt even where create requests may not choose a seed, and the table is marked
    seeded), every seat a person's seat so the page plays the lesson's bot moves from the
    plan it is given:
    `{"id", "seats": [{"seat", "agent", "token", "url"}], "watch_url", "lesson", "plan":
    [{"seat", "action", "label", "say"?, "rule"?, "point"?}]}`; 404 `lesson/not_found`."""
    raw = (await request.body()).strip()
    if raw and raw != b"{}":
        raise ApiError(Code.REQUEST_MALFORMED, "a lesson takes no body (or {})")
    try:
        lesson, plies = _lesson(game_id)
    except (ConfigError, KeyError):
        raise ApiError(Code.LESSON_NOT_FOUND, f"there is no lesson for {game_id!r}") from None
    game = lesson.game()
    tables: Tables = request.app.state.tables
    client = request.app.state.proxies.client_address(request.scope)
    live, tokens, _owner = await tables.creating.create(
        game_id,
        dict(game.options),
        ["human"] * game.players,
        lesson.seed,
        client,
        public_deal=True,
        lesson=(LESSON_BOT, len(plies)),
    )
    base = str(request.base_url).rstrip("/")
    answer = {
        "id": live.id,
        "seats": seat_list(live, tokens, base),
        "watch_url": f"{base}/tables/{live.id}",
        "lesson": lesson.to_json(),
        "plan": plies,
    }
    return JSONResponse(answer, status_code=201)
