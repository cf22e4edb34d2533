"""Bring your own agent: `module:Class` and `file.py:Class` seat specs build any `Agent`
subclass through `make_agent` (so play, simulate and the server's `--agent` take them); bad
specs are refused with a clear `ConfigError`."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

import timelord
from timelord.agents import make_agent
from timelord.core import ConfigError
from timelord.sim.match import MatchSpec, play_game

AGENT_SOURCE = textwrap.dedent(
    """
    from timelord.agents.base import Agent

    class LastAgent(Agent):
        '''Always the last offered action.'''

        def act(self, view, legal, rng):
            return legal[-1]

    class NotAnAgent:
        pass
    """
)


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agents.py"
    path.write_text(AGENT_SOURCE)
    return path


def test_file_spec_builds_the_class_and_plays_a_match(agent_file: Path) -> None:
    game = timelord.load("episodes", players=2)
    spec = f"{agent_file}:LastAgent"
    agent = make_agent(spec, game)
    assert type(agent).__name__ == "LastAgent" and agent.name == spec
    state = game.new_game(1)
    legal = state.legal_actions()
    assert agent.act(state.view(0), legal, timelord.core.Rng(0)) is legal[-1]
    result = play_game(game, [spec, "random"], seed=3, index=0)["result"]
    assert result["length"] > 0 and result["winners"]


def test_module_spec_builds_the_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "mypkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mymodule.py").write_text(AGENT_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    game = timelord.load("keys", players=2)
    try:
        agent = make_agent("mypkg.mymodule:LastAgent", game)
        assert type(agent).__name__ == "LastAgent"
        # simulate checks seats when it builds a match, so a bad one fails before playing
        MatchSpec.build("keys", {"players": 2}, ["mypkg.mymodule:LastAgent", "random"], 2, 0)
        with pytest.raises(ConfigError):
            MatchSpec.build("keys", {"players": 2}, ["mypkg.mymodule:Nope", "random"], 2, 0)
    finally:
        for name in ("mypkg", "mypkg.mymodule"):
            sys.modules.pop(name, None)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("{file}:Missing", "has no Missing"),
        ("{file}:NotAnAgent", "not a concrete subclass"),
        ("{dir}/nowhere.py:LastAgent", "no agent file"),
        ("no_such_module_xyz.sub:LastAgent", "cannot import"),
        ("{file}:", "module:ClassName"),
        ("{bad}:LastAgent", "cannot load agent file"),
        ("nobody", "unknown agent"),
    ],
)
def test_bad_specs_are_config_errors(agent_file: Path, spec: str, words: str) -> None:
    bad = agent_file.with_name("broken.py")
    bad.write_text("def oops(:\n")
    spec = spec.format(file=agent_file, dir=agent_file.parent, bad=bad)
    with pytest.raises(ConfigError, match=words):
        make_agent(spec, timelord.load("clue", players=3))


def test_a_class_that_needs_more_than_the_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "needy.py"
    path.write_text(
        AGENT_SOURCE + "\nclass Needy(LastAgent):\n    def __init__(self, game, x):\n"
        "        super().__init__(game)\n"
    )
    with pytest.raises(ConfigError, match=r"Needy\(game\) failed"):
        make_agent(f"{path}:Needy", timelord.load("clue", players=3))
