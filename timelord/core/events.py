"""What happened: events produced by a transition, redacted per seat exactly as views are.

An `Event` is built by the rules while they apply an action (never by previewing an action
that was not taken). It carries the facts every seat sees in `data`, and facts only some
seats see in `private` (the thief and the victim see which card was stolen). A seat's
account of an event is `seen_by(seat)`, and its sentence is made by the game from that
redacted data alone, so what a seat is told can never depend on what it may not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from timelord.core.door import door
from timelord.core.errors import CorruptRecord


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. `kind` is a stable id clients can animate ("conflict")."""

    kind: str
    #: Facts every seat and spectators see (JSON-safe values).
    data: Mapping[str, Any]
    #: (seats, facts) pairs: those seats also see those facts, which override `data` keys.
    private: tuple[tuple[frozenset[int], Mapping[str, Any]], ...] = ()

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The event's facts as `seat` may see them (None: a spectator, public facts only)."""
        out = dict(self.data)
        if seat is not None:
            for seats, extra in self.private:
                if seat in seats:
                    out.update(extra)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "data": dict(self.data),
            "private": [{"seats": sorted(s), "data": dict(d)} for s, d in self.private],
        }

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """Read back `to_json()`; `CorruptRecord` if malformed."""
        with door(CorruptRecord, "malformed event"):
            kind, public, private = data["kind"], data["data"], data.get("private", [])
            if not isinstance(kind, str) or not isinstance(public, dict):
                raise TypeError("kind must be a string and data an object")
            parts = tuple(
                (frozenset(_seat(s) for s in p["seats"]), dict(p["data"])) for p in private
            )
        return cls(kind, dict(public), parts)


def _seat(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"bad seat {value!r}")
    return value


def emit(log: list[Event] | None, kind: str, /, **data: Any) -> None:
    """Append a public event to `log` when events are wanted (None: the fast path, no cost)."""
    if log is not None:
        log.append(Event(kind, data))
