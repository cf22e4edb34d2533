"""timelord games as OpenSpiel Python games; importing this module registers them.

    import pyspiel
    import timelord.adapters.openspiel  # registers python_timelord_<game id, - as _>
    game = pyspiel.load_game("python_timelord_episodes", {"players": 2})

- Parameters: `players` and the game's scalar options (ints, bools, strings with a default;
  options whose default is None or a structure, such as a custom deck, are left out), plus
  `rng_seed`: each `new_initial_state()` deals the next game of a generator seeded with it.
- Chance is sampled stochastic: no chance nodes; the engine draws from the seeded `Rng` that
  lives inside each timelord state, so a state's future is fixed by its past, as the engine's
  replays are. `reseed(seed)` deals the state afresh as `game.new_game(seed)`.
- Actions are the fixed indices of `Game.action_space()` (`timelord.adapters.space`),
  legal actions listed in ascending order.
- Returns at the end: each seat's win share (1/k to each of k tied winners, else 0).
- `information_state_string(p)`: the seat's perfect-recall record as canonical JSON, each of
  its decisions (its view then, as the change since its previous one, and its action) and its
  view now (`timelord.adapters.encode.history`): a view alone is a snapshot that two
  different pasts of the seat can share. `observation_string(p)`: the view as the game's text
  picture. `information_state_tensor` is the perfect-recall observation of the view followed
  by the seat's decisions (`HistoryEncoder`), `observation_tensor` the smaller observation
  the other adapters use.
- `resample_from_infostate(p, sampler)`: `game.sample_state(view(p), rng)`, the rng seeded
  from the sampler, carrying the seat's own decisions, so search (ISMCTS) sees only what the
  seat may know and finds it in the same information state.
- Serialisation (`serialize`, pickling, `deserialize_state`) stores the state's
  `to_json()` and the seats' decisions; clones share the immutable timelord state. Games
  pickle too (their text and the position of their deal generator), so they cross to
  processes (multiprocessing, Ray).
"""

from __future__ import annotations

import inspect
import json
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

import timelord
from timelord.adapters.encode import Encoder, encoder_for
from timelord.adapters.encode.history import HistoryEncoder, Recall, information_state
from timelord.adapters.space import ActionIndex
from timelord.core import GAMES, Action, ConfigError, Game, Rng, State
from timelord.core.registry import game_class

_TERMINAL = pyspiel.PlayerId.TERMINAL


def short_name(game_id: str) -> str:
    """The pyspiel name of a timelord game id."""
    return "python_timelord_" + game_id.replace("-", "_")


@lru_cache(maxsize=64)
def _table(game_id: str, options_json: str) -> tuple[Game, ActionIndex, Encoder, HistoryEncoder]:
    """One timelord game with its action index and its two encoders (the observation and
    the perfect-recall one of the view and the seat's decisions) per (id, options), shared."""
    game = timelord.load(game_id, **json.loads(options_json))
    index = ActionIndex(game)
    return game, index, encoder_for(game), HistoryEncoder(game, len(index))


#: (what led to the position before, that position's state, the move, its index)
Link = tuple[Any, State, Action, int]


class _Position:
    """The timelord state of one OpenSpiel state and the move that led to it. Timelord
    states never change, so a copy shares it (OpenSpiel clones by deep-copying attributes)
    and pickles by its JSON and the seats' decisions."""

    __slots__ = (
        "_legal",
        "_offered",
        "_player",
        "game_id",
        "history",
        "options_json",
        "seed",
        "state",
    )

    def __init__(
        self,
        game_id: str,
        options_json: str,
        seed: int,
        state: State | None,
        history: Link | Recall | None = None,
    ) -> None:
        self.game_id = game_id
        self.options_json = options_json
        self.seed = seed
        self.state = state  # dealt on first use: every clone starts as a fresh initial state
        #: how the deal led here: the seats' record, or a link (what led to the position
        #: before, that position, the move, its index) read back into one only when an
        #: information state is asked for (search never does). Links hold states, not
        #: positions, so a rollout keeps no position's caches alive.
        self.history = history
        self._offered: dict[int, Action] | None = None
        self._legal: list[int] | None = None
        self._player: int | None = None

    def recall(self) -> Recall:
        """Every seat's decisions up to this position."""
        history = self.history
        if isinstance(history, Recall):
            return history
        steps: list[tuple[State, Action, int]] = []
        while isinstance(history, tuple):
            history, before, move, index = history
            steps.append((before, move, index))
        record = history if history is not None else Recall.start(self.get().players)
        for before, move, index in reversed(steps):
            record = record.after(before, move, index)
        self.history = record
        return record

    def get(self) -> State:
        if self.state is None:
            self.state = _table(self.game_id, self.options_json)[0].new_game(self.seed)
        return self.state

    def player(self) -> int:
        """The seat to move, or pyspiel's terminal id (asked several times a step)."""
        if self._player is None:
            seat = self.get().to_move
            self._player = _TERMINAL if seat is None else seat
        return self._player

    def offered(self) -> dict[int, Action]:
        if self._offered is None:
            index = _table(self.game_id, self.options_json)[1]
            self._offered = index.indices(self.get().legal_actions())
        return self._offered

    def legal(self) -> list[int]:
        """The offered indices in ascending order (OpenSpiel asks several times a step)."""
        if self._legal is None:
            self._legal = sorted(self.offered())
        return self._legal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str, int, dict[str, Any], Any]]:
        state, record = self.get().to_json(), self.recall().to_json()
        return (_restore, (self.game_id, self.options_json, self.seed, state, record))


def _restore(
    game_id: str, options_json: str, seed: int, data: dict[str, Any], record: Any
) -> _Position:
    game = _table(game_id, options_json)[0]
    state = game.state_from_json(data)
    return _Position(game_id, options_json, seed, state, Recall.from_json(record))


class TimelordGame(pyspiel.Game):
    """A timelord game for OpenSpiel; subclassed once per game id by `register`."""

    game_id: str
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rng_seed = int(params.pop("rng_seed", 0))
        self.options_json = json.dumps(params, sort_keys=True)
        try:
            tables = _table(self.game_id, self.options_json)
            self.tl_game, self.index, self.encoder, self.recall_encoder = tables
        except ConfigError as exc:
            raise pyspiel.SpielError(str(exc)) from exc
        g = self.tl_game
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.index),
            max_chance_outcomes=0,
            num_players=g.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=g.max_actions,
        )
        super().__init__(self.game_type, info, {**params, "rng_seed": self.rng_seed})
        self._seeds = Rng(self.rng_seed)

    def new_initial_state(self) -> TimelordState:
        return TimelordState(self, self._seeds.next64() >> 1)

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        # pyspiel pickles a game with its RNG state, which Python games cannot give; the
        # game's text and the position of its deal generator rebuild it exactly
        return (_unpickle_game, (str(self), self._seeds.state))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TimelordObserver:
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return TimelordObserver(self, perfect_recall)


class TimelordState(pyspiel.State):
    """One position; the timelord state is `self.pos.get()`."""

    def __init__(self, game: TimelordGame, seed: int) -> None:
        super().__init__(game)
        self.pos = _Position(game.game_id, game.options_json, seed, None)

    @property
    def timelord_state(self) -> State:
        return self.pos.get()

    def reseed(self, seed: int) -> None:
        """Deal this state afresh as the timelord game's `new_game(seed)` (before any move)."""
        self.pos = _Position(self.pos.game_id, self.pos.options_json, seed, None)

    def current_player(self) -> int:
        return self.pos.player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.pos.legal()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """`player`'s legal indices, ascending (none for a seat not to move). Answered here
        for Python callers (search loops ask at every step): pyspiel's binding would go
        to C++ and back through `_legal_actions` and copy the list twice."""
        mover = self.pos.player()
        if mover == _TERMINAL or (player is not None and player != mover):
            return []
        return list(self.pos.legal())

    def is_chance_node(self) -> bool:
        """Never: chance is sampled inside the timelord state (answered without the C++
        round trip through `current_player`)."""
        return False

    def _apply_action(self, action: int) -> None:
        chosen = self.pos.offered().get(action)
        if chosen is None:
            raise pyspiel.SpielError(f"action {action} is not legal now")
        p = self.pos
        before = p.get()
        link = (p.history, before, chosen, action)
        after = before.apply_unchecked(chosen)
        self.pos = _Position(p.game_id, p.options_json, p.seed, after, link)

    def _action_to_string(self, player: int, action: int) -> str:
        index = _table(self.pos.game_id, self.pos.options_json)[1]
        return str(index.actions[action])

    def is_terminal(self) -> bool:
        return self.pos.player() == _TERMINAL

    def returns(self) -> list[float]:
        state = self.pos.get()
        if not state.is_over:
            return [0.0] * state.players
        winners = state.winners()
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TimelordState:
        """A state the seat cannot tell from this one: `game.sample_state` of its view,
        with the seat's own decisions (the only part of the record the seat knows)."""
        game = self.get_game()
        seed = int(probability_sampler() * (1 << 53))
        view = self.pos.get().view(player_id)
        sampled = game.tl_game.sample_state(view, Rng(seed))
        out = TimelordState(game, self.pos.seed)
        p = self.pos
        mine = p.recall().only(player_id)
        out.pos = _Position(p.game_id, p.options_json, p.seed, sampled, mine)
        return out

    def information_state_string(self, player: int | None = None) -> str:
        """The seat's decisions and its view now (`history.information_state`)."""
        seat = self.current_player() if player is None else player
        return information_state(self.pos.recall(), seat, self.pos.get().view(seat))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The perfect-recall observation of the view and the seat's decisions
        (`HistoryEncoder`). Defined here because pyspiel's own path first deals a fresh
        game to learn the tensor's shape on every call; C++ callers still take that path."""
        seat = self.current_player() if player is None else player
        view = self.pos.get().view(seat)
        encoder: HistoryEncoder = self.get_game().recall_encoder
        out: list[float] = encoder.encode(view, self.pos.recall(), seat).tolist()
        return out

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation (`encoder_for(game)`), read straight from the state."""
        seat = self.current_player() if player is None else player
        out: list[float] = self.get_game().encoder.encode_state(self.pos.get(), seat).tolist()
        return out

    def __str__(self) -> str:
        return json.dumps(self.pos.get().to_json(), sort_keys=True)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # pyspiel pickles states with the game's RNG state, which Python games cannot give;
        # the game's text and the state's own serialisation rebuild it exactly.
        return (_unpickle_state, (str(self.get_game()), self.serialize()))


def _unpickle_game(text: str, seeds: int) -> TimelordGame:
    game: TimelordGame = pyspiel.load_game(text)
    game._seeds.state = seeds
    return game


def _unpickle_state(game: str, data: str) -> TimelordState:
    state: TimelordState = pyspiel.load_game(game).deserialize_state(data)
    return state


class TimelordObserver:
    """Strings and tensors of a seat: its perfect-recall record as JSON and tensor
    (information state) or its view's text picture and observation tensor."""

    def __init__(self, game: TimelordGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.recall_encoder.size if perfect_recall else game.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TimelordState, player: int) -> None:
        if self.perfect_recall:
            self.tensor[:] = state.information_state_tensor(player)
        else:
            self.tensor[:] = self.game.encoder.encode_state(state.pos.get(), player)

    def string_from(self, state: TimelordState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return self.game.tl_game.render_view(state.pos.get().view(player))


def _parameters(game_id: str) -> dict[str, Any]:
    """`players` and the scalar options with defaults, from the Game class signature."""
    cls = game_class(game_id)
    out: dict[str, Any] = {}
    for name, p in inspect.signature(cls).parameters.items():
        if isinstance(p.default, bool | int | str) and not isinstance(p.default, float):
            out[name] = p.default
    return out


def _player_range(game_id: str) -> tuple[int, int]:
    counts = []
    for n in range(1, 9):
        try:
            timelord.load(game_id, players=n)
        except ConfigError:
            continue
        counts.append(n)
    return min(counts), max(counts)


def register(game_id: str) -> None:
    """Register `game_id` with pyspiel as `short_name(game_id)`."""
    lo, hi = _player_range(game_id)
    game_type = pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"timelord {GAMES[game_id]}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**_parameters(game_id), "rng_seed": 0},
    )
    cls = type(
        f"TimelordGame_{game_id.replace('-', '_')}",
        (TimelordGame,),
        {"game_id": game_id, "game_type": game_type},
    )
    pyspiel.register_game(game_type, cls)


for _game_id in GAMES:
    register(_game_id)
