"""`timelord serve` refuses what it cannot serve with one line and exit 2 (issue 33 item 12):
a URL that is no database, an unknown driver, a missing folder, a port in use."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from timelord.cli.main import main

pytest.importorskip("uvicorn")


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("nonsense://x", "unknown database or driver 'nonsense'"),
        ("postgresql+nodriver://u@h/d", "unknown database or driver"),
        ("not a url", "is not a database URL"),
        ("sqlite:///{tmp}/no/such/folder/t.db", "cannot open the database"),
    ],
)
def test_a_database_that_cannot_be_opened_is_one_line(
    db: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "0", "--db", db.format(tmp=tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("timelord: error: ") and words in err
    assert err.count("\n") == 1


def test_a_port_in_use_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = f"sqlite:///{tmp_path / 't.db'}"
        assert main(["serve", "--port", str(port), "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"timelord: error: cannot serve on 127.0.0.1:{port}: ")
    assert err.count("\n") == 1
