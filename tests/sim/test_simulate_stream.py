"""`timelord simulate` writes games as they finish, checks its paths before playing, and
refuses nonsense counts with one line, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

import tests.support.toy_tricks  # noqa: F401  (registers toy-tricks)
from timelord.cli.main import main
from timelord.sim import match
from timelord.sim.match import _in_order

SEATS = ["--seats", "random,random,random"]


def test_a_stopped_run_keeps_the_games_it_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = match.run_batch
    calls: list[tuple[int, ...]] = []

    def stop_at_third(spec: match.MatchSpec, indices: tuple[int, ...]) -> list[dict[str, Any]]:
        calls.append(indices)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(spec, indices)

    monkeypatch.setattr(match, "run_batch", stop_at_third)
    results, records = tmp_path / "r.jsonl", tmp_path / "rec.jsonl"
    argv = ["simulate", "toy-tricks", "-n", "9", "--batch", "2", "--serial", "-q", *SEATS]
    assert main([*argv, "-r", str(results), "--record", str(records)]) == 130
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [r["result"]["index"] for r in lines] == [0, 1, 2, 3]
    assert len(records.read_text().splitlines()) == 4


@pytest.mark.parametrize(
    "where",
    ["results in a missing folder", "records under a file", "record file in a missing folder"],
)
def test_bad_output_paths_fail_before_any_game(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_games(*args: object) -> list[dict[str, Any]]:
        raise AssertionError("a game was played")

    monkeypatch.setattr(match, "run_batch", no_games)
    a_file = tmp_path / "file.txt"
    a_file.write_text("")
    results = tmp_path / "ok.jsonl"
    results.write_text("an earlier run's games\n")
    extra = {
        "results in a missing folder": ["-r", str(tmp_path / "none" / "r.jsonl")],
        "records under a file": ["-r", str(results), "--record", str(a_file / "records")],
        "record file in a missing folder": [
            "-r",
            str(results),
            "--record",
            str(tmp_path / "none" / "x.jsonl"),
        ],
    }[where]
    assert main(["simulate", "toy-tricks", "-n", "2", "--serial", "-q", *SEATS, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("timelord: error: cannot write") and "Traceback" not in err
    assert results.read_text() == "an earlier run's games\n", "a failed start emptied it"


def test_a_good_start_replaces_the_old_files(tmp_path: Path) -> None:
    results, records = tmp_path / "r.jsonl", tmp_path / "rec.jsonl"
    for path in (results, records):
        path.write_text("old line\n")
    argv = ["simulate", "toy-tricks", "-n", "2", "--serial", "-q", *SEATS]
    assert main([*argv, "-r", str(results), "--record", str(records)]) == 0
    for path in (results, records):
        lines = path.read_text().splitlines()
        assert len(lines) == 2 and "old line" not in lines


@pytest.mark.parametrize("flag", ["--batch", "--workers", "--games"])
@pytest.mark.parametrize("value", ["-1", "0"])
def test_counts_below_one_are_refused(
    flag: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "toy-tricks", "-q", *SEATS, "-r", str(out), flag, value]) == 2
    assert f"{flag} must be at least 1" in capsys.readouterr().err
    assert not out.exists()


class _FakeFuture:
    def __init__(self, batch: int) -> None:
        self.batch = batch

    def result(self) -> list[dict[str, Any]]:
        return [{"batch": self.batch}]


def test_batches_come_out_in_order_with_a_bounded_window() -> None:
    """Finished out of order (the last submitted first); handed on in order, and never more
    than `window` batches submitted ahead of what was handed on."""
    work = [(i,) for i in range(10)]
    outstanding: list[int] = []
    handed: list[int] = []

    def submit(indices: tuple[int, ...]) -> _FakeFuture:
        outstanding.append(indices[0])
        assert indices[0] - len(handed) < 3
        return _FakeFuture(indices[0])

    def wait_first(pending: list[_FakeFuture]) -> Iterable[_FakeFuture]:
        latest = max(pending, key=lambda f: f.batch)
        return [latest]

    for out in _in_order(work, submit, wait_first, window=3):
        handed.append(out[0]["batch"])
    assert handed == list(range(10))
    assert outstanding == list(range(10))


@pytest.mark.parametrize("kwargs", [{"batch": -1}, {"batch": 0}, {"workers": 0}])
def test_a_runner_refuses_counts_below_one(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        match.Runner(**kwargs)


def test_a_seed_over_64_bits_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "toy-tricks", "-q", *SEATS, "--seed", str(1 << 64)]) == 2
    assert "64 bits" in capsys.readouterr().err
