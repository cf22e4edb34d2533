"""The benchmark command rates a spec at fixed seeds, appends its cells and draws the board."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from timelord.core import CorruptRecord
from timelord.sim import benchmark


def test_a_tiny_run_appends_the_same_cells_every_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.jsonl"
    argv = ["heuristic", "--game", "episodes", "--players", "2", "--opponent", "random"]
    argv += ["--games", "4", "--results", str(results)]
    assert benchmark.main(argv) == 0
    assert benchmark.main(argv) == 0
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(lines) == 2
    first, second = lines
    assert {k: v for k, v in first.items() if k != "seconds"} == {
        k: v for k, v in second.items() if k != "seconds"
    }
    assert first["low"] <= first["share"] <= first["high"] and first["games"] == 4
    assert "| `heuristic` | episodes | 2 | `random` | 4 |" in capsys.readouterr().out


def test_the_board_keeps_the_best_sampled_row(tmp_path: Path) -> None:
    board = tmp_path / "benchmark.md"
    board.write_text(f"# x\n{benchmark.BEGIN}\nold\n{benchmark.END}\ntail\n")
    small = benchmark.Cell("a", "keys", 2, "random", 4, 1, 0.5, 0.2, 0.8, 1.0)
    big = benchmark.Cell("a", "keys", 2, "random", 40, 1, 0.6, 0.45, 0.73, 9.0)
    benchmark.write_board([small, big], board)
    text = board.read_text()
    assert big.row() in text and small.row() not in text and "old" not in text
    assert text.endswith(f"{benchmark.END}\ntail\n")


def test_a_bad_spec_is_refused(tmp_path: Path) -> None:
    argv = ["nobody", "--game", "keys", "--players", "2", "--opponent", "random"]
    assert benchmark.main([*argv, "--results", str(tmp_path / "r.jsonl")]) == 2


def test_board_alone_redraws_the_leaderboard_from_the_file(tmp_path: Path) -> None:
    """Others append their rows to the results file; `--board` without a spec plays nothing
    and draws the table from every row there."""
    results, board = tmp_path / "results.jsonl", tmp_path / "benchmark.md"
    board.write_text(f"# x\n{benchmark.BEGIN}\n{benchmark.END}\n")
    mine = benchmark.Cell("ppo:keys", "keys", 2, "random", 40, 2026, 0.9, 0.77, 0.96, 60.0)
    results.write_text(json.dumps(asdict(mine)) + "\n")
    assert benchmark.main(["--board", "--results", str(results), "--doc", str(board)]) == 0
    assert mine.row() in board.read_text()
    assert results.read_text().count("\n") == 1  # nothing was played
    with pytest.raises(SystemExit):
        benchmark.main(["--results", str(results)])  # neither a spec nor --board


def test_a_corrupt_results_line_is_refused_with_its_number(tmp_path: Path) -> None:
    results, board = tmp_path / "results.jsonl", tmp_path / "benchmark.md"
    board.write_text(f"{benchmark.BEGIN}\n{benchmark.END}\n")
    cell = benchmark.Cell("a", "keys", 2, "random", 4, 1, 0.5, 0.2, 0.8, 1.0)
    for bad in ("{torn", json.dumps({**asdict(cell), "extra": 1})):
        results.write_text(json.dumps(asdict(cell)) + "\n" + bad + "\n")
        with pytest.raises(CorruptRecord, match=":2: not a benchmark cell"):
            benchmark.read_cells(results)
        argv = ["--board", "--results", str(results), "--doc", str(board)]
        assert benchmark.main(argv) == 2
