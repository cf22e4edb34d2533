"""Clocks and a table's status survive a restart, and nothing refills a clock (issue 29,
item 5). Table clocks run on a fake clock the tests move by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from timelord.server import create_app
from timelord.server.storage import Store

from .helpers import FakeClock, wait_for
from .test_api import snap

RATE = 1e6


def _app(db_url: str, clock: FakeClock) -> TestClient:
    return TestClient(create_app(db_url, 0, rate=RATE, burst=RATE, clock=clock))


def _make(client: TestClient, clock: dict[str, Any] | None, stand_in: str = "random") -> Any:
    body = {
        "game": "keys",
        "seats": ["human", "human"],
        "seed": 3,
        "clock": clock,
        "stand_in": stand_in,
    }
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with _app(db_url, clock) as client:
        yield client


def test_a_restarted_server_keeps_a_persons_deadline_without_anyone_opening_the_table(
    db_url: str, clock: FakeClock
) -> None:
    """Before, only tables whose bot was to move were resumed at start: a person's deadline
    passed unnoticed until someone opened the table."""
    with _app(db_url, clock) as first:
        made = _make(first, {"mode": "realtime", "per_move": 0, "bank": 30})
    clock.advance(10)  # the server is down for a while; the person's clock runs on
    store = Store(db_url)
    with _app(db_url, clock):
        clock.advance(19)
        assert not store.table(made["id"]).seats[0].get("stand_in")  # a second left
        clock.advance(2)
        wait_for(lambda: store.table(made["id"]).seats[0].get("stand_in"), timeout=10)
        wait_for(lambda: any("time ran out" in x["text"] for x in store.chat(made["id"])))
    store.close()


def test_asking_the_stand_in_and_reclaiming_at_once_does_not_refill_a_realtime_clock(
    app: TestClient, clock: FakeClock
) -> None:
    """55 s left, stand-in asked, seat taken back at once: still 55 s (it was 60 before)."""
    made = _make(app, {"mode": "realtime", "per_move": 0, "bank": 60})
    token = made["seats"][0]["token"]
    base = f"/api/tables/{made['id']}/seats/0"
    clock.advance(5)
    assert app.post(f"{base}/stand-in?token={token}").status_code == 200
    back = app.post(f"{base}/reclaim?token={token}")
    assert back.status_code == 200
    assert back.json()["clock"]["remaining"][0] == pytest.approx(55, abs=0.01)


def test_a_seat_whose_time_ran_out_gets_a_minute_back_when_reclaimed(
    app: TestClient, clock: FakeClock
) -> None:
    made = _make(app, {"mode": "realtime", "per_move": 0, "bank": 90})
    token = made["seats"][0]["token"]
    wait_for(lambda: snap(app, made, None)["to_move"] == 0)
    clock.advance(91)
    wait_for(lambda: snap(app, made, None)["seats"][0]["stand_in"] == "random", timeout=10)
    back = app.post(f"/api/tables/{made['id']}/seats/0/reclaim?token={token}").json()
    assert back["clock"]["remaining"][0] >= 60


def _board(client: TestClient, made: Any, seat: int) -> str:
    token = made["seats"][seat]["token"]
    answer = client.get(f"/tables/{made['id']}/board?token={token}")
    assert answer.status_code == 200
    return answer.text


def _ended_everywhere(client: TestClient, made: Any) -> None:
    mine = snap(client, made, 0)
    assert (mine["status"], mine["over"], mine["legal"]) == ("abandoned", True, [])
    assert mine["clock"]["deadline"] is None
    board = _board(client, made, 0)
    assert 'data-my-turn="false"' in board and "Your turn" not in board
    assert "data-action=" not in board
    listed = client.get("/api/tables").json()["tables"]
    assert [(t["status"], t["to_move"]) for t in listed if t["id"] == made["id"]] == [
        ("abandoned", None)
    ]


def test_an_ended_table_says_so_everywhere_and_offers_nothing_also_after_a_restart(
    db_url: str, clock: FakeClock
) -> None:
    """Before, the snapshot and board drawn before the end were kept: every page still said
    "Your turn", offered moves (and the End table button, which follows `over`)."""
    with _app(db_url, clock) as client:
        made = _make(client, {"mode": "async", "per_move": 3600})
        token = made["seats"][0]["token"]
        assert "Your turn" in _board(client, made, 0)  # drawn and kept before the end
        assert snap(client, made, 0)["legal"]
        path = f"/api/tables/{made['id']}/ws?token={token}"
        with (
            client.websocket_connect(path) as plain,
            client.websocket_connect(path + "&delta=1") as deltas,
        ):
            json.loads(plain.receive_text())
            json.loads(deltas.receive_text())
            ended = client.post(f"/api/tables/{made['id']}/end?owner={made['owner_token']}")
            assert ended.status_code == 200
            pushed = json.loads(plain.receive_text())
            while (delta := json.loads(deltas.receive_text())).get("type") != "delta":
                pass
            for told in (pushed, delta):
                assert (told["over"], told["status"], told["legal"]) == (True, "abandoned", [])
        _ended_everywhere(client, made)
    with _app(db_url, clock) as again:
        _ended_everywhere(again, made)
