"""The coach on the web: a review is refused before the end and for another table's token,
runs in the background with progress and is stored; hints only where the table allows them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from timelord.core import Record
from timelord.server import create_app

from .conftest import RATE
from .helpers import wait_for
from .test_api import create, post, snap


def _app(url: str) -> TestClient:
    client = TestClient(create_app(url, 0, rate=RATE, burst=RATE))
    return client


def _fast(client: TestClient) -> None:
    """Short searches, so a whole review takes seconds."""
    from timelord.server.review import coaching

    class _Req:
        app = client.app

    found = coaching(_Req())  # type: ignore[arg-type]
    found.review_seconds = 0.02
    found.hint_seconds = 0.2


def test_review_is_refused_before_the_end_and_for_another_tables_token(local: TestClient) -> None:
    mine = create(local, "keys", ["human", "human"])
    other = create(local, "keys", ["human", "random"])
    answer = local.get(f"/api/tables/{mine['id']}/review", params={"seat": 0})
    assert answer.status_code == 403 and answer.json()["code"] == "table/not_over"
    stranger = other["seats"][0]["token"]
    answer = local.get(f"/api/tables/{mine['id']}/review", params={"seat": 0, "token": stranger})
    assert answer.status_code == 403 and answer.json()["code"] == "seat/forbidden"


def test_review_runs_in_the_background_and_is_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    with _app(url) as client:
        _fast(client)
        table = create(client, "episodes", ["heuristic", "random"], seed=3, players=2)
        final = wait_for(lambda: (s := snap(client, table, None))["over"] and s, timeout=60)
        path = f"/api/tables/{table['id']}/review"
        assert client.get(path, params={"seat": 5}).status_code == 400
        first = client.get(path, params={"seat": 0})
        assert first.status_code == 202
        body = first.json()
        assert body["status"] == "running" and body["total"] > 0 and body["review"] is None
        done = wait_for(
            lambda: (a := client.get(path, params={"seat": 0})).status_code == 200 and a.json(),
            timeout=60,
        )
        review = done["review"]
        assert done["done"] == done["total"] == len(review["decisions"])
        record = Record.from_json(client.get(f"/api/tables/{table['id']}/record").json())
        steps = {d["step"] for d in review["decisions"]}
        assert steps and max(steps) < len(record.actions) == final["version"]
        for d in review["decisions"]:
            assert record.actions[d["step"]] == d["played"]["action"]
            assert 0.0 <= d["played"]["value"] <= 1.0 and d["played"]["error"] > 0
    with _app(url) as again:  # stored: a new process answers at once
        stored = again.get(path, params={"seat": 0})
        assert stored.status_code == 200 and stored.json()["review"] == review


def _hint(client: TestClient, table: Any, seat: int) -> Any:
    token = table["seats"][seat]["token"]
    return client.get(f"/api/tables/{table['id']}/hint", params={"token": token})


def test_hints_only_where_the_table_allows_them(local: TestClient) -> None:
    _fast(local)
    plain = create(local, "keys", ["human", "random"], seed=4)
    answer = _hint(local, plain, 0)
    assert answer.status_code == 403 and answer.json()["code"] == "hint/forbidden"
    body = {"game": "keys", "seats": ["human", "human"], "hints": True}
    refused = local.post("/api/tables", json=body)
    assert refused.status_code == 422 and refused.json()["code"] == "config/invalid"
    body = {"game": "keys", "seats": ["human", "random"], "seed": 4, "hints": True}
    made = local.post("/api/tables", json=body)
    assert made.status_code == 201
    table = made.json()
    answer = local.get(f"/api/tables/{table['id']}/hint")
    assert answer.status_code == 403 and answer.json()["code"] == "seat/forbidden"
    view = snap(local, table, 0)
    assert view["to_move"] == 0
    answer = _hint(local, table, 0)
    assert answer.status_code == 200, answer.text
    moves = answer.json()["moves"]
    assert 1 <= len(moves) <= 3
    assert all(m["action"] in view["legal"] for m in moves)
    assert [m["value"] for m in moves] == sorted((m["value"] for m in moves), reverse=True)
    # the hint is a move the seat may play
    assert (
        post(
            local,
            table,
            table["seats"][0]["token"],
            {"version": view["version"], "action": moves[0]["action"]},
        ).status_code
        == 200
    )


def test_openapi_documents_review_and_hint(local: TestClient) -> None:
    paths = local.get("/openapi.json").json()["paths"]
    review = paths["/api/tables/{table_id}/review"]["get"]
    assert {"200", "202", "400", "403", "404", "500"} <= set(review["responses"])
    hint = paths["/api/tables/{table_id}/hint"]["get"]
    assert {"200", "403", "404", "409"} <= set(hint["responses"])


def test_a_hint_whose_client_hung_up_is_answered_as_the_schema_says(local: TestClient) -> None:
    """The search stops when the client leaves (test_scheduler); what the server still writes
    is a coded refusal that /openapi.json declares for the route, not an undeclared 503."""
    body = {"game": "keys", "seats": ["human", "random"], "seed": 4, "hints": True}
    table = local.post("/api/tables", json=body).json()
    token = table["seats"][0]["token"]
    scope = {
        "type": "http",
        "method": "GET",
        "path": f"/api/tables/{table['id']}/hint",
        "raw_path": f"/api/tables/{table['id']}/hint".encode(),
        "query_string": f"token={token}".encode(),
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "scheme": "http",
        "root_path": "",
        "http_version": "1.1",
    }
    incoming = [{"type": "http.request", "body": b"", "more_body": False}]
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    async def ask() -> None:
        await local.app(scope, receive, send)

    assert local.portal is not None
    local.portal.call(ask)
    status = sent[0]["status"]
    answer = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert (status, answer["code"]) == (503, "request/abandoned")
    declared = local.get("/openapi.json").json()["paths"]["/api/tables/{table_id}/hint"]["get"]
    said = declared["responses"][str(status)]
    assert said["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
    assert answer["code"] in said["description"]
    assert set(answer) == {"code", "reason", "rule"}
