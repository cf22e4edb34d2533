"""Records replay to the same final state; damaged records fail with a clear CorruptRecord."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from timelord.core import ConfigError, CorruptRecord, IllegalAction, Record, Rng, load, register
from timelord.core.errors import GameOver

register("toy", "tests.core.toy_game:ToyGame", "toy high-card game")


def _random_game(seed: int) -> tuple[Record, dict[str, object]]:
    game = load("toy", players=3)
    state = game.new_game(seed)
    record = Record("toy", game.options, seed)
    rng = Rng(seed)
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        record.actions.append(action.to_json())
        state = state.apply(action)
    return record, state.to_json()


def test_replay_reproduces_final_state_through_a_file(tmp_path: Path) -> None:
    from timelord.core import replay

    record, final = _random_game(4)
    path = tmp_path / "game.json"
    record.save(path)
    assert replay(Record.load(path)).to_json() == final


def test_tampered_record_names_the_bad_step(tmp_path: Path) -> None:
    from timelord.core import replay

    record, _ = _random_game(4)
    record.actions[1] = {"type": "PlayCard", "card": 99}
    with pytest.raises(CorruptRecord, match="step 1"):
        replay(record)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"version": 99}',
        '{"version": 1, "game": "toy"}',
        '{"version": 1, "game": "toy", "options": {}, "seed": "x"}',
        '{"version": 1, "game": "toy", "options": {}, "seed": 1, "actions": [1]}',
    ],
)
def test_corrupt_files_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(CorruptRecord):
        Record.load(path)


def test_missing_file_is_a_corrupt_record(tmp_path: Path) -> None:
    with pytest.raises(CorruptRecord):
        Record.load(tmp_path / "nope.json")


def test_load_refuses_unknown_games_and_options() -> None:
    with pytest.raises(ConfigError, match="unknown game"):
        load("chess")
    with pytest.raises(ConfigError):
        load("toy", colour="blue")
    with pytest.raises(ConfigError):
        load("toy", players=9)


def test_apply_refuses_with_reason_and_rule_and_keeps_state() -> None:
    game = load("toy", players=2)
    state = game.new_game(1)
    before = json.dumps(state.to_json())
    bad = game.action_from_json({"type": "PlayCard", "card": 42})
    with pytest.raises(IllegalAction) as info:
        state.apply(bad)
    assert info.value.reason and info.value.rule == "T-1"
    assert json.dumps(state.to_json()) == before


def test_no_move_after_the_end() -> None:
    record, _ = _random_game(2)
    from timelord.core import replay

    final = replay(record)
    with pytest.raises(GameOver):
        final.apply(load("toy", players=3).action_from_json({"type": "PlayCard", "card": 1}))
