"""Masked PPO baselines: sb3-contrib's MaskablePPO on the Gymnasium env, bounded by CPU time.

    timelord train keys --players 2 --minutes 15 --seed 1 --out results/baselines/keys

Needs the `train` extra (torch, stable-baselines3, sb3-contrib); what it writes plays with
numpy only (`timelord.adapters.policy`, seat spec `ppo:FOLDER`).

- Tables. `envs` tables of the single-agent env (`timelord.adapters.gym`), the learner's seat
  rotating, stepped together in SB3's `DummyVecEnv`; MaskablePPO reads each table's
  `action_masks()`. Observations are divided by their highest values (inputs in [0, 1]).
- Warm start. Unless `imitate` is None, the network first learns to copy a demonstrator
  (the heuristic by default): `imitate_games` seeded games of the demonstrator in every
  seat, each decision an (observation, mask, action, discounted win share) row; the actor
  fits the actions (masked cross-entropy) and the critic the win shares, for
  `imitate_epochs` passes. PPO then starts from a policy that already plays, instead of
  one that almost never wins and so almost never sees a reward.
- Opponents. Table i plays `opponents[i % len(opponents)]` in every other seat for the whole
  run, so the default mix (random, heuristic, heuristic, self) keeps easy wins in every batch
  while most games are against the heuristic. `self` is a frozen copy of the learner,
  sampling from its own policy, refreshed every `snapshot_every` rollouts: the self-play
  part of the curriculum. Any seat spec serves as an opponent.
- Budget. Training stops at `steps` or after `minutes` of this process's CPU time
  (`time.process_time`: torch runs one thread, so that is one core's minutes, whatever else
  the machine is doing), whichever comes first; the warm start counts. A run cut by the
  clock keeps the rollouts it finished and records their count as `steps`, so `--steps N`
  with the same seed replays it exactly (one torch thread, the seeded tables and opponents:
  the same weights, tested).
- Output. `config.json` (how it was trained, the steps done, the CPU and wall seconds and the
  learner's win share against each opponent over the last games) and `weights.npz` (the
  actor; the critic only serves training).
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import timelord
from timelord.adapters.encode import Encoder
from timelord.adapters.encode.history import Recall, observation_encoder
from timelord.adapters.features import Features, features_for
from timelord.adapters.gym import OpponentSpec, TimelordEnv
from timelord.adapters.policy import Policy, PolicyAgent, observation_scale, save_policy
from timelord.adapters.space import ActionIndex
from timelord.agents import make_agent
from timelord.agents.base import Agent
from timelord.core import ConfigError, Game
from timelord.core.seating import game_seed, seat_rngs

#: the opponent that stands for a frozen copy of the learner
SELF = "self"
DEFAULT_OPPONENTS = ("random", "heuristic", "heuristic", SELF)
#: MaskablePPO's settings: short rollouts per table, a few epochs, a little entropy
PPO_SETTINGS: dict[str, Any] = {
    "n_steps": 128,
    "batch_size": 256,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "gamma": 0.995,
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
    "clip_range": 0.2,
}
#: MaskablePPO's other settings `ppo` (`--ppo NAME=VALUE`) may set
TUNABLE = ("vf_coef", "max_grad_norm", "target_kl")
#: the warm start's demonstrator, games and passes over its decisions
IMITATE = "heuristic"
IMITATE_GAMES = 100
IMITATE_EPOCHS = 10
#: the warm start's own Adam step size and minibatch (PPO keeps its optimizer and settings)
IMITATE_RATE = 1e-3
IMITATE_BATCH = 128
#: games per opponent over which the recorded win shares are taken
RECENT = 200


class _Scaled(gymnasium.ObservationWrapper[Any, Any, Any]):
    """The env with the derived features (if any) appended to its observations, divided by
    `scale`, and its masks for MaskablePPO."""

    def __init__(
        self, env: TimelordEnv, scale: np.ndarray[Any, Any], features: Features | None = None
    ) -> None:
        super().__init__(env)
        self.table = env
        self.scale = scale
        self.features = features
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, shape=scale.shape, dtype=np.float32)

    def observation(self, observation: Any) -> Any:
        if self.features is not None:
            state = self.table.state
            assert state is not None
            extra = self.features.compute(state.view(self.table.seat))  # the seat's view only
            observation = np.concatenate([observation, extra])
        return (observation / self.scale).astype(np.float32)

    def action_masks(self) -> np.ndarray[Any, Any]:
        return self.table.action_masks().astype(bool)


class Demonstrations:
    """Every decision of some seeded games: observations (scaled), the offered indices, the
    index chosen and the mover's discounted win share from there."""

    def __init__(self) -> None:
        self.obs: list[np.ndarray[Any, Any]] = []
        self.offered: list[np.ndarray[Any, Any]] = []
        self.actions: list[int] = []
        self.returns: list[float] = []

    def __len__(self) -> int:
        return len(self.actions)


def demonstrate(
    game: Game,
    spec: str,
    games: int,
    seed: int,
    recall: bool,
    gamma: float,
    features: Features | None = None,
) -> Demonstrations:
    """`games` games of `spec` in every seat, dealt from `seed` as matches deal them."""
    index = ActionIndex(game)
    encoder = observation_encoder(game, len(index), recall)
    scale = observation_scale(encoder, features)
    out = Demonstrations()
    for i in range(games):
        deal = game_seed(seed, i)
        state = game.new_game(deal)
        rngs = seat_rngs(deal, game.players)
        agents = [make_agent(spec, game) for _ in range(game.players)]
        rows: list[tuple[int, int]] = []  # (seat, row) of each decision
        record = Recall.start(game.players)  # each seat's decisions, for `recall`
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_actions()
            offered = index.indices(legal)
            chosen = agents[seat].act(state.view(seat), legal, rngs[seat])
            picked = next((k for k, a in offered.items() if a is chosen), None)
            key = index.index(chosen) if picked is None else picked
            if isinstance(encoder, Encoder):
                obs = encoder.encode_state(state, seat)
            else:
                obs = encoder.encode(state.view(seat), record, seat, state)
                record = record.after(state, chosen, key)
            if features is not None:
                obs = np.concatenate([obs, features.compute(state.view(seat))])
            out.obs.append(obs / scale)
            out.offered.append(np.fromiter(offered, np.int64, len(offered)))
            out.actions.append(key)
            out.returns.append(0.0)
            rows.append((seat, len(out.actions) - 1))
            state = state.apply(chosen)
        winners = state.winners()
        later = [0] * game.players  # the mover's decisions after this one
        for seat, row in reversed(rows):
            share = 1.0 / len(winners) if seat in winners else 0.0
            out.returns[row] = share * gamma ** later[seat]
            later[seat] += 1
    return out


def clone(model: Any, demos: Demonstrations, epochs: int, seed: int) -> float:
    """Fit `model`'s actor to the demonstrated actions and its critic to their returns;
    the actor's accuracy on them at the end."""
    import torch

    policy = model.policy
    obs = torch.as_tensor(np.stack(demos.obs), dtype=torch.float32)
    actions = torch.as_tensor(demos.actions)
    returns = torch.as_tensor(demos.returns, dtype=torch.float32)
    n, width = len(demos), model.action_space.n
    order = np.random.default_rng(seed)
    batch = IMITATE_BATCH
    optimizer = torch.optim.Adam(policy.parameters(), lr=IMITATE_RATE)

    def masks(rows: np.ndarray[Any, Any]) -> torch.Tensor:
        mask = torch.zeros((len(rows), width), dtype=torch.bool)
        for k, row in enumerate(rows):
            mask[k, demos.offered[row]] = True
        return mask

    policy.set_training_mode(True)
    for _ in range(epochs):
        shuffled = order.permutation(n)
        for start in range(0, n, batch):
            rows = shuffled[start : start + batch]
            values, log_prob, _ = policy.evaluate_actions(obs[rows], actions[rows], masks(rows))
            loss = -log_prob.mean() + 0.5 * torch.mean((values.flatten() - returns[rows]) ** 2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    hits = 0
    with torch.no_grad():
        for start in range(0, n, batch):
            rows = np.arange(start, min(n, start + batch))
            dist = policy.get_distribution(obs[rows], action_masks=masks(rows))
            hits += int((dist.distribution.probs.argmax(dim=1) == actions[rows]).sum())
    return hits / n


class _Snapshot:
    """The learner's actor as last copied, shared by every `self` seat."""

    def __init__(self, recall: bool, features: str | None) -> None:
        self.policy: Policy | None = None
        self.recall = recall
        self.features = features

    def agent(self, game: Game) -> Agent:
        assert self.policy is not None, "the snapshot is taken before the first table is dealt"
        features = features_for(game, self.features)
        return PolicyAgent(game, self.policy, recall=self.recall, sample=True, features=features)


def actor(model: Any, scale: np.ndarray[Any, Any]) -> Policy:
    """The actor of a MaskablePPO model's MLP policy as a numpy `Policy`."""
    state = {k: v.detach().cpu().numpy() for k, v in model.policy.state_dict().items()}
    layers = []
    i = 0
    while f"mlp_extractor.policy_net.{i}.weight" in state:
        net = f"mlp_extractor.policy_net.{i}"
        layers.append((state[f"{net}.weight"], state[f"{net}.bias"]))
        i += 2  # a Linear, then its Tanh
    head = (state["action_net.weight"], state["action_net.bias"])
    return Policy(tuple(layers), head, scale.astype(np.float32))


def train(
    game_id: str,
    out: Path,
    players: int = 2,
    minutes: float | None = 15.0,
    steps: int | None = None,
    seed: int = 0,
    opponents: Sequence[str] = DEFAULT_OPPONENTS,
    envs: int = 8,
    hidden: Sequence[int] = (64, 64),
    recall: bool = False,
    features: str | None = None,
    snapshot_every: int = 10,
    imitate: str | None = IMITATE,
    imitate_games: int = IMITATE_GAMES,
    imitate_epochs: int = IMITATE_EPOCHS,
    options: dict[str, Any] | None = None,
    ppo: dict[str, Any] | None = None,
    report: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, Any]:
    """Train a masked PPO policy of `game_id` and write it to `out`; its config (also in
    `out/config.json`). `ppo` overrides `PPO_SETTINGS`; `report` receives a progress line
    about every 30 seconds of `clock` (the process's CPU time)."""
    if minutes is None and steps is None:
        raise ConfigError("give a budget: minutes, steps or both")
    if minutes is not None and minutes <= 0:
        raise ConfigError(f"minutes must be positive, not {minutes}")
    if steps is not None and steps < 0:  # 0: the warm start only (a run it used up replays so)
        raise ConfigError(f"steps cannot be negative, not {steps}")
    if envs < 1 or snapshot_every < 1 or not hidden or min(hidden) < 1:
        raise ConfigError("envs, snapshot_every and every hidden width must be at least 1")
    if not opponents:
        raise ConfigError("name at least one opponent")
    unknown = sorted(set(ppo or {}) - set(PPO_SETTINGS) - set(TUNABLE))
    if unknown:
        known = ", ".join([*PPO_SETTINGS, *TUNABLE])
        raise ConfigError(f"unknown PPO setting {unknown[0]!r}; known: {known}")
    if imitate_games < 0 or imitate_epochs < 0:
        raise ConfigError("imitate_games and imitate_epochs cannot be negative")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)  # one thread: the same seed gives the same weights, and it is fair
    options = dict(options or {})
    game = timelord.load(game_id, players=players, **options)
    derived = features_for(game, features)
    snapshot = _Snapshot(recall, features)
    probe = TimelordEnv(game_id, [], players=players, recall=recall, **options)
    scale = observation_scale(probe.encoder, derived)

    def opponent(spec: str) -> OpponentSpec:
        return snapshot.agent if spec == SELF else spec

    def table(i: int) -> Callable[[], gymnasium.Env[Any, Any]]:
        spec = opponent(opponents[i % len(opponents)])
        return lambda: _Scaled(
            TimelordEnv(game_id, [spec] * (players - 1), players=players, recall=recall, **options),
            scale,
            derived,
        )

    for spec in opponents:  # a bad spec fails before anything is built
        if spec != SELF:
            TimelordEnv(game_id, [spec] * (players - 1), players=players, **options)
    settings = {**PPO_SETTINGS, **(ppo or {})}
    settings["batch_size"] = min(settings["batch_size"], settings["n_steps"] * envs)
    width = list(hidden)
    model = MaskablePPO(
        "MlpPolicy",
        DummyVecEnv([table(i) for i in range(envs)]),
        seed=seed,
        device="cpu",
        verbose=0,
        policy_kwargs={"net_arch": {"pi": width, "vf": width}},
        **settings,
    )
    deadline = None if minutes is None else clock() + 60.0 * minutes
    start, wall = clock(), time.monotonic()
    accuracy = None
    if imitate is not None and imitate_games > 0:
        make_agent(imitate, game)  # a bad spec fails before the games
        demos = demonstrate(game, imitate, imitate_games, seed, recall, settings["gamma"], derived)
        accuracy = round(clone(model, demos, imitate_epochs, seed), 4)
        if report is not None:
            report(
                f"copied {imitate} over {len(demos)} decisions of {imitate_games} games "
                f"in {clock() - start:.0f} CPU s: {accuracy:.1%} of its choices"
            )
    snapshot.policy = actor(model, scale)
    labels = [opponents[i % len(opponents)] for i in range(envs)]
    recent: dict[str, deque[float]] = {spec: deque(maxlen=RECENT) for spec in opponents}
    rollout_steps = settings["n_steps"] * envs
    done = {"rollouts": 0, "last_report": start}

    class Budget(BaseCallback):
        """Stops at the deadline, refreshes the snapshot, keeps the recent results."""

        def _on_step(self) -> bool:
            for i, over in enumerate(self.locals["dones"]):
                if over:
                    recent[labels[i]].append(float(self.locals["rewards"][i]))
            now = clock()
            if report is not None and now - done["last_report"] >= 30:
                done["last_report"] = now
                report(_progress(done["rollouts"] * rollout_steps, now - start, recent))
            return deadline is None or now < deadline

        def _on_rollout_end(self) -> None:
            done["rollouts"] += 1
            if done["rollouts"] % snapshot_every == 0:
                snapshot.policy = actor(model, scale)

    total = steps if steps is not None else 2**62
    model.learn(total_timesteps=total, callback=Budget())
    seconds = clock() - start
    # the rollouts that were trained on: a rollout the clock cut short is dropped by SB3
    trained = min(done["rollouts"], -(-total // rollout_steps)) * rollout_steps
    config: dict[str, Any] = {
        "game": game.id,
        "players": players,
        "options": options,
        "recall": recall,
        "features": features,
        "observation": len(scale),
        "actions": len(probe.index),
        "hidden": width,
        "algorithm": "sb3-contrib MaskablePPO, MlpPolicy (tanh), separate actor and critic",
        "ppo": settings,
        "envs": envs,
        "opponents": list(opponents),
        "snapshot_every": snapshot_every,
        "imitate": imitate if imitate_games > 0 else None,
        "imitate_games": imitate_games if imitate is not None else 0,
        "imitate_epochs": imitate_epochs,
        "imitate_accuracy": accuracy,
        "seed": seed,
        "steps": trained,
        "minutes": minutes,
        "cpu_seconds": round(seconds, 1),
        "wall_seconds": round(time.monotonic() - wall, 1),
        "recent_share": {k: _mean(v) for k, v in recent.items()},
        "recent_games": {k: len(v) for k, v in recent.items()},
        "versions": _versions(),
    }
    config["command"] = replay_command(config)
    save_policy(out, actor(model, scale), config)
    if report is not None:
        report(_progress(trained, seconds, recent))
    return config


def _mean(values: deque[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _progress(steps: int, seconds: float, recent: dict[str, deque[float]]) -> str:
    shares = ", ".join(
        f"{k} {_mean(v):.2f} ({len(v)})" if v else f"{k} -" for k, v in recent.items()
    )
    return f"{steps} steps in {seconds:.0f} CPU s; recent win share: {shares}"


def _versions() -> dict[str, str]:
    from importlib.metadata import version

    return {name: version(name) for name in ("torch", "stable-baselines3", "sb3-contrib")}


def replay_command(config: dict[str, Any]) -> str:
    """The command that replays a run of `config` step for step (`--steps`, no clock)."""
    parts = [
        f"timelord train {config['game']} --players {config['players']}",
        f"--seed {config['seed']} --steps {config['steps']}",
        f"--opponents {' '.join(config['opponents'])} --envs {config['envs']}",
        f"--hidden {','.join(map(str, config['hidden']))}",
        f"--imitate {config['imitate'] or 'none'} --imitate-games {config['imitate_games']}",
        f"--imitate-epochs {config['imitate_epochs']}",
        *(f"-o {k}={json.dumps(v)}" for k, v in sorted(config["options"].items())),
    ]
    parts += [
        f"--ppo {k}={json.dumps(v)}"
        for k, v in sorted(config["ppo"].items())
        if k != "batch_size" and PPO_SETTINGS.get(k) != v
    ]
    if config["ppo"]["batch_size"] != min(
        PPO_SETTINGS["batch_size"], config["ppo"]["n_steps"] * config["envs"]
    ):
        parts.append(f"--ppo batch_size={config['ppo']['batch_size']}")
    if config["recall"]:
        parts.append("--recall")
    if config.get("features"):
        parts.append(f"--features {config['features']}")
    return " ".join(parts) + " --out FOLDER"
