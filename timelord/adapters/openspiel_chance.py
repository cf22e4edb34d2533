"""timelord games as OpenSpiel games with explicit chance nodes, for CFR and exploitability.

    import pyspiel
    import timelord.adapters.openspiel_chance  # registers python_timelord_<game>_chance
    game = pyspiel.load_game("python_timelord_card_game_chance",
                             {"players": 2, "variant": "tiny"})

The sampled adapter (`timelord.adapters.openspiel`) lets each state draw from its own seeded
generator, so OpenSpiel's algorithms that sum over chance (CFR, `exploitability.nash_conv`,
expectiminimax) cannot run on it. Here every state's generator is a `ScriptedRng`
(`timelord.core.scripted`): a move applies with the outcomes chosen so far and, when the
engine asks for one more `below(n)` draw, the position becomes a chance node. No game's rules
change, and the probabilities are the engine's own (`below` is exactly uniform).

- Parameters: those of the sampled adapter (no `rng_seed`: a history fixes the game), plus
  `chance`: `"draws"` (default) makes each `below(n)` a chance node of n outcomes, each 1/n,
  so a deal that shuffles k cards is a chain of k - 1 nodes; `"outcomes"` makes each step that
  draws (the deal, a move) one chance node over the distinct positions it can lead to, with
  their exact probabilities (the draws enumerated and equal positions merged: small variants
  only, since it enumerates every draw sequence of the step).
- A history fixes its state, so OpenSpiel's default serialisation (the history) works, and
  states and games pickle by the game's text and the history.
- Actions, returns, strings and tensors are those of the sampled adapter: fixed indices of
  `Game.action_space()`, win shares, the seat's decisions and view as canonical JSON for the
  information state (perfect recall: `timelord.adapters.encode.history`) and the game's text
  picture for the observation.
- Resolved steps are cached in a tree of nodes (each node keeps its children by action), so
  the many passes of CFR and best response apply each move once, and a state is one
  reference to its node: cloning it (OpenSpiel's `child`, done at every edge of every walk)
  copies nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

import timelord
from timelord.adapters.encode import Encoder, encoder_for
from timelord.adapters.encode.history import HistoryEncoder, Recall, information_state
from timelord.adapters.openspiel import short_name
from timelord.adapters.space import ActionIndex
from timelord.core import GAMES, Action, ConfigError, Game, State
from timelord.core.scripted import ChanceNeeded, ScriptedRng, pack

#: Declared bound on the outcomes of one chance node (OpenSpiel needs one up front); every
#: draw of the four engines is below a deck, board or dice size far under it.
MAX_CHANCE_OUTCOMES = 4096
CHANCE_MODES = ("draws", "outcomes")


def chance_name(game_id: str) -> str:
    """The pyspiel name of a timelord game id with explicit chance."""
    return short_name(game_id) + "_chance"


def resolve(
    game: Game, base: State | None, move: Action | None, drawn: Sequence[int]
) -> State | int:
    """Deal (`base` None) or apply `move` to `base` with the draws `drawn`: the position it
    reaches, or the n of the next `below(n)` draw the step needs."""
    try:
        if base is None:
            return game.new_game(ScriptedRng(drawn))
        assert move is not None
        if not drawn:
            return base.apply_unchecked(move)
        if isinstance(getattr(base, "rng", None), int):
            # Every engine keeps its generator as the int `rng` and clones the state before
            # a move changes anything, so the move can start from `base` with the script in
            # place of its generator for the time of the call: no JSON round trip per draw
            # sequence (which made enumerating a step's outcomes cost 4x more).
            kept = base.rng  # type: ignore[attr-defined]
            base.rng = pack(drawn)  # type: ignore[attr-defined]
            try:
                return base.apply_unchecked(move)
            finally:
                base.rng = kept  # type: ignore[attr-defined]
        return with_script(game, base, drawn).apply_unchecked(move)
    except ChanceNeeded as need:
        return need.n


def with_script(game: Game, state: State, drawn: Sequence[int]) -> State:
    """`state` whose generator will give `drawn` (read back through its JSON form, the one
    way every game accepts a generator state)."""
    if not drawn:
        return state
    data = state.to_json()
    data["rng"] = pack(drawn)
    return game.state_from_json(data)


def step_outcomes(game: Game, base: State | None, move: Action | None) -> list[tuple[State, float]]:
    """Every distinct position the step can reach with its exact probability (all draw
    sequences enumerated depth first, equal positions merged), in a fixed order."""
    merged: dict[str, tuple[State, float]] = {}

    def walk(drawn: list[int], p: float) -> None:
        out = resolve(game, base, move, drawn)
        if isinstance(out, int):
            for k in range(out):
                walk([*drawn, k], p / out)
            return
        key = json.dumps(out.to_json(), sort_keys=True)
        old = merged.get(key)
        merged[key] = (out, p if old is None else old[1] + p)

    walk([], 1.0)
    return [merged[k] for k in sorted(merged)]


class _Node:
    """One position of the chance game: a decision (or terminal) position `state`, or a
    chance node resolving `move` from `base` (`base` None for the deal) with `drawn` so far.
    Nodes never change once built, so states share them; each keeps the children reached
    so far by action."""

    __slots__ = (
        "_legal",
        "_offered",
        "base",
        "children",
        "drawn",
        "key",
        "move",
        "outcomes",
        "player",
        "recall",
        "results",
        "returns",
        "state",
        "strings",
        "views",
    )

    def __init__(
        self,
        state: State | None,
        base: State | None = None,
        move: Action | None = None,
        drawn: tuple[int, ...] = (),
        outcomes: list[tuple[int, float]] | None = None,
        results: list[State] | None = None,
    ) -> None:
        self.state = state
        self.base = base
        self.move = move
        self.drawn = drawn
        self.outcomes = outcomes or []
        self.results = results or []
        self.strings: dict[int, str] = {}
        self.views: dict[int, dict[str, Any]] = {}
        #: every seat's decisions on the way here (set by the parent when it is reached)
        self.recall: Recall = Recall.start(0)
        self.children: dict[int, _Node] = {}
        #: OpenSpiel's player id here, and the win shares at a terminal (zeros elsewhere)
        self.player: int = pyspiel.PlayerId.CHANCE
        self.returns: list[float] = []
        if state is not None:
            seat = state.to_move
            self.player = pyspiel.PlayerId.TERMINAL if seat is None else seat
            winners = state.winners() if seat is None else []
            self.returns = [
                1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)
            ]
        self._offered: dict[int, Action] | None = None
        self._legal: list[int] | None = None
        #: the game's text and the history that reach this node, to pickle it by
        self.key: tuple[str, tuple[int, ...]] = ("", ())

    def offered(self, index: ActionIndex) -> dict[int, Action]:
        """The position's legal actions by index."""
        if self._offered is None:
            assert self.state is not None
            self._offered = index.indices(self.state.legal_actions())
        return self._offered

    def legal(self, index: ActionIndex) -> list[int]:
        """The offered indices in ascending order (OpenSpiel asks several times a node)."""
        if self._legal is None:
            self._legal = sorted(self.offered(index))
        return self._legal

    def view(self, seat: int) -> dict[str, Any]:
        """The seat's view of the position a view is read from: this one, or the one before
        a pending draw (empty during the deal, when no seat has seen anything)."""
        got = self.views.get(seat)
        if got is None:
            position = self.state if self.state is not None else self.base
            got = self.views[seat] = {} if position is None else position.view(seat)
        return got

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self  # OpenSpiel clones a state by deep copy; nodes never change

    def __reduce__(self) -> tuple[Any, tuple[str, tuple[int, ...]]]:
        # OpenSpiel serialises a Python state by pickling its attributes
        return (_node_at, self.key)


class TimelordChanceGame(pyspiel.Game):
    """A timelord game with explicit chance; subclassed once per game id by `register`."""

    game_id: str
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.chance = str(params.pop("chance", "draws"))
        if self.chance not in CHANCE_MODES:
            raise pyspiel.SpielError(f"chance must be one of {CHANCE_MODES}, not {self.chance!r}")
        try:
            self.tl_game: Game = timelord.load(self.game_id, **params)
        except ConfigError as exc:
            raise pyspiel.SpielError(str(exc)) from exc
        self.index = ActionIndex(self.tl_game)
        self.encoder: Encoder = encoder_for(self.tl_game)
        self.recall_encoder = HistoryEncoder(self.tl_game, len(self.index))
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.index),
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=self.tl_game.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.tl_game.max_actions,
        )
        super().__init__(self.game_type, info, {**params, "chance": self.chance})
        self.text = str(self)
        self._root: _Node | None = None

    def new_initial_state(self) -> TimelordChanceState:
        return TimelordChanceState(self)

    def root(self) -> _Node:
        """The deal's node, the root of the tree of nodes built so far."""
        if self._root is None:
            self._root = self.step(None, None, ())
            self._root.key = (self.text, ())
            self._root.recall = Recall.start(self.tl_game.players)
        return self._root

    def step(self, base: State | None, move: Action | None, drawn: tuple[int, ...]) -> _Node:
        """The node a step reaches: its position, or the chance node of its next draw."""
        if self.chance == "outcomes":
            results = step_outcomes(self.tl_game, base, move)
            if len(results) == 1:
                return _Node(results[0][0])
            if len(results) > MAX_CHANCE_OUTCOMES:
                raise pyspiel.SpielError(f"a step has {len(results)} outcomes, over the bound")
            outcomes = [(i, p) for i, (_, p) in enumerate(results)]
            return _Node(None, base, move, (), outcomes, [s for s, _ in results])
        out = resolve(self.tl_game, base, move, drawn)
        if isinstance(out, int):
            if out > MAX_CHANCE_OUTCOMES:
                raise pyspiel.SpielError(f"a draw has {out} outcomes, over the bound")
            return _Node(None, base, move, drawn, [(k, 1.0 / out) for k in range(out)])
        return _Node(out)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (pyspiel.load_game, (str(self),))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TimelordChanceObserver:
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return TimelordChanceObserver(self, perfect_recall)


class TimelordChanceState(pyspiel.State):
    """One history; its node (position or pending draw) is `self.node`."""

    def __init__(self, game: TimelordChanceGame) -> None:
        super().__init__(game)
        self.node = game.root()

    @property
    def path(self) -> tuple[int, ...]:
        """The actions (moves and chance outcomes) from the start to this node."""
        return self.node.key[1]

    @property
    def timelord_state(self) -> State | None:
        """The position at a decision or terminal node (None at a chance node)."""
        return self.node.state

    def current_player(self) -> int:
        return self.node.player

    def _legal_actions(self, player: int) -> list[int]:
        game: TimelordChanceGame = self.get_game()
        return list(self.node.legal(game.index))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.node.outcomes)

    def _apply_action(self, action: int) -> None:
        node = self.node
        child = node.children.get(action)
        if child is None:
            game: TimelordChanceGame = self.get_game()
            child = node.children[action] = self._make_child(game, node, action)
            child.key = (game.text, (*node.key[1], action))
            if node.state is None:
                child.recall = node.recall
            else:
                seat = node.player
                move = node.offered(game.index)[action]
                child.recall = node.recall.decided(seat, node.view(seat), move, action)
        self.node = child

    @staticmethod
    def _make_child(game: TimelordChanceGame, node: _Node, action: int) -> _Node:
        """The node `action` leads to from `node`, checked (`SpielError`) and resolved."""
        if node.state is None:
            if action not in dict(node.outcomes):
                raise pyspiel.SpielError(f"chance outcome {action} is not offered now")
            if node.results:
                return _Node(node.results[action])
            return game.step(node.base, node.move, (*node.drawn, action))
        chosen = node.offered(game.index).get(action)
        if chosen is None:
            raise pyspiel.SpielError(f"action {action} is not legal now")
        return game.step(node.state, chosen, ())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        game: TimelordChanceGame = self.get_game()
        return str(game.index.actions[action])

    def is_terminal(self) -> bool:
        return self.node.player == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        node = self.node
        if node.state is None:
            game: TimelordChanceGame = self.get_game()
            return [0.0] * game.tl_game.players
        return node.returns[:]

    def _position(self) -> State | None:
        """The position a seat's view is read from: the one before a pending draw (None
        during the deal, when no seat has seen anything)."""
        return self.node.state if self.node.state is not None else self.node.base

    def information_state_string(self, player: int | None = None) -> str:
        """The seat's decisions and its view now (`history.information_state`)."""
        seat = self.current_player() if player is None else player
        node = self.node
        text = node.strings.get(seat)
        if text is None:
            text = node.strings[seat] = information_state(node.recall, seat, node.view(seat))
        return text

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        game: TimelordChanceGame = self.get_game()
        position = self._position()
        return "" if position is None else game.tl_game.render_view(position.view(seat))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        seat = self.current_player() if player is None else player
        return self._tensor(seat, True).tolist()

    def observation_tensor(self, player: int | None = None) -> list[float]:
        seat = self.current_player() if player is None else player
        return self._tensor(seat, False).tolist()

    def _tensor(self, seat: int, recall: bool) -> np.ndarray:
        """The perfect-recall (view and decisions) or plain observation of `seat`; zeros
        during the deal."""
        game: TimelordChanceGame = self.get_game()
        position = self._position()
        if position is None:
            size = game.recall_encoder.size if recall else game.encoder.size
            return np.zeros(size, np.float32)
        if recall:
            return game.recall_encoder.encode(self.node.view(seat), self.node.recall, seat)
        return game.encoder.encode_state(position, seat)

    def __str__(self) -> str:
        if self.node.state is None:
            return f"chance after {list(self.path)}"
        return json.dumps(self.node.state.to_json(), sort_keys=True)

    def __reduce__(self) -> tuple[Any, tuple[str, list[int]]]:
        return (_replay, (str(self.get_game()), list(self.path)))


def _replay(game_text: str, history: list[int]) -> TimelordChanceState:
    state: TimelordChanceState = pyspiel.load_game(game_text).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _node_at(game_text: str, history: tuple[int, ...]) -> _Node:
    return _replay(game_text, list(history)).node


class TimelordChanceObserver:
    """Strings and tensors of a seat's view, as the sampled adapter's observer gives them."""

    def __init__(self, game: TimelordChanceGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.recall_encoder.size if perfect_recall else game.encoder.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TimelordChanceState, player: int) -> None:
        self.tensor[:] = state._tensor(player, self.perfect_recall)

    def string_from(self, state: TimelordChanceState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


#: What the explicit-chance game shares with the sampled one's type (everything but its
#: names, its chance mode and its parameters).
_SHARED = (
    "dynamics",
    "information",
    "utility",
    "reward_model",
    "max_num_players",
    "min_num_players",
    "provides_information_state_string",
    "provides_information_state_tensor",
    "provides_observation_string",
    "provides_observation_tensor",
)


def register(game_id: str) -> None:
    """Register `game_id` with pyspiel as `chance_name(game_id)`, its type that of the
    sampled adapter's game with explicit chance and `chance` in place of `rng_seed`."""
    sampled = {t.short_name: t for t in pyspiel.registered_games()}[short_name(game_id)]
    params = {k: v for k, v in sampled.parameter_specification.items() if k != "rng_seed"}
    game_type = pyspiel.GameType(
        short_name=chance_name(game_id),
        long_name=f"{sampled.long_name} (explicit chance)",
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        parameter_specification={**params, "chance": "draws"},
        **{name: getattr(sampled, name) for name in _SHARED},
    )
    cls = type(
        f"TimelordChanceGame_{game_id.replace('-', '_')}",
        (TimelordChanceGame,),
        {"game_id": game_id, "game_type": game_type},
    )
    pyspiel.register_game(game_type, cls)


for _game_id in GAMES:
    register(_game_id)
