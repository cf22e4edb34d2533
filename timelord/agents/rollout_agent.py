"""The `rollout` agent: the policy that simulations play the other seats with, seated at a table.

The coach plays every seat of a simulated game by the game's simulation policy (its hooks'
`rollout`, or the thorough form of what `simulation` builds from the view). Seated here, it
deals one world from its view with `game.sample_state` (as a simulation does) and plays the
policy's move there, so a match of `rollout` against `heuristic` says how strong the simulated
opponents are next to the table's bots (docs/strength.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from timelord.agents.base import Agent
from timelord.agents.hooks import hooks_for
from timelord.core import Action, Game, Rng, View


class RolloutAgent(Agent):
    """Plays the game's simulation policy on one world dealt from its view."""

    name = "rollout"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.hooks = hooks_for(game)

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        policy, _ = self.hooks.for_view(self.game, view, thorough=True)
        if policy is None:
            return legal[rng.below(len(legal))]
        return policy(self.game.sample_state(view, rng), legal, rng)
