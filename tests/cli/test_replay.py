"""`timelord replay` (issue 33 item 11): --step shows the table after the move it has just
told, an unfinished game is not called a result, and a tampered record is named as corrupt
with its file and step; `timelord review` prints whole labels within 100 columns."""

from __future__ import annotations

import builtins
from pathlib import Path

import pytest

from timelord.cli import readable
from timelord.cli.main import main
from timelord.cli.review import WIDTH, render
from timelord.core import Record, load


@pytest.fixture
def keys_record(tmp_path: Path) -> Path:
    path = tmp_path / "keys.json"
    argv = ["play", "keys", "--seats", "random,random", "--seed", "4", "--record", str(path)]
    assert main(argv) == 0
    return path


def test_step_shows_the_table_after_the_move_it_tells(
    keys_record: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = Record.load(keys_record)
    game = load("keys", **record.options)
    state = game.new_game(record.seed)
    first = game.action_from_json(record.actions[0])
    after = state.apply(first)
    presses = iter(["", ""])

    def enter(prompt: str = "") -> str:
        try:
            return next(presses)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", enter)
    capsys.readouterr()
    assert main(["replay", str(keys_record), "--step", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    told_first = out.split("   1. ", 1)[1].split("   2. ", 1)[0]
    # the picture as people read it (seats and pawns numbered from 1)
    assert readable.picture(game, game.render_view(after.view(0))) in told_first
    assert readable.picture(game, game.render_view(state.view(0))) not in told_first
    assert out.count("Legend:") == 1  # the legend once, not at every step


def test_an_unfinished_game_ends_without_a_result(
    keys_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = Record.load(keys_record)
    half = Record(record.game, record.options, record.seed, record.actions[:6])
    half.save(tmp_path / "half.json")
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "half.json")]) == 0
    out = capsys.readouterr().out
    assert "left unfinished after 6 moves" in out
    assert "Game over" not in out and "Nobody wins" not in out


def test_a_tampered_record_is_named_corrupt_with_its_file_and_step(
    keys_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = Record.load(keys_record)
    game = load("keys", **record.options)
    state = game.new_game(record.seed)
    # the first step at which a move played two steps earlier is no longer legal
    for step, data in enumerate(record.actions):
        if step >= 2 and game.action_from_json(record.actions[step - 2]) not in (
            state.legal_actions()
        ):
            break
        state = state.apply(game.action_from_json(data))
    else:
        raise AssertionError("no step to tamper with")
    actions = list(record.actions)
    actions[step] = actions[step - 2]
    path = tmp_path / "tampered.json"
    Record(record.game, record.options, record.seed, actions).save(path)
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"timelord: error: {path} is corrupt: record step {step}: ")
    assert err.count("\n") == 1


def _decision(step: int, played: str, best: str, costly: bool) -> dict[str, object]:
    return {
        "step": step,
        "costly": costly,
        "loss": 0.1 if costly else 0.0,
        "loss_error": 0.02,
        "played": {"label": played, "value": 0.453, "error": 0.011},
        "best": [{"label": best, "value": 1.0, "error": 0.0}],
    }


def test_review_labels_are_whole_and_the_table_fits_100_columns() -> None:
    """Two Episodes episodes that differ only at their end must both be read whole."""
    one = "play an episode: Doctor 9, Companion 3, Gadget 3, Foe 8, Plot 3, Special 3"
    two = "play an episode: Doctor 9, Companion 3, Gadget 3, Foe 8, Plot 4, Special 3"
    result = {
        "game": "episodes",
        "decisions": [_decision(4, one, two, True), _decision(5, "roll", "roll", False)],
    }
    text = render(result, "Seat 0")
    lines = text.splitlines()
    assert max(map(len, lines)) <= WIDTH
    table = "\n".join(lines[lines.index("") + 1 : lines.index("", lines.index("") + 1)])
    flat = " ".join(table.split())
    for word in ("Plot 3, Special 3", "Plot 4, Special 3"):
        assert word in flat
    # every value stands apart from the label before it
    for line in table.splitlines():
        for value in ("45.3%", "100.0%"):
            if value in line:
                assert line[line.index(value) - 1] == " ", line
    assert "Step 5: played " + one in " ".join(text.split())
