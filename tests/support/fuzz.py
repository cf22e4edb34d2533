"""A mutation fuzzer for the doors of every game: saved states, actions, views and records.

Inputs are real: seeded random games are played and their states, views, actions and records
kept at several points. One or two mutations are applied to such an input (a number moved by
one or made huge, a key or list item deleted, duplicated or swapped, a value of the wrong
type, a card copied into a second place, deep nesting) and the door must then either refuse
it with a library error (`GameError`) or let in something that plays on correctly: every
view, `render_view`, `sample_state` for each seat (which must rebuild that view), and further
random moves through the checked `apply`.

Mutations are chosen through a `Chooser` (`choose(n) -> 0..n-1`), so the same code is driven
by Hypothesis in the test suite (which then shrinks a failure) and by a seeded `random.Random`
in the long run by hand (`python -m tests.fuzz.run`).
"""

from __future__ import annotations

import copy
import json
import random
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from timelord.core import GameError, Record, Rng, State, load, replay
from timelord.core.game import Game

#: `choose(n)` returns an int in 0..n-1
Chooser = Callable[[int], int]

GAMES = ("card-game", "clue", "episodes", "keys")
KINDS = ("state", "action", "view", "record")
#: moves played on from an accepted input
PLAY_ON = 30
#: seconds one input may take before it counts as a hang
HANG_SECONDS = 10.0
#: how deep the "deep nesting" mutation nests (past the default recursion limit)
DEEP = 5000
HUGE = (10**6, 10**18, 2**63, -(2**63), 10**100)


class Hang(Exception):
    """Raised by the alarm when one input runs past `HANG_SECONDS`."""


class Broken(Exception):
    """An accepted input that does not play on correctly (the message says how)."""


#: an input with the options of the table it came from (as sorted JSON text)
Entry = tuple[str, Any]


@dataclass(frozen=True)
class Corpus:
    """Real inputs of one game, from its default table and its smallest (two players, where
    several rules differ): states, per-seat views, (state, action) pairs and records."""

    game_id: str
    states: tuple[Entry, ...]
    views: tuple[Entry, ...]
    actions: tuple[tuple[str, tuple[dict[str, Any], dict[str, Any]]], ...]
    records: tuple[Entry, ...]


@cache
def _game(game_id: str, options: str) -> Game:
    return load(game_id, **json.loads(options))


@cache
def corpus(game_id: str, games: int = 2, points: int = 5, seed: int = 1) -> Corpus:
    """Play `games` seeded random games per table and keep inputs at `points` places along
    each."""
    states: list[Entry] = []
    views: list[Entry] = []
    actions: list[tuple[str, tuple[dict[str, Any], dict[str, Any]]]] = []
    records: list[Entry] = []
    tables = [load(game_id).options, load(game_id, players=2).options]
    for options in {json.dumps(t, sort_keys=True): t for t in tables}:
        game = _game(game_id, options)
        for g in range(games):
            game_seed = seed * 1000 + g
            rng = Rng(game_seed ^ 0xF022)
            history: list[tuple[State, Any]] = []
            state = game.new_game(game_seed)
            record = Record(game.id, dict(game.options), game_seed)
            while not state.is_over:
                action = rng.choice(state.legal_actions())
                history.append((state, action))
                record.actions.append(action.to_json())
                state = state.apply(action)
            history.append((state, None))
            # the opening, a few points along the game, and the end
            picks = {round(i * (len(history) - 1) / (points - 1)) for i in range(points)}
            for i in sorted(picks):
                at, action = history[i]
                states.append((options, at.to_json()))
                views.extend((options, at.view(seat)) for seat in range(game.players))
                if action is not None:
                    actions.append((options, (at.to_json(), action.to_json())))
            records.append((options, record.to_json()))
    return Corpus(game_id, tuple(states), tuple(views), tuple(actions), tuple(records))


@cache
def _state(game_id: str, options: str, text: str) -> State:
    """A corpus state read back once (states never change, so one object serves every try)."""
    return _game(game_id, options).state_from_json(json.loads(text))


# ---------------------------------------------------------------- mutations of JSON values


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, the root included, depth first (not below nesting the
    fuzzer made itself, so a second mutation stays cheap)."""
    yield prefix
    if len(prefix) > 40:
        return
    if isinstance(value, dict):
        for key in value:
            yield from _paths(value[key], (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*prefix, i))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(root: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new
    return root


def _deep(levels: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


def _wrong_type(old: Any, choose: Chooser) -> Any:
    options: list[Any] = ["x", None, 1.5, True, [], {}, [old], {"x": old}, -1]
    if isinstance(old, str):
        options.append(0)
    if isinstance(old, bool):
        options.append(1)
    if isinstance(old, int) and not isinstance(old, bool):
        options += [str(old), float(old), False]
    return options[choose(len(options))]


def _leaves(root: Any) -> list[tuple[Any, ...]]:
    return [p for p in _paths(root) if p and not isinstance(_get(root, p), dict | list)]


def _lists(root: Any) -> list[tuple[Any, ...]]:
    return [p for p in _paths(root) if isinstance(_get(root, p), list)]


def mutate_once(root: Any, choose: Chooser) -> tuple[Any, str]:
    """One mutation of a JSON value (changed in place where possible); the new root and what
    was done, in words for a reproducer."""
    paths = list(_paths(root))
    path = paths[choose(len(paths))]
    old = _get(root, path)
    where = "/".join(map(str, path)) or "(root)"
    kind = choose(10)
    if kind == 0 and isinstance(old, int) and not isinstance(old, bool):
        new = old + (1 if choose(2) else -1)
        return _set(root, path, new), f"{where}: {old} -> {new}"
    if kind == 1 and isinstance(old, int | float):
        new = HUGE[choose(len(HUGE))]
        return _set(root, path, new), f"{where}: {old!r} -> {new}"
    if kind == 2 and path:
        parent = _get(root, path[:-1])
        del parent[path[-1]]
        return root, f"{where}: deleted"
    if kind == 3 and isinstance(old, list) and old:
        i = choose(len(old))
        old.insert(i, old[i])  # shared, not copied: it may be nested very deep
        return root, f"{where}: item {i} duplicated"
    if kind == 4 and isinstance(old, list) and len(old) > 1:
        i, j = choose(len(old)), choose(len(old))
        old[i], old[j] = old[j], old[i]
        return root, f"{where}: items {i} and {j} swapped"
    if kind == 5:
        leaves, lists = _leaves(root), _lists(root)
        if leaves and lists:
            # a card (any scalar) copied into a second place: a list elsewhere
            source = leaves[choose(len(leaves))]
            target = lists[choose(len(lists))]
            item = _get(root, source)
            _get(root, target).append(item)
            return root, (
                f"{'/'.join(map(str, target)) or '(root)'}: {item!r} "
                f"(from {'/'.join(map(str, source))}) appended"
            )
    if kind == 6:
        new = _deep(DEEP, copy.deepcopy(old) if not isinstance(old, dict | list) else 0)
        return _set(root, path, new), f"{where}: nested {DEEP} lists deep"
    if kind == 7 and isinstance(old, dict):
        key = ("x", "type", "seat", "phase")[choose(4)]
        old[key] = ["x", 0, None, -1][choose(4)]
        return root, f"{where}: key {key!r} set to {old[key]!r}"
    if kind == 8 and path:
        # swap two values of the same parent (a dict's or list's)
        parent = _get(root, path[:-1])
        keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        other = keys[choose(len(keys))]
        parent[path[-1]], parent[other] = parent[other], parent[path[-1]]
        return root, f"{where}: swapped with sibling {other!r}"
    new = _wrong_type(old, choose)
    return _set(root, path, new), f"{where}: {shown(old)} -> {shown(new)}"


def shown(value: Any, limit: int = 60) -> str:
    """`value` as compact JSON, cut to `limit` characters (for messages and reproducers)."""
    try:
        text = json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__} nested too deep to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def mutate(value: Any, choose: Chooser) -> tuple[Any, list[str]]:
    """One or two mutations of a deep copy of `value`."""
    root = copy.deepcopy(value)
    notes: list[str] = []
    for _ in range(1 + choose(2)):
        root, note = mutate_once(root, choose)
        notes.append(note)
    return root, notes


# ---------------------------------------------------------------- the checks


def _alarm(signum: int, frame: object) -> None:
    raise Hang(f"no answer within {HANG_SECONDS:.0f}s")


def play_on(game: Game, state: State, rng: random.Random, moves: int = PLAY_ON) -> None:
    """An accepted state must behave: views, render, sample_state per seat, random moves."""
    check_views(game, state)
    for step in range(moves):
        if state.is_over:
            break
        seat = state.to_move
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
            raise Broken(f"move {step}: to_move {seat!r} is not a seat")
        legal = state.legal_actions()
        if not legal:
            raise Broken(f"move {step}: no legal action, yet the game is not over")
        state = state.apply(legal[rng.randrange(len(legal))])
    if state.is_over:
        if state.legal_actions() or state.to_move is not None:
            raise Broken("over, yet someone is to move")
        if len(state.scores()) != game.players:
            raise Broken("scores() does not give one score per seat")
        state.winners()
    check_views(game, state)


def check_views(game: Game, state: State) -> None:
    """Every view renders, and `sample_state` rebuilds each seat's view."""
    for seat in [None, *range(game.players)]:
        view = state.view(seat)
        try:
            json.dumps(view)
        except (TypeError, ValueError, RecursionError) as exc:
            raise Broken(f"view({seat}) is not plain JSON: {exc}") from None
        game.render_view(view)
        if seat is not None:
            differ = _differ(game.sample_state(view, Rng(7)).view(seat), view)
            if differ:
                raise Broken(f"sample_state(view({seat})) does not rebuild that view: {differ}")


def _differ(got: Any, wanted: Any) -> str:
    """The top-level keys where two views differ ('' if none), in words."""
    if not isinstance(got, dict) or not isinstance(wanted, dict):
        return "not an object"
    keys = sorted(set(got) | set(wanted))
    try:
        changed = [k for k in keys if got.get(k, ...) != wanted.get(k, ...)]
    except RecursionError:
        return "a value nested too deep to compare"
    return ", ".join(f"{k} {shown(got.get(k))} != {shown(wanted.get(k))}" for k in changed)


@dataclass
class Outcome:
    """What one fuzz input did: accepted, refused (library error) or a failure."""

    game: str
    kind: str
    notes: list[str]
    verdict: str = "accepted"  # accepted | refused | failed
    error: str = ""
    input: Any = field(default=None, repr=False)
    #: file:line in the package where a failure was raised
    where: str = ""
    #: the seed that `python -m tests.fuzz.run --replay GAME KIND SEED` rebuilds it from
    seed: int | None = None
    exception: BaseException | None = field(default=None, repr=False)

    def reproducer(self) -> str:
        again = (
            f"\n  again: `python -m tests.fuzz.run --replay {self.game} {self.kind} {self.seed}`"
            if self.seed is not None
            else ""
        )
        return (
            f"- **{self.game}** `{self.kind}`: {'; '.join(self.notes)}\n"
            f"  -> `{self.error}` at {self.where or '?'}{again}\n"
            f"  input: `{shown(self.input, 300)}`"
        )


def _origin(exc: BaseException) -> str:
    """The innermost frame of the package in `exc`'s traceback, as path:line."""
    found = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        marker = frame.filename.rfind("/timelord/")
        if marker >= 0:
            found = f"{frame.filename[marker + 1 :]}:{frame.lineno}"
    return found


def _judge(outcome: Outcome, body: Callable[[], None]) -> Outcome:
    """Run `body` under the hang alarm; classify what it raised."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    try:
        body()
    except GameError as exc:
        outcome.exception = exc
        outcome.verdict, outcome.error = "refused", f"{type(exc).__name__}: {exc}"[:300]
    except Exception as exc:  # the fuzzer's whole point: catch whatever leaks
        outcome.verdict, outcome.error = "failed", f"{type(exc).__name__}: {exc}"[:300]
        outcome.where, outcome.exception = _origin(exc), exc
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return outcome


def fuzz_one(data: Corpus, kind: str, choose: Chooser) -> Outcome:
    """Mutate one input of `kind` from the corpus and check the door it goes through."""
    rng = random.Random(choose(2**16))
    if kind == "state":
        options, source = data.states[choose(len(data.states))]
        game = _game(data.game_id, options)
        mutated, notes = mutate(source, choose)
        outcome = Outcome(data.game_id, kind, [_table(options), *notes], input=mutated)

        def body() -> None:
            play_on(game, game.state_from_json(mutated), rng)

    elif kind == "action":
        options, (state_json, action_json) = data.actions[choose(len(data.actions))]
        game = _game(data.game_id, options)
        mutated, notes = mutate(action_json, choose)
        outcome = Outcome(data.game_id, kind, [_table(options), *notes], input={"action": mutated})

        def body() -> None:
            state = _state(data.game_id, options, json.dumps(state_json, sort_keys=True))
            action = game.action_from_json(mutated)
            play_on(game, state.apply(action), rng)

    elif kind == "view":
        options, view = data.views[choose(len(data.views))]
        game = _game(data.game_id, options)
        mutated, notes = mutate(view, choose)
        outcome = Outcome(data.game_id, kind, [_table(options), *notes], input=mutated)

        def body() -> None:
            sampled = game.sample_state(mutated, Rng(rng.randrange(2**32)))
            seat = mutated.get("seat") if isinstance(mutated, dict) else None
            differ = _differ(sampled.view(seat), mutated) if isinstance(seat, int) else ""
            if differ:
                raise Broken(f"sample_state accepted a view it does not rebuild: {differ}")
            play_on(game, sampled, rng)

    elif kind == "record":
        options, record = data.records[choose(len(data.records))]
        mutated, notes = mutate(record, choose)
        outcome = Outcome(data.game_id, kind, [_table(options), *notes], input=mutated)

        def body() -> None:
            final = replay(Record.from_json(mutated))
            play_on(final.game, final, rng)

    else:
        raise ValueError(f"unknown fuzz kind {kind!r}")
    return _judge(outcome, body)


def _table(options: str) -> str:
    """The table an input came from, for its reproducer ('2 players'; other options are the
    game's defaults)."""
    return f"{json.loads(options).get('players', '?')} players"


@dataclass
class Tally:
    """Counts of a fuzz run and the failures it met, one per game, door, exception type and
    the place in the package that raised it (so one bug counts once)."""

    tried: int = 0
    accepted: int = 0
    refused: int = 0
    failures: dict[str, Outcome] = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)

    def add(self, outcome: Outcome) -> None:
        self.tried += 1
        if outcome.verdict == "accepted":
            self.accepted += 1
        elif outcome.verdict == "refused":
            self.refused += 1
        else:
            kind = outcome.error.partition(":")[0]
            key = f"{outcome.game} {outcome.kind} {kind} {outcome.where}"
            self.failures.setdefault(key, outcome)
