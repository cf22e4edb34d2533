"""A move's commit on the event loop (`Db.append`): on PostgreSQL one autocommit statement
on the loop's own connections, on SQLite inline; either way one writer per version, every
accepted action stored with its events, and a notice of this process's own commit is not
read back from the database."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

import timelord
from timelord.server.storage import Conflict, Store
from timelord.server.table.database import Db
from timelord.server.table.live import Live
from timelord.server.table.sync import Sync


def test_each_version_is_committed_once_by_racing_appends(db_url: str) -> None:
    """Two databases' worth of writers (as two processes) race on the event loop: each
    version is stored once, with the winner's action and events; the rest are `Conflict`."""
    stores = [Store(db_url), Store(db_url)]
    stores[0].migrate()
    stores[0].create_table("t", "keys", {"players": 2}, 1, [])
    dbs = [Db(store) for store in stores]

    async def race() -> tuple[list[tuple[int, int]], int]:
        wins: list[tuple[int, int]] = []
        conflicts = 0
        for version in range(1, 6):
            tries = [
                dbs[w % 2].append(
                    "t", version, {"w": w}, [{"kind": "k", "data": {"w": w}}], None, 1, None
                )
                for w in range(4)
            ]
            for w, outcome in enumerate(await asyncio.gather(*tries, return_exceptions=True)):
                if isinstance(outcome, Conflict):
                    conflicts += 1
                else:
                    assert outcome is None, outcome
                    wins.append((version, w))
        for db in dbs:
            await db.aclose()
        return wins, conflicts

    wins, conflicts = asyncio.run(race())
    check = Store(db_url)
    try:
        assert [v for v, _ in wins] == [1, 2, 3, 4, 5] and conflicts == 15
        rows = check.actions("t")
        assert [(r.version, r.action["w"]) for r in rows] == wins
        assert all(r.events == [{"kind": "k", "data": r.action}] for r in rows)
        table = check.table("t")
        assert table is not None and table.version == 5 and table.status == "playing"
    finally:
        check.close()


def test_an_append_against_a_version_the_table_left_stores_nothing(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    store.create_table("t", "keys", {"players": 2}, 1, [])
    db = Db(store)

    async def play() -> None:
        await db.append("t", 1, {"n": 1}, [], None, 0, {"since": 1.0})
        with pytest.raises(Conflict):
            await db.append("t", 3, {"n": 3}, [], None, 0, None)  # skips version 2
        await db.append("t", 2, {"n": 2}, [], {"scores": [1, 0], "winners": [0]}, None, None)
        with pytest.raises(Conflict):  # the table is over: nothing more is stored
            await db.append("t", 3, {"n": 3}, [], None, 0, None)
        await db.aclose()

    asyncio.run(play())
    check = Store(db_url)
    try:
        assert [r.version for r in check.actions("t")] == [1, 2]
        table = check.table("t")
        assert (
            table is not None
            and table.status == "over"
            and table.result
            == {
                "scores": [1, 0],
                "winners": [0],
            }
        )
    finally:
        check.close()


class _Refreshes:
    """A loader that counts the tables it is asked to read back."""

    def __init__(self, live: Live) -> None:
        self.cache = {live.id: live}
        self.refreshed: list[str] = []

    async def refresh(self, live: Live) -> None:
        self.refreshed.append(live.id)


def test_the_notice_of_a_commit_of_this_process_is_not_read_back(sqlite_url: str) -> None:
    """PostgreSQL may deliver the notice of a commit to the committing process before the
    commit returns: while `committing` names that version the notice is its own; a later
    version (another process's) is still read back."""
    game = timelord.load("keys", players=2)
    live = Live("t", game, 1, [], dt.datetime.now(dt.UTC), game.new_game(1))
    loader = _Refreshes(live)
    sync = Sync(Db(Store(sqlite_url)), loader, None)  # type: ignore[arg-type]

    async def hear() -> list[str]:
        live.version, live.committing = 4, 5
        sync.heard("t:5")
        await asyncio.gather(*sync.tasks())
        assert loader.refreshed == []
        sync.heard("t:6")
        await asyncio.gather(*sync.tasks())
        live.committing = 0
        sync.heard("t:5")
        await asyncio.gather(*sync.tasks())
        return loader.refreshed

    assert asyncio.run(hear()) == ["t", "t"]
