"""`timelord serve`: its options and what it prints."""

from __future__ import annotations

from pathlib import Path

from timelord.cli.main import build_parser

from .helpers import Server


def test_serve_binds_loopback_by_default() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.bot_delay, args.open) == (
        "127.0.0.1",
        8000,
        None,
        0.3,
        False,
    )


def test_serve_prints_its_address_and_answers(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, 0.0, tmp_path / "log")
    try:
        server.wait_ready()
        assert server.client.get("/api/tables").json() == {"tables": []}
        assert server.client.get("/openapi.json").json()["info"]["title"] == "timelord"
    finally:
        server.stop()
