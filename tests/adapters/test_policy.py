"""A trained policy folder plays as the seat spec `ppo:FOLDER` with numpy alone: legal games
in every game, refused when it does not fit the table, never offered to strangers by the
server. (Training itself, with torch: test_train.py.)"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import timelord
from timelord.adapters.encode import encoder_for
from timelord.adapters.policy import (
    Policy,
    PolicyAgent,
    load_policy,
    observation_scale,
    save_policy,
)
from timelord.adapters.space import ActionIndex
from timelord.agents import make_agent
from timelord.cli.main import main
from timelord.core import ConfigError, Rng
from timelord.server.bots import check_spec
from timelord.sim.match import play_game

GAMES = ("card-game", "clue", "episodes", "keys")


def random_policy(game_id: str, players: int, folder: Path, seed: int = 0) -> Policy:
    """A policy of random weights of the right shape, written as `timelord train` would."""
    game = timelord.load(game_id, players=players)
    encoder = encoder_for(game)
    actions = len(ActionIndex(game))
    rng = np.random.default_rng(seed)
    sizes = [encoder.size, 16, 8]
    hidden = tuple(
        (rng.normal(size=(b, a)).astype(np.float32), rng.normal(size=b).astype(np.float32))
        for a, b in itertools.pairwise(sizes)
    )
    head = (
        rng.normal(size=(actions, 8)).astype(np.float32),
        rng.normal(size=actions).astype(np.float32),
    )
    policy = Policy(hidden, head, observation_scale(encoder))
    config = {"game": game_id, "players": players, "options": {}, "recall": False}
    save_policy(folder, policy, config)
    return policy


@pytest.mark.parametrize("game_id", GAMES)
def test_a_policy_folder_plays_legal_games(game_id: str, tmp_path: Path) -> None:
    folder = tmp_path / game_id
    random_policy(game_id, 2, folder)
    for spec in (f"ppo:{folder}", f"ppo:{folder}/sample"):
        # play_game applies every action through the engine's checks: an illegal one raises
        record = play_game(timelord.load(game_id, players=2), [spec, "random"], seed=5, index=0)
        assert record["seats"][0] == spec
        assert 0 in record["result"]["movers"]  # the policy's seat moved (a Clue game
        # may end with no winner, when every accusation was wrong)


def test_the_agent_takes_the_offered_index_with_the_best_logit(tmp_path: Path) -> None:
    policy = random_policy("episodes", 2, tmp_path)
    game = timelord.load("episodes", players=2)
    agent = make_agent(f"ppo:{tmp_path}", game)
    assert isinstance(agent, PolicyAgent) and agent.name == f"ppo:{tmp_path}"
    index, encoder = ActionIndex(game), encoder_for(game)
    state = game.new_game(11)
    for _ in range(30):
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        logits = policy.logits(encoder.encode(state.view(seat)))
        offered = index.indices(legal)
        best = max(offered, key=lambda i: logits[i])
        assert agent.act(state.view(seat), legal, Rng(0)) is offered[best]
        state = state.apply(legal[Rng(seat).below(len(legal))])
        if state.is_over:
            break


def test_the_saved_arrays_load_back_equal(tmp_path: Path) -> None:
    policy = random_policy("clue", 2, tmp_path)
    loaded, config = load_policy(tmp_path)
    assert config["game"] == "clue" and config["format"] == "timelord-policy/1"
    for name, array in policy.arrays().items():
        assert np.array_equal(loaded.arrays()[name], array), name


def test_a_policy_that_does_not_fit_the_table_is_refused(tmp_path: Path) -> None:
    random_policy("keys", 2, tmp_path / "keys")
    with pytest.raises(ConfigError, match="trained on 'keys', not 'clue'"):
        make_agent(f"ppo:{tmp_path / 'keys'}", timelord.load("clue", players=2))
    with pytest.raises(ConfigError, match="trained at 2 players, not 3"):
        make_agent(f"ppo:{tmp_path / 'keys'}", timelord.load("keys", players=3))
    with pytest.raises(ConfigError, match="no trained policy"):
        make_agent(f"ppo:{tmp_path / 'nowhere'}", timelord.load("keys", players=2))
    with pytest.raises(ConfigError, match="ppo:FOLDER"):
        make_agent("ppo", timelord.load("keys", players=2))
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "config.json").write_text('{"format": "other"}')
    np.savez(tmp_path / "bad" / "weights.npz", head_w=np.zeros((1, 1)))
    with pytest.raises(ConfigError, match="policy"):
        make_agent(f"ppo:{tmp_path / 'bad'}", timelord.load("keys", players=2))


def test_strangers_cannot_name_a_policy_folder_to_the_server(tmp_path: Path) -> None:
    """A seat request names no file to read: only the operator's `--agent` may."""
    random_policy("clue", 2, tmp_path / "sample")
    game = timelord.load("clue", players=2)
    with pytest.raises(ConfigError, match="unknown seat"):
        check_spec("ppo:sample", game)
    spec = f"ppo:{tmp_path / 'sample'}"
    assert check_spec(spec, game, own=frozenset({spec})) == spec


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--out", "x"], "give a budget"),
        (["--steps", "10", "--hidden", "wide", "--out", "x"], "--hidden takes widths"),
    ],
)
def test_train_usage_errors_are_one_line(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before anything is imported or trained (torch need not be installed)."""
    assert main(["train", "clue", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("timelord: error: ") and words in err
