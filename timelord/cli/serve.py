"""`timelord serve`: the web app, people and bots at tables in the browser or over the API."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
from collections.abc import Callable

from timelord.core import ConfigError

#: what each limit of `timelord.server.limits.Limits` protects, for --help
_LIMIT_HELP = {
    "tables_per_client": "tables in play one client address may have created",
    "bot_tables_per_client": "of those, tables with a bot seat",
    "creations_per_minute": "tables one client address may create in a minute",
    "tables_total": "tables in play on the whole database",
    "bot_tables_total": "tables with a bot seat in play on the whole database",
    "sockets_per_client": "WebSockets one client address may hold open",
    "sockets_per_table": "spectators' WebSockets open on one table",
    "sockets_per_seat": "WebSockets open on one seat (its person's tabs; never spectators')",
    "connections_per_client": "HTTP requests in progress and WebSockets open of one client "
    "address at once",
    "header_timeout": "seconds a connection has to send a request's headers",
    "bot_move_seconds": "wall-clock seconds one bot move may search",
    "bot_workers": "bot searches running at once (shared round the tables)",
    "archive_after": "seconds without a move after which a table in play is archived",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: %(default)s, this machine)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="database URL, e.g. postgresql+psycopg://user@host/db "
        "(default: a SQLite file in your data directory)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.3,
        metavar="SECONDS",
        help="pause before each bot move (default: %(default)s)",
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="SPEC",
        help="also seat an agent of your own, package.module:Class or path/file.py:Class "
        "(repeatable); tables may then name SPEC as a seat and the lobby offers it",
    )
    parser.add_argument("--open", action="store_true", help="open the lobby in a browser")
    parser.add_argument(
        "--allow-seed",
        action="store_true",
        help="let a new table name its seed (such tables are marked seeded: whoever chose "
        "the seed can know every card); by default the server deals from OS entropy",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="a reverse proxy (address or network) whose X-Forwarded-For is believed "
        "(repeatable); from any other peer the header is ignored",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=200.0,
        metavar="N",
        help="requests per second one client address may make, and messages per second "
        "one WebSocket may send, on average (default: %(default)s)",
    )
    parser.add_argument(
        "--burst",
        type=float,
        default=400.0,
        metavar="N",
        help="how many requests (or messages) may come at once above --rate (default: %(default)s)",
    )
    from timelord.server.limits import Limits

    for limit in dataclasses.fields(Limits):
        default = limit.default
        parser.add_argument(
            f"--{limit.name.replace('_', '-')}",
            type=type(default),
            default=default,
            metavar="N",
            help=f"{_LIMIT_HELP[limit.name]} (default: %(default)s"
            + (")" if limit.name == "bot_workers" else "; 0: no limit)"),
        )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from timelord.server import create_app
    except ModuleNotFoundError as exc:  # an install without the web extra
        raise ConfigError(
            f"serving needs the web extra ({exc.name} is missing): pip install 'timelord[web]'"
        ) from None
    from timelord.server.api import MAX_BODY
    from timelord.server.app import settle_collector
    from timelord.server.limits import Limits
    from timelord.server.protocol import serving_protocol

    if not args.bot_delay >= 0:  # also refuses nan
        raise ConfigError("--bot-delay must be 0 or more seconds")
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(Limits)}
    if any(not value >= 0 for value in values.values()):
        raise ConfigError("limits must be 0 (none) or more")
    if not (args.rate > 0 and args.burst >= 1):
        raise ConfigError("--rate must be more than 0 and --burst at least 1")
    limits = Limits(**values)
    if args.db is not None:
        check_database(args.db)
    check_port(args.host, args.port)
    try:
        app = create_app(
            args.db,
            args.bot_delay,
            agents=args.agent,
            limits=limits,
            allow_seed=args.allow_seed,
            trusted_proxies=args.trusted_proxy,
            rate=args.rate,
            burst=args.burst,
        )
    except ValueError as exc:  # a --trusted-proxy that is no address
        raise ConfigError(str(exc)) from exc
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}/"

    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=MAX_BODY,
        # compressing every snapshot costs more CPU than it saves on a LAN or loopback
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=2,
        # client addresses are read from X-Forwarded-For only from --trusted-proxy peers,
        # by timelord.server.proxy; uvicorn's own handling would trust 127.0.0.1 regardless
        proxy_headers=False,
        # headers late by --header-timeout close their connection; a request past the rate
        # is refused as soon as its headers are read, before it becomes an ASGI call
        http=serving_protocol(limits.header_timeout, app.state.admission),
    )
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            await asyncio.sleep(0.05)
        settle_collector()
        print(f"timelord is serving at {url}", flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(url)

    async def main() -> None:
        task = asyncio.create_task(announce())
        await server.serve()
        task.cancel()

    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        runner.run(main())
    return 0


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (uvicorn[standard] brings it): its
    transports and scheduling cost the server a fraction of asyncio's own CPU per message;
    asyncio's loop otherwise (None)."""
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def check_database(url: str) -> None:
    """Open the database at `url` once before serving, so that a mistyped URL, an unknown
    driver or a missing folder is one line (`ConfigError`), not a traceback from the app's
    start-up inside uvicorn."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ConfigError(
            f"--db {url!r} is not a database URL (e.g. sqlite:///tables.db or "
            "postgresql+psycopg://user@host/db)"
        ) from None
    try:
        engine = create_engine(parsed)
    except NoSuchModuleError:
        unknown = parsed.drivername
        raise ConfigError(f"--db {url!r}: unknown database or driver {unknown!r}") from None
    except ImportError as exc:  # a known dialect whose driver package is not installed
        raise ConfigError(f"--db {url!r}: its driver is not installed ({exc.name})") from None
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise ConfigError(f"--db {url!r}: cannot open the database: {reason}") from None
    finally:
        engine.dispose()


def check_port(host: str, port: int) -> None:
    """Bind the address once before serving (as uvicorn will, SO_REUSEADDR and all), so a
    port in use or an address not of this machine is one line, not uvicorn's log."""
    import socket

    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port} is not a port (0 to 65535)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ConfigError(f"--host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ConfigError(f"cannot serve on {host}:{port}: {exc.strerror}") from None
