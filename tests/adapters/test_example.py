"""The bring-your-own-agent example trains, saves and plays as a timelord seat."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import timelord
from timelord.agents import make_agent
from timelord.core import ConfigError
from timelord.sim.match import play_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_train_save_and_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    train = _module("train_episodes")
    policy = train.train(games=8, seed=3, lr=0.01)
    assert policy.w.any(), "training changed no weight"
    weights = tmp_path / "policy.npz"
    policy.save(weights, {"game": "episodes", "players": 2})
    monkeypatch.setenv("TIMELORD_POLICY", str(weights))
    spec = f"{EXAMPLES / 'episodes_policy.py'}:PolicyAgent"
    game = timelord.load("episodes", players=2)
    result = play_game(game, [spec, "random"], seed=5, index=0)["result"]
    assert result["length"] > 0
    # weights of another table are refused, not misread
    with pytest.raises(ConfigError, match="another game"):
        make_agent(spec, timelord.load("episodes", players=3))
