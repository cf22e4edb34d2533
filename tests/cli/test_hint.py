"""`hint` at the terminal prompt: the coach's top moves when the game allows hints
(`timelord play --hints`, against bots only), a plain refusal otherwise."""

from __future__ import annotations

import pytest

from timelord.cli.main import main

from .test_play import _script


def test_hint_is_refused_where_the_game_does_not_allow_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _script(monkeypatch, ["hint", "q"])
    assert main(["play", "keys", "--seats", "human,random", "--seed", "4"]) == 1
    assert "Hints are off in this game" in capsys.readouterr().out
    assert main(["play", "keys", "--seats", "human,human", "--hints"]) == 2
    assert "hints are for games against bots" in capsys.readouterr().err
