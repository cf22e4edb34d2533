"""The coach's numbers at the terminal: a hint and a review show each value's 95% interval
(inside 0-100%) and its verdict, never a bare "±" that reads "±0" as certainty, and say
plainly when the coach is unsure."""

from __future__ import annotations

import re
from typing import Any

import pytest

import timelord.cli.human as human
from timelord.agents.coach import VERDICT_WORDS, hint
from timelord.cli.human import hint_lines
from timelord.cli.main import main
from timelord.cli.review import WIDTH, render
from timelord.core import load

from .test_play import _script

_INTERVAL = re.compile(r"95% interval (\d+)-(\d+)%")


def _move(label: str, value: float, low: float, high: float, verdict: str) -> dict[str, Any]:
    return {"label": label, "value": value, "error": 0.1, "low": low, "high": high,
            "verdict": verdict}  # fmt: skip


def test_hint_lines_show_the_interval_and_the_verdict() -> None:
    lines = hint_lines(
        [_move("move to d1", 0.95, 0.81, 1.0, "best"), _move("stay put", 0.4, 0.2, 0.6, "worse")]
    )
    assert lines[0] == (
        f"  1. move to d1: 95% expected win share, 95% interval 81-100%; {VERDICT_WORDS['best']}"
    )
    assert "95% interval 20-60%; worse" in lines[1]
    assert len(lines) == 2  # nothing unsure, no warning
    assert not any("±" in line for line in lines)


def test_an_unsure_hint_says_so_plainly() -> None:
    lines = hint_lines([_move("a", 0.5, 0.0, 1.0, "unsure"), _move("b", 0.33, 0.0, 0.9, "unsure")])
    assert "unsure" in lines[0]
    assert lines[-1].strip().startswith("The coach is unsure")


def test_a_stored_move_without_low_and_high_takes_them_from_its_error_clipped() -> None:
    old = {"label": "stay put", "value": 0.99, "error": 0.2, "verdict": "best"}
    assert "95% interval 60-100%" in hint_lines([old])[0]


def test_a_real_hint_at_the_terminal_shows_intervals_inside_0_to_100(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(human, "HINT_SECONDS", 0.2)
    _script(monkeypatch, ["hint", "q"])
    assert main(["play", "keys", "--seats", "human,random", "--seed", "4", "--hints"]) == 1
    out = capsys.readouterr().out
    # the coach's moves, each with its value (the former test_hint check, same game)
    listed = re.findall(r"^\s+\d\. (.+): (\d+)% expected win share", out, re.M)
    assert 1 <= len(listed) <= 3
    found = _INTERVAL.findall(out)
    assert 1 <= len(found) <= 3
    for low, high in found:
        assert 0 <= int(low) <= int(high) <= 100
    assert "±" not in out
    assert any(words in out for words in VERDICT_WORDS.values())


def test_the_hint_lines_match_the_coachs_own_values() -> None:
    """The printed interval is the coach's `low`/`high`, not one recomputed differently."""
    game = load("keys", players=2)
    state = game.new_game(seed=4)
    view = state.view(state.to_move)
    moves = hint(game, view, state.legal_actions(), 0.2)
    for move, line in zip(moves, hint_lines(moves), strict=False):
        low, high = map(int, _INTERVAL.search(line).groups())  # type: ignore[union-attr]
        assert (low, high) == (round(100 * move["low"]), round(100 * move["high"]))
        assert VERDICT_WORDS[move["verdict"]] in line


def _decision(step: int, verdict: str, costly: bool) -> dict[str, Any]:
    return {
        "step": step,
        "costly": costly,
        "loss": 0.3 if costly else 0.0,
        "loss_error": 0.1,
        "verdict": verdict,
        "played": _move("stay put", 0.453, 0.3, 0.6, verdict),
        "best": [_move("move to d1", 1.0, 0.9, 1.0, "best")],
    }


def test_the_review_shows_intervals_marks_unsure_decisions_and_the_gains_interval() -> None:
    result = {
        "game": "keys",
        "decisions": [
            _decision(4, "worse", True),
            _decision(9, "unsure", False),
            _decision(12, "close", False),
        ],
    }
    text = render(result, "Seat 0")
    lines = text.splitlines()
    assert max(map(len, lines)) <= WIDTH
    assert "±" not in text
    rows = {line.split()[0]: line for line in lines if line[:4].strip().isdigit()}
    assert rows["5"].split()[1] == "*"
    assert rows["10"].split()[1] == "?"
    assert rows["13"].split()[1] == "stay"  # neither costly nor unsure: no mark
    assert "45.3% 30-60%" in rows["5"] and "100.0% 90-100%" in rows["5"]
    flat = " ".join(text.split())
    assert "The coach is unsure of 1 of 3 decisions" in flat
    # the gain: +30% with 1.96 x 0.1 either side
    assert "better was: move to d1, +30% win share (95%: +10 to +50%)" in flat
