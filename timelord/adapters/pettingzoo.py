"""timelord games as PettingZoo AEC environments (turn-based, so no parallel API).

    from timelord.adapters import pettingzoo as tz
    env = tz.env("episodes", players=2)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(
            obs["action_mask"])
        env.step(action)

Agents are "player_0".."player_{N-1}" (seat i). Following PettingZoo's classic environments:

- Observation: `{"observation": float32 vector, "action_mask": int8 vector}`. The vector
  encodes only that seat's `view` (layouts in `timelord.adapters.encode.<game>`, also
  `env.unwrapped.encoder.layout`); the mask covers the game's fixed action space
  (`Game.action_space()`, index = position) and is all zero for a seat not to move.
- Actions: `Discrete(len(action space))`. `env(...)` wraps the raw environment like the
  classic ones: an index that is not offered ends the game with reward -1 for the seat that
  chose it (`TerminateIllegalWrapper`), an index outside the space fails an assertion,
  and calls out of order are refused. `raw_env` raises the engine's `IllegalAction` instead.
- Rewards: 0 until the game ends; then each seat's win share (1/k to each of k tied winners,
  0 to the others, so the rewards of a game sum to 1, or to 0 when nobody wins).
- Infos: `{"events": [...]}`, the sentences telling that seat what the last step did
  (`state.apply_with_events` redacted by `game.tell`), so they hide what the seat may not see.
  `events=False` leaves them empty and applies the move on the engine's fast path (the index
  was checked against the offered moves already): for training loops that never read them.
- `render_mode="ansi"`: `render()` returns the spectator's picture of the table.
- `reset(seed=S)` deals `game.new_game(S)`: the same seed gives the same game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import timelord
from timelord.adapters.encode import Encoder, encoder_for
from timelord.adapters.space import ActionIndex
from timelord.core import Action, ConfigError, Game, State


def env(game: str, players: int | None = None, **kwargs: Any) -> AECEnv:
    """The wrapped environment (illegal index -> game over with reward -1)."""
    e: AECEnv = raw_env(game, players=players, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """One table of a timelord game. Options other than `render_mode` go to `timelord.load`."""

    metadata = {"render_modes": ["ansi"], "name": "timelord_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        events: bool = True,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if players is not None:
            options["players"] = players
        self.game: Game = timelord.load(game, **options)
        self.render_mode = render_mode
        self.events = events
        self.metadata = {**self.metadata, "name": f"timelord_{game.replace('-', '_')}_v0"}
        self.index = ActionIndex(self.game)
        self.encoder: Encoder = encoder_for(self.game)
        n = self.game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self._obs_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.index)) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.state_: State | None = None
        self._offered: dict[int, Action] | None = None

    def _obs_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=np.inf, shape=(self.encoder.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(len(self.index),), dtype=np.int8),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC protocol ---------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**62))
        self.state_ = self.game.new_game(game_seed)
        self._offered = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"events": []} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._current()
        seat = self._seat[agent]
        mask = np.zeros(len(self.index), dtype=np.int8)
        if state.to_move == seat:
            mask[list(self._offers(state))] = 1
        return {"observation": self.encoder.encode(state.view(seat)), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._current()
        chosen = self.index.action(action, self._offers(state))
        self._offered = None
        self._cumulative_rewards[agent] = 0.0
        if self.events:
            self.state_, events = state.apply_with_events(chosen)
            for a in self.agents:
                told = self.game.tell(events, self._seat[a])
                self.infos[a] = {"events": [e["text"] for e in told]}
        else:
            self.state_ = state.apply_unchecked(chosen)  # chosen is one of the offered moves
        if self.state_.is_over:
            winners = self.state_.winners()
            for a in self.agents:
                seat = self._seat[a]
                self.rewards[a] = 1.0 / len(winners) if seat in winners else 0.0
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._current()
        return self.game.render_view(state.view(None))

    def close(self) -> None:
        self.state_ = None

    # -- helpers ------------------------------------------------------------------------

    def _current(self) -> State:
        if self.state_ is None:
            raise ConfigError("reset() the environment before using it")
        return self.state_

    def _offers(self, state: State) -> dict[int, Action]:
        """Index -> offered action of the current state, computed once per state."""
        if self._offered is None:
            self._offered = self.index.indices(state.legal_actions())
        return self._offered

    def _select(self) -> None:
        """The agent to act: the seat to move, or after the end the first seat (every agent
        then steps with None once, as PettingZoo asks)."""
        seat = self._current().to_move
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]
