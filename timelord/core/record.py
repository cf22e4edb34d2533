"""Game records: game id, options, seed and the actions taken; enough to replay exactly."""

from __future__ import annotations

import itertools
import json
import reprlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from timelord.core.errors import ConfigError, CorruptRecord, GameError
from timelord.core.game import State
from timelord.core.keyed import KEY_BYTES, KeyedRng
from timelord.core.registry import game_class, load
from timelord.core.rng import Rng

RECORD_VERSION = 1


@dataclass
class Record:
    """What happened in one game. `replay(record)` rebuilds its final state."""

    game: str
    options: dict[str, Any]
    seed: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    #: a served table's generator key (hex; see `timelord.core.keyed`): the game was dealt
    #: from it, not from `seed`
    key: str | None = None
    #: indices in `actions` of those a person's stand-in bot played for them (a served
    #: table's; written only when there are some, so older records read and write as before)
    standin: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = {
            "version": RECORD_VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "actions": self.actions,
            "result": self.result,
        }
        if self.key is not None:
            data["key"] = self.key
        if self.standin:
            data["standin"] = self.standin
        return data

    def start(self) -> int | Rng:
        """What `new_game` was given: the seed, or the keyed generator."""
        return self.seed if self.key is None else KeyedRng(bytes.fromhex(self.key))

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record back; `CorruptRecord` says what is wrong with a bad one.

        Every field is checked and capped here, at the door, so nothing later (replay, the
        report, the web server) meets a seat list that is a number, an action nested
        thousands of levels deep or a seed of thousands of digits."""
        if not isinstance(data, dict):
            raise CorruptRecord("a record must be a JSON object")
        if data.get("version") != RECORD_VERSION:
            raise CorruptRecord(f"unsupported record version {reprlib.repr(data.get('version'))}")
        missing = [k for k in ("game", "options", "seed") if k not in data]
        if missing:
            raise CorruptRecord(f"record lacks {', '.join(map(repr, missing))}")
        extra = set(data) - _FIELDS
        if extra:
            raise CorruptRecord(f"record has unknown field(s) {sorted(map(str, extra))[:5]}")
        game, options, seed = data["game"], data["options"], data["seed"]
        if not isinstance(game, str) or not 0 < len(game) <= MAX_TEXT:
            raise CorruptRecord("record 'game' must be a game id")
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise CorruptRecord("record 'options' must be an object")
        _check_tree(options, "options", MAX_OPTION_ITEMS)
        actions = _actions(data.get("actions", []))
        return cls(
            game,
            options,
            check_seed(seed, CorruptRecord),
            actions,
            _seats(data.get("seats", [])),
            _result(data.get("result")),
            _key(data.get("key")),
            _standin(data.get("standin", []), len(actions)),
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; any bytes give a record or `CorruptRecord`."""
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_RECORD_BYTES + 1)
            if len(raw) > MAX_RECORD_BYTES:
                raise CorruptRecord(f"record {path} is larger than {MAX_RECORD_BYTES} bytes")
            data = loads(raw.decode())
        except (OSError, UnicodeDecodeError) as exc:
            raise CorruptRecord(f"cannot read record {path}: {exc}") from exc
        except CorruptRecord as exc:
            raise CorruptRecord(f"cannot read record {path}: {exc}") from exc
        return cls.from_json(data)


_FIELDS = {"version", "game", "options", "seed", "seats", "actions", "result", "key", "standin"}
#: seeds are 64-bit generator states; one sign bit more lets `timelord play --seed -5` round-trip
SEED_BITS = 64
#: a record file larger than this is refused unread (a long game's record is about 100 KB)
MAX_RECORD_BYTES = 32 * 1024 * 1024
#: the most actions any record may hold; `replay` holds each game to its own `max_actions`
MAX_ACTIONS = 1_000_000
MAX_SEATS = 16
MAX_TEXT = 200
#: fields of one action, and items of one list field (a sequence of cards)
MAX_ACTION_FIELDS = 16
MAX_LIST_ITEMS = 256
#: values (counted through lists and objects) in all the options together
MAX_OPTION_ITEMS = 20_000
MAX_DEPTH = 8


def check_seed(seed: Any, error: type[GameError] = ConfigError) -> int:
    """`seed` if it is an integer of at most 64 bits (either sign), else `error`."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise error(f"a seed must be an integer, not {reprlib.repr(seed)}")
    if not -(1 << SEED_BITS) < seed < 1 << SEED_BITS:
        raise error(f"a seed must fit in {SEED_BITS} bits (below 2**{SEED_BITS} in size)")
    return seed


def loads(text: str) -> Any:
    """`json.loads` that raises `CorruptRecord` for every bad text: not JSON, nested past
    the parser's recursion limit, or an integer of more digits than Python converts."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CorruptRecord(f"not valid JSON: {str(exc)[:200]}") from None


def _check_tree(value: Any, what: str, limit: int) -> None:
    """Plain JSON values only, at most `MAX_DEPTH` deep and `limit` values in all; walked
    with a stack, not recursion, so depth itself cannot crash the check."""
    stack = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > limit or depth > MAX_DEPTH:
            raise CorruptRecord(f"record {what!r} is too large or nested too deep")
        if isinstance(item, dict):
            if not all(isinstance(k, str) for k in item):
                raise CorruptRecord(f"record {what!r} has a key that is not text")
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, str):
            if len(item) > MAX_TEXT:
                raise CorruptRecord(f"record {what!r} holds a text over {MAX_TEXT} characters")
        elif isinstance(item, int) and not isinstance(item, bool):
            if abs(item) >= 1 << SEED_BITS:
                raise CorruptRecord(f"record {what!r} holds a number over 64 bits")
        elif not (item is None or isinstance(item, bool | float)):
            raise CorruptRecord(f"record {what!r} holds a {type(item).__name__}")


def _key(key: Any) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or len(key) != 2 * KEY_BYTES:
        raise CorruptRecord(f"record 'key' must be {2 * KEY_BYTES} hex digits")
    try:
        bytes.fromhex(key)
    except ValueError:
        raise CorruptRecord(f"record 'key' must be {2 * KEY_BYTES} hex digits") from None
    return key.lower()


def _standin(marks: Any, actions: int) -> list[int]:
    """Indices of actions, each once and in order."""
    if (
        not isinstance(marks, list)
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in marks)
        or not all(0 <= i < actions for i in marks)
        or any(a >= b for a, b in itertools.pairwise(marks))
    ):
        raise CorruptRecord("record 'standin' must list indices of its actions, in order")
    return list(marks)


def _actions(actions: Any) -> list[dict[str, Any]]:
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise CorruptRecord("record 'actions' must be a list of objects")
    if len(actions) > MAX_ACTIONS:
        raise CorruptRecord(f"record holds {len(actions)} actions, over {MAX_ACTIONS}")
    for i, action in enumerate(actions):
        if len(action) > MAX_ACTION_FIELDS:
            raise CorruptRecord(f"record action {i} has too many fields")
        for value in action.values():
            flat = value if isinstance(value, list) else [value]
            if len(flat) > MAX_LIST_ITEMS or not all(_scalar(v) for v in flat):
                raise CorruptRecord(
                    f"record action {i} has a field that is not a value or a short flat list"
                )
    return list(actions)


def _scalar(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) < 1 << SEED_BITS
    return value is None or isinstance(value, bool)


def _seats(seats: Any) -> list[str]:
    if (
        not isinstance(seats, list)
        or len(seats) > MAX_SEATS
        or not all(isinstance(s, str) and 0 < len(s) <= MAX_TEXT for s in seats)
    ):
        raise CorruptRecord(f"record 'seats' must be a list of at most {MAX_SEATS} agent specs")
    return list(seats)


#: the result fields `timelord simulate` writes, and the type of each
_RESULT_LISTS = {"scores": (int, float), "winners": (int,), "places": (int,), "movers": (int,)}
_RESULT_INTS = ("index", "length")


def _result(result: Any) -> dict[str, Any] | None:
    """None, or an object whose known fields have their shape (extra fields are kept)."""
    if result is None:
        return None
    if not isinstance(result, dict):
        raise CorruptRecord("record 'result' must be an object or null")
    _check_tree(result, "result", 2 * MAX_ACTIONS)
    for name in _RESULT_INTS:
        value = result.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise CorruptRecord(f"record result {name!r} must be a count")
    for name, kinds in _RESULT_LISTS.items():
        value = result.get(name, [])
        if not isinstance(value, list) or not all(
            isinstance(v, kinds) and not isinstance(v, bool) for v in value
        ):
            raise CorruptRecord(f"record result {name!r} must be a list of numbers")
    for name in ("winners", "movers"):
        if not all(0 <= v < MAX_SEATS for v in result.get(name, [])):
            raise CorruptRecord(f"record result {name!r} names a seat that is not at the table")
    return result


def replay_steps(record: Record) -> Iterator[tuple[State, Any]]:
    """Yield (state, action) for each recorded action, then (final state, None).

    Every action goes through the checked `apply`, so a tampered record fails loudly with
    `CorruptRecord` naming the step.
    """
    try:
        game = load(record.game, **rules_of(record))
    except GameError as exc:
        raise CorruptRecord(f"record of a game that cannot be built: {exc}") from exc
    if len(record.actions) > game.max_actions:
        raise CorruptRecord(
            f"record holds {len(record.actions)} actions; a {game.id} game ends within "
            f"{game.max_actions}"
        )
    if record.seats and len(record.seats) != game.players:
        raise CorruptRecord(f"record names {len(record.seats)} seats for {game.players} players")
    state = game.new_game(record.start())
    for i, data in enumerate(record.actions):
        try:
            action = game.action_from_json(data)
            yield state, action
            state = state.apply(action)
        except GameError as exc:
            raise CorruptRecord(f"record step {i}: {exc}") from exc
    yield state, None


def rules_of(record: Record) -> dict[str, Any]:
    """The record's options, naming the rules version its game was played under.

    Records (and served tables) written before versions were kept name none. They are read
    as the most recent of the game's `unversioned` versions under which every recorded
    action is legal, the oldest without trying: for a game whose rules changed while no
    version was kept, each such record replays under only the rules it was played by.
    `GameError` if the game id is unknown."""
    cls = game_class(record.game)
    if "rules" in record.options or len(cls.rules_versions) == 1:
        return dict(record.options)  # (a game of one version needs no `rules` option)
    candidates = cls.unversioned
    for version in candidates[:-1]:
        options = {**record.options, "rules": version}
        try:
            game = load(record.game, **options)
            state = game.new_game(record.start())
            for data in record.actions:
                state = state.apply(game.action_from_json(data))
        except GameError:
            continue
        return options
    return {**record.options, "rules": candidates[-1]}


def replay(record: Record) -> State:
    """The final state of a recorded game."""
    final: State | None = None
    for final, _ in replay_steps(record):  # noqa: B007  (the last one is the answer)
        pass
    assert final is not None
    return final
