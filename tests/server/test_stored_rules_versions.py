"""A table stored by an earlier release, before rules versions were kept, still opens and
serves its record under the rules it was played by (docs/rulings.md, "Rules versions")."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from timelord.core import Record, replay
from timelord.server import create_app
from timelord.server.storage import Store

CORPUS = Path(__file__).parents[1] / "games" / "records"


def _store_old_table(url: str, path: Path) -> Record:
    """Write the corpus record at `path` into the database as that release stored it: its
    options without `rules`, then its moves one by one, the last with the result."""
    record = Record.from_json(json.loads(path.read_text())["record"])
    assert "rules" not in record.options
    store = Store(url)
    try:
        store.migrate()
        seats = [{"agent": "human", "token_hash": None}] * len(record.result["scores"])
        store.create_table("old", record.game, record.options, record.seed, seats)
        last = len(record.actions)
        for version, action in enumerate(record.actions, start=1):
            store.append("old", version, action, [], record.result if version == last else None)
    finally:
        store.close()
    return record


def test_an_episodes_table_of_rules_1_serves_its_record(sqlite_url: str) -> None:
    """The issue's case: an Episodes table finished under rules 1 answered 500 record/corrupt
    ("cards are discarded to the hand limit only in the end phase ..."); now it opens, is
    over, and its record names rules 1 and replays to the same end."""
    path = CORPUS / "episodes" / "rules-1" / "episodes-3p-seed2.json"
    record = _store_old_table(sqlite_url, path)
    with TestClient(create_app(sqlite_url, 0, rate=1e6, burst=1e6)) as client:
        table = client.get("/api/tables/old")
        assert table.status_code == 200, table.text
        served = client.get("/api/tables/old/record")
        assert served.status_code == 200, served.text
    again = Record.from_json(served.json())
    assert again.options["rules"] == 1 and again.actions == record.actions
    assert replay(again).scores() == record.result["scores"]
