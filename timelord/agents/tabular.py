"""A seat that plays a tabular policy, such as the average policy CFR found on a small
variant (`python -m timelord.sim.cfr ... --out DIR` writes one): spec `cfr:PATH.json`.

The file maps each information state to the probability of each action (its JSON text). An
information state is the seat's whole past, not its view alone (two pasts of a seat can
reach one view, and CFR's policy differs between them): its key is the SHA-256 of the
canonical JSON of `{"decisions": [[view, action], ...], "view": view}`, each of the seat's
earlier decisions in this game (the view it was shown, the action it took) and its view now
(`history_key`), what a seat knows at the table without being told anything more.

The seat remembers its own decisions, so one agent plays one table at a time; a state
the table does not hold with them is looked up as the seat's first decision (a new game),
and a state it still does not hold is played uniformly at random.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from timelord.agents.base import Agent
from timelord.core import Action, ConfigError, Game, Rng, View


def history_key(decisions: Sequence[tuple[View, Action]], view: View) -> str:
    """The table's key of a seat's information state: its earlier decisions of this game
    (the view it was shown, the action it took) and its view now."""
    past = [[seen, action.to_json()] for seen, action in decisions]
    return state_key(json.dumps({"decisions": past, "view": view}, **_CANONICAL))


def view_key(view: View) -> str:
    """The table's key of a seat's first decision (no decision before it)."""
    return history_key((), view)


_CANONICAL: dict[str, Any] = {"sort_keys": True, "separators": (",", ":")}


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
        #: this game's decisions so far (the views shown, the actions taken)
        self.decisions: list[tuple[View, Action]] = []

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        probs = self.policy.get(history_key(self.decisions, view))
        if probs is None and self.decisions:
            probs = self.policy.get(view_key(view))
            if probs is not None:  # a first decision: a new game began
                self.decisions = []
        action = self._draw(probs, legal, rng)
        self.decisions.append((view, action))
        return action

    @staticmethod
    def _draw(probs: dict[str, float] | None, legal: Sequence[Action], rng: Rng) -> Action:
        """An action drawn with the table's weights (uniformly when it has none)."""
        weights = [probs.get(action_key(a), 0.0) for a in legal] if probs else []
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
