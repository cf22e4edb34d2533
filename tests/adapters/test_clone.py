"""The Gymnasium, vector and PettingZoo envs pickle, copy and deep-copy in either build: the
copy stands at the same point of the same episode and takes the same next steps (env cloning
for planning, multiprocessing, PettingZoo's own pickling)."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from timelord.adapters import gym as tg
from timelord.adapters import pettingzoo as tz
from timelord.adapters.vector import vector_env

GAMES = ["card-game", "clue", "episodes", "keys"]
CLONES: list[Callable[[Any], Any]] = [
    lambda env: pickle.loads(pickle.dumps(env)),
    copy.copy,
    copy.deepcopy,
]


def _steps(env: Any, n: int, pick: int) -> list[Any]:
    """Up to `n` steps taking the `pick`-th offered index each time: what each step gave."""
    out = []
    for _ in range(n):
        offered = np.flatnonzero(env.action_masks())
        obs, reward, terminated, _, info = env.step(int(offered[pick % len(offered)]))
        out.append((obs.tobytes(), reward, terminated, info["action_mask"].tobytes()))
        if terminated:
            break
    return out


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("clone", CLONES)
def test_a_gym_env_copy_plays_on_the_same(game_id: str, clone: Callable[[Any], Any]) -> None:
    env = tg.env(game_id, opponents=["heuristic"])
    env.reset(seed=5)
    _steps(env, 2, pick=1)
    if env.state.is_over:
        env.reset(seed=6)
    twin = clone(env)
    assert twin is not env and twin.state is not env.state
    assert twin.state.to_json() == env.state.to_json()
    assert np.array_equal(twin.action_masks(), env.action_masks())
    assert _steps(twin, 8, pick=2) == _steps(env, 8, pick=2)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_vector_env_copy_keeps_one_shared_game_and_plays_on_the_same(game_id: str) -> None:
    envs = vector_env(game_id, 3, opponents=["random"])
    _, infos = envs.reset(seed=2)
    twin = pickle.loads(pickle.dumps(envs))
    assert all(table.game is twin.envs[0].game for table in twin.envs)
    assert all(table.encoder is twin.envs[0].encoder for table in twin.envs)
    rng = np.random.default_rng(2)
    for _ in range(30):
        actions = [int(rng.choice(np.flatnonzero(row))) for row in infos["action_mask"]]
        got, want = twin.step(actions), envs.step(actions)
        for a, b in zip(got[:4], want[:4], strict=True):
            assert np.array_equal(a, b)
        assert np.array_equal(got[4]["action_mask"], want[4]["action_mask"])
        infos = want[4]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_pettingzoo_env_copy_plays_on_the_same(game_id: str) -> None:
    def run(env: tz.raw_env, moves: int) -> list[Any]:
        seen = []
        for agent in env.agent_iter(moves):
            obs, reward, terminated, truncated, info = env.last()
            seen.append((agent, obs["observation"].tobytes(), reward, info["events"]))
            offered = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated else int(offered[-1]))
        return seen

    env = tz.raw_env(game_id, players=3)
    env.reset(seed=8)
    run(env, 5)
    for clone in CLONES:
        twin = clone(env)
        assert run(twin, 12) == run(copy.deepcopy(env), 12)


def _step_remote(env: tg.TimelordEnv) -> bytes:
    offered = np.flatnonzero(env.action_masks())
    obs, *_ = env.step(int(offered[0]))
    return obs.tobytes()


def test_a_gym_env_steps_in_a_worker_process() -> None:
    env = tg.env("keys", opponents=["random"])
    env.reset(seed=4)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        remote = pool.map(_step_remote, [env])
    assert remote == [_step_remote(env)]


@pytest.mark.parametrize("clone", CLONES)
def test_a_copy_learns_its_action_objects_afresh(clone: Callable[[Any], Any]) -> None:
    """The action index knows offered actions by `id()`: a copy must not carry those ids,
    which name other objects once the original is gone (or in another process)."""
    env = tg.env("keys", opponents=["random"])
    env.reset(seed=3)
    _steps(env, 3, pick=0)
    assert env.index._known
    twin = clone(env)
    assert twin.index._known == {} and twin.index._held == []
    assert twin.index.actions is env.index.actions  # the shared action space, not a copy
    assert _steps(twin, 6, pick=1) == _steps(env, 6, pick=1)
