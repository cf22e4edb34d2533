"""The conformance suite every registered game must pass.

`check_game` plays many seeded random games and checks, at every step, what the protocol
promises: legal actions are non-empty until the end and stable, and the counted enumeration
(`legal_count`, `legal_at`, `random_legal`) agrees with them; every legal action applies
and `apply` never changes its input; illegal actions are refused with a reason; actions and
states round-trip through JSON; a seat's view is JSON-safe and `sample_state` rebuilds it,
with the same legal actions for the seat to move; the same seed replays the same game; every
game ends within `game.max_actions`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from timelord.core.action import Action
from timelord.core.errors import IllegalAction
from timelord.core.game import Game, State
from timelord.core.record import Record, replay
from timelord.core.rng import Rng


class ConformanceError(AssertionError):
    """A protocol promise broken; the message names the seed and step to reproduce it."""


@dataclass
class ConformanceReport:
    games: int = 0
    actions: int = 0
    longest: int = 0
    illegal_checked: int = 0
    samples_checked: int = 0
    #: actions a game said reveal nothing, checked against worlds sampled for every seat
    reveals_checked: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


def _fail(seed: int, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"seed {seed}, step {step}: {what}")


def _json_identity(value: Any) -> bool:
    return bool(json.loads(json.dumps(value)) == value)


def check_game(
    game: Game,
    *,
    games: int = 20,
    seed: int = 0,
    deep_every: int = 1,
    illegal_per_step: int = 2,
) -> ConformanceReport:
    """Run `games` random playouts of `game` and check the protocol at each step.

    `deep_every` sets how often (in steps) the expensive checks run: JSON round-trips of the
    state, view rebuilding through `sample_state`, purity of `apply`.
    """
    report = ConformanceReport()
    seen: dict[str, Action] = {}
    for g in range(games):
        game_seed = seed * 100_003 + g
        _play_one(game, game_seed, deep_every, illegal_per_step, seen, report)
    return report


def _play_one(
    game: Game,
    game_seed: int,
    deep_every: int,
    illegal_per_step: int,
    seen: dict[str, Action],
    report: ConformanceReport,
) -> None:
    rng = Rng(game_seed ^ 0x5EED)
    state = game.new_game(game_seed)
    again = game.new_game(game_seed)
    if state.to_json() != again.to_json():
        raise _fail(game_seed, 0, "new_game is not deterministic for a seed")
    taken: list[dict[str, Any]] = []
    step = 0
    while not state.is_over:
        if step > game.max_actions:
            raise _fail(game_seed, step, f"game did not end within max_actions={game.max_actions}")
        seat = state.to_move
        if not isinstance(seat, int) or not 0 <= seat < game.players:
            raise _fail(game_seed, step, f"to_move {seat!r} is not a seat")
        legal = state.legal_actions()
        if not legal:
            raise _fail(game_seed, step, "no legal actions but the game is not over")
        if legal != state.legal_actions():
            raise _fail(game_seed, step, "legal_actions() is not stable")
        if len(set(legal)) != len(legal):
            raise _fail(game_seed, step, "legal_actions() lists an action twice")
        for action in legal:
            text = str(action)
            if not text or "\n" in text:
                raise _fail(game_seed, step, f"{action!r} has no one-line text")
            data = action.to_json()
            if not _json_identity(data) or game.action_from_json(data) != action:
                raise _fail(game_seed, step, f"{action!r} does not round-trip through JSON")
            seen.setdefault(json.dumps(data, sort_keys=True), action)
        _check_illegal(state, legal, seen, rng, illegal_per_step, game_seed, step, report)
        _check_counted(state, legal, rng, step % deep_every == 0, game_seed, step)
        if step % deep_every == 0:
            _check_deep(game, state, seat, legal, rng, game_seed, step, report)
        action = legal[rng.below(len(legal))]
        if step % deep_every == 0:
            # serialised, so a to_json() that hands out the state's own lists cannot hide it
            before = json.dumps(state.to_json(), sort_keys=True)
            nxt = state.apply(action)
            if json.dumps(state.to_json(), sort_keys=True) != before:
                raise _fail(game_seed, step, f"apply({action}) changed the state it was called on")
            _check_events(game, state, action, nxt, game_seed, step)
            _check_reveals(game, state, action, nxt, rng, game_seed, step, report)
        else:
            nxt = state.apply(action)
        taken.append(action.to_json())
        state = nxt
        step += 1
    if state.legal_actions():
        raise _fail(game_seed, step, "legal actions remain after the game is over")
    if state.to_move is not None:
        raise _fail(game_seed, step, "to_move is not None after the game is over")
    scores, winners = state.scores(), state.winners()
    if len(scores) != game.players or not set(winners) <= set(range(game.players)):
        raise _fail(game_seed, step, f"bad result scores={scores} winners={winners}")
    final = replay(Record(game.id, game.options, game_seed, taken)).to_json()
    if final != state.to_json():
        raise _fail(game_seed, step, "replaying the record gave a different final state")
    _check_deep(game, state, None, [], rng, game_seed, step, report)
    report.games += 1
    report.actions += step
    report.longest = max(report.longest, step)
    key = ",".join(map(str, sorted(winners))) or "none"
    report.outcomes[key] = report.outcomes.get(key, 0) + 1


def _check_events(
    game: Game, state: State, action: Action, nxt: State, game_seed: int, step: int
) -> None:
    """The logged path reaches the same state, and every seat's account is JSON text."""
    logged, events = state.apply_with_events(action)
    if logged.to_json() != nxt.to_json():
        raise _fail(game_seed, step, f"apply_with_events({action}) reached another state")
    for seat in [None, *range(game.players)]:
        told = game.tell(events, seat)
        if not _json_identity(told) or not all(t["text"] for t in told):
            raise _fail(game_seed, step, f"events of {action} for seat {seat} are not JSON text")
        state.describe(action, seat)


def _check_reveals(
    game: Game,
    state: State,
    action: Action,
    nxt: State,
    rng: Rng,
    game_seed: int,
    step: int,
    report: ConformanceReport,
) -> None:
    """`state.reveals(action)` never says False when the action drew chance or taught a seat
    something: then the generator stands still, and in worlds dealt from any seat's view
    before, the action leaves that seat the very view it has after, order included: the order
    of a declared attack is public (each card is laid by an action of its own, and a seat that
    knows the card is told it as it is laid, C-R28), and worlds are dealt into the same
    places. (In a world dealt for
    another seat the action may name a card its actor does not hold there, a card placed
    face down, say: such a world cannot stand for the real one and is skipped.)"""
    if state.reveals(action):
        return
    if state.to_json().get("rng") != nxt.to_json().get("rng"):
        raise _fail(game_seed, step, f"{action} moved the generator but reveals() said no")
    for seat in range(game.players):
        before, after = state.view(seat), nxt.view(seat)
        for _ in range(2):
            world = game.sample_state(before, rng.spawn())
            try:
                seen = world.apply(action).view(seat)
            except IllegalAction as exc:
                if seat == state.to_move:
                    what = f"{action} is illegal in a world of its own seat"
                    raise _fail(game_seed, step, what) from exc
                continue
            if seen != after:
                differ = sorted(k for k in after if seen.get(k) != after[k])
                raise _fail(
                    game_seed,
                    step,
                    f"{action} showed seat {seat} something ({', '.join(differ)} differ in a "
                    "world dealt from its view); reveals() said no",
                )
    report.reveals_checked += 1


def _check_counted(
    state: State, legal: list[Action], rng: Rng, every: bool, game_seed: int, step: int
) -> None:
    """The counted enumeration agrees with the list: `legal_count` is its length,
    `legal_at(i)` its i-th action (the ends and the next draw's pick each step, every index
    on deep steps), and `random_legal` picks what `legal[rng.below(len(legal))]` picks with
    the same draws."""
    if state.legal_count() != len(legal):
        raise _fail(game_seed, step, f"legal_count() {state.legal_count()} != {len(legal)}")
    ours, theirs = rng.copy(), rng.copy()
    pick = state.random_legal(ours)
    index = theirs.below(len(legal))
    if pick != legal[index] or ours.state != theirs.state:
        raise _fail(game_seed, step, f"random_legal gave {pick}, the list {legal[index]}")
    for i in range(len(legal)) if every else (0, index, len(legal) - 1):
        if state.legal_at(i) != legal[i]:
            raise _fail(game_seed, step, f"legal_at({i}) is {state.legal_at(i)}, not {legal[i]}")


def _check_illegal(
    state: State,
    legal: list[Action],
    seen: dict[str, Action],
    rng: Rng,
    count: int,
    game_seed: int,
    step: int,
    report: ConformanceReport,
) -> None:
    if not seen or count <= 0:
        return
    pool = list(seen.values())
    legal_set = set(legal)
    for _ in range(count):
        candidate = pool[rng.below(len(pool))]
        if candidate in legal_set:
            continue
        try:
            state.apply(candidate)
        except IllegalAction as exc:
            if not exc.reason:
                raise _fail(game_seed, step, f"{candidate} refused without a reason") from exc
            report.illegal_checked += 1
        else:
            raise _fail(game_seed, step, f"{candidate} is not in legal_actions but applied")


def _check_deep(
    game: Game,
    state: State,
    seat: int | None,
    legal: list[Action],
    rng: Rng,
    game_seed: int,
    step: int,
    report: ConformanceReport,
) -> None:
    data = state.to_json()
    if not _json_identity(data):
        raise _fail(game_seed, step, "state.to_json() is not plain JSON")
    back = game.state_from_json(json.loads(json.dumps(data)))
    if back.to_json() != data:
        raise _fail(game_seed, step, "state does not round-trip through JSON")
    if back.legal_actions() != state.legal_actions():
        raise _fail(game_seed, step, "a state read back from JSON has other legal actions")
    seats: list[int | None] = [None, *range(game.players)]
    for who in seats:
        view = state.view(who)
        if not _json_identity(view):
            raise _fail(game_seed, step, f"view({who}) is not plain JSON (tuples, non-str keys?)")
        if who is None:
            continue
        sampled = game.sample_state(view, rng.spawn())
        if sampled.view(who) != view:
            raise _fail(game_seed, step, f"sample_state(view({who})) does not rebuild that view")
        if who == seat and sampled.legal_actions() != legal:
            raise _fail(
                game_seed, step, f"legal actions of seat {who} depend on what it cannot see"
            )
        report.samples_checked += 1
