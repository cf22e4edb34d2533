"""The coach: what each move was worth from one seat's view, for post-game reviews and hints.

The value of a move is the seat's expected win share (1 for a win, 1/k for a tie of k
winners, 0 otherwise) if it plays that move and every seat, itself included, then plays the
game's simulation policy to the end (the hooks' `rollout`, or what their `simulation` builds
from the view: Clue's crosses off the seat's exact deductions). The policies are built to be
at least as strong as the table's `heuristic` and to take a certain win when they have one
(docs/strength.md measures them head to head). A game whose policy cannot end a game quickly
names a `playout_cutoff` in its hooks; there a playout stops after that many actions and the
seat's share comes from the game's evaluation (Clue: the chance to solve first from the
cards each seat has crossed off, a seat certain of the envelope far ahead).
It is estimated by Monte Carlo from the seat's view alone: every sample deals a world with
`game.sample_state` (the only way a state is made here), plays the move in it and plays the
game out. The coach never sees the true state, so it answers "what could this player have
known", and two worlds that look the same to the seat get the same answer (every generator
is seeded from the view).

Work is counted in samples (playouts), never in seconds: a budget in seconds is turned into
samples at a fixed rate per game (`SAMPLES_PER_SECOND`), so a loaded machine answers later,
not worse. How one decision's samples are spent:
1. Screening (about half the budget, only where there are more than `top` moves):
   sequential halving. Every candidate is played in the same dealt worlds (common random
   numbers); each phase gets an even part of the screening budget (at least one world, so a
   budget smaller than twice the moves is overrun), and after it the worse half is dropped
   (ties broken by the seat's value once the rest of its own turn is played: a move that
   wins this turn is never cut by a coin toss among moves that look as good), until `top`
   moves are left. Its means are biased upward by the selection (the winner's curse), so
   they are never reported.
2. Estimation (the rest): the `top` moves left are valued again on fresh worlds; only these
   samples are reported, and they order the moves (best first, as a player reads a list).
   Picking the best of three fresh means still favours the luckiest by up to about one
   standard error when the three are equal; that is the case the verdicts call "close" or
   "unsure", never "best".
   While the best and the second are within two standard errors of each other and the gap's
   error is above `PRECISION`, more fresh worlds are dealt, up to `EXTEND` times the base
   (samples go where the decision is close). A move that must be valued too (the one played,
   for a review) is played in the same fresh worlds but steers nothing, so a hint and a
   review of the same position with the same budget give the same ranking and values.
Every world and every playout has its own generator seeded from the view and its index, so
adding a kept move changes no other move's samples.

A value's `error` is its standard error with the game's model error added in quadrature
(`MODEL_ERROR`, the spread between the coach's values and ground truth that
`python -m timelord.sim.calibration` measures); `low` and `high` are the 95% interval, clipped
to 0..1. Each move carries a `verdict` next to the best: "best" (it beats the second by two
standard errors), "worse" (the best beats it by two), "close" (the two are within `COSTLY`
either way) or "unsure" (too few samples to tell: say so rather than rank noise). A review
values the seat's every decision with more than one legal move and marks the costly ones
(the best move found beats the one played by more than `COSTLY` with the paired difference,
model error included, at least twice its standard error).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from timelord.agents.hooks import Evaluation, Policy, hooks_for
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
#: the estimation stops once the error of the gap between the best two moves is below this
PRECISION = 0.02
#: the estimation of a close decision may spend this many times its base share
EXTEND = 3
#: actions of the seat's own turn played after a move to break the screening's ties
OWN_STEPS = 4
#: samples a second of budget stands for, per game (about what one core of a small server
#: plays in a second; a budget in seconds means this many samples on any machine)
SAMPLES_PER_SECOND = {"keys": 40, "episodes": 300, "card-game": 60, "clue": 80}
DEFAULT_RATE = 200
#: the coach's model error per game, as a standard error: how far its values stray from
#: ground truth beyond sampling noise. Fitted by `python -m timelord.sim.calibration
#: --samples 150 --reference 24` on 8 positions a game with seed 1 and 12 with seed 2 (root
#: mean square of the two fits, weighted by their estimates: card-game 0.139, episodes 0.000,
#: keys 0.083, clue 0.160 against heuristic:hard, refitted once Clue's simulations raced),
#: rounded up, 0.03 at least; the held-out check (seed 3) is the table in docs/coach.md
MODEL_ERROR = {"keys": 0.09, "episodes": 0.03, "card-game": 0.14, "clue": 0.16}
DEFAULT_MODEL_ERROR = 0.08


class Stopped(Exception):
    """A valuation told to stop (`Coach.stopped`) before its budget was spent: whoever
    asked no longer wants the answer (the server's stop flag of a cancelled search)."""


def _never() -> bool:
    return False


@dataclass(frozen=True)
class Budget:
    """How much a valuation may spend: `seconds` (turned into samples at the game's fixed
    rate, never read from a clock), or exactly `rollouts` samples."""

    seconds: float | None = None
    rollouts: int | None = None

    def __post_init__(self) -> None:
        if (self.seconds is None) == (self.rollouts is None):
            raise ValueError("a budget is either seconds or rollouts")

    def samples(self, game: Game) -> int:
        """The samples this budget stands for in `game`."""
        if self.rollouts is not None:
            return self.rollouts
        assert self.seconds is not None
        return max(2, round(self.seconds * SAMPLES_PER_SECOND.get(game.id, DEFAULT_RATE)))

    def split(self, parts: int) -> Budget:
        """An even share of this budget for each of `parts` decisions."""
        parts = max(1, parts)
        if self.seconds is not None:
            return Budget(seconds=self.seconds / parts)
        assert self.rollouts is not None
        return Budget(rollouts=max(8, self.rollouts // parts))


@dataclass(frozen=True)
class MoveValue:
    """One move's estimated value for the seat: mean win share on fresh samples, its error
    (sampling and model together), the 95% interval clipped to 0..1, and its verdict next to
    the best move (see the module docstring)."""

    action: Action
    value: float
    error: float
    samples: int
    verdict: str = "unsure"

    @property
    def low(self) -> float:
        return max(0.0, self.value - Z95 * self.error)

    @property
    def high(self) -> float:
        return min(1.0, self.value + Z95 * self.error)

    def to_json(self, game: Game, view: View) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "label": game.action_label(view, self.action),
            "value": round(self.value, 4),
            "error": round(self.error, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "samples": self.samples,
            "verdict": self.verdict,
        }


#: what each verdict tells a player, the same words at the terminal and in the browser
#: (static/coach.js keeps a copy)
VERDICT_WORDS = {
    "best": "best: ahead of the next move beyond the noise",
    "worse": "worse: the best move is ahead of it beyond the noise",
    "close": "close: within 5% of the best, either is fine",
    "unsure": "unsure: too few samples to tell it from the best, do not trust the order",
}


def interval(move: dict[str, Any]) -> tuple[float, float]:
    """A move's 95% interval (`low`, `high`); a move without them (a review stored before
    they existed) takes them from its error, clipped to 0..1."""
    value, error = float(move["value"]), float(move["error"])
    low = move.get("low", max(0.0, value - Z95 * error))
    high = move.get("high", min(1.0, value + Z95 * error))
    return float(low), float(high)


def interval_text(move: dict[str, Any]) -> str:
    """The 95% interval as a player reads it: "30-66%"."""
    low, high = interval(move)
    return f"{100 * low:.0f}-{100 * high:.0f}%"


def gain_text(loss: float, error: float) -> str:
    """A review's gain of the better move, with its 95% interval: "+37% (95%: +12 to +62%)"."""
    low = max(-1.0, loss - Z95 * error)
    high = min(1.0, loss + Z95 * error)
    return f"{100 * loss:+.0f}% win share (95%: {100 * low:+.0f} to {100 * high:+.0f}%)"


def win_share(state: State, seat: int) -> float:
    """The seat's share of the win in a finished game (ties split, nobody winning is 0)."""
    winners = state.winners()
    return 1.0 / len(winners) if seat in winners else 0.0


def view_seed(view: View, salt: int = 0) -> int:
    """A generator seed made only from what the seat sees (and `salt`)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(text.encode(), digest_size=8, key=salt.to_bytes(8, "big", signed=True))
    return int.from_bytes(digest.digest(), "big")


def _mix(seed: int, *parts: int) -> int:
    """A seed for one world or playout, from the valuation's seed and its indices."""
    text = ",".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


class Coach:
    """Values moves of one game from a seat's view; see the module docstring."""

    def __init__(self, game: Game) -> None:
        self.game = game
        hooks = hooks_for(game)
        self.hooks = hooks
        self.cutoff = hooks.playout_cutoff if hooks.playout_cutoff is not None else game.max_actions
        self.model_error = MODEL_ERROR.get(game.id, DEFAULT_MODEL_ERROR)
        self.last_samples: dict[Action, list[float]] = {}
        #: read before every playout; once true, `value_moves` raises `Stopped` (a budget
        #: is counted in samples, so only this ends a valuation whose caller gave up)
        self.stopped: Callable[[], bool] = _never

    def simulation(self, view: View) -> tuple[Policy, Evaluation | None]:
        """The policy and evaluation of playouts from `view`."""
        policy, evaluate = self.hooks.for_view(self.game, view, thorough=True)
        return policy or _uniform, evaluate

    def playout(
        self,
        state: State,
        seat: int,
        rng: Rng,
        simulation: tuple[Policy, Evaluation | None] | None = None,
    ) -> float:
        """Play `state` out with the simulation policy; the seat's win share at the end (or
        the evaluation's, where the game's hooks cut playouts short)."""
        policy, evaluate = simulation or (self.hooks.rollout or _uniform, self.hooks.evaluate)
        limit = self.cutoff
        steps = 0
        while not state.is_over and steps < limit:
            state = state.apply_unchecked(policy(state, state.legal_actions(), rng))
            steps += 1
        if not state.is_over and evaluate is not None:
            return evaluate(state)[seat]
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
        fresh samples; see the module docstring."""
        seat = view["seat"]
        seed = view_seed(view, salt)
        sim = self.simulation(view)
        candidates = list(dict.fromkeys(legal))
        kept = [a for a in dict.fromkeys(keep) if a in candidates]
        total = budget.samples(self.game)

        def play(world: State, action: Action, stream: int) -> float:
            if self.stopped():  # per playout: a screening round may hold dozens of them
                raise Stopped("the valuation was told to stop")
            return self.playout(world.apply_unchecked(action), seat, Rng(stream), sim)

        # 1. screening by sequential halving: all candidates in shared worlds, each phase
        # given an even part of half the budget, the worse half dropped after each phase
        sums = {a: 0.0 for a in candidates}
        ahead: dict[Action, float] = {}  # the evaluation just after the move: breaks ties
        alive = candidates
        phases = max(1, math.ceil(math.log2(max(1, len(candidates)) / top)))
        spent = 0
        rounds = 0
        while len(alive) > top:
            per = max(1, (total // 2) // (len(alive) * phases))
            for _ in range(per):
                world = self.game.sample_state(view, Rng(_mix(seed, 0, rounds)))
                stream = _mix(seed, 1, rounds)
                for a in alive:
                    if rounds == 0:
                        after = world.apply_unchecked(a)
                        ahead[a] = self._ahead(after, seat, sim, Rng(stream))
                    sums[a] += play(world, a, stream)
                spent += len(alive)
                rounds += 1
            ranked = sorted(alive, key=lambda a: (-sums[a], -ahead[a], candidates.index(a)))
            alive = ranked[: max(top, (len(alive) + 1) // 2)]
        order = sorted(alive, key=lambda a: (-sums[a], -ahead.get(a, 0.0), candidates.index(a)))
        chosen = [*order, *(a for a in kept if a not in order)]
        # 2. estimation on fresh worlds, longer where the best two are close
        samples: dict[Action, list[float]] = {a: [] for a in chosen}
        base = max(2 * len(order), total - spent) if len(candidates) > 1 else 2
        cap = EXTEND * base
        used = 0
        worlds = 0
        while True:
            world = self.game.sample_state(view, Rng(_mix(seed, 2, worlds)))
            stream = _mix(seed, 3, worlds)
            for a in chosen:
                samples[a].append(play(world, a, stream))
            used += len(order)
            worlds += 1
            if worlds < 2 or used < base:
                continue
            if used >= cap or len(order) < 2 or self._settled(samples, order):
                break
        self.last_samples = samples
        order.sort(key=lambda a: (-sum(samples[a]), -ahead.get(a, 0.0), candidates.index(a)))
        chosen = [*order, *(a for a in kept if a not in order)]
        return self._verdicts(samples, order, chosen)

    @staticmethod
    def _ahead(state: State, seat: int, sim: tuple[Policy, Evaluation | None], rng: Rng) -> float:
        """The seat's value once the rest of its own turn is played by the simulation policy
        after a move (at most `OWN_STEPS` actions): its win share if the game ended, else
        the evaluation. A move that lets the seat win this turn scores 1."""
        policy, evaluate = sim
        steps = 0
        while not state.is_over and state.to_move == seat and steps < OWN_STEPS:
            state = state.apply_unchecked(policy(state, state.legal_actions(), rng))
            steps += 1
        if state.is_over:
            return win_share(state, seat)
        return evaluate(state)[seat] if evaluate is not None else 0.0

    def _settled(self, samples: dict[Action, list[float]], order: list[Action]) -> bool:
        """Whether the best two moves (by fresh means) are told apart, or their gap is
        known to `PRECISION`."""
        ranked = sorted(order, key=lambda a: -sum(samples[a]))
        gap, error = _paired(samples[ranked[0]], samples[ranked[1]])
        return error <= PRECISION or abs(gap) >= 2 * error

    def _verdicts(
        self, samples: dict[Action, list[float]], order: list[Action], chosen: list[Action]
    ) -> list[MoveValue]:
        model = self.model_error
        best = order[0]
        values = []
        for a in chosen:
            xs = samples[a]
            mean, error = _mean_error(xs)
            if len(xs) < JUDGED:
                verdict = "unsure"
            elif a == best:
                if len(order) < 2:
                    verdict = "best"
                else:
                    gap, gap_error = self.gain(best, order[1])
                    verdict = _verdict(gap, gap_error, "best")
            else:
                gap, gap_error = self.gain(best, a)
                verdict = _verdict(gap, gap_error, "worse")
            values.append(MoveValue(a, mean, math.hypot(error, model), len(xs), verdict))
        return values

    def gain(self, better: Action, played: Action) -> tuple[float, float]:
        """Mean of (better - played) over the last valuation's shared fresh worlds (paired,
        so sharper than the two errors added) and its standard error, model error included."""
        gap, error = _paired(self.last_samples[better], self.last_samples[played])
        return gap, math.hypot(error, self.model_error)


def _verdict(gap: float, error: float, apart: str) -> str:
    if gap >= 2 * error:
        return apart
    if abs(gap) + 2 * error <= COSTLY:
        return "close"
    return "unsure"


def _paired(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
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
    """The review of one decision: played and best moves with values, the loss, costly?
    The same valuation as a hint of that position with that budget (see the module
    docstring), with the move played valued in the same fresh worlds."""
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
        "verdict": played.verdict if best.action != decision.played else best.verdict,
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
) -> dict[str, Any]:
    """The post-game review of `seat`: every decision valued from its view, the costly ones
    marked; `progress(done, total)` after each decision. The budget is shared evenly in
    samples (a close decision spends up to `EXTEND` times its share), so a review does not
    depend on the machine's load."""
    from timelord.core import load

    game = load(record.game, **record.options)
    game.check_seat(seat)
    coach = Coach(game)
    chosen = list(decisions(record, seat))
    share = Budget(rollouts=budget.samples(game)).split(len(chosen))
    items = []
    for i, decision in enumerate(chosen):
        items.append(review_decision(coach, decision, share))
        if progress is not None:
            progress(i + 1, len(chosen))
    costly = mark_costly(items)
    return {
        "game": record.game,
        "seat": seat,
        "steps": len(record.actions),
        "budget": {
            "seconds": budget.seconds,
            "rollouts": budget.rollouts,
            "samples": budget.samples(game),
        },
        "method": METHOD,
        "decisions": items,
        "costly": costly,
    }


#: how a review's values were made, in its JSON
METHOD = (
    "win share under the game's simulation policy, from the seat's view; "
    "errors include the calibrated model error"
)


def hint(
    game: Game,
    view: View,
    legal: Sequence[Action],
    seconds: float,
    stopped: Callable[[], bool] = _never,
) -> list[dict[str, Any]]:
    """The coach's top moves for the seat of `view`: the valuation a review makes of the
    same position with a budget of `seconds` (counted in samples, see `Budget`); `Stopped`
    once `stopped()` says its asker gave up."""
    coach = Coach(game)
    coach.stopped = stopped
    found = coach.value_moves(view, legal, Budget(seconds=seconds))
    return [m.to_json(game, view) for m in found[:TOP]]
