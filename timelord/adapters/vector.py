"""Many tables of one game as a Gymnasium vector environment: batched observations and
masks, autoreset, in one process (`vector_env`) or one process per table (`async_vector_env`).

    from timelord.adapters.vector import vector_env
    envs = vector_env("keys", 256, opponents=["heuristic"])
    obs, infos = envs.reset(seed=1)               # obs (256, size) float32
    masks = infos["action_mask"]                  # (256, actions) int8
    obs, rewards, terminated, truncated, infos = envs.step(actions)

Each table is the single-agent env of `timelord.adapters.gym` with the same arguments, so
the learner's seat, opponents, rewards and illegal indices behave as there. Autoreset is
Gymnasium's default (`AutoresetMode.NEXT_STEP`): the step after a table's episode ends
resets that table, ignores its action and returns its first observation with reward 0.
So the mask row a table hands out with its episode's end is all ones, not all zeros: every
index is accepted on the step that resets it (none is refused, none is played), and the
usual masked draw keeps working for the whole batch; `infos["autoreset"]` marks those rows,
whose transitions a learner drops (their observation is the final one):

    obs, infos = envs.reset(seed=1)
    for _ in range(1000):
        masks = infos["action_mask"]
        actions = [rng.choice(np.flatnonzero(row)) for row in masks]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        # learn from every table i where not infos["autoreset"][i] on the step before

`NextStepMask` gives the same row to any Gymnasium vector env built over the single-agent
env (`async_vector_env` wraps its tables in it).
`reset(seed=S)` seeds table i with S + i, as `gymnasium.vector.SyncVectorEnv` does, and the
results are the same as that class's over the same tables (tested); this one writes every
table's observation and mask into one preallocated batch instead of stacking per-table
dicts. `infos` holds `action_mask`, `seat`, `illegal` and `autoreset`, each with its `_key`
mask.

The tables share one loaded game, so one set of action objects, move tables and memos
serves them all. Observations and masks come back as copies of the batch; `copy=False`
hands out the batch itself instead, which the next step overwrites (Gymnasium's
`SyncVectorEnv(copy=False)`; a learner that copies the batch into its own buffer anyway
saves a copy a step: 5.7 MB of masks at 256 Card Game tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from timelord.adapters.clone import Clonable
from timelord.adapters.encode import Encoder
from timelord.adapters.gym import OpponentSpec, TimelordEnv
from timelord.adapters.space import rewrite_row
from timelord.core import ConfigError


def vector_env(
    game_id: str,
    num_envs: int,
    opponents: Sequence[OpponentSpec] | None = None,
    seat: int | str = "rotate",
    copy: bool = True,
    **options: Any,
) -> TimelordVectorEnv:
    """`num_envs` tables of `game_id` stepped together in this process."""
    return TimelordVectorEnv(game_id, num_envs, opponents, seat, copy, **options)


def async_vector_env(
    game_id: str,
    num_envs: int,
    opponents: Sequence[OpponentSpec] | None = None,
    seat: int | str = "rotate",
    **options: Any,
) -> AsyncVectorEnv:
    """`num_envs` tables, each in a process of its own (Gymnasium's `AsyncVectorEnv`; extra
    keyword arguments of that class, such as `context` or `autoreset_mode`, go to it)."""
    own = {
        k: options.pop(k)
        for k in ("context", "autoreset_mode", "shared_memory", "copy")
        if k in options
    }
    specs = list(opponents or [])

    def make() -> gymnasium.Env[Any, Any]:
        return NextStepMask(TimelordEnv(game_id, specs, seat, **options))

    TimelordEnv(game_id, specs, seat, **options)  # bad arguments fail here, not in a worker
    return AsyncVectorEnv([make] * num_envs, **own)


class NextStepMask(gymnasium.Wrapper[Any, Any, Any, Any]):
    """The single-agent env as a table of a vector env that resets it on the step after its
    episode ends (`AutoresetMode.NEXT_STEP`): the step that ends an episode hands out an
    all-ones mask, since the next step ignores the action, and `info["autoreset"]` says so.
    Alone, the env's mask at the end is all zeros (it takes no step until `reset()`)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        info["autoreset"] = False
        return obs, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        ended = bool(terminated or truncated)
        if ended:
            info["action_mask"] = np.ones_like(info["action_mask"])
        info["autoreset"] = ended
        return obs, reward, terminated, truncated, info


#: the keyword arguments of `TimelordEnv` that are not options of the game
_ENV_ARGS = ("render_mode", "illegal", "recall")


class TimelordVectorEnv(Clonable, VectorEnv[Any, Any, Any]):
    """`num_envs` single-agent tables, stepped in turn, their results written in batches."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}
    _clone_skip = ("_obs_bytes", "_mask_rows")

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        opponents: Sequence[OpponentSpec] | None = None,
        seat: int | str = "rotate",
        copy: bool = True,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive integer, not {num_envs!r}")
        first = TimelordEnv(game_id, opponents, seat, **options)
        # The other tables share the first one's game, action index and encoder: one set of
        # action objects, move tables and memos for all of them. With a game loaded per
        # table, each table warmed caches of its own (Keys' move tables, the index's
        # identity map), so a step got slower the more tables there were.
        kept = {k: options[k] for k in _ENV_ARGS if k in options}
        self.envs = [first]
        for _ in range(num_envs - 1):
            env = TimelordEnv(first.game, opponents, seat, **kept)
            env.index, env.encoder = first.index, first.encoder
            env.observation_space = first.observation_space
            self.envs.append(env)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self.render_mode = None
        size, actions = first.encoder.size, len(first.index)
        self._obs = np.zeros((num_envs, size), np.float32)
        self._masks = np.zeros((num_envs, actions), np.int8)
        self._row = 4 * size
        self._restored()
        #: per table, the indices its row of the mask batch has set (None: all of them)
        self._set: list[list[int] | None] = [[] for _ in range(num_envs)]
        self._seats = [0] * num_envs
        self._every = np.ones(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)

    def _restored(self) -> None:
        # the batch of observations as flat bytes (written in one slice assignment), and
        # each table's row of the masks as bytes of its own (written where they change)
        self._obs_bytes = self._obs.data.cast("B")
        self._mask_rows = [row.data.cast("B") for row in self._masks]

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ConfigError(f"{n} tables take {n} seeds, not {len(seeds)}")
        rows: list[bytes] = []
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            gymnasium.Env.reset(env, seed=s)
            env.deal(s)
            self._seats[i] = env.seat
            self._write(i, env, rows)
        self._autoreset[:] = False
        illegal = [False] * n
        return self._observations(rows), self._infos(illegal)

    def step(
        self, actions: Any
    ) -> tuple[
        np.ndarray[Any, Any],
        np.ndarray[Any, Any],
        np.ndarray[Any, Any],
        np.ndarray[Any, Any],
        dict[str, Any],
    ]:
        n = self.num_envs
        # each table's results gathered in lists, one numpy conversion each for the batch
        # (an item set into a numpy array costs about as much as the conversion of a list)
        played = [(0.0, False, False)] * n
        acts = np.asarray(actions).tolist()  # plain ints: one conversion for the batch
        resets = self._autoreset.tolist()
        rows: list[bytes] = []
        for i, env in enumerate(self.envs):
            if resets[i]:
                env.deal(None)
                self._seats[i] = env.seat
            else:
                played[i] = env.play(acts[i])
            self._write(i, env, rows)
        rewards, ended, wrong = zip(*played, strict=True)
        terminated = np.array(ended, np.bool_)
        self._autoreset = terminated.copy()
        truncated = np.zeros(n, np.bool_)
        obs = self._observations(rows)
        return obs, np.array(rewards, np.float64), terminated, truncated, self._infos(wrong)

    def _observations(self, rows: list[bytes]) -> np.ndarray[Any, Any]:
        """The batch of observations from every table's parts in order (`rows`), joined
        once. With `copy` the joined bytes are the array handed out (a fresh one, as a copy
        of the batch was); without, they are written into the batch, which is handed out."""
        data = bytearray().join(rows)
        if len(data) != self._row * self.num_envs:
            raise AssertionError("an encoder wrote a part of varying length")
        if not self.copy:
            self._obs_bytes[:] = data
            return self._obs
        return np.frombuffer(data, np.float32).reshape(self._obs.shape)

    def _write(self, i: int, env: TimelordEnv, rows: list[bytes]) -> None:
        """Table `i`'s observation onto `rows` (its parts, as bytes) and its mask into the
        batch."""
        assert env.state is not None
        encoder = env.encoder
        if isinstance(encoder, Encoder):
            rows += encoder.state_parts(env.state, env.seat)
        else:  # the perfect-recall observation, from the table's record
            rows.append(env.recalled(encoder).tobytes())
        # Only the bytes that change are written: the row's last offered indices cleared,
        # the new ones set. Clearing whole rows (22 KB a table in the Card Game) swept the
        # whole batch through the cache at every step.
        was = self._set[i]
        if env._done:  # the next step resets this table and takes any index (NextStepMask)
            if was is not None:
                self._masks[i] = 1
                self._set[i] = None
            return
        if was is None:
            self._masks[i] = 0
            was = []
        self._set[i] = rewrite_row(self._mask_rows[i], was, env._offered)

    def _infos(self, illegal: Sequence[bool]) -> dict[str, Any]:
        every = self._every
        return {
            "action_mask": self._out(self._masks),
            "_action_mask": every.copy(),
            "seat": np.array(self._seats),
            "_seat": every.copy(),
            "illegal": np.array(illegal, np.bool_),
            "_illegal": every.copy(),
            "autoreset": self._autoreset.copy(),
            "_autoreset": every.copy(),
        }

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The batch of masks of the last step (what masked learners call)."""
        return self._out(self._masks)

    def _out(self, batch: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """A copy of `batch`, or (`copy=False`) the batch itself, which the next step
        overwrites, as Gymnasium's `SyncVectorEnv(copy=False)` does."""
        return batch.copy() if self.copy else batch

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
