"""`timelord report`: an HTML page with every section and its plots embedded."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

import tests.support.toy_tricks  # noqa: F401  (registers toy-tricks)
from timelord.cli.main import main
from timelord.sim.match import MatchSpec, Runner, write_results
from timelord.sim.report import action_use


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    spec = MatchSpec.build("toy-tricks", {"players": 3}, ["heuristic", "random", "random"], 12, 1)
    records = Runner(workers=1).run(spec, lambda out: None)
    path = tmp_path_factory.mktemp("report") / "toy.results.jsonl"
    with path.open("w") as f:
        write_results(records, f)
    return path


def test_report_has_every_section_and_real_pngs(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(results), "-o", str(out)]) == 0
    page = out.read_text()
    for heading in [
        "Win share per agent",
        "Win share per seat",
        "Game length",
        "Ratings",
        "What the winners played",
    ]:
        assert f"<h2>{heading}</h2>" in page
    images = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert len(images) == 5
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert "The first seat won" in page
    assert "play A6" in page or "play B6" in page


def test_action_use_counts_each_seats_moves() -> None:
    spec = MatchSpec.build("toy-tricks", {"players": 2}, ["random", "random"], 4, 3)
    records = Runner(workers=1).run(spec, lambda out: None)
    rows = action_use(records, top=100)
    total = sum(r.by_winners + r.by_others for r in rows)
    # every action by a winner is counted; those by losers only for texts winners used too
    winner_moves = sum(
        sum(1 for m in r["result"]["movers"] if m in r["result"]["winners"]) for r in records
    )
    assert sum(r.by_winners for r in rows) == winner_moves
    assert total <= sum(r["result"]["length"] for r in records)


def test_report_refuses_an_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    assert main(["report", str(empty)]) == 2
