"""The research adapters take the tiny Clue (docs/variants.md) as they take the real one: the
encoder sizes itself from the game's board and cards (two rooms, six cards), the Gymnasium
env passes its checker, and the explicit-chance OpenSpiel game its random simulation."""

from __future__ import annotations

import pyspiel
from gymnasium.utils.env_checker import check_env

import timelord
from timelord.adapters import gym
from timelord.adapters.encode import encoder_for
from timelord.adapters.openspiel_chance import chance_name


def test_the_encoder_sizes_itself_from_the_tiny_board() -> None:
    tiny = encoder_for(timelord.load("clue", players=2, variant="tiny"))
    full = encoder_for(timelord.load("clue", players=2, variant="two-player"))
    assert tiny.size < full.size  # places over 2 rooms + TARDIS + square, flags over 6 cards
    env = gym.env("clue", opponents=["random"], players=2, variant="tiny")
    assert env.observation_space.shape == (tiny.size,)
    check_env(env, skip_render_check=True)


def test_random_simulation_with_explicit_chance_on_the_tiny_clue() -> None:
    game = pyspiel.load_game(chance_name("clue"), {"players": 2, "variant": "tiny"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
