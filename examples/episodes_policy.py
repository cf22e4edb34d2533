"""A small linear softmax policy for Episodes, usable as a timelord seat.

The policy scores each offered action `a` by `W[a] . x + b[a]`, where `x` is the seat's
encoded view (`timelord.adapters.encode`) and `a` the action's fixed index
(`Game.action_space()`), and picks the best (or samples, at a temperature). Plain numpy.

As a seat: `--seats examples/episodes_policy.py:PolicyAgent`; it reads the weights from
`examples/episodes_policy.npz` or from the file named by `$TIMELORD_POLICY`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from timelord.adapters.encode import encoder_for
from timelord.adapters.space import ActionIndex
from timelord.agents.base import Agent
from timelord.core import Action, ConfigError, Game, Rng, View

DEFAULT_WEIGHTS = Path(__file__).with_name("episodes_policy.npz")


class LinearPolicy:
    """Weights over (action index, observation feature), plus a bias per action."""

    def __init__(self, actions: int, features: int) -> None:
        self.w = np.zeros((actions, features), dtype=np.float32)
        self.b = np.zeros(actions, dtype=np.float32)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Softmax over the `legal` indices."""
        logits = self.w[legal] @ x + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def save(self, path: Path, meta: dict[str, Any]) -> None:
        np.savez_compressed(path, w=self.w, b=self.b, **{k: np.array(v) for k, v in meta.items()})

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        data = np.load(path)
        policy = cls(*data["w"].shape)
        policy.w[:] = data["w"]
        policy.b[:] = data["b"]
        return policy


class PolicyAgent(Agent):
    """Plays the saved policy greedily (the most probable offered action)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        path = Path(os.environ.get("TIMELORD_POLICY", DEFAULT_WEIGHTS))
        if not path.is_file():
            raise ConfigError(f"no policy weights at {path}; run examples/train_episodes.py")
        self.policy = LinearPolicy.load(path)
        self.index = ActionIndex(game)
        self.encoder = encoder_for(game)
        if self.policy.w.shape != (len(self.index), self.encoder.size):
            raise ConfigError(f"{path} was trained for another game or player count")

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        offered = self.index.indices(legal)
        ids = np.fromiter(offered, dtype=np.int64)
        p = self.policy.probabilities(self.encoder.encode(view), ids)
        return offered[int(ids[int(np.argmax(p))])]
