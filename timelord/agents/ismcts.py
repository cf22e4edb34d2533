"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS, Cowling et al. 2012).

What is built:
- One tree per decision, rooted at the acting seat's information set. Every iteration deals a
  fresh determinisation with `game.sample_state(view, rng)` (the only way the agent gets a
  state) and walks the tree with that state, so hidden cards and future chance (the sampled
  state's own generator) differ from one iteration to the next.
- Nodes are keyed by action along the path, for every seat, the opponents included
  ("single observer": opponents' choices share nodes whatever they could see). Only children
  legal in the current determinisation compete; selection is UCB1 with availability counts
  (a child's exploration term uses how often it was available, not the parent's visits).
- Multiplayer: each node keeps the reward of the seat that moved into it; backpropagation
  takes a per-seat reward vector. At the end of a game the vector is the seat's win share
  (1/k for k tied winners) blended with its normalised score, so near misses still count.
- Rollouts after expansion follow a pluggable policy (uniform random, or the game's heuristic
  policy from its hooks) for at most `cutoff` actions; a rollout cut short is valued by the
  game's evaluation hook, else by normalised scores.
- Prior: with `prior` > 0 and a game rollout policy, the policy's choice at a node (computed
  on the first determinisation that reaches it) is expanded first and gets a progressive
  bias `prior / (visits + 1)` in UCB, so a small budget falls back on the heuristic's move
  instead of a coin toss among many near-equal options, and the search overrides it only
  where the statistics disagree.
- Simulations from the view: where a game's `simulation` hook builds the rollout and the
  evaluation from the seat's view (a Clue seat's exact deductions), the search uses those.
- Settled moves: a game's `settled` hook may name a move the seat's own knowledge decides
  (a Clue seat certain of the envelope goes to accuse); it is played without a search.
- `depth` caps how deep the tree grows; `depth=1` is flat Monte Carlo: UCB over the root's
  moves, every later move played by the rollout policy (policy improvement by rollouts).
- `paired=z` replaces the tree with paired flat Monte Carlo (`IsmctsAgent.paired`): each
  world dealt is played out once per legal move with the same future draws, and a move
  other than the rollout policy's own is played only when it beats that one by `z` standard
  errors of the paired difference. For a game whose cut-off evaluation cannot rank the
  moves the search would deviate on (Episodes), with full playouts (`cutoff=none`).
- Weighted worlds: with `weigh=N` and a game's `plausible` hook, each world is one of N deals
  picked by the hook's weight (`dealer`), so the hidden hands follow what the other seats'
  own moves said about them (Episodes: the table's heuristic keeps hands of telling shapes)
  rather than a uniform deal of the unseen cards.
- Budgets: `sims` iterations, optionally `time` seconds as well (whichever ends first). A time
  budget makes decisions depend on machine speed, so the named levels use simulations only and
  stay reproducible for a seed. Where a wall clock matters more than reproducibility (a
  table waiting on the server), `Agent.time_cap` bounds each decision in seconds: the search
  stops at the cap with the simulations it has, so a slow machine or a crowded pool gets a
  weaker move in time rather than a stalled table; without a cap a research run is exactly
  reproducible.

The chosen move is the root child with the most visits (ties: higher mean, then legal order).

Levels. `easy`, `medium` and `hard` name settings (`LEVELS`; a game's hooks override them
per level): `sims` iterations per decision, the rollout policy, the `cutoff` (actions played
out before the evaluation takes over), and optionally `prior`, `depth` and `c`. The levels
are ordered by strength: easy plays fast and weakly (random rollouts in the generic
settings), medium and hard follow the game's heuristic in rollouts with growing budgets; a
game's `hard` spends about a third of the server's 0.8 s cap (`agents.TABLE_TIME_CAP`) on one
core. `expert` keeps hard's settings with several times the simulations, sized so a
decision still fits that cap on one core of a small machine (bench/movetime.py).
Every level is a simulation count, never a time, so a decision is reproducible for
a view and a seed on any machine. A level text may adjust any setting: "hard/sims=800".

Cost. One iteration is one `sample_state`, one walk down the tree, at most `cutoff` rollout
actions and one evaluation; the loop itself allocates nothing per node it passes but the
path entries and does one dictionary look-up per legal action.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from timelord.agents.base import Agent
from timelord.agents.hooks import Evaluation, Hooks, Policy, hooks_for
from timelord.core import Action, ConfigError, Game, Rng, State, View

#: generic level settings; a game's hooks may override them per level
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"sims": 100, "rollout": "random", "cutoff": 30},
    "medium": {"sims": 400, "rollout": "heuristic", "cutoff": 30},
    "hard": {"sims": 1500, "rollout": "heuristic", "cutoff": 30},
    "expert": {"sims": 4000, "rollout": "heuristic", "cutoff": 30},
}

#: weight of the normalised score in a finished game's reward (the rest is the win share)
SCORE_WEIGHT = 0.2


@dataclass(frozen=True)
class Settings:
    sims: int = 400
    time: float | None = None
    rollout: str = "heuristic"
    cutoff: int | None = 30
    c: float = 0.7
    #: progressive-bias weight towards the rollout policy's choice at each node (0: none)
    prior: float = 0.0
    #: deepest tree level grown (None: no limit; 1: flat Monte Carlo over the root's moves)
    depth: int | None = None
    #: > 0: paired flat Monte Carlo instead of the tree (see `IsmctsAgent.paired`): every
    #: move is played out on the same deal, and a move other than the rollout policy's own
    #: is taken only when it beats that one by this many standard errors of the difference
    paired: float = 0.0
    #: > 1: each world is one of this many deals, picked by the weights of the game's
    #: `plausible` hook (`dealer`); 0 or 1: every world as `sample_state` deals it
    weigh: int = 0

    def describe(self, base: Settings | None = None) -> str:
        """The level text of these settings: every setting off the defaults, and every one that
        differs from `base`. `parse_settings` starts from the game's `medium` level, so with
        that as `base` the text reads back exactly (a level that drops medium's prior says
        "prior=0")."""
        ref = base if base is not None else Settings()
        cutoff = "none" if self.cutoff is None else self.cutoff  # as `parse_settings` reads it
        parts = [f"sims={self.sims}", f"rollout={self.rollout}", f"cutoff={cutoff}"]
        for key in ("c", "prior", "depth", "paired", "weigh", "time"):
            value = getattr(self, key)
            if value != getattr(Settings, key) or value != getattr(ref, key):
                parts.append(f"{key}={'none' if value is None else format(value, 'g')}")
        return "/".join(parts)


def parse_settings(level: str | None, hooks: Hooks) -> Settings:
    """Read a level text: "hard", "800" (simulations), "hard/time=2", "sims=500/cutoff=none"."""
    settings = Settings(**_level(hooks, "medium"))
    for i, part in enumerate((level or "medium").split("/")):
        key, sep, value = part.partition("=")
        if not sep:
            if part.isdigit():
                settings = replace(settings, sims=int(part))
            elif i == 0 and part in LEVELS:
                settings = Settings(**_level(hooks, part))
            else:
                raise ConfigError(f"ismcts: unknown level {part!r}; use {', '.join(LEVELS)}")
            continue
        settings = _set(settings, key, value)
    if settings.rollout not in ("random", "heuristic"):
        raise ConfigError("ismcts: rollout must be random or heuristic")
    if settings.sims < 1:
        raise ConfigError("ismcts: sims must be at least 1")
    return settings


def _level(hooks: Hooks, name: str) -> dict[str, Any]:
    return {**LEVELS[name], **hooks.levels.get(name, {})}


def _set(settings: Settings, key: str, value: str) -> Settings:
    try:
        if key == "sims":
            return replace(settings, sims=int(value))
        if key == "time":
            return replace(settings, time=float(value))
        if key == "cutoff":
            return replace(settings, cutoff=None if value == "none" else int(value))
        if key == "c":
            return replace(settings, c=float(value))
        if key == "rollout":
            return replace(settings, rollout=value)
        if key == "prior":
            return replace(settings, prior=float(value))
        if key == "depth":
            return replace(settings, depth=None if value == "none" else int(value))
        if key == "paired":
            return replace(settings, paired=float(value))
        if key == "weigh":
            return replace(settings, weigh=int(value))
    except ValueError as exc:
        raise ConfigError(f"ismcts: bad value for {key}: {value!r}") from exc
    raise ConfigError(
        "ismcts: unknown setting"
        f" {key!r} (sims, time, cutoff, c, rollout, prior, depth, paired, weigh)"
    )


class Node:
    __slots__ = ("avail", "children", "hint", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0  # summed reward of the seat that moved into this node
        self.hint: Action | None = None  # the policy's choice here (with a prior)


def outcome(state: State, evaluate: Evaluation | None) -> list[float]:
    """Per-seat reward in [0, 1] of a finished or cut-off state."""
    if evaluate is not None and not state.is_over:
        return evaluate(state)
    scores = state.scores()
    lo, hi = min(scores), max(scores)
    spread = hi - lo
    norm = [(s - lo) / spread if spread else 0.5 for s in scores]
    if not state.is_over:
        return norm
    winners = state.winners()
    share = 1.0 / len(winners) if winners else 0.0
    won = set(winners)
    keep = 1.0 - SCORE_WEIGHT
    return [keep * (share if i in won else 0.0) + SCORE_WEIGHT * n for i, n in enumerate(norm)]


def _random_policy(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    return legal[rng.below(len(legal))]


def dealer(game: Game, view: View, hooks: Hooks, deals: int) -> Callable[[Rng], State]:
    """Deals worlds from `view`: as `sample_state` does, or with `deals` > 1 and a game
    `plausible` hook, one of `deals` dealt worlds picked in proportion to the weight the hook
    gives it (sampling-importance-resampling), so the worlds follow what the other seats' own
    moves said about their hands instead of a uniform deal of the unseen cards."""
    sample = game.sample_state
    weigh = hooks.plausible(view) if deals > 1 and hooks.plausible is not None else None
    if weigh is None:
        return partial(sample, view)
    weight = weigh

    def deal(rng: Rng) -> State:
        worlds = [sample(view, rng) for _ in range(deals)]
        weights = [weight(w) for w in worlds]
        pick = rng.random() * sum(weights)
        for world, w in zip(worlds, weights, strict=True):
            pick -= w
            if pick < 0.0:
                return world
        return worlds[-1]

    return deal


def play_out(state: State, policy: Policy, cutoff: int, rng: Rng) -> State:
    """`state` after at most `cutoff` moves of `policy`: one simulation's rollout (also the
    rollout that `timelord.sim.headtohead` lends OpenSpiel's search)."""
    random_rollout = policy is _random_policy  # same draws as the policy, no list
    steps = 0
    while steps < cutoff and not state.is_over:
        if random_rollout:
            action = state.random_legal(rng)
        else:
            action = policy(state, state.legal_actions(), rng)
        state = state.apply_unchecked(action)
        steps += 1
    return state


class IsmctsAgent(Agent):
    """SO-ISMCTS over the acting seat's information set; see the module docstring."""

    def __init__(self, game: Game, settings: Settings, hooks: Hooks | None = None) -> None:
        super().__init__(game)
        self.settings = settings
        self.hooks = hooks if hooks is not None else hooks_for(game)
        self.name = f"ismcts:{settings.describe(parse_settings('medium', self.hooks))}"
        policy: Policy | None = self.hooks.rollout if settings.rollout == "heuristic" else None
        self.policy: Policy = policy or _random_policy
        self.last_sims = 0
        #: the clock the time budget and `time_cap` are read from (tests pass a fake one)
        self.clock = time.perf_counter

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            self.last_sims = 0
            return legal[0]
        if self.hooks.settled is not None:
            move = self.hooks.settled(self.game, view, legal)
            if move is not None:
                self.last_sims = 0
                return move
        if self.settings.paired > 0:
            return self.paired(view, legal, rng)
        root = self.search(view, rng)
        best = legal[0]
        key = (-1, -1.0)
        for action in legal:
            child = root.children.get(action)
            if child is None:
                continue
            mine = (child.visits, child.reward / child.visits)
            if mine > key:
                best, key = action, mine
        return best

    def paired(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        """Paired flat Monte Carlo: each round deals one world from `view` and plays every
        legal move out on it, from the same deal and the same future draws (common random
        numbers), so the differences between moves carry little of the deal's noise. The
        rollout policy's own move stands unless another beats it by `paired` standard errors
        of their paired difference: a one-step improvement of the policy that leaves it
        only where the evidence says so, since most of its moves are as good as any and a
        noisy argmax over near-equal values is worse than the policy's own rule. `sims`
        counts playouts (one move's), so a decision costs about what the tree's does."""
        settings = self.settings
        policy, evaluate = self.policy, self.hooks.evaluate
        if self.hooks.simulation is not None and settings.rollout == "heuristic":
            policy, evaluate = self.hooks.simulation(self.game, view, False)
        cutoff = settings.cutoff if settings.cutoff is not None else 1 << 62
        me = view["seat"]
        k = len(legal)
        rounds = max(2, -(-settings.sims // k))  # at least `sims` playouts in all
        clock = self.clock
        limits = [t for t in (settings.time, self.time_cap) if t is not None]
        deadline = clock() + min(limits) if limits else None
        deal = dealer(self.game, view, self.hooks, settings.weigh)
        totals = [0.0] * k
        rows: list[list[float]] = []
        own = 0
        for r in range(rounds):
            if deadline is not None and clock() > deadline:
                self.capped += 1
                break
            state = deal(rng)
            if r == 0:
                choice = policy(state, state.legal_actions(), rng)
                own = legal.index(choice) if choice in legal else 0
            seed = rng.next64()
            row = [
                outcome(play_out(state.apply_unchecked(a), policy, cutoff, Rng(seed)), evaluate)[me]
                for a in legal
            ]
            rows.append(row)
            for i, v in enumerate(row):
                totals[i] += v
        self.last_sims = len(rows) * k
        n = len(rows)
        best = max(range(k), key=lambda i: (totals[i], i == own))
        if best == own or n < 2:
            return legal[own]
        diffs = [row[best] - row[own] for row in rows]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        margin = settings.paired
        if self.hooks.paired_margin is not None:
            special = self.hooks.paired_margin(legal)
            if special is not None:
                margin = special
        if mean > margin * math.sqrt(var / n):
            return legal[best]
        return legal[own]

    def search(self, view: View, rng: Rng) -> Node:
        """Run the budget from `view`; the root node with its statistics."""
        settings = self.settings
        deal = dealer(self.game, view, self.hooks, settings.weigh)
        policy, evaluate = self.policy, self.hooks.evaluate
        if self.hooks.simulation is not None and self.settings.rollout == "heuristic":
            policy, evaluate = self.hooks.simulation(self.game, view, False)
        cutoff = settings.cutoff if settings.cutoff is not None else 1 << 62
        c = settings.c
        random_rollout = policy is _random_policy  # same draws as the policy, no list
        prior = settings.prior if not random_rollout else 0.0
        depth = settings.depth if settings.depth is not None else 1 << 30
        budget = settings.sims
        log, sqrt = math.log, math.sqrt
        below = rng.below
        clock = self.clock
        limits = [t for t in (settings.time, self.time_cap) if t is not None]
        deadline = clock() + min(limits) if limits else None
        root = Node()
        sims = 0
        path: list[tuple[Node, int]] = []
        untried: list[Action] = []
        found: list[Node] = []
        while sims < budget:
            if deadline is not None and clock() > deadline:
                self.capped += 1
                break
            sims += 1
            state = deal(rng)
            node = root
            path.clear()
            # selection and expansion
            while not state.is_over and len(path) < depth:
                seat = state.to_move
                assert seat is not None
                children = node.children
                if not children:
                    # a node seen for the first time: everything is untried, nothing to count,
                    # and without a prior one move is wanted, not the list
                    if prior:
                        legal = state.legal_actions()
                        first: Action | None = policy(state, legal, rng)
                        node.hint = first
                        action = first if first is not None else legal[below(len(legal))]
                    else:
                        action = state.random_legal(rng)
                    child = children[action] = Node()
                    path.append((child, seat))
                    state = state.apply_unchecked(action)
                    break
                legal = state.legal_actions()
                hint = node.hint
                # one dictionary look-up per legal action: either a child to score or untried
                untried.clear()
                found.clear()
                get = children.get
                best_value = -1.0
                chosen: Node | None = None
                chosen_action = legal[0]
                for a in legal:
                    ch = get(a)
                    if ch is None:
                        untried.append(a)
                        continue
                    found.append(ch)
                    if untried:
                        continue  # something untried is expanded instead; only count
                    visits = ch.visits
                    value = ch.reward / visits + c * sqrt(log(ch.avail) / visits)
                    if hint is not None and (a is hint or a == hint):
                        value += prior / (visits + 1)
                    if value > best_value:
                        best_value, chosen, chosen_action = value, ch, a
                if untried:
                    if hint is not None and hint in untried:
                        action = hint
                    else:
                        action = untried[below(len(untried))]
                    for ch in found:
                        ch.avail += 1
                    child = children[action] = Node()
                    path.append((child, seat))
                    state = state.apply_unchecked(action)
                    break
                for ch in found:
                    ch.avail += 1
                assert chosen is not None
                node = chosen
                path.append((node, seat))
                state = state.apply_unchecked(chosen_action)
            reward = outcome(play_out(state, policy, cutoff, rng), evaluate)
            root.visits += 1
            for node, seat in path:
                node.visits += 1
                node.reward += reward[seat]
        self.last_sims = sims
        return root


def make_ismcts(game: Game, level: str | None) -> IsmctsAgent:
    hooks = hooks_for(game)
    return IsmctsAgent(game, parse_settings(level, hooks), hooks)
