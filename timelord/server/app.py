"""The ASGI application: the API, the browser client's pages when present, and the guards
every request passes (body size, per-connection rate, errors as `{"code", "reason", "rule"}`).

Interface for the browser client (`timelord.server.pages`, optional): `pages.router` is a
FastAPI `APIRouter` mounted at the root, its templates live in timelord/server/templates and
its files under timelord/server/static are served at /static. A seat's page is
`/tables/{id}?token=T`, the spectator's `/tables/{id}` (the links POST /api/tables gives).
Pages reach the tables through `request.app.state.tables` (a `Tables`).
"""

from __future__ import annotations

import gc
import importlib
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from timelord.agents import user_agent_class
from timelord.server import frames_log, revocation
from timelord.server.accounts import Accounts
from timelord.server.admission import Admission, Admit
from timelord.server.api import router
from timelord.server.clocks import Clock
from timelord.server.errors import ApiError, Code
from timelord.server.errors import summary as error_summary
from timelord.server.headers import SecurityHeaders
from timelord.server.limits import Limits, Sockets
from timelord.server.origin import SameOrigin
from timelord.server.players_api import Players
from timelord.server.players_api import router as players_router
from timelord.server.proxy import ForwardedScheme, Proxies
from timelord.server.review import router as review_router
from timelord.server.storage import Store, default_url
from timelord.server.table import Tables

log = logging.getLogger("timelord.server")

DESCRIPTION = """Play timelord's games at a table: people by link, bots on the server.

Create a table with POST /api/tables; each human seat gets a token (its secret, given once).
Read a seat's snapshot with GET /api/tables/{id}?token=T (no token: the spectator's), act with
POST /api/tables/{id}/actions?token=T naming the version you saw, or hold a WebSocket at
/api/tables/{id}/ws?token=T: it sends the snapshot on connect and after every change and takes
{"version", "action"} messages, answering refusals as {"code", "reason", "rule", "status"}.
POST /api/tables/{id}/explain?token=T with {"action"} says whether that action would be legal
now and, if not, the engine's reason and rule, without changing the table.
Players: POST /api/players {"name", "password"?} signs up and answers the session cookie
(HttpOnly, SameSite=Lax); POST /api/session logs in, DELETE logs out, GET says who is logged
in, PATCH renames or sets a password. The cookie opens every seat tied to its player wherever
a token is taken. Profiles, histories and leaderboards: /api/players/{name},
/api/players/{name}/games, /api/leaderboard/{game}.
Errors (code, status and meaning: docs/architecture.md):
"""


#: allocations between young collections while serving (Python's default is 700): each move
#: makes a few thousand short-lived objects, and at the default every one of them was scanned
#: several times by a collection that found almost nothing
SERVING_GEN0_THRESHOLD = 10_000


def settle_collector() -> None:
    """Once the server has started: move everything alive then (the imported modules, the
    tables read back) out of the cyclic collector's reach, and collect the young generation
    less often. Measured at 50 busy tables on SQLite, the collector took a tenth of the
    server's CPU, most of it in full collections of about 160 ms each that walked every
    live table (the cost that grew with the table count, and a stall for every seat);
    after this, under 2 %. Objects are still freed by reference counting; only a cycle
    among the frozen ones would stay, which start-up does not leave (it collects first)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(SERVING_GEN0_THRESHOLD, middle, old)


def create_app(
    db_url: str | None = None,
    bot_delay: float = 0.3,
    *,
    agents: Sequence[str] = (),
    rate: float = 200.0,
    burst: float = 400.0,
    clock: Clock | None = None,
    limits: Limits | None = None,
    allow_seed: bool = True,
    trusted_proxies: Sequence[str] = (),
) -> FastAPI:
    """The app over the database at `db_url` (None: a SQLite file in the user's data dir),
    bots waiting `bot_delay` seconds before each move; `agents` are the operator's own agent
    specs ("package.module:Class", "file.py:Class") that seats may name, each checked here;
    `rate`/`burst` bound the requests of one client address, and the WebSocket messages of
    one socket, per second; `limits` the tables, sockets and bot time of clients and of the
    server; `allow_seed` lets a create request choose the seed (`timelord serve` refuses it
    unless `--allow-seed`); X-Forwarded-For is believed only from `trusted_proxies`; `clock`
    is where table clocks read the time (the real one unless a test hands in its own)."""
    for spec in agents:
        user_agent_class(spec)  # ConfigError now, not when a table first seats it
    frames_log.install()
    limits = limits or Limits()
    proxies = Proxies(trusted_proxies)
    admission = Admission(proxies, rate, burst, limits.connections_per_client)
    store = Store(db_url or default_url())
    tables = Tables(store, bot_delay, agents, limits=limits, allow_seed=allow_seed, timer=clock)
    accounts = Accounts(store)
    players = Players(store, accounts)
    tables.moves.on_finish = players.finished
    revocation.watch_links(tables)
    revocation.watch_sessions(tables, accounts)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await tables.start()
        try:
            yield
        finally:
            await tables.stop()

    app = FastAPI(
        title="timelord", description=DESCRIPTION + error_summary() + ".\n", lifespan=lifespan
    )
    app.state.tables = tables
    app.state.accounts = accounts
    app.state.players = players
    app.state.limits = (rate, burst)
    app.state.proxies = proxies
    #: the request rate and connections of each address (`timelord serve`'s protocol
    #: refuses by it too, before a request becomes an ASGI call)
    app.state.admission = admission
    app.state.sockets = Sockets(limits)
    app.include_router(router)
    app.include_router(players_router)
    app.include_router(review_router)
    _mount_client(app)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        where = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in exc.errors()
        )
        refusal = ApiError(Code.REQUEST_MALFORMED, where or "malformed request")
        return JSONResponse(refusal.body(), status_code=refusal.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        # http/<status> for what no route answers (405: a method the path does not take)
        code = Code.HTTP_NOT_FOUND.code if exc.status_code == 404 else f"http/{exc.status_code}"
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:  # every method the path takes, not one route's
            headers["Allow"] = ", ".join(_methods(app, request.url.path))
        return JSONResponse(
            {"code": code, "reason": str(exc.detail), "rule": ""},
            status_code=exc.status_code,
            headers=headers or None,
        )

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        refusal = ApiError(Code.SERVER_ERROR)
        return JSONResponse(refusal.body(), status_code=refusal.status)

    app.add_middleware(SameOrigin, proxies=proxies)
    app.add_middleware(ForwardedScheme, proxies=proxies)
    app.add_middleware(SecurityHeaders)  # errors get the headers too (a refusal has its own)
    app.add_middleware(Admit, admission=admission)  # outermost: first to meet a request
    app.openapi = lambda: _exact_openapi(app)  # type: ignore[method-assign]
    return app


def _exact_openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, made to say what the server answers: a request that fails
    validation gets 400 request/malformed (the handler above), never FastAPI's 422."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    from fastapi.openapi.utils import get_openapi

    doc = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    error = {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    }
    for item in doc.get("paths", {}).values():
        for operation in item.values():
            responses = operation.get("responses", {})
            found = responses.get("422", {}).get("content", {}).get("application/json", {})
            if found.get("schema", {}).get("$ref", "").endswith("/HTTPValidationError"):
                del responses["422"]
                responses.setdefault("400", {"description": "request/malformed", **error})
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    _hoist_defs(doc, schemas)
    app.openapi_schema = doc
    return doc


def _hoist_defs(node: Any, schemas: dict[str, Any]) -> None:
    """Move the `$defs` of request bodies the routes document themselves (`body_doc`) into
    the document's components, pointing their `$ref`s there: `#/$defs/X` means the root of
    the whole document, where nothing of that name is."""
    if isinstance(node, dict):
        for name, schema in node.pop("$defs", {}).items():
            schemas.setdefault(name, schema)
            _hoist_defs(schema, schemas)
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            node["$ref"] = "#/components/schemas/" + ref.removeprefix("#/$defs/")
        for value in list(node.values()):
            _hoist_defs(value, schemas)
    elif isinstance(node, list):
        for value in node:
            _hoist_defs(value, schemas)


def _methods(app: FastAPI, path: str) -> list[str]:
    """The methods some route of `app` takes at `path` (a 405's Allow header)."""
    from starlette.routing import Match

    found = []
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        scope = {"type": "http", "path": path, "method": method, "root_path": ""}
        if any(route.matches(scope)[0] == Match.FULL for route in app.routes):
            found.append(method)
    return found


def _mount_client(app: FastAPI) -> None:
    """The browser client's pages and files, when that part of the package is installed."""
    try:
        pages = importlib.import_module("timelord.server.pages")
    except ModuleNotFoundError as exc:
        if exc.name != "timelord.server.pages":
            raise
        pages = None
    if pages is not None:
        app.include_router(pages.router)
    static = Path(__file__).parent / "static"
    if static.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/static", StaticFiles(directory=static), name="static")
