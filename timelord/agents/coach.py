"""The coach: what each move was worth from one seat's view, for post-game reviews and hints.

The value of a move is the seat's expected win share (1 for a win, 1/k for a tie of k
winners, 0 otherwise) if it plays that move and everyone, itself included, then plays the
game's rollout policy (its heuristic, from the agent hooks) to the end. A game whose rollout
policy cannot end a game well names a `playout_cutoff` in its hooks; there a playout stops
after that many actions and the seat's share comes from the game's evaluation (Clue: the
chance to solve first from the cards each seat has placed), so its values are that model's.
It is estimated by Monte Carlo from the seat's view alone: every sample deals a world with
`game.sample_state` (the only way a state is made here), plays the move in it and plays the
game out. The coach never sees the true state, so it answers "what could this player have
known", and two worlds that look the same to the seat get the same answer (the generator is
seeded from the view).

Each estimate comes with its standard error. How the samples are spent:
1. Screening (half the budget): every candidate is played in the same dealt worlds (common
   random numbers, so differences between moves are sharper than the values themselves);
   after 2, 4, 8, ... rounds the worse half is dropped, keeping the moves that must be
   valued (the move played, for a review).
2. Estimation (the other half): the survivors are valued again on fresh worlds, and only
   these samples are reported. The screening picked the survivors, so its means are biased
   upward (the winner's curse); the fresh samples are not, which is what lets the stated
   uncertainty hold (see `timelord.sim.calibration`).

A budget is either seconds of wall clock (interactive use) or a count of rollouts
(reproducible: tests, calibration). A review values the seat's every decision with more than
one legal move, marks the costly ones (the best move found beats the one played by more than
`COSTLY` with the paired difference at least twice its standard error), and says what the
better move was.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from timelord.agents.hooks import Policy, hooks_for
from timelord.core import Action, Game, Rng, State, View
from timelord.core.record import Record, replay_steps

#: a decision whose best move beats the played one by more win share than this is costly
COSTLY = 0.05
#: fewer fresh samples than this per move never mark a decision costly (too noisy to judge)
JUDGED = 8
#: at most this many costly decisions are marked in a review (the worst first)
MARKED = 5
#: moves shown as "best found" in a review, and in a hint
TOP = 3
#: standard normal quantile of the stated 95% intervals
Z95 = 1.96


@dataclass(frozen=True)
class Budget:
    """How much a valuation may spend: `seconds` of wall clock, or exactly `rollouts`."""

    seconds: float | None = None
    rollouts: int | None = None

    def __post_init__(self) -> None:
        if (self.seconds is None) == (self.rollouts is None):
            raise ValueError("a budget is either seconds or rollouts")

    def split(self, parts: int) -> Budget:
        """An even share of this budget for each of `parts` decisions."""
        parts = max(1, parts)
        if self.seconds is not None:
            return Budget(seconds=self.seconds / parts)
        assert self.rollouts is not None
        return Budget(rollouts=max(8, self.rollouts // parts))


@dataclass(frozen=True)
class MoveValue:
    """One move's estimated value for the seat: mean win share and its standard error."""

    action: Action
    value: float
    error: float
    samples: int

    def to_json(self, game: Game, view: View) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "label": game.action_label(view, self.action),
            "value": round(self.value, 4),
            "error": round(self.error, 4),
            "samples": self.samples,
        }


def win_share(state: State, seat: int) -> float:
    """The seat's share of the win in a finished game (ties split, nobody winning is 0)."""
    winners = state.winners()
    return 1.0 / len(winners) if seat in winners else 0.0


def view_seed(view: View, salt: int = 0) -> int:
    """A generator seed made only from what the seat sees (and `salt`)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(text.encode(), digest_size=8, key=salt.to_bytes(8, "big", signed=True))
    return int.from_bytes(digest.digest(), "big")


class Coach:
    """Values moves of one game from a seat's view; see the module docstring."""

    def __init__(self, game: Game, clock: Callable[[], float] = time.perf_counter) -> None:
        self.game = game
        hooks = hooks_for(game)
        self.policy: Policy = hooks.rollout or _uniform
        self.evaluate = hooks.evaluate
        self.cutoff = hooks.playout_cutoff if hooks.playout_cutoff is not None else game.max_actions
        self.clock = clock
        self.last_samples: dict[Action, list[float]] = {}

    def playout(self, state: State, seat: int, rng: Rng) -> float:
        """Play `state` out with the rollout policy; the seat's win share at the end (or the
        evaluation's, where the game's hooks cut playouts short)."""
        policy = self.policy
        limit = self.cutoff
        steps = 0
        while not state.is_over and steps < limit:
            state = state.apply_unchecked(policy(state, state.legal_actions(), rng))
            steps += 1
        if not state.is_over and self.evaluate is not None:
            return self.evaluate(state)[seat]
        return win_share(state, seat)

    def value_moves(
        self,
        view: View,
        legal: Sequence[Action],
        budget: Budget,
        keep: Sequence[Action] = (),
        top: int = TOP,
        salt: int = 0,
    ) -> list[MoveValue]:
        """The best `top` moves found (and every move in `keep`), best first, each valued on
        fresh samples after screening; see the module docstring."""
        seat = view["seat"]
        rng = Rng(view_seed(view, salt))
        candidates = list(dict.fromkeys(legal))
        kept = [a for a in dict.fromkeys(keep) if a in candidates]
        if budget.seconds is not None:
            end = self.clock() + budget.seconds
            screen_end = self.clock() + budget.seconds / 2

            def screening() -> bool:
                return self.clock() < screen_end

            def estimating() -> bool:
                return self.clock() < end

        else:
            assert budget.rollouts is not None
            spent = [0]
            half = budget.rollouts // 2

            def screening() -> bool:
                return spent[0] < half

            def estimating() -> bool:
                return spent[0] < budget.rollouts  # type: ignore[operator]

        sums = {a: 0.0 for a in candidates}
        alive = self._first_round(view, candidates, kept, sums, screening, rng)
        if budget.rollouts is not None:
            spent[0] += len(alive)
        rounds = 1
        while len(alive) > len(kept) + top and screening():
            world = self.game.sample_state(view, rng)
            for a in alive:
                sums[a] += self.playout(world.apply_unchecked(a), seat, rng)
            if budget.rollouts is not None:
                spent[0] += len(alive)
            rounds += 1
            if rounds & (rounds - 1) == 0 and rounds > 1:  # 2, 4, 8, ...: halve the field
                ranked = sorted(alive, key=lambda a: -sums[a])
                size = max(top, len(alive) // 2)
                alive = [a for a in alive if a in ranked[:size] or a in kept]
        ranked = sorted(alive, key=lambda a: -sums[a])
        chosen = [a for a in alive if a in ranked[:top] or a in kept]
        samples: dict[Action, list[float]] = {a: [] for a in chosen}
        while True:
            world = self.game.sample_state(view, rng)
            for a in chosen:
                samples[a].append(self.playout(world.apply_unchecked(a), seat, rng))
            if budget.rollouts is not None:
                spent[0] += len(chosen)
            if not estimating() and len(samples[chosen[0]]) >= 2:
                break
        self.last_samples = samples
        values = [MoveValue(a, *_mean_error(xs), len(xs)) for a, xs in samples.items()]
        return sorted(values, key=lambda m: (-m.value, candidates.index(m.action)))

    def _first_round(
        self,
        view: View,
        candidates: list[Action],
        kept: list[Action],
        sums: dict[Action, float],
        screening: Callable[[], bool],
        rng: Rng,
    ) -> list[Action]:
        """One playout of each candidate in one world: the kept moves and the rollout
        policy's own choice first, then the others in random order until the screening time
        is up (a budget too small for every move still values these); the moves played."""
        seat = view["seat"]
        world = self.game.sample_state(view, rng)
        guess = self.policy(world, candidates, rng)
        rest = [a for a in candidates if a not in kept and a != guess]
        for i in range(len(rest) - 1, 0, -1):
            j = rng.below(i + 1)
            rest[i], rest[j] = rest[j], rest[i]
        first = [*kept, *([guess] if guess not in kept else [])]
        played: list[Action] = []
        for a in [*first, *rest]:
            if len(played) >= len(first) and not screening():
                break
            sums[a] += self.playout(world.apply_unchecked(a), seat, rng)
            played.append(a)
        return [a for a in candidates if a in played]

    def gain(self, better: Action, played: Action) -> tuple[float, float]:
        """Mean and standard error of (better - played) over the last valuation's shared
        worlds (paired, so it is sharper than the two errors added)."""
        xs, ys = self.last_samples[better], self.last_samples[played]
        return _mean_error([x - y for x, y in zip(xs, ys, strict=True)])


def _uniform(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    return legal[rng.below(len(legal))]


def _mean_error(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error; a pseudo-observation of variance 1/4 keeps the error of a
    few identical samples from claiming certainty."""
    n = len(xs)
    mean = sum(xs) / n
    spread = sum((x - mean) ** 2 for x in xs) + 0.25
    return mean, math.sqrt(spread / n / n)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the step, what the seat saw, its options, its move."""

    step: int
    view: View
    legal: list[Action]
    played: Action


def decisions(record: Record, seat: int) -> Iterator[Decision]:
    """The seat's decisions with a real choice, each with the view the seat had then (the
    replay's state is read for that view and nothing else)."""
    for step, (state, action) in enumerate(replay_steps(record)):
        if action is None or state.to_move != seat:
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            yield Decision(step, state.view(seat), legal, action)


def review_decision(coach: Coach, decision: Decision, budget: Budget) -> dict[str, Any]:
    """The review of one decision: played and best moves with values, the loss, costly?"""
    game = coach.game
    found = coach.value_moves(decision.view, decision.legal, budget, keep=[decision.played])
    played = next(m for m in found if m.action == decision.played)
    best = found[0]
    loss, loss_error = (0.0, 0.0)
    if best.action != decision.played:
        loss, loss_error = coach.gain(best.action, decision.played)
    return {
        "step": decision.step,
        "played": played.to_json(game, decision.view),
        "best": [m.to_json(game, decision.view) for m in found[:TOP]],
        "loss": round(loss, 4),
        "loss_error": round(loss_error, 4),
        "costly": False,
        "judged": min(played.samples, best.samples) >= JUDGED,
    }


def mark_costly(items: list[dict[str, Any]]) -> list[int]:
    """Mark (in place) the decisions that cost most; their steps, worst first."""
    costly = [
        d for d in items if d["judged"] and d["loss"] > COSTLY and d["loss"] >= 2 * d["loss_error"]
    ]
    costly.sort(key=lambda d: -d["loss"])
    for d in costly[:MARKED]:
        d["costly"] = True
    return [d["step"] for d in costly[:MARKED]]


def review(
    record: Record,
    seat: int,
    budget: Budget,
    progress: Callable[[int, int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """The post-game review of `seat`: every decision valued from its view, the costly ones
    marked; `progress(done, total)` after each decision."""
    from timelord.core import load

    game = load(record.game, **record.options)
    game.check_seat(seat)
    coach = Coach(game, clock)
    chosen = list(decisions(record, seat))
    share = budget.split(len(chosen))
    end = None if budget.seconds is None else clock() + budget.seconds
    items = []
    for i, decision in enumerate(chosen):
        if end is not None:  # what is left, shared by the decisions left (an overrun is repaid)
            share = Budget(seconds=max(0.0, end - clock()) / (len(chosen) - i))
        items.append(review_decision(coach, decision, share))
        if progress is not None:
            progress(i + 1, len(chosen))
    costly = mark_costly(items)
    return {
        "game": record.game,
        "seat": seat,
        "steps": len(record.actions),
        "budget": {"seconds": budget.seconds, "rollouts": budget.rollouts},
        "method": "win share under the game's rollout policy, from the seat's view",
        "decisions": items,
        "costly": costly,
    }


def hint(game: Game, view: View, legal: Sequence[Action], seconds: float) -> list[dict[str, Any]]:
    """The coach's top moves for the seat of `view`, with values, within `seconds`."""
    coach = Coach(game)
    found = coach.value_moves(view, legal, Budget(seconds=seconds))
    return [m.to_json(game, view) for m in found[:TOP]]
