"""Observations stay bit for bit what they were when the encoders were rewritten for speed:
a digest of every seat's observation at every step of seeded random games, per game and
player count, recorded from the encoders before that rewrite (session 8). The digests follow
the engine's seeded playouts too, which the golden replays hold fixed; a change to a layout
is a new observation and records new digests on purpose."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import timelord
from tests.adapters.cases import CASES
from timelord.adapters.encode import encoder_for
from timelord.adapters.vector import vector_env
from timelord.core import Rng

#: (game, players) -> sha256 of the float32 bytes of every seat's observation at every step
#: of seeds 1 and 2 (random legal moves drawn by `Rng(seed)`)
DIGESTS = {
    "card-game/2": "f7352fa1cdf72003587a675b904318e9769b3abc200ee4c6ed04a1ecb77efa63",
    "card-game/3": "af82c05df3e04b489069c74b94f8896f83c671b2862efbde5665fd4ce95b7e5a",
    "card-game/4": "ab503d385519f2cba130bc05a91d96160026ada0c2e38c4257392fdcc4ead016",
    "clue/2": "cb756b1d06f4f468796a4e5dbfe8da7fbe93906c34f700f9f52a6bbe4d893eba",
    "clue/3": "bb7f34f6627bdc8595804c1d4880d131a5d3eb25ff774e0e57620b6249977a00",
    "clue/4": "093851e60a10305b64d0a776cbed01290f09b35b9cdd02be116254acc579d0ec",
    "clue/5": "35495483c91f67707d0f8ebd45a90cf2da3bc6425ee6689e434f8e41f0d33d5f",
    "clue/6": "fed5463023dbf9230fac8749097865fd6552b4e03ce903cdac6007efa7e91b1b",
    "episodes/2": "ac2067f5ec20082187d591f577b8d9222137e476983ab0c727d9f7b85caf02ea",
    "episodes/3": "985f765b1c2e8d525e28291f42db539ce071c259e9f1e553baa2d9e225c33e98",
    "episodes/4": "8a74f8648d21433434f64ffaefe331df39625bd89109d583d01232165b8c8e68",
    "episodes/5": "42fd1cbc24322934ded6d4ef245e820f9b42e635ca208f0df72e161e2263edcd",
    "episodes/6": "6b544b744fd6f16af9a29eb6bb67361ef537fdaf9abe43e96808630205b59f33",
    "keys/2": "d710d29fbea557465ce21e0c4831a87695a1fb7107d9b5ae2fd65f189e1779f0",
    "keys/3": "c1bacbb23708b2208986647e5783db79ebabb139ce1870622bad0cb4ff6b7811",
    "keys/4": "892b1ad59e2492ff363b97e6168ac499ef10626b7bda8174f02a959a3d494c80",
}


def _digest(game_id: str, players: int) -> str:
    game = timelord.load(game_id, players=players)
    encoder = encoder_for(game)
    h = hashlib.sha256()
    for seed in (1, 2):
        rng = Rng(seed)
        state = game.new_game(seed)
        while True:
            for seat in range(players):
                h.update(encoder.encode_state(state, seat).tobytes())
            if state.is_over:
                break
            state = state.apply_unchecked(rng.choice(state.legal_actions()))
    return h.hexdigest()


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_are_bit_for_bit_the_recorded_ones(game_id: str, players: int) -> None:
    assert _digest(game_id, players) == DIGESTS[f"{game_id}/{players}"]


@pytest.mark.parametrize("game_id", ["card-game", "clue", "episodes", "keys"])
def test_the_vector_batch_rows_are_the_single_observations(game_id: str) -> None:
    """Rows written straight into the batch equal the table's own observation, at every
    step through episode ends."""
    envs = vector_env(game_id, 3, opponents=["random"])
    obs, infos = envs.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(150):
        for i, env in enumerate(envs.envs):
            assert env.state is not None
            assert obs[i].tobytes() == env.encoder.encode_state(env.state, env.seat).tobytes()
            assert np.array_equal(infos["action_mask"][i] == 1, _mask(env) == 1)
        actions = [rng.choice(np.flatnonzero(row)) for row in infos["action_mask"]]
        obs, _, _, _, infos = envs.step(actions)


def _mask(env: object) -> np.ndarray:
    from timelord.adapters.gym import TimelordEnv

    assert isinstance(env, TimelordEnv)
    if env._done:
        return np.ones(len(env.index), np.int8)
    return env.action_masks()
