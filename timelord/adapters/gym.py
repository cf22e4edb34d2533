"""timelord games as single-agent Gymnasium environments: one learning seat, the other seats
played by timelord agents.

    from timelord.adapters import gym as tg
    env = tg.env("keys", opponents=["heuristic"], seat="rotate")
    obs, info = env.reset(seed=7)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

- Game: a game id (its options as keyword arguments) or a `Game` already loaded, which the
  env then shares (as the vector env's tables do).
- Opponents: one seat spec per other seat (`random`, `heuristic`, `ismcts:easy`, a
  `package.module:Class` or `file.py:Class` spec), an `Agent` subclass, or a function of the
  game that returns an agent. The player count is `len(opponents) + 1` unless `players` says
  it; a missing opponent is `random`; they take the other seats in seat order. Agents are
  built afresh for every episode; each draws from the generator `timelord play` derives from
  the game's seed for its seat.
- Seat: an int fixes the learner's seat; `"rotate"` moves it one seat on at every reset,
  starting from seat 0 at a seeded reset (so a seeded reset is reproducible).
- Observation: `Box` float32, the learner's view encoded by `timelord.adapters.encode`
  (`env.unwrapped.encoder.layout` names the segments); nothing the seat may not see.
  `recall=True` gives the perfect-recall observation instead: the view's, then the
  learner's decisions this episode (`timelord.adapters.encode.history`: a digest of each
  view it was shown at a decision and the action it took, and its actions in order), so two
  pasts that reach one view differ when the learner's own did. The env keeps that record
  (`env.unwrapped.record`) from the learner's own views and choices only.
- Actions: `Discrete(len(game.action_space()))`. `info["action_mask"]` (int8) marks the
  offered indices, as MaskablePPO-style learners read it; `env.action_masks()` gives the
  same array. An index that is not offered ends the episode with reward -1 and
  `info["illegal"]` true (`illegal="raise"` raises the engine's `IllegalAction` instead).
- Reward: 0 until the game ends, then the learner's win share (1/k for k tied winners).
  Games always end within `game.max_actions`, so nothing truncates. A game the opponents
  end before the learner's first decision (a Clue accusation right on the first turn) is
  not handed out: `reset` deals the next one from the same generator, so every episode
  starts with a decision and a mask with an offered index (after `DEALS` such games in a
  row it raises `ConfigError`: opponents that always end the game first leave nothing to
  learn).
- `info["seat"]`: the learner's seat this episode; `render_mode="ansi"` renders the
  learner's own view as text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import timelord
from timelord.adapters.clone import Clonable
from timelord.adapters.encode import Encoder
from timelord.adapters.encode.history import HistoryEncoder, Recall, observation_encoder
from timelord.adapters.space import ActionIndex
from timelord.agents import make_agent
from timelord.agents.base import Agent
from timelord.agents.random_agent import RandomAgent
from timelord.core import Action, ConfigError, Game, Rng, State, View
from timelord.core.seating import seat_rngs

#: what may stand for an opponent: a seat spec, an `Agent` class, or a function building one
OpponentSpec = str | type[Agent] | Callable[[Game], Agent]

#: how many games in a row `reset` deals, each ended by the opponents before the learner's
#: first decision, before it gives up (random Clue opponents end about one game in a few
#: hundred that way; opponents that end every game would otherwise keep it dealing forever)
DEALS = 1000

ObsArray = np.ndarray[Any, np.dtype[np.float32]]
MaskArray = np.ndarray[Any, np.dtype[np.int8]]


def env(
    game_id: str | Game,
    opponents: Sequence[OpponentSpec] | None = None,
    seat: int | str = "rotate",
    **options: Any,
) -> TimelordEnv:
    """The learner's seat of `game_id` against `opponents` (see the module's text)."""
    return TimelordEnv(game_id, opponents, seat, **options)


def build_agent(spec: OpponentSpec, game: Game) -> Agent:
    """The agent `spec` stands for at a table of `game`."""
    if isinstance(spec, str):
        return make_agent(spec, game)
    if callable(spec):
        agent = spec(game)
        if isinstance(agent, Agent):
            return agent
    raise ConfigError(f"an opponent is a seat spec, an Agent class or a factory, not {spec!r}")


class TimelordEnv(Clonable, gymnasium.Env[ObsArray, np.int64]):
    """One table of a timelord game seen from the learner's seat."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game_id: str | Game,
        opponents: Sequence[OpponentSpec] | None = None,
        seat: int | str = "rotate",
        players: int | None = None,
        render_mode: str | None = None,
        illegal: str = "terminate",
        recall: bool = False,
        **options: Any,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if illegal not in ("terminate", "raise"):
            raise ConfigError(f"illegal must be 'terminate' or 'raise', not {illegal!r}")
        specs = list(opponents or [])
        if isinstance(game_id, Game):
            # a loaded game is shared as it is (a vector env's tables share one: its action
            # objects, move tables and memos are built once, not once per table)
            if options or players not in (None, game_id.players):
                raise ConfigError("a loaded game takes no options: they are the game's own")
            self.game: Game = game_id
        else:
            if players is None:
                players = len(specs) + 1 if specs else None
            if players is not None:
                options["players"] = players
            self.game = timelord.load(game_id, **options)
        n = self.game.players
        if len(specs) > n - 1:
            raise ConfigError(f"{n} players take {n - 1} opponents, not {len(specs)}")
        self.opponents: list[OpponentSpec] = specs + ["random"] * (n - 1 - len(specs))
        for spec in set(o for o in self.opponents if isinstance(o, str)):
            make_agent(spec, self.game)  # a bad spec fails here, not in the first episode
        if seat != "rotate" and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ConfigError(f"seat must be 'rotate' or a seat number, not {seat!r}")
        if isinstance(seat, int) and not 0 <= seat < n:
            raise ConfigError(f"seat {seat} is not a seat of a {n}-player game")
        self.seat_rule = seat
        self.render_mode = render_mode
        self.illegal = illegal
        self.index = ActionIndex(self.game)
        #: the observation's encoder: the view's, or with `recall` the view's and the
        #: learner's decisions (`record`)
        self.encoder: Encoder | HistoryEncoder = observation_encoder(
            self.game, len(self.index), recall
        )
        self.observation_space = spaces.Box(
            low=0.0, high=self.encoder.high, shape=(self.encoder.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(len(self.index))
        self.seat = seat if isinstance(seat, int) else 0
        self._episodes = 0
        self.state: State | None = None
        self._agents: dict[int, Agent] = {}
        self._rngs: list[Rng] = []
        self._offered: dict[int, Action] = {}
        self._done = True
        #: with `recall`, the learner's decisions this episode (opponents' are not its to see)
        self.record: Recall | None = None
        #: the state the learner's view was last built for, and that view
        self._seen: tuple[State, View] | None = None

    # -- the Gymnasium protocol ---------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        super().reset(seed=seed)
        self.deal(seed)
        return self._obs(), self._info(False)

    def step(self, action: Any) -> tuple[ObsArray, float, bool, bool, dict[str, Any]]:
        reward, terminated, illegal = self.play(action)
        return self._obs(), reward, terminated, False, self._info(illegal)

    # -- the steps of reset and step, for the vector env's batched loop -------------------

    def deal(self, seed: int | None) -> None:
        """A new game from `self.np_random` (seeded already when `seed` is given), played to
        the learner's first decision."""
        if seed is not None:
            self._episodes = 0
        n = self.game.players
        if self.seat_rule == "rotate":
            self.seat = self._episodes % n
        self._episodes += 1
        others = [s for s in range(n) if s != self.seat]
        for _ in range(DEALS):
            game_seed = int(self.np_random.integers(2**62))
            self.state = self.game.new_game(game_seed)
            if isinstance(self.encoder, HistoryEncoder):
                self.record = Recall.start(n)
            self._rngs = seat_rngs(game_seed, n)
            self._agents = {
                s: build_agent(spec, self.game)
                for s, spec in zip(others, self.opponents, strict=True)
            }
            self._done = False
            self._advance()
            # A game the opponents end before the learner's first decision (a Clue seat
            # accusing rightly on its first turn) has nothing to learn from and no legal
            # index to offer: deal the next one from the same generator.
            if not self.state.is_over:
                return
        self._done = True
        raise ConfigError(
            f"the opponents ended {DEALS} games in a row before the learner's first decision"
        )

    def play(self, action: Any) -> tuple[float, bool, bool]:
        """The learner's `action`, then the opponents' moves: (reward, terminated, illegal)."""
        if self._done or self.state is None:
            raise ConfigError("the episode is over: reset() the environment")
        index = int(action) if isinstance(action, np.integer | np.ndarray) else action
        chosen = self._offered.get(index) if type(index) is int else None
        if chosen is None:
            if self.illegal == "raise":
                self.index.action(index, self._offered)  # raises the engine's error
            self._done = True
            return -1.0, True, True
        if self.record is not None:
            self.record = self.record.decided(self.seat, self._view(), chosen, index)
        self.state = self.state.apply_unchecked(chosen)
        self._advance()
        if not self.state.is_over:
            return 0.0, False, False
        self._done = True
        winners = self.state.winners()
        return (1.0 / len(winners) if self.seat in winners else 0.0), True, False

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return self.game.render_view(self.state.view(self.seat))

    def action_masks(self) -> MaskArray:
        """The offered indices as a mask (what sb3-contrib's MaskablePPO calls)."""
        mask = np.zeros(len(self.index), dtype=np.int8)
        if not self._done:
            mask[list(self._offered)] = 1
        return mask

    # -- helpers ------------------------------------------------------------------------

    def _advance(self) -> None:
        """Let the opponents move until the learner is to move or the game is over."""
        state = self.state
        assert state is not None
        while not state.is_over and state.to_move != self.seat:
            mover = state.to_move
            assert mover is not None
            agent = self._agents[mover]
            if type(agent) is RandomAgent:
                # its move without its list: `random_legal` draws the same action with the
                # same draws, and a game that counts its moves never builds the list
                state = state.apply_unchecked(state.random_legal(self._rngs[mover]))
                continue
            legal = state.legal_actions()
            # the view is built only for an agent that reads it (not the random agent)
            view_of = partial(state.view, mover)
            choice = agent.act_on(view_of, legal, self._rngs[mover])
            for a in legal:  # a loop, not any(): this runs at every opponent's move
                if a is choice:
                    break
            else:
                state.check(choice)  # an agent may return an equal action of its own
            state = state.apply_unchecked(choice)
        self.state = state
        self._offered = {} if state.is_over else self.index.indices(state.legal_actions())

    def _obs(self) -> ObsArray:
        assert self.state is not None
        encoder = self.encoder
        if isinstance(encoder, Encoder):
            return encoder.encode_state(self.state, self.seat)
        return self.recalled(encoder)

    def recalled(self, encoder: HistoryEncoder) -> ObsArray:
        """The perfect-recall observation (`encoder`, the env's): the learner's view now
        and its decisions this episode."""
        assert self.record is not None
        return encoder.encode(self._view(), self.record, self.seat, self.state)

    def _view(self) -> View:
        """The learner's view of the current state, built once for its observation and its
        decision there."""
        state, seen = self.state, self._seen
        assert state is not None
        if seen is None or seen[0] is not state:
            seen = self._seen = (state, state.view(self.seat))
        return seen[1]

    def _info(self, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat, "illegal": illegal}
