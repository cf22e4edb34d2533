"""Bots, built by name from a seat spec such as "random", "heuristic:easy" or "ismcts:hard".

- `random`: uniform over the legal actions.
- `heuristic[:level]`: the game's own heuristic (from its hooks), else a generic one-ply
  lookahead (`timelord.agents.heuristic`).
- `ismcts[:level]`: single-observer ISMCTS (`timelord.agents.ismcts`); the level is a name
  (easy, medium, hard), a number of simulations, or settings such as "sims=800/time=2".
"""

from __future__ import annotations

from collections.abc import Callable

from timelord.agents.base import Agent
from timelord.agents.heuristic import make_heuristic
from timelord.agents.hooks import Hooks, hooks_for, register_hooks
from timelord.agents.ismcts import make_ismcts
from timelord.agents.random_agent import RandomAgent
from timelord.core import ConfigError, Game

#: name -> factory(game, level) ; level is the text after ":" in a spec, or None.
AGENTS: dict[str, Callable[[Game, str | None], Agent]] = {
    "random": lambda game, level: RandomAgent(game),
    "heuristic": make_heuristic,
    "ismcts": make_ismcts,
}


def make_agent(spec: str, game: Game) -> Agent:
    """Build the agent a seat spec names ("random", "heuristic", "ismcts:hard", ...)."""
    name, _, level = spec.partition(":")
    factory = AGENTS.get(name)
    if factory is None:
        raise ConfigError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    agent = factory(game, level or None)
    agent.name = spec
    return agent


__all__ = [
    "AGENTS",
    "Agent",
    "Hooks",
    "RandomAgent",
    "hooks_for",
    "make_agent",
    "register_hooks",
]
