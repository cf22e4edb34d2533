"""The life of a table (issue 19): names, the creator's token, open seats, clocks, the
stand-in bot, undo, rematch and chat, over HTTP and the WebSocket, on SQLite and PostgreSQL.
Clocks run on a fake clock the tests move by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import timelord
from timelord.core import Record, replay
from timelord.server import create_app

from .helpers import FakeClock, wait_for
from .test_api import snap

RATE = 1e6


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    """The app on SQLite and on PostgreSQL, bots that do not wait, time moved by hand."""
    with TestClient(create_app(db_url, 0, rate=RATE, burst=RATE, clock=clock)) as test_client:
        yield test_client


def make(client: TestClient, game: str, seats: list[str], seed: int = 7, **extra: Any) -> Any:
    options = extra.pop("options", {})
    body = {"game": game, "options": options, "seats": seats, "seed": seed, **extra}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def call(client: TestClient, table: Any, path: str, body: Any = None, **params: Any) -> Any:
    return client.post(f"/api/tables/{table['id']}/{path}", params=params, json=body)


def token(table: Any, seat: int) -> str:
    return str(table["seats"][seat]["token"])


def code(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json()["code"]


def label_of(game: str, snapshot: Any, want: str, **options: Any) -> Any:
    """The first legal action of the snapshot whose menu label starts with `want`."""
    engine = timelord.load(game, **options)
    for data in snapshot["legal"]:
        if engine.action_label(snapshot["view"], engine.action_from_json(data)).startswith(want):
            return data
    labels = [
        engine.action_label(snapshot["view"], engine.action_from_json(d)) for d in snapshot["legal"]
    ]
    raise AssertionError(f"no legal action labelled {want!r} among {labels}")


def act(client: TestClient, table: Any, seat: int, action: Any) -> Any:
    version = snap(client, table, seat)["version"]
    body = {"version": version, "action": action}
    return call(client, table, "actions", body, token=token(table, seat))


# -- names, the creator ------------------------------------------------------------------


def test_names_and_seats_in_every_snapshot(app: TestClient) -> None:
    table = make(app, "keys", ["human", "random"], names=["Ann <b>", None])
    assert table["owner_token"] and table["owner_token"] != token(table, 0)
    seats = snap(app, table, 0)["seats"]
    assert seats == [
        {
            "seat": 0,
            "name": "Ann <b>",
            "agent": "human",
            "guest": True,
            "connected": False,
            "stand_in": None,
            "stand_in_name": None,
            "muted": False,
            "named": True,
        },
        {
            "seat": 1,
            "name": "Bot (beginner)",
            "agent": "random",
            "guest": False,
            "connected": True,
            "stand_in": None,
            "stand_in_name": None,
            "muted": False,
            "named": False,
        },
    ]
    with app.websocket_connect(f"/api/tables/{table['id']}/ws?token={token(table, 0)}"):
        assert snap(app, table, None)["seats"][0]["connected"] is True
    wait_for(lambda: snap(app, table, None)["seats"][0]["connected"] is False, timeout=10)
    bad = app.post(
        "/api/tables", json={"game": "keys", "seats": ["human", "human"], "names": ["x" * 33, None]}
    )
    assert code(bad) == (422, "name/invalid")
    assert code(
        app.post("/api/tables", json={"game": "keys", "seats": ["human"] * 2, "colour": 1})
    ) == (400, "request/malformed")


def test_invite_gives_a_new_link_and_the_old_token_is_refused(app: TestClient) -> None:
    table = make(app, "keys", ["human", "random"])
    owner = table["owner_token"]
    assert code(call(app, table, "seats/0/invite", owner=token(table, 0))) == (
        403,
        "owner/forbidden",
    )
    assert code(call(app, table, "seats/1/invite", owner=owner)) == (409, "seat/not_human")
    assert code(call(app, table, "seats/5/invite", owner=owner)) == (404, "seat/not_found")
    answer = call(app, table, "seats/0/invite", owner=owner)
    assert answer.status_code == 200
    fresh = answer.json()
    assert fresh["seat"] == 0 and fresh["url"].endswith(f"?token={fresh['token']}")
    old = app.get(f"/api/tables/{table['id']}", params={"token": token(table, 0)})
    assert code(old) == (403, "seat/forbidden")
    assert (
        app.get(f"/api/tables/{table['id']}", params={"token": fresh["token"]}).status_code == 200
    )


def test_the_creator_ends_a_table_as_abandoned(app: TestClient) -> None:
    table = make(app, "keys", ["human", "human"])
    assert code(call(app, table, "end", owner="nope")) == (403, "owner/forbidden")
    answer = call(app, table, "end", owner=table["owner_token"])
    assert answer.status_code == 200 and answer.json() == {"id": table["id"], "status": "abandoned"}
    now = snap(app, table, 0)
    assert now["status"] == "abandoned" and now["over"] and now["legal"] == []
    assert code(act(app, table, 0, {"type": "x"})) == (422, "action/illegal")
    assert code(call(app, table, "end", owner=table["owner_token"])) == (409, "table/over")
    listed = app.get("/api/tables", params={"status": "abandoned"}).json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]] and listed[0]["winners"] == []
    record = app.get(f"/api/tables/{table['id']}/record").json()
    assert record["result"]["winners"] == []


# -- open seats ---------------------------------------------------------------------------


def test_open_seats_are_claimed_by_name_and_the_last_claim_starts_the_table(
    app: TestClient, clock: FakeClock
) -> None:
    table = make(
        app, "keys", ["open", "open"], clock={"mode": "realtime", "per_move": 5, "bank": 60}
    )
    listed = app.get("/api/tables", params={"status": "open"}).json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]
    assert [s["name"] for s in listed[0]["seats"]] == ["Open seat #1", "Open seat #2"]
    assert snap(app, table, None)["status"] == "open"
    assert code(call(app, table, "seats/0/claim", {"name": ""})) == (422, "name/invalid")
    assert code(call(app, table, "seats/0/claim", {"name": "a\nb"})) == (422, "name/invalid")
    assert code(call(app, table, "seats/0/claim", {"nom": "Ann"})) == (400, "request/malformed")
    assert code(call(app, table, "seats/9/claim", {"name": "Ann"})) == (404, "seat/not_found")
    ann = call(app, table, "seats/0/claim", {"name": "Ann"})
    assert ann.status_code == 200
    claimed = ann.json()
    assert claimed["seat"] == 0 and claimed["name"] == "Ann"
    assert code(call(app, table, "seats/0/claim", {"name": "Bob"})) == (409, "seat/taken")
    waiting = app.get(f"/api/tables/{table['id']}", params={"token": claimed["token"]}).json()
    assert waiting["status"] == "open" and waiting["clock"]["deadline"] is None
    body = {"version": 0, "action": waiting["legal"][0]} if waiting["legal"] else None
    if body is not None:
        refused = call(app, table, "actions", body, token=claimed["token"])
        assert code(refused) == (409, "table/open")
    clock.advance(1000)  # the clock does not run before the table starts
    bob = call(app, table, "seats/1/claim", {"name": "Bob"}).json()
    started = app.get(f"/api/tables/{table['id']}", params={"token": bob["token"]}).json()
    assert started["status"] == "playing"
    assert [s["name"] for s in started["seats"]] == ["Ann", "Bob"]
    assert started["clock"]["remaining"] == [60, 60]


# -- clocks and the stand-in ----------------------------------------------------------------


def test_a_realtime_clock_adds_per_move_up_to_its_bank(app: TestClient, clock: FakeClock) -> None:
    table = make(
        app,
        "clue",
        ["human", "human"],
        seed=5,
        options={"players": 2},
        clock={"mode": "realtime", "per_move": 5, "bank": 60},
    )
    first = snap(app, table, 0)
    assert first["to_move"] == 0 and first["clock"]["mode"] == "realtime"
    clock.advance(20)
    assert snap(app, table, None)["clock"]["remaining"] == [40, 60]
    assert act(app, table, 0, first["legal"][0]).status_code == 200
    after = snap(app, table, None)
    mover = after["to_move"]
    assert after["clock"]["remaining"][0] == 45 or mover == 0
    clock.advance(1)
    both = snap(app, table, None)["clock"]
    due = both["deadline"]
    assert due is not None
    if mover == 0:  # the same seat goes on: its bank, less the second, runs on
        assert both["remaining"][0] == 44
    else:
        assert both["remaining"] == [45, 59]


def test_an_async_clock_gives_each_move_its_own_deadline(app: TestClient, clock: FakeClock) -> None:
    table = make(
        app,
        "clue",
        ["human", "human"],
        seed=5,
        options={"players": 2},
        clock={"mode": "async", "per_move": 86400},
    )
    clock.advance(3600)
    assert snap(app, table, None)["clock"]["remaining"] == [82800, 86400]
    assert code(
        app.post(
            "/api/tables", json={"game": "keys", "seats": ["human"] * 2, "clock": {"mode": "async"}}
        )
    ) == (422, "config/invalid")


def test_time_running_out_hands_the_seat_to_its_stand_in_and_reclaim_takes_it_back(
    app: TestClient, clock: FakeClock
) -> None:
    table = make(
        app,
        "episodes",
        ["human", "random"],
        seed=9,
        options={"players": 2},
        clock={"mode": "realtime", "per_move": 0, "bank": 30},
        stand_in="random",
    )
    wait_for(lambda: snap(app, table, None)["to_move"] == 0, timeout=10)
    clock.advance(29.5)
    for _ in range(20):  # half a second before the deadline nothing happens, however long
        assert snap(app, table, None)["seats"][0]["stand_in"] is None
    clock.advance(1.0)  # half a second past it
    wait_for(lambda: snap(app, table, None)["seats"][0]["stand_in"] == "random", timeout=10)
    wait_for(lambda: snap(app, table, None)["version"] >= 3, timeout=20)  # the stand-in plays
    notices = app.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert any(
        m["seat"] is None and "standing in for Seat 1" in m["text"] and "time ran out" in m["text"]
        for m in notices
    )
    mine = snap(app, table, 0)
    if mine["legal"]:
        refused = call(
            app,
            table,
            "actions",
            {"version": mine["version"], "action": mine["legal"][0]},
            token=token(table, 0),
        )
        assert code(refused) == (409, "seat/stand_in")
    assert code(call(app, table, "seats/1/reclaim", token=token(table, 0))) == (
        403,
        "seat/forbidden",
    )
    back = call(app, table, "seats/0/reclaim", token=token(table, 0))
    assert back.status_code == 200 and back.json()["seats"][0]["stand_in"] is None
    wait_for(lambda: snap(app, table, 0)["legal"] or snap(app, table, 0)["over"], timeout=10)
    played = snap(app, table, 0)
    if played["legal"]:
        moved = call(
            app,
            table,
            "actions",
            {"version": played["version"], "action": played["legal"][0]},
            token=token(table, 0),
        )
        assert moved.status_code == 200
    lines = app.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert "took their seat back" in lines[-1]["text"]


def test_a_player_may_ask_the_stand_in_to_play(app: TestClient) -> None:
    table = make(app, "keys", ["human", "random"], seed=2, stand_in="random")
    assert code(call(app, table, "seats/0/stand-in", token="nope")) == (403, "seat/forbidden")
    answer = call(app, table, "seats/0/stand-in", token=token(table, 0))
    assert answer.status_code == 200 and answer.json()["seats"][0]["stand_in"] == "random"
    wait_for(lambda: snap(app, table, None)["version"] >= 6, timeout=20)
    bad = app.post(
        "/api/tables", json={"game": "keys", "seats": ["human"] * 2, "stand_in": "human"}
    )
    assert code(bad) == (422, "config/invalid")


# -- undo --------------------------------------------------------------------------------


def test_undo_is_refused_after_a_roll_or_another_seats_move_and_accepted_otherwise(
    app: TestClient,
) -> None:
    options = {"players": 2}
    table = make(app, "clue", ["human", "human"], seed=5, options=options, undo=True)
    start = snap(app, table, 0)
    roll = label_of("clue", start, "roll the dice", **options)
    assert act(app, table, 0, roll).status_code == 200
    rolled = snap(app, table, 0)
    refused = call(app, table, "undo", {"version": rolled["version"]}, token=token(table, 0))
    assert code(refused) == (409, "undo/forbidden") and "random" in refused.json()["reason"]
    move = label_of("clue", rolled, "move to", **options)
    assert act(app, table, 0, move).status_code == 200
    moved = snap(app, table, 0)
    assert code(
        call(app, table, "undo", {"version": moved["version"] - 1}, token=token(table, 0))
    ) == (409, "action/stale")
    assert code(call(app, table, "undo", {"version": moved["version"]}, token=token(table, 1))) == (
        409,
        "undo/forbidden",
    )
    assert code(call(app, table, "undo", {"v": 1}, token=token(table, 0))) == (
        400,
        "request/malformed",
    )
    back = call(app, table, "undo", {"version": moved["version"]}, token=token(table, 0))
    assert back.status_code == 200, back.text
    again = back.json()
    assert again["version"] == rolled["version"] and again["view"] == rolled["view"]
    assert again["legal"] == rolled["legal"] and again["events"] == rolled["events"]
    # the record keeps what was finally played: another move in its place, then the end
    other = [a for a in rolled["legal"] if a != move]
    assert act(app, table, 0, other[0]).status_code == 200
    final = snap(app, table, None)
    call(app, table, "end", owner=table["owner_token"])
    record = Record.from_json(app.get(f"/api/tables/{table['id']}/record").json())
    assert len(record.actions) == final["version"] and record.actions[-1] == other[0]
    assert replay(record).view(None) == final["view"]


def test_undo_is_refused_after_a_seen_card_a_reveal_and_on_tables_without_it(
    app: TestClient,
) -> None:
    # Keys: opening a door turns a tile over (a reveal, and a card drawn)
    keys = make(app, "keys", ["human", "human"], seed=5, undo=True)
    opened = label_of("keys", snap(app, keys, 0), "open")
    assert act(app, keys, 0, opened).status_code == 200
    refused = call(app, keys, "undo", {"version": 1}, token=token(keys, 0))
    assert code(refused) == (409, "undo/forbidden")
    # Episodes: discarding draws from the deck
    episodes = make(app, "episodes", ["human", "human"], seed=5, options={"players": 2}, undo=True)
    assert act(app, episodes, 0, snap(app, episodes, 0)["legal"][0]).status_code == 200
    refused = call(app, episodes, "undo", {"version": 1}, token=token(episodes, 0))
    assert code(refused) == (409, "undo/forbidden")
    # a table made without undo refuses it whatever the move
    plain = make(app, "clue", ["human", "human"], seed=5, options={"players": 2})
    start = snap(app, plain, 0)
    assert act(app, plain, 0, label_of("clue", start, "roll", players=2)).status_code == 200
    assert (
        act(app, plain, 0, label_of("clue", snap(app, plain, 0), "move to", players=2)).status_code
        == 200
    )
    refused = call(app, plain, "undo", {"version": 2}, token=token(plain, 0))
    assert code(refused) == (409, "undo/forbidden") and "without undo" in refused.json()["reason"]


def test_undo_is_refused_once_another_seat_has_moved(app: TestClient) -> None:
    table = make(app, "clue", ["human", "human"], seed=5, options={"players": 2}, undo=True)
    while (now := snap(app, table, None))["to_move"] == 0:
        assert act(app, table, 0, snap(app, table, 0)["legal"][0]).status_code == 200
    assert act(app, table, 1, snap(app, table, 1)["legal"][0]).status_code == 200
    refused = call(app, table, "undo", {"version": now["version"] + 1}, token=token(table, 0))
    assert code(refused) == (409, "undo/forbidden")
    assert "another seat" in refused.json()["reason"]


# -- rematch ------------------------------------------------------------------------------


def test_a_rematch_asked_twice_gives_one_table_with_seats_rotated(app: TestClient) -> None:
    table = make(
        app,
        "keys",
        ["human", "random"],
        seed=3,
        options={"round_limit": 1},
        clock={"mode": "async", "per_move": 3600},
        names=["Ann", None],
    )
    assert code(call(app, table, "rematch", token=token(table, 0))) == (409, "table/not_over")
    path = f"/api/tables/{table['id']}/ws?token={token(table, 0)}"
    with app.websocket_connect(path) as ws:
        while not (now := snap(app, table, 0))["over"]:
            if now["legal"]:
                act(app, table, 0, now["legal"][0])
        first = call(app, table, "rematch", token=token(table, 0))
        assert first.status_code == 200, first.text
        made = first.json()
        while (told := json.loads(ws.receive_text())).get("type") != "rematch":
            pass
        assert told == {"type": "rematch", "table": made["table"], "url": made["url"]}
    second = call(app, table, "rematch", token=token(table, 0)).json()
    assert second == made and made["seat"] == 1
    assert made["url"].endswith(f"/tables/{made['table']}?token={token(table, 0)}")
    fresh = app.get(f"/api/tables/{made['table']}", params={"token": token(table, 0)}).json()
    assert [s["agent"] for s in fresh["seats"]] == ["random", "human"]
    assert fresh["seats"][1]["name"] == "Ann" and fresh["clock"]["mode"] == "async"
    assert snap(app, table, None)["rematch"] == made["table"]
    assert code(call(app, table, "rematch")) == (403, "seat/forbidden")


# -- chat ---------------------------------------------------------------------------------


def test_chat_is_stored_in_order_capped_limited_and_mutable(app: TestClient) -> None:
    table = make(app, "keys", ["human", "human"], names=["Ann", "Bob"])
    base = f"/api/tables/{table['id']}/ws"
    with (
        app.websocket_connect(f"{base}?token={token(table, 0)}") as ann,
        app.websocket_connect(base) as watcher,
    ):
        for ws in (ann, watcher):
            ws.receive_text()  # the snapshot
        ann.send_text(json.dumps({"type": "chat", "text": "<script>alert(1)</script> hi"}))
        ann.send_text(json.dumps({"type": "chat", "text": "x" * 501}))
        watcher.send_text(json.dumps({"type": "chat", "text": "hello"}))
        got = {
            "ann": [json.loads(ann.receive_text()) for _ in range(2)],
            "watcher": [json.loads(watcher.receive_text()) for _ in range(2)],
        }
        for who, refusal in (("ann", "chat/too_long"), ("watcher", "seat/forbidden")):
            lines = [m for m in got[who] if m.get("type") == "chat"]
            assert [m["code"] for m in got[who] if "code" in m] == [refusal]
            assert len(lines) == 1 and lines[0]["n"] == 1 and lines[0]["seat"] == 0
            assert lines[0]["name"] == "Ann"
            assert lines[0]["text"] == "<script>alert(1)</script> hi"
        ann.send_text(json.dumps({"type": "chat", "text": "a", "extra": 1}))
        assert json.loads(ann.receive_text())["code"] == "request/malformed"
    said = call(app, table, "chat", {"text": "second"}, token=token(table, 1))
    assert said.status_code == 204
    codes = [
        call(app, table, "chat", {"text": "spam"}, token=token(table, 1)).status_code
        for _ in range(8)
    ]
    assert 429 in codes
    owner = table["owner_token"]
    assert code(call(app, table, "seats/0/mute", {"muted": True}, owner="x")) == (
        403,
        "owner/forbidden",
    )
    assert call(app, table, "seats/0/mute", {"muted": True}, owner=owner).json() == {
        "seat": 0,
        "muted": True,
    }
    assert code(call(app, table, "chat", {"text": "hey"}, token=token(table, 0))) == (
        403,
        "chat/muted",
    )
    lines = app.get(f"/api/tables/{table['id']}/chat").json()["messages"]
    assert [m["n"] for m in lines] == list(range(1, len(lines) + 1))
    assert [m["text"] for m in lines[:2]] == ["<script>alert(1)</script> hi", "second"]
    later = app.get(f"/api/tables/{table['id']}/chat", params={"after": 1}).json()["messages"]
    assert later == lines[1:]
