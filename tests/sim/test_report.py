"""`timelord report`: an HTML page with every section and its plots embedded, figures a
designer can trust, and no traceback for a perfect result, malformed lines or missing extras."""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import tests.sim.toy_first  # noqa: F401  (registers toy-first)
from timelord.cli.main import main
from timelord.sim.match import MatchSpec, Runner, read_results, write_results


def _play(specs: list[str], games: int, seed: int = 1) -> list[dict[str, Any]]:
    spec = MatchSpec.build("toy-first", {"players": len(specs)}, specs, games, seed)
    return Runner(workers=1).run(spec, lambda out: None)


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    with path.open("w") as f:
        write_results(records, f)
    return path


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "toy.results.jsonl"
    return _write(path, _play(["heuristic", "random", "random"], 12))


def test_report_has_every_section_and_real_pngs(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(results), "-o", str(out)]) == 0
    page = out.read_text()
    for heading in [
        "Win share per agent",
        "Win share per seat",
        "Game length",
        "Scores and margins",
        "Ratings",
        "Cards",
    ]:
        assert f"<h2>{heading}</h2>" in page
    images = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert len(images) == 6
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert "The seat that moved first" in page
    assert "Mixed agents (heuristic, random)" in page
    # cards by design (a rank), never by copy ("play A6") or for moves that play none
    assert "<td>rank 6</td>" in page and "play A6" not in page and "rank 1" not in page


def test_a_perfect_result_is_reported(tmp_path: Path) -> None:
    """One agent won every game: its Wilson interval ends at 1, a hair below the share once
    rounded, which matplotlib refused as a negative error bar."""
    records = _play(["heuristic", "random"], 10)
    for record in records:
        winner = record["seats"].index("heuristic")
        record["result"]["winners"] = [winner]
        record["result"]["places"] = [1 if s == winner else 2 for s in range(2)]
    path = _write(tmp_path / "perfect.jsonl", records)
    assert main(["report", str(path), "-o", str(tmp_path / "p.html")]) == 0
    assert "<td>1.000</td>" in (tmp_path / "p.html").read_text()


def test_malformed_lines_are_left_out_and_counted(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = results.read_text().splitlines()
    no_result = json.loads(lines[0])
    no_result["result"] = None
    bad_winner = json.loads(lines[1])
    bad_winner["result"]["winners"] = [7]
    other_game = json.loads(lines[2])
    other_game["seats"] = ["random", "random"]
    junk = [
        "not json",
        "[1, 2]",
        json.dumps(no_result),
        json.dumps(bad_winner),
        json.dumps(other_game),
        "[" * 100_000,
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([*lines[3:], *junk]) + "\n")
    assert main(["report", str(path), "-o", str(tmp_path / "m.html")]) == 0
    err = capsys.readouterr().err
    assert "left out 6 malformed line(s)" in err and "line 10" in err
    page = (tmp_path / "m.html").read_text()
    assert "6 malformed lines" in page and "9 games" in page
    skipped: list[str] = []
    assert len(list(read_results(path, skipped))) == 9 and len(skipped) == 6


def test_missing_sim_extras_say_how_to_install(
    results: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["report", str(results)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'timelord[sim]'" in err and "Traceback" not in err


def test_report_refuses_an_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text("")
    assert main(["report", str(empty)]) == 2


def test_undecided_games_lower_the_fair_share_not_the_first_player(tmp_path: Path) -> None:
    """Half the games nobody won: the first player winning a quarter of its games (half of
    the decided ones, in a 2-player game) is no disadvantage."""
    records = _play(["random", "random"], 8)
    for i, record in enumerate(records):
        first = record["result"]["first"]
        record["result"]["winners"] = [first] if i % 4 == 0 else [] if i % 2 else [1 - first]
        record["result"]["places"] = [1, 1]
    path = _write(tmp_path / "undecided.jsonl", records)
    assert main(["report", str(path), "-o", str(tmp_path / "u.html")]) == 0
    page = (tmp_path / "u.html").read_text()
    assert "won 0.250 of its 8 games" in page and "fair share of 0.250" in page
    assert "no advantage that this many games can show" in page
    assert "4 ended without one" in page
