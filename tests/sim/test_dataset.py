"""`timelord dataset` writes per-decision arrays that agree with the records they come from,
the same on one core as on several."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import timelord
from timelord.adapters.encode import encoder_for
from timelord.adapters.space import ActionIndex
from timelord.cli.main import main
from timelord.core import Record
from timelord.core.record import replay_steps


def _load(folder: Path) -> dict[str, np.ndarray]:
    parts = [np.load(p) for p in sorted(folder.glob("part-*.npz"))]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0].files}


def test_a_tiny_dataset_end_to_end(tmp_path: Path) -> None:
    argv = ["dataset", "episodes", "--games", "4", "--seats", "heuristic,random", "--seed", "3"]
    assert main([*argv, "--out", str(tmp_path / "one"), "--serial"]) == 0
    assert main([*argv, "--out", str(tmp_path / "two"), "--workers", "2"]) == 0
    one, two = _load(tmp_path / "one"), _load(tmp_path / "two")
    assert one.keys() == two.keys() and all(np.array_equal(one[k], two[k]) for k in one)
    meta = json.loads((tmp_path / "one" / "meta.json").read_text())
    game = timelord.load("episodes", players=2)
    index, encoder = ActionIndex(game), encoder_for(game)
    assert meta["actions"] == len(index) and meta["observation_size"] == encoder.size
    lines = (tmp_path / "one" / "records.jsonl").read_text().splitlines()
    assert len(lines) == 4
    row = 0
    for line in lines:
        record = Record.from_json(json.loads(line))
        for state, action in replay_steps(record):
            if action is None:
                winners = state.winners()
                continue
            seat = state.to_move
            assert one["seat"][row] == seat and one["step"][row] == row - _first(one, row)
            assert np.array_equal(one["obs"][row], encoder.encode(state.view(seat)))
            mask = np.unpackbits(one["mask"][row], count=len(index))
            assert set(np.flatnonzero(mask)) == set(index.indices(state.legal_actions()))
            assert mask[one["action"][row]] == 1
            row += 1
        game_rows = one["game"] == one["game"][row - 1]
        for seat in range(2):
            share = 1.0 / len(winners) if seat in winners else 0.0
            assert (one["ret"][game_rows & (one["seat"] == seat)] == share).all()
    assert row == len(one["action"])


def _first(arrays: dict[str, np.ndarray], row: int) -> int:
    """The row where the game of `row` starts."""
    return int(np.flatnonzero(arrays["game"] == arrays["game"][row])[0])


def test_bad_arguments_are_usage_errors(tmp_path: Path) -> None:
    assert main(["dataset", "keys", "--games", "0", "--out", str(tmp_path)]) == 2
    assert main(["dataset", "keys", "--seats", "nobody,random", "--out", str(tmp_path)]) == 2
