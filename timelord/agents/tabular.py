"""A seat that plays a tabular policy, such as the average policy CFR found on a small
variant (`python -m timelord.sim.cfr ... --out DIR` writes one): spec `cfr:PATH.json`.

The file maps each information state (the SHA-256 of the seat's view as canonical JSON, the
information state string of the explicit-chance OpenSpiel adapter) to the probability of each
action (its JSON text). A view the table does not hold is played uniformly at random.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from timelord.agents.base import Agent
from timelord.core import Action, ConfigError, Game, Rng, View


def view_key(view: View) -> str:
    """The table's key of a view (see `state_key`)."""
    return state_key(json.dumps(view, sort_keys=True, separators=(",", ":")))


def state_key(information_state: str) -> str:
    """The table's key of an information state string: its SHA-256, since views are long."""
    return hashlib.sha256(information_state.encode()).hexdigest()


def action_key(action: Action) -> str:
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))


class TabularAgent(Agent):
    """Draws each action with the probability the table gives it in this view."""

    def __init__(self, game: Game, path: str) -> None:
        super().__init__(game)
        try:
            data: dict[str, Any] = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cfr: cannot read the policy {path!r}: {exc}") from exc
        if data.get("game") != game.id or data.get("options") != game.options:
            raise ConfigError(
                f"cfr: {path} is a policy of {data.get('game')} {data.get('options')}, "
                f"not of {game.id} {game.options}"
            )
        self.policy: dict[str, dict[str, float]] = data["policy"]

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        probs = self.policy.get(view_key(view))
        if probs is None:
            return legal[rng.below(len(legal))]
        weights = [probs.get(action_key(a), 0.0) for a in legal]
        total = sum(weights)
        if total <= 0:
            return legal[rng.below(len(legal))]
        x = rng.random() * total
        for action, w in zip(legal, weights, strict=True):
            x -= w
            if x < 0:
                return action
        return legal[-1]


def make_tabular(game: Game, path: str | None) -> TabularAgent:
    """The `cfr:PATH.json` seat. Only a `.json` path is read, which the server's seat check
    (named levels are letters only) never lets a request name."""
    if not path or not path.endswith(".json"):
        raise ConfigError(
            "cfr: name a policy file, as cfr:results/cfr/card-game-tiny-2p.policy.json"
        )
    return TabularAgent(game, path)
