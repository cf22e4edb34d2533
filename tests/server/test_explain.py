"""POST /api/tables/{id}/explain: why an action would be refused, without changing anything."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import timelord

from .test_api import _not_offered, create, everything, snap


def explain(client: TestClient, table: Any, token: str | None, body: Any) -> Any:
    params = {} if token is None else {"token": token}
    return client.post(f"/api/tables/{table['id']}/explain", params=params, json=body)


def test_explain_gives_the_engines_reason_and_changes_nothing(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    mover = snap(local, table, None)["to_move"]
    other = 1 - mover
    current = snap(local, table, mover)
    engine = timelord.load("keys", players=2)
    state = engine.new_game(7)
    illegal = _not_offered(state.legal_actions())
    expected = state.why_illegal(engine.action_from_json(illegal))
    assert expected.reason
    before = everything(local, table)
    token = table["seats"][mover]["token"]

    answer = explain(local, table, token, {"action": illegal})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"legal": False, "reason": expected.reason, "rule": expected.rule}

    legal = current["legal"][0]
    answer = explain(local, table, token, {"action": legal})
    assert answer.json() == {"legal": True, "reason": "", "rule": ""}

    refusals = [
        ("not-a-token", {"action": legal}, 403, "seat/forbidden"),
        (None, {"action": legal}, 403, "seat/forbidden"),
        (table["seats"][other]["token"], {"action": legal}, 403, "seat/forbidden"),
        (token, {"action": {"type": "no-such-move"}}, 422, "action/invalid"),
        (token, {"version": 0, "action": legal}, 400, "request/malformed"),
        (token, [legal], 400, "request/malformed"),
    ]
    for who, body, status, code in refusals:
        answer = explain(local, table, who, body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["code"] == code
    assert everything(local, table) == before


def test_explain_is_documented(local: TestClient) -> None:
    paths = local.get("/openapi.json").json()["paths"]
    route = paths["/api/tables/{table_id}/explain"]["post"]
    assert {"200", "400", "403", "404", "422"} <= set(route["responses"])
    schema = route["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/Explanation")
    assert route["requestBody"]["content"]["application/json"]["schema"]["required"] == ["action"]
