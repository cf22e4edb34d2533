"""/openapi.json says what the server does (issue 18, item 9): schemathesis generates requests
from it, valid and invalid, and checks every answer against it (a bounded run)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from .helpers import Server

#: examples per operation: about a minute for the whole API on two loaded cores
EXAMPLES = 25


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("schema")
    # few bot tables per client: generated tables with ismcts:hard seats would otherwise
    # keep the server's search workers busy long after the run
    limits = ("--bot-tables-per-client", "2")
    server = Server(f"sqlite:///{root / 'tables.sqlite3'}", 0.0, root / "log", extra=limits)
    try:
        server.wait_ready()
        # a table to aim at, so that table routes are reached past their 404
        made = server.client.post("/api/tables", json={"game": "keys", "seats": ["human"] * 2})
        assert made.status_code == 201
        server.table = made.json()  # type: ignore[attr-defined]
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def api(served: Server) -> Any:
    schema = schemathesis.openapi.from_url(f"{served.url}/openapi.json")
    return schema


schema = schemathesis.pytest.from_fixture("api")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_is_the_one_the_schema_describes(case: Any) -> None:
    # a request the schema allows may still be refused for what no schema can say (two
    # seats for a three-player option, an unknown game): a coded 4xx, which is checked
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_the_schema_closes_bodies_and_bounds_values(served: Server) -> None:
    doc = served.client.get("/openapi.json").json()
    bodies = {
        path: op["requestBody"]["content"]["application/json"]["schema"]
        for path, item in doc["paths"].items()
        for method, op in item.items()
        if method == "post" and "requestBody" in op
    }
    for path, body in bodies.items():
        assert body.get("additionalProperties") is False, path
    create = bodies["/api/tables"]
    assert create["properties"]["seats"]["minItems"] == 1
    since = next(
        p
        for p in doc["paths"]["/api/tables/{table_id}"]["get"]["parameters"]
        if p["name"] == "since"
    )
    assert since["schema"]["anyOf"][0]["minimum"] == 0
    for path in ("/tables/{table_id}/board", "/tables/{table_id}/replay/board"):
        assert "403" in doc["paths"][path]["get"]["responses"], path


def test_options_answers_the_methods_a_path_takes(served: Server) -> None:
    answer = served.client.options("/api/tables")
    assert answer.status_code == 405
    assert set(answer.headers["allow"].replace(" ", "").split(",")) == {"GET", "POST"}
