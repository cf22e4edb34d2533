"""The WebSocket side of the contract: snapshots on connect and on change, actions, refusals."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from timelord.server import create_app
from timelord.server.table import Outbox

from .helpers import shared
from .test_api import create, snap
from .test_life import label_of


def ws_path(table: Any, seat: int | None, **params: Any) -> str:
    if seat is not None:
        params["token"] = table["seats"][seat]["token"]
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"/api/tables/{table['id']}/ws" + (f"?{query}" if query else "")


def receive(ws: Any) -> Any:
    return json.loads(ws.receive_text())


def test_snapshot_on_connect_and_after_every_change(client: TestClient) -> None:
    table = create(client, "clue", ["human", "human"], seed=4)
    with (
        client.websocket_connect(ws_path(table, 0)) as ws0,
        client.websocket_connect(ws_path(table, 1)) as ws1,
        client.websocket_connect(ws_path(table, None)) as watcher,
    ):
        sockets = {0: ws0, 1: ws1, None: watcher}
        for seat, ws in sockets.items():
            assert shared(receive(ws)) == shared(snap(client, table, seat))
        for version in range(6):
            mover = snap(client, table, None)["to_move"]
            legal = snap(client, table, mover)["legal"]
            sockets[mover].send_text(json.dumps({"version": version, "action": legal[-1]}))
            for seat, ws in sockets.items():
                got = receive(ws)
                assert got["version"] == version + 1
                assert got == snap(client, table, seat)


def _refused(ws: Any, body: Any, status: int, code: str) -> None:
    ws.send_text(body if isinstance(body, str) else json.dumps(body))
    error = receive(ws)
    assert (error["status"], error["code"]) == (status, code), error
    assert set(error) == {"code", "reason", "rule", "status"} and error["reason"]


def test_refusals_over_the_socket_change_nothing(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    mover = snap(local, table, None)["to_move"]
    before = [snap(local, table, seat) for seat in (None, 0, 1)]
    good = before[1 + mover]["legal"][0]
    with (
        local.websocket_connect(ws_path(table, mover)) as mine,
        local.websocket_connect(ws_path(table, 1 - mover)) as theirs,
        local.websocket_connect(ws_path(table, None)) as watcher,
    ):
        for ws in (mine, theirs, watcher):
            receive(ws)
        _refused(mine, {"version": 3, "action": good}, 409, "action/stale")
        _refused(mine, {"version": 0, "action": {"type": "Nope"}}, 422, "action/invalid")
        _refused(mine, "{not json", 400, "request/malformed")
        _refused(mine, {"version": 0}, 400, "request/malformed")
        _refused(mine, json.dumps({"version": 0, "action": "x" * 20_000}), 413, "request/too_large")
        _refused(theirs, {"version": 0, "action": good}, 403, "seat/forbidden")
        _refused(watcher, {"version": 0, "action": good}, 403, "seat/forbidden")
    assert [snap(local, table, seat) for seat in (None, 0, 1)] == before


@pytest.mark.parametrize(
    "query, code", [("token=wrong", 4403), ("since=x", 4400), ("since=%C2%B2", 4400)]
)
def test_bad_connections_are_told_why_and_closed(local: TestClient, query: str, code: int) -> None:
    table = create(local, "keys", ["human", "human"])
    with local.websocket_connect(f"/api/tables/{table['id']}/ws?{query}") as ws:
        error = receive(ws)
        assert error["status"] == code - 4000
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == code


def test_unknown_table_over_the_socket(local: TestClient) -> None:
    with local.websocket_connect("/api/tables/nope/ws") as ws:
        assert receive(ws)["code"] == "table/not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4404


def test_reconnecting_restores_the_seat_exactly(local: TestClient) -> None:
    table = create(local, "episodes", ["human", "random"], seed=9)
    with local.websocket_connect(ws_path(table, 0)) as ws:
        first = receive(ws)
    assert shared(first) == shared(snap(local, table, 0))
    for _ in range(3):
        current = snap(local, table, 0)
        assert current["to_move"] == 0  # the bot answered at once
        token = table["seats"][0]["token"]
        body = {"version": current["version"], "action": current["legal"][0]}
        answer = local.post(
            f"/api/tables/{table['id']}/actions", params={"token": token}, json=body
        )
        assert answer.status_code == 200
        _wait_turn(local, table, 0)
    with local.websocket_connect(ws_path(table, 0)) as ws:
        again = receive(ws)
    assert shared(again) == shared(snap(local, table, 0)) and again["version"] > first["version"]
    with local.websocket_connect(ws_path(table, 0, since=first["version"] + 1)) as ws:
        later = receive(ws)
    assert later["events"] == again["events"][len(again["events"]) - len(later["events"]) :]
    assert 0 < len(later["events"]) < len(again["events"])


def _wait_turn(client: TestClient, table: Any, seat: int) -> None:
    from .helpers import wait_for

    wait_for(lambda: (s := snap(client, table, None))["to_move"] == seat or s["over"])


def test_flooding_is_refused_then_cut_off(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, 0, rate=1, burst=3)) as limited:
        table = create(limited, "keys", ["human", "human"])
        with limited.websocket_connect(ws_path(table, 0)) as ws:
            receive(ws)
            codes = []
            for _ in range(6):
                ws.send_text(json.dumps({"version": 99, "action": {}}))
                codes.append(receive(ws)["code"])
            assert codes[:3] == ["action/stale"] * 3 and codes[-1] == "rate/limited"
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.send_text("{}")
                    receive(ws)
        assert closed.value.code == 1008
        assert snap(limited, table, None)["version"] == 0


def test_outbox_keeps_only_the_latest_snapshot_and_gives_up_on_a_flood() -> None:
    async def scenario() -> None:
        box = Outbox(seat=0, since=0, limit=3)
        box.push_snapshot("s1")
        box.push_message("e1")
        box.push_snapshot("s2")
        box.push_snapshot("s3")
        assert [await box.next(), await box.next()] == ["e1", "s3"]
        for i in range(4):
            box.push_message(f"e{i}")
        assert await box.next() is None

    # in a thread of its own: the browser tests' Playwright keeps an event loop running in
    # this one for the whole session, and asyncio.run refuses to start inside it
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()


def next_delta(ws: Any) -> Any:
    """The next delta a `delta=1` socket sends, past `{"type": "seats"}` messages."""
    while (got := receive(ws)).get("type") == "seats":
        pass
    return got


def apply_delta(client_state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """A client's snapshot after a delta, as the README tells a client to apply one."""
    assert delta["type"] == "delta"
    state = dict(client_state)
    if delta["from"] == 0:
        state["events"] = list(delta["events"])
    else:
        assert delta["from"] == state["version"]
        state["events"] = state["events"] + delta["events"]
    if "view" in delta:
        state["view"] = delta["view"]
    else:
        state["view"] = json.loads(json.dumps(state["view"]))
        for op in delta["view_patch"]:
            keys = [k.replace("~1", "/").replace("~0", "~") for k in op[0].split("/")[1:]]
            parent = state["view"]
            for key in keys[:-1]:
                parent = parent[key]
            if len(op) == 2:
                parent[keys[-1]] = op[1]
            else:
                del parent[keys[-1]]
    for key, value in delta.items():
        if key not in ("type", "from", "events", "view", "view_patch"):
            state[key] = value
    return state


def test_a_delta_socket_is_sent_only_what_its_seat_lacked(client: TestClient) -> None:
    """Issue 29: per change, a `delta=1` socket gets the new events and a patch of its view,
    and applying them gives exactly the seat's snapshot; the plain socket still gets whole
    snapshots."""
    table = create(client, "episodes", ["human", "human", "human"], seed=5)
    with (
        client.websocket_connect(ws_path(table, 0, delta=1)) as ws0,
        client.websocket_connect(ws_path(table, 0)) as plain,
    ):
        mine = receive(ws0)
        assert mine == receive(plain)
        for version in range(12):
            mover = snap(client, table, None)["to_move"]
            legal = snap(client, table, mover)["legal"]
            token = table["seats"][mover]["token"]
            moved = client.post(
                f"/api/tables/{table['id']}/actions?token={token}",
                json={"version": version, "action": legal[0]},
            )
            assert moved.status_code == 200
            delta = next_delta(ws0)
            assert delta["from"] == version and "view_patch" in delta
            assert "seats" not in delta  # a move changes no seat
            mine = apply_delta(mine, delta)
            whole = snap(client, table, 0)
            assert mine == whole
            assert receive(plain) == whole
            assert len(json.dumps(delta)) < len(json.dumps(whole))


def test_after_an_undo_a_delta_socket_is_sent_every_event_again(client: TestClient) -> None:
    """Clue: roll, then move; the move is taken back, and the delta from 0 (whole view,
    every event) gives the seat's snapshot at the version before."""
    made = client.post(
        "/api/tables",
        json={
            "game": "clue",
            "options": {"players": 2},
            "seats": ["human", "human"],
            "seed": 5,
            "undo": True,
        },
    ).json()
    token = made["seats"][0]["token"]

    def play(version: int, want: str) -> None:
        legal = snap(client, made, 0)
        action = label_of("clue", legal, want, players=2)
        moved = client.post(
            f"/api/tables/{made['id']}/actions?token={token}",
            json={"version": version, "action": action},
        )
        assert moved.status_code == 200

    with client.websocket_connect(ws_path(made, 0, delta=1)) as ws:
        mine = receive(ws)
        play(0, "roll the dice")
        mine = apply_delta(mine, next_delta(ws))
        play(1, "move to")
        mine = apply_delta(mine, next_delta(ws))
        undone = client.post(f"/api/tables/{made['id']}/undo?token={token}", json={"version": 2})
        assert undone.status_code == 200, undone.text
        delta = next_delta(ws)
        assert delta["from"] == 0 and delta["version"] == 1 and "view" in delta
        assert apply_delta(mine, delta) == snap(client, made, 0)


def test_a_lagging_delta_socket_gets_one_catch_up_delta() -> None:
    """Deltas a slow reader has not taken are dropped for one from its last sent version."""
    box = Outbox(seat=0, since=0, limit=2, delta=True)

    async def run() -> list[str]:
        box.push_snapshot("s", 3)
        assert await box.next() == "s" and box.delivered == 3
        box.push_delta("d4", 4)
        box.push_delta("d5", 5)
        assert box.lagging()
        assert box.drop_deltas()  # forward from 3: the catch-up may start at 3
        box.push_delta("c6", 6)
        return [await box.next()]

    assert asyncio.run(run()) == ["c6"]
    assert box.delivered == 6
