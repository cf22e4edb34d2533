"""Storage on SQLite and PostgreSQL: migrations at start, one writer per version."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import inspect, text

from timelord.server.storage import Conflict, Store


def _head() -> str:
    """The newest revision of the migrations shipped in the package."""
    from pathlib import Path

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    import timelord.server.migrations as migrations

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def test_migrations_create_the_schema_once(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate()
        store.migrate()  # a second start finds nothing to do
        tables = set(inspect(store.engine).get_table_names())
        assert {"tables", "actions", "alembic_version"} <= tables
        with store.engine.connect() as conn:
            found = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        assert found == _head()
    finally:
        store.close()


def test_only_one_writer_commits_each_version(db_url: str) -> None:
    """Two stores (as two processes would have) racing for the same versions from several
    threads: each version is committed exactly once and the rest are told `Conflict`."""
    stores = [Store(db_url), Store(db_url)]
    stores[0].migrate()
    stores[0].create_table("t", "keys", {"players": 2}, 1, [])
    wins: list[tuple[int, int]] = []
    conflicts: list[int] = []
    lock = threading.Lock()

    def race(writer: int, version: int) -> None:
        try:
            stores[writer % 2].append("t", version, {"writer": writer}, [], None)
        except Conflict:
            with lock:
                conflicts.append(version)
        else:
            with lock:
                wins.append((version, writer))

    try:
        for version in range(1, 6):
            threads = [threading.Thread(target=race, args=(w, version)) for w in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert sorted(v for v, _ in wins) == [1, 2, 3, 4, 5]
        assert len(conflicts) == 15
        rows = stores[1].actions("t")
        assert [(r.version, r.action["writer"]) for r in rows] == sorted(wins)
        table = stores[1].table("t")
        assert table is not None and table.version == 5
        with pytest.raises(Conflict):
            stores[1].append("t", 5, {}, [], None)
    finally:
        for store in stores:
            store.close()


def test_the_last_action_marks_the_table_over(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.migrate()
        store.create_table("t", "keys", {}, 1, [{"agent": "human", "token_hash": "ab"}])
        store.append("t", 1, {"type": "X"}, [{"kind": "k", "data": {}}], {"winners": [0]})
        table = store.table("t")
        assert table is not None and (table.status, table.result) == ("over", {"winners": [0]})
        assert [t.id for t in store.tables("over")] == ["t"] and store.tables("playing") == []
        assert store.actions("t", after=1) == []
        assert store.actions("t")[0].events == [{"kind": "k", "data": {}}]
    finally:
        store.close()
