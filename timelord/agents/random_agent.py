"""The uniform random agent: the baseline every other bot must beat."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from timelord.agents.base import Agent
from timelord.core import Action, Rng, View


class RandomAgent(Agent):
    """Picks uniformly among the legal actions with its own seeded generator."""

    name = "random"

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        return legal[rng.below(len(legal))]

    def act_on(self, view_of: Callable[[], View], legal: Sequence[Action], rng: Rng) -> Action:
        return legal[rng.below(len(legal))]
