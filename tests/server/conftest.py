"""Fixtures of the server tests: databases (SQLite, and PostgreSQL when installed) and apps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import Cluster, Server, cluster, postgres_bin
from timelord.server import create_app

#: the test client is one connection for all requests of a test: no limit it could reach
RATE = 1e6


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One throw-away PostgreSQL cluster for the session; each test takes a new database."""
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
    with cluster() as found:
        yield found


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test using this runs against SQLite and against PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    found: Cluster = request.getfixturevalue("postgres")
    return found.new_database()


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The app, on SQLite and on PostgreSQL, with bots that do not wait."""
    with TestClient(create_app(db_url, 0, rate=RATE, burst=RATE)) as test_client:
        yield test_client


@pytest.fixture
def local(sqlite_url: str) -> Iterator[TestClient]:
    """The app on SQLite only, for checks the database plays no part in (input validation)."""
    with TestClient(create_app(sqlite_url, 0, rate=RATE, burst=RATE)) as test_client:
        yield test_client


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Servers a test starts (appended to this list), stopped at the end whatever happens."""
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()
