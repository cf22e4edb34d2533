"""What a game may add to the generic bots: a heuristic agent, a rollout policy, an evaluation.

A game gets them by shipping `timelord/agents/<game package>/heuristic.py` with a module-level
`HOOKS = Hooks(...)`, found by the game's package name; tests and plug-ins may instead call
`register_hooks(game_id, hooks)`. Every field is optional: a game without hooks gets the
generic one-ply heuristic, random rollouts and a score-based evaluation.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from timelord.core import Action, Game, Rng, State, View

if TYPE_CHECKING:
    from timelord.agents.base import Agent

#: (state, its legal actions, rng) -> one of the actions; used inside search on sampled states.
Policy = Callable[[State, Sequence[Action], Rng], Action]
#: state -> one value in [0, 1] per seat (1 = surely wins); used where search cuts a rollout.
Evaluation = Callable[[State], list[float]]


@dataclass(frozen=True)
class Hooks:
    """Game-specific pieces for the bots; see the module docstring."""

    #: (game, level or None) -> the game's heuristic agent
    heuristic: Callable[[Game, str | None], Agent] | None = None
    rollout: Policy | None = None
    evaluate: Evaluation | None = None
    #: ismcts level name -> settings overriding the generic ones (see `ismcts.LEVELS`)
    levels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: (game, view, legal actions) -> a move the seat's own knowledge settles, or None; the
    #: search plays it without searching (a Clue seat that knows the envelope goes to accuse)
    settled: Callable[[Game, View, Sequence[Action]], Action | None] | None = None
    #: actions after which the coach (`timelord.agents.coach`) stops a playout and takes the
    #: seat's share from `evaluate` (None: play to the end, the exact win share); for games
    #: whose rollout policy cannot finish a game well (Clue's never accuses)
    playout_cutoff: int | None = None
    #: (game, view, thorough) -> the rollout policy and evaluation for simulations from that
    #: view, where what the seats have worked out (a Clue seat's exact deductions) is more
    #: than the sampled state shows, or the policy is stronger than `rollout` and dearer;
    #: `thorough` asks for the dearest, most faithful one (the coach; the search asks
    #: without). None: `rollout` and `evaluate` as they are
    simulation: Callable[[Game, View, bool], tuple[Policy, Evaluation]] | None = None
    #: legal actions -> the paired search's margin for this decision (standard errors by
    #: which a move must beat the rollout policy's own), or None for the level's `paired`;
    #: for a game whose kinds of decision differ in how often the policy's move is beaten
    paired_margin: Callable[[Sequence[Action]], float | None] | None = None
    #: view -> a world's weight (>= 0, relative) given what the other seats' own play up to
    #: `view` says about their hands (None: no evidence, every deal as likely); the search
    #: picks among several deals by it (`Settings.weigh`), for a game whose table players are
    #: predictable enough that their moves tell which cards they kept
    plausible: Callable[[View], Callable[[State], float] | None] | None = None

    def for_view(
        self, game: Game, view: View, thorough: bool = False
    ) -> tuple[Policy | None, Evaluation | None]:
        """The rollout policy and evaluation to simulate from `view` (see `simulation`)."""
        if self.simulation is not None:
            return self.simulation(game, view, thorough)
        return self.rollout, self.evaluate


_REGISTERED: dict[str, Hooks] = {}
_FOUND: dict[str, Hooks] = {}


def register_hooks(game_id: str, hooks: Hooks) -> None:
    """Use `hooks` for `game_id` (overrides what the game's package ships)."""
    _REGISTERED[game_id] = hooks


def hooks_for(game: Game) -> Hooks:
    """The hooks of `game`: registered ones, else its package's, else empty."""
    if game.id in _REGISTERED:
        return _REGISTERED[game.id]
    if game.id not in _FOUND:
        _FOUND[game.id] = _discover(game)
    return _FOUND[game.id]


def _discover(game: Game) -> Hooks:
    parts = type(game).__module__.split(".")
    if len(parts) < 3 or parts[:2] != ["timelord", "games"]:
        return Hooks()
    name = f"timelord.agents.{parts[2]}.heuristic"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return Hooks()
        raise
    hooks = getattr(module, "HOOKS", None)
    assert isinstance(hooks, Hooks), f"{name}.HOOKS must be a Hooks"
    return hooks
