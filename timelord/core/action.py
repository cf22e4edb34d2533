"""Actions: small frozen values with a JSON form and a one-line text.

A game declares each kind of move as a frozen dataclass deriving from `Action`; the JSON
form is `{"type": ClassName, field: value, ...}` with tuples written as lists, and
`decode_action` turns it back, refusing anything malformed with `InvalidAction`.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

from timelord.core.door import door
from timelord.core.errors import InvalidAction


def _to_json_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json_value(v) for v in value]
    return value


def _from_json_value(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json_value(v) for v in value)
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """Base of every game's actions. Subclasses are frozen dataclasses of plain values."""

    def to_json(self) -> dict[str, Any]:
        """JSON-safe dict that `decode_action` (and so `game.action_from_json`) reads back."""
        out: dict[str, Any] = {"type": type(self).__name__}
        for name in _field_names(type(self)):
            out[name] = _to_json_value(getattr(self, name))
        return out


_FIELD_NAMES: dict[type[Action], tuple[str, ...]] = {}


def _field_names(cls: type[Action]) -> tuple[str, ...]:
    """The names of an action type's fields, asked of `dataclasses` once per type: a server
    encodes every legal action of every move, and `dataclasses.fields` is slow to call."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_SCALARS = (int, str, bool, type(None))


def _check_value(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_check_value(v) for v in value)
    return isinstance(value, _SCALARS) and not isinstance(value, float)


def decode_action(data: Any, types: Iterable[type[Action]]) -> Action:
    """Build the action `data` describes, from one of `types`; `InvalidAction` if malformed."""
    if not isinstance(data, Mapping):
        raise InvalidAction("an action must be a JSON object")
    by_name = {t.__name__: t for t in types}
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in by_name:
        raise InvalidAction(
            f"unknown action type {reprlib.repr(kind)}; expected one of {sorted(by_name)}"
        )
    cls = by_name[kind]
    names = _field_names(cls)
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise InvalidAction(f"{kind} has no field(s) {sorted(extra)}")
    missing = [n for n in names if n not in data]
    if missing:
        raise InvalidAction(f"{kind} needs field(s) {missing}")
    with door(InvalidAction, kind):  # a field nested thousands of lists deep, too
        values = {n: _from_json_value(data[n]) for n in names}
        for name, value in values.items():
            if not _check_value(value):
                raise InvalidAction(
                    f"{kind}.{name} has a value of the wrong kind: {reprlib.repr(value)}"
                )
        action = cls(**values)
    _check_field_types(action)
    return action


def _check_field_types(action: Action) -> None:
    """Refuse a value whose type is plainly not the declared one (an int where str is due)."""
    hints = {f.name: f.type for f in dataclasses.fields(action)}
    for name, hint in hints.items():
        value = getattr(action, name)
        text = hint if isinstance(hint, str) else getattr(hint, "__name__", str(hint))
        if text == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise InvalidAction(f"{type(action).__name__}.{name} must be an integer")
        if text == "str" and not isinstance(value, str):
            raise InvalidAction(f"{type(action).__name__}.{name} must be a string")
        if text == "bool" and not isinstance(value, bool):
            raise InvalidAction(f"{type(action).__name__}.{name} must be true or false")
        if text.startswith("tuple[int") and not (
            isinstance(value, tuple)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise InvalidAction(f"{type(action).__name__}.{name} must be a list of integers")
