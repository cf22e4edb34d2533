"""The head-to-head runner: a game replays exactly from its seed, results add up across runs
through the results file, a bad results file is refused with its line, and the table counts
each side's seats."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from timelord.adapters import headtohead as h2h
from timelord.core import CorruptRecord

OS, TL = h2h.OPENSPIEL, h2h.TIMELORD


def test_a_game_replays_exactly_from_its_seed() -> None:
    """OpenSpiel's stock ISMCTSBot samples worlds with an OS-seeded sampler; ours does not."""
    first = h2h.play("card-game", 1, 2, 11)
    again = h2h.play("card-game", 1, 2, 11)
    assert (first.returns, first.moves, first.seats) == (again.returns, again.moves, again.seats)
    assert first.seats == [TL, OS, TL, OS]  # game 1: the line-up rotated by one seat
    assert sum(first.returns) in (0.0, 1.0)


def test_runs_add_up_through_the_results_file(tmp_path: Path) -> None:
    results, doc = tmp_path / "h2h.jsonl", tmp_path / "strength.md"
    doc.write_text("# Bot strength\n\nkept text\n")
    argv = ["--game", "card-game", "--sims", "2", "--seed", "3", "--quiet", "--write"]
    argv += ["--results", str(results), "--doc", str(doc)]
    assert h2h.main([*argv, "--games", "1"]) == 0
    assert len(h2h.read_results(results)) == 1
    assert h2h.main([*argv, "--games", "2"]) == 0  # plays game 1 only
    got = h2h.read_results(results)
    assert sorted(r.index for r in got) == [0, 1]
    assert h2h.main([*argv, "--games", "2"]) == 0  # nothing left to play
    assert len(h2h.read_results(results)) == 2
    text = doc.read_text()
    assert text.startswith("# Bot strength\n\nkept text\n")
    assert text.count(h2h.BEGIN) == 1
    assert "| card-game | 2 | 2 |" in text
    with pytest.raises(SystemExit):
        h2h.main(["--sims", "1", "--results", str(results)])


def test_a_corrupt_results_line_is_refused_with_its_number(tmp_path: Path) -> None:
    good = h2h.Result("keys", 1, 5, 0, [OS, TL, OS, TL], [0.0, 1.0, 0.0, 0.0], 90, 2.0)
    path = tmp_path / "r.jsonl"
    bad_lines = [
        "{not json",
        json.dumps({**asdict(good), "returns": [1.0]}),
        json.dumps({**asdict(good), "game": "chess"}),
        json.dumps({**asdict(good), "extra": 1}),
        json.dumps([1, 2]),
        json.dumps({**asdict(good), "index": -1}),
        json.dumps({**asdict(good), "seats": "ab"}),
        json.dumps({**asdict(good), "returns": [0.0, 2.0, 0.0, 0.0]}),
    ]
    for bad in bad_lines:
        path.write_text(json.dumps(asdict(good)) + "\n" + bad + "\n")
        with pytest.raises(CorruptRecord, match=":2:"):
            h2h.read_results(path)
    with pytest.raises(SystemExit) as stop:
        h2h.main(["--results", str(path), "--games", "0"])
    assert stop.value.code == 2


def test_the_table_sums_each_sides_seats_and_splits_ties() -> None:
    games = [
        h2h.Result("keys", 1, 5, 0, [OS, TL, OS, TL], [0.0, 1.0, 0.0, 0.0], 100, 60.0),
        h2h.Result("keys", 1, 5, 1, [TL, OS, TL, OS], [0.5, 0.5, 0.0, 0.0], 200, 120.0),
        h2h.Result("keys", 1, 5, 2, [OS, TL, OS, TL], [0.0, 0.0, 0.0, 0.0], 300, 180.0),
        h2h.Result("keys", 2, 5, 0, [OS, TL, OS, TL], [1.0, 0.0, 0.0, 0.0], 100, 60.0),
    ]
    (row,) = h2h.rows(games, seed=1)
    assert (row.game, row.sims, row.games) == ("keys", 5, 3)
    assert row.share == {OS: 0.5, TL: 1.5}
    assert row.length == 200 and row.minutes == 2.0
    cells = row.cells()
    assert cells[3] == "0.167" and cells[5] == "0.500"
    assert h2h.missing(games, "keys", 5, 5, 1) == [3, 4]
