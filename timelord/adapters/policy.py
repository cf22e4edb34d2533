"""A trained policy at a table: the network `timelord train` writes, played as a seat spec.

    timelord simulate keys --seats ppo:results/baselines/keys,heuristic --games 100

A policy folder holds `config.json` (the game, its options, the observation, the network's
shape and how it was trained) and `weights.npz` (the actor of MaskablePPO's network: tanh
hidden layers, then one logit per index of the action space). Playing needs numpy only, not
torch: the forward pass is a few matrix products, and it is the same as sb3-contrib's (a
test compares them). The agent encodes its own view (`timelord.adapters.encode`, so it sees
nothing its seat may not), divides by the observation's highest values as in training, and
takes the offered index with the highest logit (a folder trained with derived features,
`timelord.adapters.features`, computes them from the same view); `ppo:PATH/sample` draws
from the masked softmax with the seat's generator instead.

A policy trained with `recall` (`timelord train --recall`) reads the perfect-recall
observation, the view's and the seat's decisions this game
(`timelord.adapters.encode.history`). The agent keeps that record itself, from what a seat
at the table has: each view it was shown when it decided and the index it chose, nothing
else. So one agent plays one game, as matches and the envs build them: a `PolicyAgent` with
`recall` seated for a second game, or taking over a seat mid-game, reads a past that is not
this seat's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from timelord.adapters.encode import Encoder
from timelord.adapters.encode.history import HistoryEncoder, Recall, observation_encoder
from timelord.adapters.features import Features, features_for
from timelord.adapters.space import ActionIndex
from timelord.agents.base import Agent
from timelord.core import Action, ConfigError, Game, Rng, View

CONFIG = "config.json"
WEIGHTS = "weights.npz"
#: what `config.json`'s "format" says; a folder of another format is refused
FORMAT = "timelord-policy/1"

Array = np.ndarray[Any, np.dtype[np.float32]]


@dataclass(frozen=True)
class Policy:
    """An MLP actor: `hidden` (weight, bias) pairs with tanh, then the logits' pair; the
    observation is divided by `scale` first."""

    hidden: tuple[tuple[Array, Array], ...]
    head: tuple[Array, Array]
    scale: Array

    def logits(self, obs: Array) -> Array:
        """The logit of every index of the action space for one observation."""
        x = obs / self.scale
        for w, b in self.hidden:
            x = np.tanh(w @ x + b)
        w, b = self.head
        out: Array = w @ x + b
        return out

    def arrays(self) -> dict[str, Array]:
        """The arrays `weights.npz` stores, by name."""
        named = {
            f"hidden{i}_{part}": a
            for i, pair in enumerate(self.hidden)
            for part, a in zip(("w", "b"), pair, strict=True)
        }
        return {**named, "head_w": self.head[0], "head_b": self.head[1], "scale": self.scale}

    @classmethod
    def from_arrays(cls, arrays: Any) -> Policy:
        """The policy of a loaded `weights.npz` (or a dict of the same names)."""
        hidden: list[tuple[Array, Array]] = []
        while f"hidden{len(hidden)}_w" in arrays:
            i = len(hidden)
            hidden.append((_f32(arrays[f"hidden{i}_w"]), _f32(arrays[f"hidden{i}_b"])))
        return cls(
            tuple(hidden), (_f32(arrays["head_w"]), _f32(arrays["head_b"])), _f32(arrays["scale"])
        )


def observation_scale(encoder: Encoder | HistoryEncoder, features: Features | None = None) -> Array:
    """What an observation is divided by: each number's highest value (1 where that is 0),
    so every input of the network lies in [0, 1]; the derived features are in [0, 1]
    already."""
    scale: Array = np.where(encoder.high > 0, encoder.high, 1.0).astype(np.float32)
    if features is None:
        return scale
    return np.concatenate([scale, np.ones(features.size, dtype=np.float32)])


def save_policy(folder: Path, policy: Policy, config: dict[str, Any]) -> None:
    """Write `config.json` and `weights.npz` into `folder` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(folder / WEIGHTS, **policy.arrays())  # type: ignore[arg-type]
    text = json.dumps({"format": FORMAT, **config}, indent=2, sort_keys=True)
    (folder / CONFIG).write_text(text + "\n", encoding="utf-8")


def load_policy(folder: Path) -> tuple[Policy, dict[str, Any]]:
    """The policy and config a `timelord train` folder holds; `ConfigError` when it holds
    none."""
    try:
        config = json.loads((folder / CONFIG).read_text(encoding="utf-8"))
        with np.load(folder / WEIGHTS) as arrays:
            policy = Policy.from_arrays(arrays)
    except FileNotFoundError as exc:
        raise ConfigError(f"no trained policy in {str(folder)!r} ({exc.filename} missing)") from exc
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigError(f"unreadable policy in {str(folder)!r}: {exc}") from exc
    if not isinstance(config, dict) or config.get("format") != FORMAT:
        raise ConfigError(f"{str(folder)!r} is not a {FORMAT} policy folder")
    return policy, config


class PolicyAgent(Agent):
    """Plays one seat with a `Policy`: the best (or a sampled) offered index."""

    def __init__(
        self,
        game: Game,
        policy: Policy,
        recall: bool = False,
        sample: bool = False,
        features: Features | None = None,
    ) -> None:
        super().__init__(game)
        self.policy = policy
        self.index = ActionIndex(game)
        self.encoder = observation_encoder(game, len(self.index), recall)
        self.features = features
        self.sample = sample
        #: with `recall`, this seat's decisions in this game (its one seat is the record's
        #: seat 0: the record holds nothing of any other)
        self.record: Recall | None = (
            Recall.start(1) if isinstance(self.encoder, HistoryEncoder) else None
        )
        width = policy.hidden[0][0].shape[1] if policy.hidden else policy.head[0].shape[1]
        size = self.encoder.size + (features.size if features is not None else 0)
        if width != size or policy.head[0].shape[0] != len(self.index):
            raise ConfigError(
                f"the policy reads {width} numbers and scores {policy.head[0].shape[0]} "
                f"actions; {game.id} at {game.players} players has {size} and "
                f"{len(self.index)}"
            )

    def observation(self, view: View) -> Array:
        """The network's input (before scaling) at a decision shown `view`: its encoding
        (with `recall`, with this seat's earlier decisions), then the features."""
        encoder = self.encoder
        if isinstance(encoder, HistoryEncoder):
            assert self.record is not None
            obs: Array = encoder.encode(view, self.record, 0)
        else:
            obs = encoder.encode(view)
        if self.features is None:
            return obs
        return np.concatenate([obs, self.features.compute(view)])

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        offered = self.index.indices(legal)
        key = self._choose(offered, self.policy.logits(self.observation(view)), rng)
        if self.record is not None:
            self.record = self.record.decided(0, view, offered[key], key)
        return offered[key]

    def _choose(self, offered: dict[int, Action], logits: Array, rng: Rng) -> int:
        """The offered index with the best logit, or (`sample`) one drawn from the masked
        softmax with `rng`."""
        keys = list(offered)
        scores = logits[keys]
        if not self.sample:
            return keys[int(np.argmax(scores))]
        weights = np.exp(scores - scores.max())
        point = rng.random() * float(weights.sum())
        for key, weight in zip(keys, weights, strict=True):
            point -= float(weight)
            if point < 0:
                return key
        return keys[-1]  # rounding left a sliver past the last weight


def make_policy_agent(game: Game, where: str | None) -> Agent:
    """The agent of seat spec `ppo:FOLDER` (`ppo:FOLDER/sample` samples): the folder's
    policy, refused unless it was trained on this game with these options."""
    if not where:
        raise ConfigError("write ppo:FOLDER, the folder `timelord train --out` wrote")
    sample = False
    folder = Path(where).expanduser()
    if not (folder / CONFIG).exists() and folder.name == "sample":
        folder, sample = folder.parent, True
    policy, config = load_policy(folder)
    if config.get("game") != game.id:
        raise ConfigError(f"{where!r} was trained on {config.get('game')!r}, not {game.id!r}")
    if config.get("players") != game.players:
        raise ConfigError(
            f"{where!r} was trained at {config.get('players')} players, not {game.players}"
        )
    features = features_for(game, config.get("features"))
    recall = bool(config.get("recall"))
    agent = PolicyAgent(game, policy, recall=recall, sample=sample, features=features)
    if not np.array_equal(policy.scale, observation_scale(agent.encoder, features)):
        raise ConfigError(f"{where!r} was trained on another observation of {game.id}")
    return agent


def _f32(a: Any) -> Array:
    out: Array = np.asarray(a, dtype=np.float32)
    return out


__all__ = ["Policy", "PolicyAgent", "load_policy", "make_policy_agent", "save_policy"]
