"""The HTTP contract of issue 12, checked against the engine itself."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import timelord
from timelord.core import Record, Rng, replay

from .helpers import wait_for


def same(value: Any) -> Any:
    """`value` as it looks after a trip through JSON."""
    return json.loads(json.dumps(value))


def create(client: TestClient, game: str, seats: list[str], seed: int = 7, **options: Any) -> Any:
    body = {"game": game, "options": options, "seats": seats, "seed": seed}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def snap(client: TestClient, table: Any, seat: int | None, **params: Any) -> Any:
    if seat is not None:
        params["token"] = table["seats"][seat]["token"]
    answer = client.get(f"/api/tables/{table['id']}", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def post(client: TestClient, table: Any, token: str | None, body: Any) -> Any:
    params = {} if token is None else {"token": token}
    return client.post(f"/api/tables/{table['id']}/actions", params=params, json=body)


def everything(client: TestClient, table: Any) -> list[Any]:
    return [snap(client, table, seat) for seat in (None, 0, 1)]


@pytest.mark.parametrize("game", sorted(timelord.GAMES))
def test_seats_and_spectator_get_exactly_their_view_and_events(
    client: TestClient, game: str
) -> None:
    """Two people at one table, moving through the API: after every move each seat's
    snapshot is the engine's view(seat), legal actions and told events, the spectator's
    view(None) and public events."""
    table = create(client, game, ["human", "human"], seed=3)
    engine = timelord.load(game, players=2)
    state = engine.new_game(3)
    told: dict[int | None, list[Any]] = {None: [], 0: [], 1: []}
    rng = Rng(5)
    for step in range(25):
        for seat in (None, 0, 1):
            got = snap(client, table, seat)
            assert got["version"] == step
            assert got["over"] is state.is_over
            assert got["to_move"] == state.to_move
            assert got["view"] == same(state.view(seat))
            legal = [a.to_json() for a in state.legal_actions()] if seat == state.to_move else []
            assert got["legal"] == same(legal)
            assert got["events"] == same(told[seat])
        if state.is_over:
            break
        mover = state.to_move
        assert mover is not None
        action = rng.choice(state.legal_actions())
        answer = post(
            client,
            table,
            table["seats"][mover]["token"],
            {"version": step, "action": action.to_json()},
        )
        assert answer.status_code == 200, answer.text
        state, events = state.apply_with_events(action)
        for seat in told:
            told[seat].extend(engine.tell(events, seat))
        assert answer.json()["view"] == same(state.view(mover))


def test_since_keeps_only_later_events(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    for version in range(4):
        seat = snap(local, table, None)["to_move"]
        legal = snap(local, table, seat)["legal"]
        token = table["seats"][seat]["token"]
        assert (
            post(local, table, token, {"version": version, "action": legal[0]}).status_code == 200
        )
    full = snap(local, table, 0)["events"]
    per_version = [len(snap(local, table, 0, since=v)["events"]) for v in range(5)]
    assert per_version[0] == len(full) and per_version[4] == 0
    assert per_version == sorted(per_version, reverse=True)
    assert snap(local, table, 0, since=2)["events"] == full[len(full) - per_version[2] :]


def _refusals(table: Any, current: Any, mover: int) -> list[tuple[str | None, Any, int, str]]:
    """(token, body, status, code) of every kind of bad action at this position."""
    other = 1 - mover
    good = current["legal"][0]
    tokens = [s["token"] for s in table["seats"]]
    version = current["version"]
    return [
        (tokens[mover], {"version": version - 1, "action": good}, 409, "action/stale"),
        (tokens[mover], {"version": version + 1, "action": good}, 409, "action/stale"),
        (
            tokens[mover],
            {"version": version, "action": {"type": "Nonsense"}},
            422,
            "action/invalid",
        ),
        (
            tokens[mover],
            {"version": version, "action": {"type": good["type"]}},
            422,
            "action/invalid",
        ),
        (tokens[mover], {"version": version, "action": [1, 2]}, 422, "action/invalid"),
        (tokens[other], {"version": version, "action": good}, 403, "seat/forbidden"),
        ("not-a-token", {"version": version, "action": good}, 403, "seat/forbidden"),
        (None, {"version": version, "action": good}, 403, "seat/forbidden"),
        (tokens[mover], {"version": "0", "action": good}, 400, "request/malformed"),
        (tokens[mover], {"version": version}, 400, "request/malformed"),
        (tokens[mover], [version, good], 400, "request/malformed"),
        (tokens[mover], {"version": version, "action": good, "extra": 1}, 400, "request/malformed"),
    ]


def test_refused_actions_have_their_codes_and_change_nothing(client: TestClient) -> None:
    table = create(client, "keys", ["human", "human"])
    before = everything(client, table)
    mover = before[0]["to_move"]
    current = snap(client, table, mover)
    for token, body, status, code in _refusals(table, current, mover):
        answer = post(client, table, token, body)
        assert answer.status_code == status, (body, answer.text)
        error = answer.json()
        assert (
            error["code"] == code and error["reason"] and set(error) == {"code", "reason", "rule"}
        )
    assert everything(client, table) == before


def test_illegal_action_names_reason_and_rule(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    mover = snap(local, table, None)["to_move"]
    current = snap(local, table, mover)
    engine = timelord.load("keys", players=2)
    state = engine.new_game(7)
    illegal = _not_offered(state.legal_actions())
    expected = state.why_illegal(engine.action_from_json(illegal))
    before = everything(local, table)
    answer = post(local, table, table["seats"][mover]["token"], {"version": 0, "action": illegal})
    assert answer.status_code == 422
    assert answer.json() == {
        "code": "action/illegal",
        "reason": expected.reason,
        "rule": expected.rule,
    }
    assert everything(local, table) == before
    assert current["legal"]


def _not_offered(legal: list[Any]) -> dict[str, Any]:
    """A well-formed action not among `legal`: an offered one with one number changed."""
    offered = [a.to_json() for a in legal]
    for action in offered:
        for key, value in action.items():
            if isinstance(value, int) and not isinstance(value, bool):
                for other in range(60):
                    changed = {**action, key: other}
                    if changed not in offered:
                        return changed
    raise AssertionError("every action has no number to change")


@pytest.mark.parametrize(
    "raw",
    [
        b"{",
        b"",
        b"null",
        b"[]",
        b'{"version": NaN, "action": {}}',
        b"[" * 5000 + b"]" * 5000,
        b"\xff",
    ],
)
def test_malformed_bodies_are_400(local: TestClient, raw: bytes) -> None:
    table = create(local, "keys", ["human", "human"])
    token = table["seats"][0]["token"]
    url, typed = f"/api/tables/{table['id']}/actions", {"Content-Type": "application/json"}
    answer = local.post(url, params={"token": token}, content=raw, headers=typed)
    assert answer.status_code == 400
    assert answer.json()["code"] == "request/malformed"
    assert local.post("/api/tables", content=raw, headers=typed).status_code == 400


def test_oversized_bodies_are_413(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    huge = json.dumps({"version": 0, "action": {"type": "DiscardCard", "card": "x" * 100_000}})
    token = table["seats"][0]["token"]
    url, typed = f"/api/tables/{table['id']}/actions", {"Content-Type": "application/json"}
    answer = local.post(url, params={"token": token}, content=huge, headers=typed)
    assert answer.status_code == 413 and answer.json()["code"] == "request/too_large"
    big_table = {"game": "keys", "seats": ["human"] * 2, "options": {"x": "y" * 100_000}}
    assert local.post("/api/tables", json=big_table).status_code == 413


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "seats": ["human", "human"]},
        {"game": "keys", "seats": ["human", "robot"]},
        {"game": "keys", "seats": ["human", "ismcts:sims=100000000"]},
        {"game": "keys", "seats": ["human", "ismcts:impossible"]},
        {"game": "keys", "seats": ["human", 3]},
        {"game": "keys", "seats": ["human"] * 9},
        {"game": "keys", "seats": []},
        {"game": "keys", "seats": ["human", "human"], "options": {"players": 3}},
        {"game": "keys", "seats": ["human", "human"], "options": {"colour": "blue"}},
        {"game": "keys", "seats": ["human", "human"], "options": {"players": "two"}},
        {"game": "keys", "seats": ["human", "human"], "options": {"round_limit": "x"}},
        {"game": "keys", "seats": ["human", "human"], "options": [1]},
        {"game": "keys", "seats": ["human", "human"], "seed": -1},
        {"game": "keys", "seats": ["human", "human"], "seed": "7"},
        {"game": "keys", "seats": ["human", "human"], "seed": True},
        {"game": 5, "seats": ["human", "human"]},
    ],
)
def test_bad_tables_are_refused_with_config_invalid(local: TestClient, body: Any) -> None:
    answer = local.post("/api/tables", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "config/invalid"
    assert local.get("/api/tables").json()["tables"] == []


def test_create_answers_tokens_for_human_seats_and_links(client: TestClient) -> None:
    table = create(client, "episodes", ["human", "random", "human"])
    assert [s["agent"] for s in table["seats"]] == ["human", "random", "human"]
    tokens = [s["token"] for s in table["seats"]]
    assert tokens[1] is None and len(tokens[0]) >= 40 and tokens[0] != tokens[2]
    assert table["seats"][0]["url"].endswith(f"/tables/{table['id']}?token={tokens[0]}")
    assert table["watch_url"].endswith(f"/tables/{table['id']}")
    listed = client.get("/api/tables").json()["tables"]
    assert [(t["id"], t["game"], t["status"]) for t in listed] == [
        (table["id"], "episodes", "playing")
    ]
    assert [s["agent"] for s in listed[0]["seats"]] == ["human", "random", "human"]
    assert tokens[0] not in json.dumps(listed)


def test_unknown_table_is_404(local: TestClient) -> None:
    for path in ("/api/tables/nope", "/api/tables/nope/record", "/api/tables/" + "x" * 300):
        answer = local.get(path)
        assert answer.status_code == 404 and answer.json()["code"] == "table/not_found"
    answer = local.post("/api/tables/nope/actions", json={"version": 0, "action": {}})
    assert answer.status_code == 404 and answer.json()["code"] == "table/not_found"


def test_bad_query_values_are_400(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    assert local.get(f"/api/tables/{table['id']}", params={"since": "x"}).status_code == 400
    assert local.get(f"/api/tables/{table['id']}", params={"since": -1}).status_code == 400
    assert local.get("/api/tables", params={"status": "weird"}).status_code == 400


def test_bots_play_to_the_end_and_the_record_replays(client: TestClient) -> None:
    table = create(client, "card-game", ["random", "heuristic"], seed=11)
    assert client.get(f"/api/tables/{table['id']}/record").status_code in (403, 200)
    final = wait_for(lambda: (s := snap(client, table, None))["over"] and s, timeout=120)
    answer = client.get(f"/api/tables/{table['id']}/record")
    assert answer.status_code == 200
    record = Record.from_json(answer.json())
    assert len(record.actions) == final["version"]
    state = replay(record)
    assert state.is_over
    assert same(state.view(None)) == final["view"]
    assert record.result == {"scores": state.scores(), "winners": state.winners()}
    listed = client.get("/api/tables", params={"status": "over"}).json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]


def test_record_is_refused_before_the_end(local: TestClient) -> None:
    table = create(local, "keys", ["human", "human"])
    answer = local.get(f"/api/tables/{table['id']}/record")
    assert answer.status_code == 403 and answer.json()["code"] == "table/not_over"


def test_every_agent_kind_can_take_a_seat(local: TestClient, sqlite_url: str) -> None:
    from timelord.server import create_app

    specs = ["random", "heuristic", "heuristic:hard", "ismcts:easy", "ismcts:medium", "ismcts:hard"]
    with TestClient(create_app(sqlite_url, bot_delay=600)) as waiting:
        table = create(waiting, "episodes", specs)
        assert [s["agent"] for s in table["seats"]] == specs
    # a bot thinking in a thread and one searching in the process pool really move
    quick = create(local, "keys", ["heuristic:hard", "ismcts:easy"], seed=2)
    wait_for(lambda: snap(local, quick, None)["version"] >= 3, timeout=120)


def test_rate_limit_per_connection(sqlite_url: str) -> None:
    from timelord.server import create_app

    with TestClient(create_app(sqlite_url, 0, rate=1, burst=5)) as limited:
        codes = [limited.get("/api/tables").status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[-1] == 429


def test_openapi_documents_the_contract(local: TestClient) -> None:
    schema = local.get("/openapi.json").json()
    paths = schema["paths"]
    assert {"/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/actions"} <= set(paths)
    assert "/api/tables/{table_id}/record" in paths
    act = paths["/api/tables/{table_id}/actions"]["post"]
    assert {"200", "400", "403", "404", "409", "413", "422"} <= set(act["responses"])
    assert act["requestBody"]["content"]["application/json"]["schema"]["required"] == [
        "version",
        "action",
    ]
    assert "ws" in schema["info"]["description"]


def test_finished_tables_leave_the_cache_and_come_back_the_same(local: TestClient) -> None:
    """In-process state is only a cache: a table read back from the database after it was
    dropped answers exactly as before."""
    local.app.state.tables.loader.cache_limit = 2  # type: ignore[attr-defined]
    tables = local.app.state.tables  # type: ignore[attr-defined]
    made = [create(local, "keys", ["random", "random"], seed=s, round_limit=2) for s in range(4)]
    finals = [wait_for(lambda t=t: (s := snap(local, t, None))["over"] and s) for t in made]
    create(local, "keys", ["human", "human"])  # room is made for it
    assert len(tables.loader.cache) <= 3
    assert made[0]["id"] not in tables.loader.cache
    assert [snap(local, t, None) for t in made] == finals
