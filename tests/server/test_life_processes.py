"""The life of a table across real processes: clocks survive SIGKILL exactly, two servers on
one PostgreSQL agree on claims, chat and rematches, and a 0001 database upgrades in place."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from sqlalchemy import create_engine, text

from timelord.server.storage import Store

from .helpers import Cluster, Server, wait_for
from .test_processes import snap, start


def test_a_clock_survives_sigkill_and_restart_exactly(
    db_url: str, servers: list[Server], tmp_path: Path
) -> None:
    first = start(servers, db_url, 0.0, tmp_path / "first.log")
    body = {
        "game": "clue",
        "options": {"players": 2},
        "seats": ["human", "human"],
        "seed": 5,
        "clock": {"mode": "realtime", "per_move": 7, "bank": 300},
    }
    table = first.client.post("/api/tables", json=body).json()
    token = table["seats"][0]["token"]
    now = snap(first.client, table["id"], token)
    moved = first.client.post(
        f"/api/tables/{table['id']}/actions",
        params={"token": token},
        json={"version": now["version"], "action": now["legal"][0]},
    )
    assert moved.status_code == 200
    before = snap(first.client, table["id"])["clock"]
    first.kill()

    second = start(servers, db_url, 0.0, tmp_path / "second.log")
    after = snap(second.client, table["id"])["clock"]
    assert after["deadline"] == before["deadline"]  # to the microsecond
    assert after["mode"] == "realtime"
    mover = snap(second.client, table["id"])["to_move"]
    for seat in (0, 1):
        if seat != mover:  # a seat not to move keeps exactly what it had
            assert after["remaining"][seat] == before["remaining"][seat]
    due = dt.datetime.fromisoformat(after["deadline"]).timestamp()
    assert abs(due - dt.datetime.now(dt.UTC).timestamp() - after["remaining"][mover]) < 5


def test_two_servers_on_one_postgres_share_claims_chat_and_rematch(
    postgres: Cluster, servers: list[Server], tmp_path: Path
) -> None:
    url = postgres.new_database()
    a = start(servers, url, 0.0, tmp_path / "a.log")
    b = start(servers, url, 0.0, tmp_path / "b.log")
    body = {"game": "keys", "options": {"round_limit": 1}, "seats": ["open", "open"], "seed": 4}
    table = a.client.post("/api/tables", json=body).json()
    tid = table["id"]
    assert snap(b.client, tid)["status"] == "open"
    ann = a.client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Ann"}).json()
    taken = b.client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": "Eve"})
    assert taken.status_code == 409 and taken.json()["code"] == "seat/taken"
    bob = b.client.post(f"/api/tables/{tid}/seats/1/claim", json={"name": "Bob"}).json()
    wait_for(lambda: snap(a.client, tid)["status"] == "playing", timeout=20)
    assert [s["name"] for s in snap(a.client, tid)["seats"]] == ["Ann", "Bob"]

    from websockets.sync.client import connect

    with connect(a.ws_url(f"/api/tables/{tid}/ws?token={ann['token']}")) as ws:
        json.loads(ws.recv(timeout=30))  # the snapshot
        said = b.client.post(
            f"/api/tables/{tid}/chat", params={"token": bob["token"]}, json={"text": "hi from b"}
        )
        assert said.status_code == 204
        while (line := json.loads(ws.recv(timeout=30))).get("text") != "hi from b":
            pass
        assert line["text"] == "hi from b" and line["name"] == "Bob"
        tokens = {0: ann["token"], 1: bob["token"]}
        servers_of = {0: a, 1: b}
        while not (now := snap(a.client, tid))["over"]:
            seat = now["to_move"]
            mine = snap(servers_of[seat].client, tid, tokens[seat])
            if mine["version"] == now["version"] and mine["legal"]:
                servers_of[seat].client.post(
                    f"/api/tables/{tid}/actions",
                    params={"token": tokens[seat]},
                    json={"version": mine["version"], "action": mine["legal"][0]},
                )
        wait_for(lambda: snap(b.client, tid)["over"], timeout=20)
        from_b = b.client.post(f"/api/tables/{tid}/rematch", params={"token": bob["token"]})
        from_a = a.client.post(f"/api/tables/{tid}/rematch", params={"token": ann["token"]})
        assert from_a.json()["table"] == from_b.json()["table"]
        while (told := json.loads(ws.recv(timeout=30))).get("type") != "rematch":
            pass
        assert told["table"] == from_a.json()["table"]
        assert told["url"].endswith(f"?token={ann['token']}")


def test_a_database_of_0001_upgrades_in_place(db_url: str) -> None:
    """A table stored before 0002 keeps playing once the schema is upgraded."""
    from alembic import command
    from alembic.config import Config

    from timelord.server import migrations

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    engine = create_engine(db_url)
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        conn.execute(
            text(
                "INSERT INTO tables (id, game, options, seed, seats, version, status, created)"
                " VALUES ('old', 'keys', :options, 3, :seats, 0, 'playing', :created)"
            ),
            {
                "options": json.dumps({"players": 2}),
                "seats": json.dumps([{"agent": "human", "token_hash": None}] * 2),
                "created": dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
            },
        )
    engine.dispose()
    store = Store(db_url)
    try:
        store.migrate()
        old = store.table("old")
        assert old is not None
        assert (old.owner_hash, old.clock, old.stand_in, old.undo, old.undo_used) == (
            None,
            None,
            "heuristic",
            False,
            False,
        )
        assert old.rematch is None and old.rev == 0
        store.append("old", 1, {"type": "x"}, [], None)
        assert store.table("old").version == 1  # type: ignore[union-attr]
        assert store.add_chat("old", None, "table", "upgraded")["n"] == 1
    finally:
        store.close()
