"""`timelord train` end to end at a tiny size: MaskablePPO through the Gymnasium env writes a
folder that plays as `ppo:FOLDER`; the same seed and steps give the same weights; a run cut
by the clock (a fake one) records the steps it trained, and replaying them gives its
weights; the numpy actor is sb3-contrib's. Needs the train extra (torch, sb3-contrib)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import timelord
from timelord.adapters.policy import load_policy
from timelord.adapters.train import train
from timelord.cli.main import main
from timelord.core import ConfigError
from timelord.sim.match import play_game

#: tiny rollouts, so a run of a few hundred steps makes several updates
TINY = {"n_steps": 16, "batch_size": 32, "n_epochs": 2}


def weights(folder: Path) -> dict[str, np.ndarray[Any, Any]]:
    return load_policy(folder)[0].arrays()


def test_the_command_trains_and_the_folder_plays_as_a_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "clue"
    argv = ["train", "clue", "--players", "2", "--steps", "256", "--seed", "4"]
    argv += ["--envs", "4", "--hidden", "16", "--out", str(out), "--opponents", "random", "self"]
    argv += ["--imitate-games", "2"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    config = json.loads((out / "config.json").read_text())
    assert config["steps"] == 512  # one rollout: 128 steps of each of 4 tables
    assert config["game"] == "clue" and config["players"] == 2 and config["hidden"] == [16]
    assert config["opponents"] == ["random", "self"] and config["seed"] == 4
    assert config["imitate"] == "heuristic" and config["imitate_games"] == 2
    assert config["recent_games"]["random"] > 0 and config["recent_games"]["self"] > 0
    assert f"--steps {config['steps']}" in config["command"] and "replay:" in printed
    for seat in (0, 1):  # the engine checks every action of play_game
        specs = ["heuristic", "heuristic"]
        specs[seat] = f"ppo:{out}"
        record = play_game(timelord.load("clue", players=2), specs, seed=9, index=0)
        assert seat in record["result"]["movers"]


def test_the_same_seed_and_steps_give_the_same_weights(tmp_path: Path) -> None:
    def run(name: str, seed: int) -> dict[str, np.ndarray[Any, Any]]:
        train(
            "episodes",
            tmp_path / name,
            steps=96,
            seed=seed,
            envs=2,
            hidden=(8,),
            ppo=TINY,
            imitate_games=2,
            imitate_epochs=2,
        )
        return weights(tmp_path / name)

    first, again, other = run("a", 1), run("b", 1), run("c", 2)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    assert not np.array_equal(first["head_w"], other["head_w"])


def test_a_run_cut_by_the_clock_replays_from_its_recorded_steps(tmp_path: Path) -> None:
    ticks = iter(range(10**6))

    def clock() -> float:
        """One second per reading: the trainer reads it once a step (and at the start)."""
        return float(next(ticks))

    same: dict[str, Any] = {"seed": 3, "envs": 2, "hidden": (8,), "opponents": ("random",)}
    same.update(ppo=TINY, imitate=None)
    cut = train("keys", tmp_path / "cut", minutes=1.0, clock=clock, **same)
    # 60 readings of one second: three 16-step rollouts finish, the fourth is cut and dropped
    assert cut["steps"] == 3 * 16 * 2
    train("keys", tmp_path / "replay", minutes=None, steps=cut["steps"], **same)
    a, b = weights(tmp_path / "cut"), weights(tmp_path / "replay")
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_a_warm_start_that_used_the_budget_replays_with_zero_steps(tmp_path: Path) -> None:
    """The clock ran out while copying: no PPO step, and `--steps 0` replays that run."""
    ticks = iter(range(0, 10**8, 100))  # 100 s a reading: the copy alone outlasts a minute
    same: dict[str, Any] = {"seed": 2, "envs": 2, "hidden": (8,), "ppo": TINY}
    same.update(imitate_games=1, imitate_epochs=1)
    cut = train("clue", tmp_path / "cut", minutes=1.0, clock=lambda: float(next(ticks)), **same)
    assert cut["steps"] == 0 and "--steps 0" in cut["command"]
    train("clue", tmp_path / "replay", minutes=None, steps=0, **same)
    a, b = weights(tmp_path / "cut"), weights(tmp_path / "replay")
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_the_warm_start_copies_the_demonstrator() -> None:
    """Cloning the heuristic's decisions makes the actor choose as it does on them, and
    each decision's return is the mover's discounted win share."""
    from sb3_contrib import MaskablePPO

    from timelord.adapters.gym import TimelordEnv
    from timelord.adapters.policy import observation_scale
    from timelord.adapters.train import _Scaled, clone, demonstrate

    game = timelord.load("clue", players=2)
    demos = demonstrate(game, "heuristic", games=4, seed=1, recall=False, gamma=0.5)
    env = TimelordEnv("clue", ["random"])
    model = MaskablePPO(
        "MlpPolicy", _Scaled(env, observation_scale(env.encoder)), seed=0, device="cpu"
    )
    before = clone(model, demos, epochs=0, seed=0)
    after = clone(model, demos, epochs=30, seed=0)
    assert after > before + 0.3  # (the heuristic draws among equal choices: not all of them)
    assert all(0.0 <= r <= 1.0 for r in demos.returns)
    # the last decision of each game: the winner's is worth 1, the others' 0 or 1/k
    assert max(demos.returns) == 1.0 and set(demos.returns) - {0.0} <= {0.5**k for k in range(200)}


def test_the_numpy_actor_is_the_trained_network(tmp_path: Path) -> None:
    """What `ppo:FOLDER` computes equals sb3-contrib's own policy on the same inputs."""
    import torch
    from sb3_contrib import MaskablePPO

    from timelord.adapters.gym import TimelordEnv
    from timelord.adapters.policy import observation_scale
    from timelord.adapters.train import _Scaled, actor

    env = TimelordEnv("episodes", ["random"])
    policy_scale = observation_scale(env.encoder)
    scaled = _Scaled(env, policy_scale)
    model = MaskablePPO("MlpPolicy", scaled, n_steps=16, batch_size=16, seed=0, device="cpu")
    model.learn(32)  # one update, so the weights are no longer the initial ones
    numpy_actor = actor(model, policy_scale)
    obs, _ = env.reset(seed=5)
    for _ in range(20):
        mask = env.action_masks().astype(bool)
        with torch.no_grad():
            tensor = torch.as_tensor(scaled.observation(obs)[None])
            logits = model.policy.get_distribution(tensor).distribution.logits[0].numpy()
        mine = numpy_actor.logits(obs)
        # the distribution's logits are normalised: equal up to a constant
        assert np.allclose(mine - mine.max(), logits - logits.max(), atol=1e-4)
        chosen, _ = model.predict(scaled.observation(obs), action_masks=mask, deterministic=True)
        assert int(chosen) == int(np.flatnonzero(mask)[np.argmax(mine[mask])])
        obs, _, over, _, _ = env.step(int(chosen))
        if over:
            obs, _ = env.reset()


def test_the_recorded_command_replays_a_run_with_features_and_ppo_settings(
    tmp_path: Path,
) -> None:
    """The `command` a folder records, run as it reads (derived features, `--ppo`, the warm
    start's passes), gives the same weights; the folder then plays at a table."""
    out = tmp_path / "first"
    argv = ["train", "clue", "--steps", "64", "--seed", "5", "--envs", "2", "--hidden", "8"]
    argv += ["--features", "clue-deduction", "--imitate", "heuristic:hard"]
    argv += ["--imitate-games", "1", "--imitate-epochs", "2", "--opponents", "random"]
    argv += ["--ppo", "n_steps=16", "--ppo", "batch_size=16", "--ppo", "learning_rate=0.001"]
    assert main([*argv, "--out", str(out)]) == 0
    config = json.loads((out / "config.json").read_text())
    assert config["features"] == "clue-deduction" and config["observation"] == 304 + 25
    command = config["command"]
    assert "--ppo learning_rate=0.001" in command and "--ppo n_steps=16" in command
    assert "--ppo batch_size=16" in command and "--imitate-epochs 2" in command
    words = shlex.split(command.replace("FOLDER", str(tmp_path / "again")))
    assert words[:2] == ["timelord", "train"]
    assert main(words[1:]) == 0
    a, b = weights(out), weights(tmp_path / "again")
    assert all(np.array_equal(a[k], b[k]) for k in a)
    record = play_game(
        timelord.load("clue", players=2), [f"ppo:{out}", "heuristic"], seed=3, index=0
    )
    assert 0 in record["result"]["movers"]


def test_an_unknown_ppo_setting_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown PPO setting 'learning_rat'"):
        train("keys", tmp_path / "x", steps=0, ppo={"learning_rat": 0.1})


def test_a_recall_run_trains_on_the_seats_past_and_plays_as_a_seat(tmp_path: Path) -> None:
    """`--recall`: the network reads the perfect-recall observation (the view's and the
    seat's decisions, `HistoryEncoder`), its frozen copy plays the `self` tables and the
    folder plays at a table, keeping its own record."""
    from timelord.adapters.encode.history import HistoryEncoder

    out = tmp_path / "keys"
    train(
        "keys",
        out,
        steps=64,
        seed=3,
        envs=2,
        hidden=(8,),
        ppo=TINY,
        imitate_games=2,
        imitate_epochs=1,
        opponents=("random", "self"),
        recall=True,
    )
    policy, config = load_policy(out)
    game = timelord.load("keys", players=2)
    assert config["recall"] is True
    assert policy.scale.shape == (HistoryEncoder(game, 1).size,)
    record = play_game(game, [f"ppo:{out}", "random"], seed=9, index=0)
    assert 0 in record["result"]["movers"]
