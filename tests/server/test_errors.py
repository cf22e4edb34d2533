"""The error registry (issue 29): every refusal the server raises is a registered code with
its status, /openapi.json lists each route's codes from it, and the docs list every code."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from timelord.server.errors import ApiError, Code

ROOT = Path(__file__).resolve().parents[2]


def test_an_error_takes_its_status_and_code_from_the_registry() -> None:
    error = ApiError(Code.ACTION_STALE, "moved on")
    assert (error.status, error.body()) == (
        409,
        {"code": "action/stale", "reason": "moved on", "rule": ""},
    )
    assert ApiError(Code.TABLE_OVER).reason == Code.TABLE_OVER.meaning


def test_no_server_module_raises_an_unregistered_code() -> None:
    literal = re.compile(r"ApiError\(\s*\d{3}")
    found = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "timelord" / "server").rglob("*.py")
        if literal.search(path.read_text())
    ]
    assert found == []


def test_openapi_lists_each_routes_codes(local: TestClient) -> None:
    doc = local.get("/openapi.json").json()
    act = doc["paths"]["/api/tables/{table_id}/actions"]["post"]["responses"]
    assert "action/stale" in act["409"]["description"]
    assert "action/illegal" in act["422"]["description"]
    for code in Code:
        assert code.code in doc["info"]["description"]


def test_the_architecture_doc_lists_every_code_with_its_status() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    rows = set(re.findall(r"^\| `([a-z_]+/[a-z_]+)` \| (\d{3}) \|", text, re.M))
    assert rows == {(code.code, str(code.status)) for code in Code}
