"""Players' storage: a database left by the previous release upgrades in place at start and
its tables still play (issue 20); the calibration of the bot levels is in test_calibrate."""

from __future__ import annotations

import datetime as dt

from fastapi.testclient import TestClient
from sqlalchemy import JSON, column, insert, inspect, table, text

from tests.server.conftest import RATE
from timelord.core import load
from timelord.server import create_app
from timelord.server.migrations import head, upgrade
from timelord.server.storage import Store
from timelord.server.table import hash_token

# the two tables as revision 0001 made them (the release before players)
_TABLES = table(
    "tables",
    column("id"),
    column("game"),
    column("options", JSON),
    column("seed"),
    column("seats", JSON),
    column("version"),
    column("status"),
    column("result", JSON),
    column("created"),
)
_ACTIONS = table(
    "actions", column("table_id"), column("version"), column("action", JSON), column("events", JSON)
)


def test_a_database_of_the_previous_release_upgrades_at_start_and_plays_on(db_url: str) -> None:
    """Every migration since 0001 runs at start and keeps the tables and their actions (a
    SQLite batch migration with foreign keys on used to delete every action)."""
    store = Store(db_url)
    upgrade(store.engine, "0001")
    game = load("episodes", players=2)
    state = game.new_game(5)
    actions = []
    for _ in range(3):
        action = state.legal_actions()[0]
        state, events = state.apply_with_events(action)
        actions.append((action.to_json(), [e.to_json() for e in events]))
    tokens = ["old-seat-0", "old-seat-1"]
    with store.engine.begin() as conn:
        conn.execute(
            insert(_TABLES).values(
                id="old",
                game="episodes",
                options=game.options,
                seed=5,
                seats=[{"agent": "human", "token_hash": hash_token(t)} for t in tokens],
                version=3,
                status="playing",
                result=None,
                created=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
            )
        )
        for version, (action, events) in enumerate(actions, start=1):
            conn.execute(
                insert(_ACTIONS).values(
                    table_id="old", version=version, action=action, events=events
                )
            )
    store.close()
    with TestClient(create_app(db_url, 0, rate=RATE, burst=RATE)) as client:
        seat = state.to_move
        assert seat is not None
        snap = client.get(f"/api/tables/old?token={tokens[seat]}").json()
        assert snap["version"] == 3 and snap["legal"] == [
            a.to_json() for a in state.legal_actions()
        ]
        moved = client.post(
            f"/api/tables/old/actions?token={tokens[seat]}",
            json={"version": 3, "action": snap["legal"][0]},
        )
        assert moved.status_code == 200 and moved.json()["version"] == 4
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == ["old"]
    store = Store(db_url)
    try:
        names = set(inspect(store.engine).get_table_names())
        assert {"players", "sessions", "ratings", "results", "seat_players"} <= names
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head()
        found = store.table("old")
        # its seed was guessable (revision 0002 marks such tables seeded): never rated
        assert found is not None and found.seeded is True and found.version == 4
    finally:
        store.close()
