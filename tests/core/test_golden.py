"""Golden replays: every recorded game in tests/golden ends in the state it ended in before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.toy_game import ToyGame
from timelord.core import register
from timelord.core.golden import check_golden, golden_entry, random_record, state_hash

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_golden_replay(path: Path) -> None:
    check_golden(path)


def test_a_changed_outcome_is_detected(tmp_path: Path) -> None:
    register("toy", "tests.core.toy_game:ToyGame", "toy high-card game")
    record, final = random_record(ToyGame(players=2), 5)
    path = tmp_path / "toy.json"
    entry = golden_entry(record, final)
    path.write_text(json.dumps(entry))
    check_golden(path)
    entry["final_hash"] = state_hash(ToyGame(players=2).new_game(5))
    path.write_text(json.dumps(entry))
    with pytest.raises(AssertionError, match="final state hash"):
        check_golden(path)
