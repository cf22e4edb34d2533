"""Bots, built by name from a seat spec such as "random" or "ismcts:hard"."""

from __future__ import annotations

from collections.abc import Callable

from timelord.agents.base import Agent
from timelord.agents.random_agent import RandomAgent
from timelord.core import ConfigError, Game

#: name -> factory(game, level) ; level is the text after ":" in a spec, or None.
AGENTS: dict[str, Callable[[Game, str | None], Agent]] = {
    "random": lambda game, level: RandomAgent(game),
}


def make_agent(spec: str, game: Game) -> Agent:
    """Build the agent a seat spec names ("random", "heuristic", "ismcts:hard", ...)."""
    name, _, level = spec.partition(":")
    factory = AGENTS.get(name)
    if factory is None:
        raise ConfigError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    return factory(game, level or None)


__all__ = ["AGENTS", "Agent", "RandomAgent", "make_agent"]
