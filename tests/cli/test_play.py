"""`timelord play` and `timelord replay` in a terminal, driven through scripted input."""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from pathlib import Path

import pytest

from timelord.cli.main import main
from timelord.core import Record, register, replay

register("toy", "tests.core.toy_game:ToyGame", "toy high-card game")


def _script(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> list[str]:
    prompts: list[str] = []
    it: Iterator[str] = iter(answers)

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def test_play_to_the_end_with_bad_input_reprompted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    prompts = _script(monkeypatch, ["", "banana", "0", "9", "?", "1", "1"])
    path = tmp_path / "rec.json"
    code = main(["play", "toy", "--seats", "human,random", "--seed", "3", "--record", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "is not a move" in out and "Type the number" in out
    assert len(prompts) == 7
    assert "Seat 1: play" in out  # the bot's public move, as the human sees it
    assert "Game over." in out
    record = Record.load(path)
    assert record.seats == ["human", "random"] and len(record.actions) == 4
    assert replay(record).winners() == record.result["winners"]  # type: ignore[index]


def test_quit_at_the_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _script(monkeypatch, ["q"])
    assert main(["play", "toy", "--seats", "human,random", "--seed", "3"]) == 1
    assert "abandoned" in capsys.readouterr().out


def test_bad_game_and_option_are_clear_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "chess", "--seats", "random,random"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["play", "toy", "--seats", "random,random", "-o", "colour=red"]) == 2
    assert main(["play", "toy", "--seats", "random,wizard"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def test_replay_prints_every_move_and_the_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "rec.json"
    assert (
        main(
            ["play", "toy", "--seats", "random,random,random", "--seed", "5", "--record", str(path)]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count(": play") == 6 and "Winners:" in out


def test_replay_of_a_corrupt_file_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    assert main(["replay", str(path)]) == 2
    assert "cannot read record" in capsys.readouterr().err


def test_clue_shows_the_notebook_and_odds_can_be_turned_off(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _script(monkeypatch, ["n", "q"])
    assert main(["play", "clue", "--seats", "human,random,random", "--seed", "2"]) == 1
    out = capsys.readouterr().out
    first, _, after = out.partition("Notebook odds off.")
    assert "Notebook" in first and "Deducer's odds" in first and "Jenny 25%" in first
    assert "Notebook" in after and "Deducer's odds" not in after
