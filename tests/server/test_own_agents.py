"""Bring your own agent to the server: `timelord serve --agent SPEC` (create_app's `agents`)
lets tables seat the operator's own agent; a request can never name code to import."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from timelord.core import ConfigError
from timelord.server import create_app

from .conftest import RATE
from .helpers import wait_for

SOURCE = textwrap.dedent(
    """
    from timelord.agents.base import Agent

    class LastAgent(Agent):
        '''Always the last offered move.'''

        def act(self, view, legal, rng):
            return legal[-1]
    """
)


@pytest.fixture
def spec(tmp_path: Path) -> str:
    path = tmp_path / "house_agents.py"
    path.write_text(SOURCE)
    return f"{path}:LastAgent"


def test_a_table_seats_the_operators_own_agent(sqlite_url: str, spec: str) -> None:
    app = create_app(sqlite_url, 0, agents=[spec], rate=RATE, burst=RATE)
    with TestClient(app) as client:
        body = {"game": "episodes", "seats": [spec, spec], "seed": 3, "options": {}}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        table = answer.json()
        assert [s["agent"] for s in table["seats"]] == [spec, spec]
        final = wait_for(
            lambda: (s := client.get(f"/api/tables/{table['id']}").json())["over"] and s,
            timeout=120,
        )
        assert final["over"] and final["version"] > 10
        assert spec in client.get("/").text  # the lobby offers it


def test_a_request_cannot_name_code_the_operator_did_not_give(local: TestClient, spec: str) -> None:
    body = {"game": "episodes", "seats": ["human", spec], "seed": 3, "options": {}}
    answer = local.post("/api/tables", json=body)
    assert answer.status_code == 422
    assert answer.json()["code"] == "config/invalid"
    assert spec not in local.get("/").text


def test_a_bad_agent_spec_stops_the_server_at_start(sqlite_url: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no agent file"):
        create_app(sqlite_url, 0, agents=[f"{tmp_path / 'missing.py'}:LastAgent"])
    with pytest.raises(ConfigError, match="has no"):
        create_app(sqlite_url, 0, agents=["timelord.agents.base:NoSuchAgent"])
