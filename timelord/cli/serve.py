"""`timelord serve`: the web app, people and bots at tables in the browser or over the API."""

from __future__ import annotations

import argparse
import asyncio

from timelord.core import ConfigError


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


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from timelord.server import create_app
    from timelord.server.api import MAX_BODY

    if not args.bot_delay >= 0:  # also refuses nan
        raise ConfigError("--bot-delay must be 0 or more seconds")
    app = create_app(args.db, args.bot_delay, agents=args.agent)
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
    )
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            await asyncio.sleep(0.05)
        print(f"timelord is serving at {url}", flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(url)

    async def main() -> None:
        task = asyncio.create_task(announce())
        await server.serve()
        task.cancel()

    asyncio.run(main())
    return 0
