"""The Gymnasium env passes Gymnasium's `check_env` for every game and player count (its
warnings made errors), and keeps its promises on seats, opponents, masks and rewards."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import timelord
from tests.adapters.cases import CASES, PLAYERS
from timelord.adapters import gym as tg
from timelord.agents.base import Agent
from timelord.agents.random_agent import RandomAgent
from timelord.core import Action, ConfigError, IllegalAction, Rng, View


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_check_env_passes_without_a_warning(game_id: str, players: int) -> None:
    env = tg.env(game_id, players=players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)


def _episode(env: tg.TimelordEnv, seed: int | None) -> tuple[list[int], float]:
    """Plays the learner's moves at random from the mask; the actions and the reward."""
    obs, info = env.reset(seed=seed)
    rng = Rng(seed or 0)
    actions, total = [], 0.0
    while True:
        assert env.observation_space.contains(obs)
        mask = info["action_mask"]
        assert env.state is not None and env.state.to_move == env.seat
        assert set(np.flatnonzero(mask)) == set(env.index.indices(env.state.legal_actions()))
        assert np.array_equal(mask, env.action_masks())
        action = int(rng.choice(list(np.flatnonzero(mask))))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert not truncated
        if terminated:
            return actions, total


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_a_played_episode_pays_the_learners_win_share(game_id: str) -> None:
    env = tg.env(game_id, opponents=["heuristic"])
    for seed in (1, 2):
        _, total = _episode(env, seed)
        state = env.state
        assert state is not None and state.is_over
        winners = state.winners()
        assert total == (1.0 / len(winners) if env.seat in winners else 0.0)
        assert not env.action_masks().any()


def test_same_seed_same_episode_and_rotation() -> None:
    env = tg.env("keys", opponents=["random", "random"])
    first = _episode(env, 5)
    assert env.seat == 0
    again = _episode(env, 5)
    assert first == again
    seats = [env.reset()[1]["seat"] for _ in range(4)]
    assert seats == [1, 2, 0, 1]
    fixed = tg.env("keys", opponents=["random"], seat=1)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(3)} == {1}


class FirstMove(Agent):
    """Always the first legal action (an agent of the researcher's own)."""

    name = "first"
    calls = 0

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        FirstMove.calls += 1
        return legal[0]


def test_opponents_may_be_specs_classes_or_factories() -> None:
    FirstMove.calls = 0
    env = tg.env("episodes", opponents=[FirstMove, lambda game: FirstMove(game), "heuristic"])
    assert env.game.players == 4
    _episode(env, 3)
    assert FirstMove.calls > 0
    with pytest.raises(ConfigError):
        tg.env("episodes", opponents=["no-such-agent"])
    with pytest.raises(ConfigError):
        tg.env("keys", opponents=["random"] * 4)
    with pytest.raises(ConfigError):
        tg.env("keys", opponents=["random"], seat=2)


def test_an_index_not_offered_ends_the_episode_or_raises() -> None:
    env = tg.env("clue", opponents=["random"])
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    with pytest.raises(ConfigError):
        env.step(0)
    strict = tg.env("clue", opponents=["random"], illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction):
        strict.step(bad)


def test_render_shows_the_learners_view() -> None:
    env = tg.env("keys", opponents=["random"], seat=1, render_mode="ansi")
    env.reset(seed=2)
    assert env.state is not None
    assert env.render() == env.game.render_view(env.state.view(1))


def test_a_loaded_game_is_shared_and_plays_as_its_id() -> None:
    game = timelord.load("episodes", players=3)
    shared = tg.env(game, opponents=["random", "random"])
    assert shared.game is game
    assert _episode(shared, 5) == _episode(tg.env("episodes", players=3), 5)
    with pytest.raises(ConfigError, match="loaded game"):
        tg.env(game, variant="tiny")
    with pytest.raises(ConfigError, match="loaded game"):
        tg.env(game, players=2)


class _PlainRandom(RandomAgent):
    """The random agent through its own `act_on`, as any agent moves."""


@pytest.mark.parametrize(
    ("game_id", "players"), [("card-game", 3), ("clue", 4), ("episodes", 2), ("keys", 4)]
)
def test_random_opponents_move_as_their_act_on_does(game_id: str, players: int) -> None:
    # the env moves `random` seats with the state's counted draw instead of their act_on:
    # the same games, observation for observation
    fast = tg.env(game_id, opponents=["random"] * (players - 1))
    slow = tg.env(game_id, opponents=[_PlainRandom] * (players - 1))
    for seed in (1, 2):
        (a, _), (b, _) = fast.reset(seed=seed), slow.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            assert np.array_equal(a, b)
            mask = fast.action_masks()
            assert np.array_equal(mask, slow.action_masks())
            action = int(rng.choice(np.flatnonzero(mask)))
            a, reward, done, _, _ = fast.step(action)
            b, reward_b, done_b, _, _ = slow.step(action)
            assert (reward, done) == (reward_b, done_b)
            if done:
                break


def test_every_episode_starts_with_a_decision() -> None:
    """Seed 35 deals a Clue game that seat 3's opponents end (a right accusation) before
    seat 3 ever moves: reset deals on, so the episode has an offered index, not an empty
    mask and a finished game."""
    env = tg.env("clue", opponents=["random"] * 3, seat=3)
    for seed in (34, 35, 36):
        _, info = env.reset(seed=seed)
        assert env.state is not None and not env.state.is_over
        assert info["action_mask"].any()
    _, info = env.reset(seed=35)
    again = env.state
    env.reset(seed=35)
    assert env.state is not None and again is not None
    assert env.state.to_json() == again.to_json()  # still one game per seed


def test_reset_gives_up_when_the_opponents_end_every_game_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game whose every deal the opponents end before the learner's first decision (here
    every deal is an ended Keys game) makes `reset` raise after `DEALS` deals instead of
    dealing forever; the env then takes no step until a reset succeeds."""
    env = tg.env("keys", opponents=["random"])
    over = env.game.new_game(5)
    rng = Rng(5)
    while not over.is_over:
        over = over.apply(rng.choice(over.legal_actions()))
    deals: list[int] = []
    real = env.game.new_game
    monkeypatch.setattr(env.game, "new_game", lambda seed: deals.append(seed) or over)
    with pytest.raises(ConfigError, match=f"{tg.DEALS} games in a row"):
        env.reset(seed=1)
    assert len(deals) == tg.DEALS
    with pytest.raises(ConfigError, match="reset"):
        env.step(0)
    monkeypatch.setattr(env.game, "new_game", real)
    _, info = env.reset(seed=1)
    assert info["action_mask"].any()
