"""The vector env gives exactly what Gymnasium's own `SyncVectorEnv` gives over the same
single-agent tables (observations, rewards, ends, infos, autoreset), for every game; the
process-per-table variant gives the same again."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from timelord.adapters import gym as tg
from timelord.adapters.vector import NextStepMask, async_vector_env, vector_env
from timelord.core import ConfigError

GAMES = ["card-game", "clue", "episodes", "keys"]


def _actions(infos: dict[str, Any], rng: np.random.Generator, illegal: float = 0.0) -> Any:
    """A random offered index per table (now and then, with `illegal`, one not offered)."""
    out = []
    for row in infos["action_mask"]:
        pool = np.flatnonzero(row == 0) if rng.random() < illegal else np.flatnonzero(row)
        out.append(int(rng.choice(pool)) if len(pool) else 0)
    return np.array(out)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_as_gymnasiums_sync_vector_env(game_id: str) -> None:
    n = 3
    mine = vector_env(game_id, n, opponents=["random"])
    reference = SyncVectorEnv([lambda: NextStepMask(tg.env(game_id, opponents=["random"]))] * n)
    assert reference.metadata["autoreset_mode"] == mine.metadata["autoreset_mode"]
    assert mine.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert mine.observation_space == reference.observation_space
    assert mine.action_space == reference.action_space
    assert mine.single_observation_space == reference.single_observation_space
    got, want = mine.reset(seed=11), reference.reset(seed=11)
    assert data_equivalence(got, want, exact=True)
    rng = np.random.default_rng(11)
    ended = np.zeros(n, bool)
    steps = 0
    while not ended.all() or steps < 5:
        actions = _actions(got[-1], rng, illegal=0.002)
        got, want = mine.step(actions), reference.step(actions)
        assert data_equivalence(got, want, exact=True), steps
        assert got[0] in mine.observation_space
        ended |= got[2]
        steps += 1
        assert steps < 5000
    mine.close()
    reference.close()


def test_a_table_resets_the_step_after_it_ends() -> None:
    envs = vector_env("clue", 2, opponents=["random"])
    _, infos = envs.reset(seed=1)
    bad = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    good = int(np.flatnonzero(infos["action_mask"][1])[0])
    _obs, rewards, terminated, _, infos = envs.step([bad, good])
    assert rewards[0] == -1.0 and terminated[0] and infos["illegal"][0]
    # the next step takes any index for table 0 (and ignores it): its row says so
    assert infos["action_mask"][0].all() and infos["autoreset"].tolist() == [True, False]
    _obs, rewards, terminated, _, infos = envs.step([bad, good])  # table 0's action is ignored
    assert rewards[0] == 0.0 and not terminated[0] and not infos["illegal"][0]
    assert 0 < infos["action_mask"][0].sum() < len(infos["action_mask"][0])
    assert not infos["autoreset"][0]
    assert isinstance(envs.single_action_space, spaces.Discrete)
    with pytest.raises(ConfigError):
        vector_env("clue", 0)


def test_process_per_table_variant_agrees() -> None:
    n = 2
    mine = vector_env("episodes", n, opponents=["heuristic"])
    other = async_vector_env("episodes", n, opponents=["heuristic"])
    try:
        got, want = mine.reset(seed=5), other.reset(seed=5)
        assert data_equivalence(got, want, exact=True)
        rng = np.random.default_rng(5)
        for _ in range(60):
            actions = _actions(got[-1], rng)
            got, want = mine.step(actions), other.step(actions)
            assert data_equivalence(got, want, exact=True)
    finally:
        other.close()
    with pytest.raises(ConfigError):
        async_vector_env("episodes", 2, opponents=["nobody"])


def test_the_tables_share_one_game() -> None:
    # One game for all tables: a game loaded per table warmed move tables and memos of its
    # own for each, so a step got slower the more tables there were.
    envs = vector_env("clue", 4, opponents=["random"], recall=True)
    first = envs.envs[0]
    assert all(env.game is first.game for env in envs.envs)
    assert all(env.index is first.index and env.encoder is first.encoder for env in envs.envs)
    assert all(env.encoder.size == first.encoder.size for env in envs.envs)
    assert first.encoder.size > tg.env("clue", opponents=["random"]).encoder.size  # recall kept


def test_copy_false_hands_out_the_batch_itself() -> None:
    copied, shared = vector_env("clue", 2), vector_env("clue", 2, copy=False)
    (a, infos_a), (b, infos_b) = copied.reset(seed=3), shared.reset(seed=3)
    assert data_equivalence((a, infos_a), (b, infos_b), exact=True)
    actions = _actions(infos_a, np.random.default_rng(3))
    a2, *_, infos_a2 = copied.step(actions)
    b2, *_, infos_b2 = shared.step(actions)
    assert np.array_equal(a2, b2)
    assert np.array_equal(infos_a2["action_mask"], infos_b2["action_mask"])
    assert b is b2 and infos_b["action_mask"] is infos_b2["action_mask"]  # overwritten in place
    assert a is not a2 and not np.array_equal(a, a2)  # a copy keeps the first step's values


@pytest.mark.parametrize("make", [vector_env, async_vector_env])
def test_the_usual_masked_draw_runs_through_episode_ends(make: Any) -> None:
    # NEXT_STEP autoreset: with an all-zero row at an episode's end the usual draw raised.
    envs = make("keys", 3, opponents=["random"], variant="tiny")
    try:
        _, infos = envs.reset(seed=4)
        rng = np.random.default_rng(4)
        ends = 0
        for _ in range(200):
            actions = [int(rng.choice(np.flatnonzero(row))) for row in infos["action_mask"]]
            _, _, terminated, _, infos = envs.step(actions)
            assert infos["autoreset"].tolist() == terminated.tolist()
            assert not infos["illegal"].any()
            ends += int(terminated.sum())
        assert ends >= 3
    finally:
        envs.close()
