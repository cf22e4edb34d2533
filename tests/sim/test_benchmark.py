"""The benchmark command rates a spec at fixed seeds, appends its cells and draws the board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
