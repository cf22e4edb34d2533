"""`timelord serve`: its options and what it prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from timelord.cli.main import build_parser, main

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


def test_serve_refuses_an_agent_it_cannot_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = f"{tmp_path / 'none.py'}:Agent"
    assert main(["serve", "--port", "0", "--agent", missing]) == 2
    err = capsys.readouterr().err
    assert "no agent file" in err and "Traceback" not in err
    assert build_parser().parse_args(["serve", "--agent", "a:B", "--agent", "c:D"]).agent == [
        "a:B",
        "c:D",
    ]
