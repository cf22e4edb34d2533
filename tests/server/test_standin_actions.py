"""Every stored action says whether the stand-in played it for the seat's person, so the
count that decides whether a seat is rated for its person (docs/ratings.md) survives a
restart or another process reading the table, and a seat's log can say "the stand-in
played for you" per event (the events' `"standin": true`)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from timelord.core import CorruptRecord, Record
from timelord.server import create_app
from timelord.server.migrations import upgrade
from timelord.server.storage import Store

from .helpers import wait_for
from .test_api import snap
from .test_life import call, make, token

RATE = 1e6


def _live(client: TestClient, table: Any) -> Any:
    return client.app.state.tables.loader.cache[table["id"]]  # type: ignore[attr-defined]


def _one_own_move_then_the_stand_in(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Keys table against a random bot where seat 0 makes one move itself, then hands its
    seat to the stand-in: (the table, seat 0's snapshot before its own move)."""
    table = make(client, "keys", ["human", "random"], seed=2, stand_in="random")
    mine = wait_for(lambda: (s := snap(client, table, 0))["to_move"] == 0 and s)
    own = {"version": mine["version"], "action": mine["legal"][0]}
    moved = client.post(
        f"/api/tables/{table['id']}/actions", params={"token": token(table, 0)}, json=own
    )
    assert moved.status_code == 200, moved.text
    assert call(client, table, "seats/0/stand-in", token=token(table, 0)).status_code == 200
    return table, mine


def test_the_stand_ins_actions_are_stored_marked_and_counted_again_after_a_restart(
    db_url: str,
) -> None:
    with TestClient(create_app(db_url, 0, rate=RATE, burst=RATE)) as first:
        table, mine = _one_own_move_then_the_stand_in(first)
        wait_for(lambda: snap(first, table, None)["version"] >= mine["version"] + 6, timeout=30)
        assert call(first, table, "seats/0/reclaim", token=token(table, 0)).status_code == 200
        # at rest (the person to move, or the end), so no bot move lands between the reads
        wait_for(lambda: (s := snap(first, table, 0))["to_move"] == 0 or s["over"])
        live = _live(first, table)
        decided = {seat: list(counts) for seat, counts in live.decided.items()}
        acted = list(live.acted)
        events = snap(first, table, 0)["events"]
    assert decided[0][0] >= 1 and decided[0][1] >= 1, decided  # the person's and the stand-in's
    assert 1 not in decided  # a bot's own seat is nobody's to rate
    stored = Store(db_url).actions(table["id"])
    assert [a.standin for a in stored] == [standin for _, standin in acted]
    marked = [e for e in events if e.get("standin")]
    assert marked and len(marked) < len(events)
    assert all(e["standin"] is True for e in marked)
    assert all(e["data"]["actor"] == 0 for e in marked)  # the person's seat's doings only

    with TestClient(create_app(db_url, 0, rate=RATE, burst=RATE)) as again:
        assert snap(again, table, 0)["events"] == events  # marks told from storage
        assert _live(again, table).decided == decided  # counted again, not forgotten


def test_actions_stored_before_the_mark_read_as_the_persons_own(sqlite_url: str) -> None:
    """Migration 0008 on a database of 0007: its actions get `standin` false."""
    engine = sa.create_engine(sqlite_url)
    upgrade(engine, "0007")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO tables (id, game, options, seed, seats, version, status, created)"
                " VALUES ('t1', 'keys', '{}', 1, '[]', 1, 'playing', CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO actions (table_id, version, action, events)"
                " VALUES ('t1', 1, '{}', '[]')"
            )
        )
    upgrade(engine)
    engine.dispose()
    assert [a.standin for a in Store(sqlite_url).actions("t1")] == [False]


def test_the_record_and_the_replay_mark_what_the_stand_in_played(sqlite_url: str) -> None:
    """The record lists the actions the stand-in played (`"standin"`: their indices in
    `actions`, absent when none) and reads back; the replay's log says who played them."""
    with TestClient(create_app(sqlite_url, 0, rate=RATE, burst=RATE)) as client:
        table, mine = _one_own_move_then_the_stand_in(client)
        wait_for(lambda: snap(client, table, None)["over"], timeout=120)
        acted = list(_live(client, table).acted)
        served = client.get(f"/api/tables/{table['id']}/record").json()
        step = len(served["actions"])
        board = client.get(
            f"/tables/{table['id']}/replay/board", params={"step": step, "seat": 0}
        ).json()
    assert served["standin"] == [i for i, (_, standin) in enumerate(acted) if standin]
    assert served["standin"] and mine["version"] not in served["standin"]  # the person's own
    assert Record.from_json(served).standin == served["standin"]
    assert "the stand-in played this for" in board["html"]
    # only the person's seat is said to be played for: what the stand-in's moves brought
    # about for the bot's seat (its draw) is the bot's own
    assert len(set(re.findall(r"the stand-in played this for ([^<]+)<", board["html"]))) == 1
    old = {k: v for k, v in served.items() if k != "standin"}  # a record made before the mark
    assert Record.from_json(old).standin == []
    assert "standin" not in Record.from_json(old).to_json()  # unmarked records stay as they were
    for bad in ([len(served["actions"])], [-1], [True], "1", [2, 1]):
        with pytest.raises(CorruptRecord):
            Record.from_json({**served, "standin": bad})
