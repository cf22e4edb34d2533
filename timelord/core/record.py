"""Game records: game id, options, seed and the actions taken; enough to replay exactly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from timelord.core.errors import CorruptRecord, GameError
from timelord.core.game import State
from timelord.core.registry import load

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

    def to_json(self) -> dict[str, Any]:
        return {
            "version": RECORD_VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "actions": self.actions,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record back; `CorruptRecord` says what is wrong with a bad one."""
        if not isinstance(data, dict):
            raise CorruptRecord("a record must be a JSON object")
        if data.get("version") != RECORD_VERSION:
            raise CorruptRecord(f"unsupported record version {data.get('version')!r}")
        try:
            game, options, seed = data["game"], data["options"], data["seed"]
            actions, seats = data.get("actions", []), data.get("seats", [])
        except KeyError as exc:
            raise CorruptRecord(f"record lacks {exc.args[0]!r}") from exc
        if not isinstance(game, str) or not isinstance(options, dict):
            raise CorruptRecord("record 'game' must be a string and 'options' an object")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise CorruptRecord("record 'seed' must be an integer")
        if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
            raise CorruptRecord("record 'actions' must be a list of objects")
        return cls(game, options, seed, list(actions), list(seats), data.get("result"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CorruptRecord(f"cannot read record {path}: {exc}") from exc
        return cls.from_json(data)


def replay_steps(record: Record) -> Iterator[tuple[State, Any]]:
    """Yield (state, action) for each recorded action, then (final state, None).

    Every action goes through the checked `apply`, so a tampered record fails loudly with
    `CorruptRecord` naming the step.
    """
    game = load(record.game, **record.options)
    state = game.new_game(record.seed)
    for i, data in enumerate(record.actions):
        try:
            action = game.action_from_json(data)
            yield state, action
            state = state.apply(action)
        except GameError as exc:
            raise CorruptRecord(f"record step {i}: {exc}") from exc
    yield state, None


def replay(record: Record) -> State:
    """The final state of a recorded game."""
    final: State | None = None
    for final, _ in replay_steps(record):  # noqa: B007  (the last one is the answer)
        pass
    assert final is not None
    return final
