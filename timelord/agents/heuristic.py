"""The `heuristic` agent: the game's own, or a generic one-ply lookahead where it has none.

A game ships its heuristic through its hooks (`timelord/agents/<pkg>/heuristic.py`). A game
without one gets `LookaheadAgent`: for each legal action it deals a few determinisations of
the seat's view, applies the action, lets the game's rollout policy (or random play) run on
until the turn comes back or a few steps pass, and values the result with the game's
evaluation hook, else by the seat's normalised score (a finished game by its win share). It
plays greedily for points, which is what a newcomer does, and is weak wherever planning
matters.

Levels: `easy` plays at random one move in four and looks at one deal; `medium` looks at
four deals; `hard` at twelve.
"""

from __future__ import annotations

from collections.abc import Sequence

from timelord.agents.base import Agent
from timelord.agents.hooks import Hooks, hooks_for
from timelord.agents.ismcts import outcome
from timelord.core import Action, ConfigError, Game, Rng, View

_LEVELS = {"easy": (1, 0.25), "medium": (4, 0.0), "hard": (12, 0.0)}
#: actions of others (or own pending sub-decisions) played out before valuing a move
_HORIZON = 8


class LookaheadAgent(Agent):
    """Generic heuristic: one-ply lookahead over sampled deals; see the module docstring."""

    def __init__(
        self, game: Game, level: str | None, hooks: Hooks, deals: dict[str, int] | None = None
    ) -> None:
        super().__init__(game)
        if (level or "medium") not in _LEVELS:
            raise ConfigError(f"heuristic: unknown level {level!r}; use {', '.join(_LEVELS)}")
        self.deals, self.noise = _LEVELS[level or "medium"]
        if deals is not None:
            # a game whose moves hardly depend on hidden cards can look at fewer deals
            self.deals = deals.get(level or "medium", self.deals)
        self.hooks = hooks
        self.name = f"heuristic:{level or 'medium'}"

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.noise and rng.random() < self.noise:
            return legal[rng.below(len(legal))]
        seat = view["seat"]
        policy, evaluate = self.hooks.rollout, self.hooks.evaluate
        totals = [0.0] * len(legal)
        for _ in range(self.deals):
            base = self.game.sample_state(view, rng)
            for i, action in enumerate(legal):
                state = base.apply_unchecked(action)
                steps = 0
                while not state.is_over and state.to_move != seat and steps < _HORIZON:
                    options = state.legal_actions()
                    pick = policy(state, options, rng) if policy else None
                    state = state.apply_unchecked(pick or options[rng.below(len(options))])
                    steps += 1
                totals[i] += outcome(state, evaluate)[seat]
        best = max(totals)
        top = [a for a, t in zip(legal, totals, strict=True) if t >= best - 1e-9]
        return top[rng.below(len(top))]


def make_heuristic(game: Game, level: str | None) -> Agent:
    """The game's heuristic agent at `level`, or the generic lookahead."""
    hooks = hooks_for(game)
    if hooks.heuristic is not None:
        return hooks.heuristic(game, level)
    return LookaheadAgent(game, level, hooks)


class NoisyAgent(Agent):
    """Plays like `inner`, but uniformly at random with probability `noise` (the easy levels)."""

    def __init__(self, inner: Agent, noise: float) -> None:
        super().__init__(inner.game)
        self.inner = inner
        self.noise = noise
        self.name = f"{inner.name}+noise={noise:g}"

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if rng.random() < self.noise:
            return legal[rng.below(len(legal))]
        return self.inner.act(view, legal, rng)


#: noise of a game heuristic's easy level (medium and hard play it straight)
EASY_NOISE = 0.3


def leveled(inner: Agent, level: str | None) -> Agent:
    """`inner` at a named level: easy adds noise; medium and hard are `inner` itself."""
    if (level or "medium") not in _LEVELS:
        raise ConfigError(f"heuristic: unknown level {level!r}; use {', '.join(_LEVELS)}")
    return NoisyAgent(inner, EASY_NOISE) if level == "easy" else inner
