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

- Observation: `{"observation": float32 vector, "action_mask": int8 vector}`; with
  `flat=True` the vector alone (a `Box`, which SuperSuit's wrappers take) and the mask in
  `infos[agent]["action_mask"]` (where PettingZoo's wrappers also look for it). The vector
  encodes only that seat's `view` (layouts in `timelord.adapters.encode.<game>`, also
  `env.unwrapped.encoder.layout`; `recall=True`: the perfect-recall observation, the
  view's and the seat's decisions this game, each view it was shown at a decision and the
  action it took, `timelord.adapters.encode.history`, so two pasts that reach one view differ
  when the seat's own did); the mask covers the game's fixed action space
  (`Game.action_space()`, index = position) and is all zero for a seat not to move.
  Observing one agent again in the same position encodes nothing again (`last()` after a
  wrapper's `observe`, or a loop that reads an agent twice): the reads share one vector and
  one mask, so both are read-only arrays (a read cannot change the next one; copy to
  modify), and each read gets a dict of its own.
- Actions: `Discrete(len(action space))`. `env(...)` wraps the raw environment like the
  classic ones: an index that is not offered ends the game with reward -1 for the seat that
  chose it (`TerminateIllegalWrapper`), an index outside the space fails an assertion,
  and calls out of order are refused. `raw_env` raises the engine's `IllegalAction` instead.
  The wrappers are subclasses of PettingZoo's own, with the same names; each forwards what
  a loop reads at every step (`agent_selection`, `terminations`, `infos`, ...) by a
  read-only property instead of its `__getattr__` (the standard loop costs 20-45% less:
  docs/adapters.md).
- Rewards: 0 until the game ends; then each seat's win share (1/k to each of k tied winners,
  0 to the others, so the rewards of a game sum to 1, or to 0 when nobody wins).
- Infos: `{"events": [...]}`, the sentences telling that seat what happened since it last
  acted (its own move included), as `game.tell` redacts them, so they hide what the seat may
  not see; like the cumulative reward `last()` returns, they gather between the seat's turns.
  A step only records the events; a seat's sentences are written when something reads its
  info's contents (`last()` and PettingZoo's wrappers hand the info on unread), so a loop
  that never looks at them does not pay for them. `events=False` records nothing.
- `render_mode="ansi"`: `render()` returns the spectator's picture of the table.
- `reset(seed=S)` deals `game.new_game(S)`: the same seed gives the same game.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, KeysView, ValuesView
from functools import partial
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import timelord
from timelord.adapters.clone import Clonable
from timelord.adapters.encode import Encoder
from timelord.adapters.encode.history import HistoryEncoder, Recall, observation_encoder
from timelord.adapters.space import ActionIndex
from timelord.core import Action, ConfigError, Game, State, View
from timelord.core.events import Event


def env(game: str, players: int | None = None, **kwargs: Any) -> AECEnv:
    """The wrapped environment (illegal index -> game over with reward -1)."""
    e: AECEnv = raw_env(game, players=players, **kwargs)
    e = TerminateIllegalWrapper(e, illegal_reward=-1)
    e = AssertOutOfBoundsWrapper(e)
    e = OrderEnforcingWrapper(e)
    return e


#: what an AEC loop reads from the wrapped env at every step
_READ_EVERY_STEP = (
    "agent_selection",
    "agents",
    "terminations",
    "truncations",
    "rewards",
    "infos",
    "_cumulative_rewards",
)


def _forwarded(name: str, after_reset: bool) -> property:
    """`name` read from the wrapped env, as PettingZoo's `BaseWrapper.__getattr__` reads it,
    without a failed look-up and a Python `__getattr__` call at every wrapper (an AEC loop
    reads these about 36 times a step through three wrappers). `after_reset`: a read before
    `reset` fails over to the wrapper's own `__getattr__`, so the order-enforcing wrapper
    still refuses it with its own message."""

    def read(self: Any) -> Any:
        return getattr(self.env, name)

    def read_after_reset(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(name)  # -> OrderEnforcingWrapper.__getattr__'s error
        return getattr(self.env, name)

    return property(read_after_reset if after_reset else read)


def _fast(cls: type, after_reset: bool = False) -> Any:
    """PettingZoo's wrapper `cls`, same name (isinstance as before), with the attributes a
    loop reads at every step forwarded by properties."""
    reads: dict[str, Any] = {name: _forwarded(name, after_reset) for name in _READ_EVERY_STEP}
    return type(cls.__name__, (cls,), reads)


def _outer_text(self: Any) -> str:
    """What PettingZoo's order-enforcing wrapper says of itself (its `__str__` names a
    subclass, so the subclass says it again): the env's name."""
    return str(self.env) if hasattr(self, "metadata") else repr(self)


TerminateIllegalWrapper = _fast(wrappers.TerminateIllegalWrapper)
AssertOutOfBoundsWrapper = _fast(wrappers.AssertOutOfBoundsWrapper)
OrderEnforcingWrapper = _fast(wrappers.OrderEnforcingWrapper, after_reset=True)
OrderEnforcingWrapper.__str__ = _outer_text


class raw_env(Clonable, AECEnv):
    """One table of a timelord game. Options other than `render_mode` go to `timelord.load`."""

    metadata = {"render_modes": ["ansi"], "name": "timelord_v0", "is_parallelizable": False}
    agent_selection: str

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        events: bool = True,
        recall: bool = False,
        flat: bool = False,
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
        self.flat = flat
        self.metadata = {**self.metadata, "name": f"timelord_{game.replace('-', '_')}_v0"}
        self.index = ActionIndex(self.game)
        #: the observation's encoder: the view's, or with `recall` the view's and the
        #: seat's decisions (`record`)
        self.encoder: Encoder | HistoryEncoder = observation_encoder(
            self.game, len(self.index), recall
        )
        #: with `recall`, every seat's decisions this game (each seat's observation reads
        #: its own only)
        self.record: Recall | None = None
        n = self.game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self._obs_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.index)) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.state_: State | None = None
        self._offered: dict[int, Action] | None = None
        #: agent -> (the state its mask was made for, the mask), so rereads share one array
        self._masks: dict[str, tuple[State, np.ndarray[Any, np.dtype[np.int8]]]] = {}
        #: with `recall`, the last view built: (state, seat, view)
        self._seen: tuple[State, int, View] | None = None
        #: agent -> (the state it observed, the vector, the mask or None in the flat mode):
        #: `last()` and a wrapper's `observe` of the same agent in the same state share
        #: them, encoded once, read-only
        self._observed: dict[
            str, tuple[State, np.ndarray[Any, Any], np.ndarray[Any, Any] | None]
        ] = {}

    def _obs_space(self) -> spaces.Space[Any]:
        box = spaces.Box(
            low=0.0, high=self.encoder.high, shape=(self.encoder.size,), dtype=np.float32
        )
        if self.flat:
            return box
        mask = spaces.Box(0, 1, shape=(len(self.index),), dtype=np.int8)
        return spaces.Dict({"observation": box, "action_mask": mask})

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
        if isinstance(self.encoder, HistoryEncoder):
            self.record = Recall.start(self.game.players)
        self._offered = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._masks = {}
        self._observed = {}
        self._seen = None
        self.infos = SeatInfos(self.game, self._seat, self._mask if self.flat else None)
        self._select(self.state_)

    def observe(self, agent: str) -> Any:
        state = self.state_
        if state is None:
            raise ConfigError("reset() the environment before using it")
        got = self._observed.get(agent)
        if got is None or got[0] is not state:
            seat = self._seat[agent]
            encoder = self.encoder
            if isinstance(encoder, Encoder):
                vector = encoder.encode_state(state, seat, writable=False)
            else:
                assert self.record is not None
                vector = encoder.encode(self._view(state, seat), self.record, seat, state)
                vector.flags.writeable = False
            mask = None
            if not self.flat:
                offered = self._offers(state) if state.to_move == seat else ()
                mask = self.index.mask_of(offered, writable=False)
            got = self._observed[agent] = (state, vector, mask)
        if self.flat:
            return got[1]
        return {"observation": got[1], "action_mask": got[2]}

    def _mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The flat mode's mask of `agent` now (one array per agent and state)."""
        state = self._current()
        got = self._masks.get(agent)
        if got is not None and got[0] is state:
            return got[1]
        offered = self._offers(state) if state.to_move == self._seat[agent] else ()
        mask = self.index.mask_of(offered, writable=False)  # shared by every read here
        self._masks[agent] = (state, mask)
        return mask

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        if state is None:
            raise ConfigError("reset() the environment before using it")
        chosen = self.index.action(action, self._offers(state))
        self._offered = None
        if self.record is not None:
            seat = self._seat[agent]
            self.record = self.record.decided(seat, self._view(state, seat), chosen, int(action))
        self._cumulative_rewards[agent] = 0.0
        # chosen is one of the offered moves, so the engine's fast path; the infos tell
        # this move's events when they are read, by applying it again with its log
        after = self.state_ = state.apply_unchecked(chosen)
        if self.events:
            self.infos.moved(agent, state, chosen)
        mover = after.to_move
        if mover is None:
            winners = after.winners()
            for a in self.agents:
                seat = self._seat[a]
                self.rewards[a] = 1.0 / len(winners) if seat in winners else 0.0
                self.terminations[a] = True
            self._accumulate_rewards()  # the only step whose rewards are not all zero
            mover = 0  # every agent then steps with None once, as PettingZoo asks
        self.agent_selection = self.possible_agents[mover]

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

    def _view(self, state: State, seat: int) -> View:
        """`state.view(seat)`, built once for the seat's recall observation and the record of
        its decision there (one view, so its field texts are written once)."""
        seen = self._seen
        if seen is None or seen[0] is not state or seen[1] != seat:
            seen = self._seen = (state, seat, state.view(seat))
        return seen[2]

    def _offers(self, state: State) -> dict[int, Action]:
        """Index -> offered action of the current state, computed once per state."""
        if self._offered is None:
            self._offered = self.index.indices(state.legal_actions())
        return self._offered

    def _select(self, state: State) -> None:
        """The agent to act in `state`: the seat to move, or after the end the first seat
        (every agent then steps with None once, as PettingZoo asks)."""
        seat = state.to_move
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]


class LazyInfo(dict[str, Any]):
    """One agent's info, filled by `make()` the first time anything reads or writes it, so a
    loop that never looks at its sentences (PettingZoo's wrappers and `last()` hand infos
    around without reading them) never pays for them. It pickles and copies as a plain dict."""

    # one is made at nearly every step of an AEC loop: slots and a plain item set, not a
    # keyword call of dict's constructor and an instance dict, halve what that costs
    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], dict[str, Any]]) -> None:
        # the key is there from the start (its value is not): C code such as json's encoder
        # takes an empty dict's size as final before it asks for the items
        dict.__setitem__(self, "events", None)
        self._make: Callable[[], dict[str, Any]] | None = make

    def _real(self) -> LazyInfo:
        make = self._make
        if make is not None:
            self._make = None
            eager = {k: v for k, v in dict.items(self) if k != "events"}
            dict.update(self, make())
            dict.update(self, eager)
        return self

    def __getitem__(self, key: str) -> Any:
        if key != "events" and self._make is not None and dict.__contains__(self, key):
            return dict.__getitem__(self, key)  # a key set from the start (the flat mask)
        return dict.__getitem__(self._real(), key)

    def get(self, key: str, default: Any = None) -> Any:
        if key != "events" and self._make is not None and dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return dict.get(self._real(), key, default)

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self._real(), key, value)

    def __delitem__(self, key: str) -> None:
        dict.__delitem__(self._real(), key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or dict.__contains__(self._real(), key)

    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self._real())

    def __len__(self) -> int:
        return dict.__len__(self._real())

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        return dict.keys(self._real())

    def values(self) -> ValuesView[Any]:  # type: ignore[override]
        return dict.values(self._real())

    def items(self) -> ItemsView[str, Any]:  # type: ignore[override]
        return dict.items(self._real())

    def pop(self, key: str, *default: Any) -> Any:
        return dict.pop(self._real(), key, *default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        return dict.setdefault(self._real(), key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        dict.update(self._real(), *args, **kwargs)

    def copy(self) -> dict[str, Any]:
        return dict(dict.items(self._real()))

    def __eq__(self, other: object) -> bool:
        return dict.__eq__(self._real(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self.copy())

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return (dict, (self.copy(),))


#: every how many moves `SeatInfos` drops the moves no window needs any more
_TRIM_EVERY = 8


class SeatInfos(dict[str, dict[str, Any]]):
    """`infos`: agent -> `{"events": [sentences]}`, the sentences written when first read.

    A step only notes its move (`moved`: the state before and the action). Rules are pure
    functions of the state, its generator included, so applying the move again on the
    engine's logging path gives the events it had; that happens the first time an info that
    needs them is read, by any way of reading the dict, once per move for all seats. Each seat
    is told them by `Game.event_text` of `Event.seen_by`, so nothing it may not see. An
    agent's window of moves starts afresh when it acts; moves no window needs are dropped."""

    def __init__(
        self,
        game: Game,
        seats: dict[str, int],
        masks: Callable[[str], np.ndarray[Any, np.dtype[np.int8]]] | None = None,
    ) -> None:
        super().__init__({a: {"events": []} for a in seats})
        self._game = game
        self._seats = seats
        #: the flat mode's agent -> its current action mask, put into every info read
        self._masks = masks
        #: the moves from number `_first` on, as (state before, action)
        self._moves: list[tuple[State, Action]] = []
        self._first = 0
        #: move number -> its events, once applied again
        self._events: dict[int, list[Event]] = {}
        #: agent -> the number of the first move of its window (its last move)
        self._start = dict.fromkeys(seats, 0)
        #: agent -> the window its stored info tells, and the first move it does not tell yet
        self._base = dict.fromkeys(seats, 0)
        self._told = dict.fromkeys(seats, 0)

    def moved(self, agent: str, state: State, action: Action) -> None:
        """`agent` played `action` in `state`: its window restarts with this move (the
        stored info is emptied when next read)."""
        moves = self._moves
        number = self._start[agent] = self._first + len(moves)
        moves.append((state, action))
        if number % _TRIM_EVERY == 0:
            oldest = min(self._needs(a) for a in self.keys())
            if oldest > self._first:
                for dropped in range(self._first, oldest):
                    self._events.pop(dropped, None)
                del moves[: oldest - self._first]
                self._first = oldest

    def _needs(self, agent: str) -> int:
        """The first move `agent`'s info will need to be told."""
        start = self._start[agent]
        return self._told[agent] if self._base[agent] == start else start

    def _fresh(self, agent: str) -> dict[str, Any]:
        stored = info = dict.__getitem__(self, agent)
        first = self._first
        end = first + len(self._moves)
        start, told = self._start.get(agent, end), self._told.get(agent, end)
        if self._base.get(agent, start) != start:  # the agent acted since it was written
            info, told = {"events": []}, start
            self._base[agent] = start
        if told < end:
            # the sentences of moves told..end are written when something reads the info
            window = self._moves[told - first : end - first]
            info = LazyInfo(partial(self._told_in, info, self._seats[agent], told, window))
            if self._masks is not None:
                dict.__setitem__(info, "action_mask", self._masks(agent))
        elif self._masks is not None:
            mask = self._masks(agent)
            if dict.get(info, "action_mask") is not mask:
                info = {**info, "action_mask": mask}
        if info is not stored:
            dict.__setitem__(self, agent, info)
        self._told[agent] = end
        return info

    def _told_in(
        self, base: dict[str, Any], seat: int, told: int, window: list[tuple[State, Action]]
    ) -> dict[str, Any]:
        """`base` with the sentences telling `seat` the moves of `window` (numbers `told`
        on) added."""
        texts = []
        for number, (state, action) in enumerate(window, told):
            events = self._events.get(number)
            if events is None:
                events = []
                state.apply_logged(action, events)
                if number >= self._first:  # a move still kept: the other seats share it
                    self._events[number] = events
            texts += [self._game.event_text(e.kind, e.seen_by(seat), seat) for e in events]
        return {**base, "events": [*base.get("events", []), *texts]}

    def _all_fresh(self) -> None:
        for agent in list(self.keys()):
            self._fresh(agent)

    # `last()` reads an info at every step: no call in between
    __getitem__ = _fresh

    def __setitem__(self, agent: str, info: dict[str, Any]) -> None:
        super().__setitem__(agent, info)
        self._start[agent] = self._base[agent] = self._told[agent] = self._first + len(self._moves)

    def __iter__(self) -> Iterator[str]:
        # defined here so that dict(infos) and {**infos} read the values through __getitem__
        return super().__iter__()

    def get(self, agent: str, default: Any = None) -> Any:
        return self._fresh(agent) if agent in self else default

    def values(self) -> ValuesView[dict[str, Any]]:  # type: ignore[override]
        self._all_fresh()
        return super().values()

    def items(self) -> ItemsView[str, dict[str, Any]]:  # type: ignore[override]
        self._all_fresh()
        return super().items()

    def copy(self) -> dict[str, dict[str, Any]]:
        return {agent: self._fresh(agent) for agent in self}

    def pop(self, agent: str, *default: Any) -> Any:
        if agent in self:
            self._fresh(agent)
        return super().pop(agent, *default)

    def __eq__(self, other: object) -> bool:
        self._all_fresh()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        return repr(self.copy())

    def __reduce__(self) -> tuple[Any, tuple[()], tuple[dict[str, Any], dict[str, Any]]]:
        # the items after the attributes, which `__setitem__` reads (pickle's default for a
        # dict subclass sets the items first)
        return _new_seat_infos, (), (self.__dict__, dict(dict.items(self)))

    def __setstate__(self, state: tuple[dict[str, Any], dict[str, Any]]) -> None:
        attributes, items = state
        self.__dict__.update(attributes)
        dict.update(self, items)


def _new_seat_infos() -> SeatInfos:
    return SeatInfos.__new__(SeatInfos)
