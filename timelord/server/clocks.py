"""Table clocks: none, realtime (a Fischer bank) or async (a deadline per move).

A clock is plain JSON stored on the table's row and written in the same commit as each move,
so a restarted server, or a second process on the same database, reads it back exactly:
`{"mode", "per_move", "bank"?, "remaining": [seconds per seat], "since": epoch seconds or
null}`. `remaining[s]` is what seat s had when the turn now being played began at `since`
(null until the table starts). Time comes from a `Clock`, so tests run it by hand.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from typing import Any, Protocol

from timelord.server.errors import ApiError, Code

#: the longest a realtime bank or an async deadline may be (a fortnight)
LONGEST = 14 * 24 * 3600


class Clock(Protocol):
    """Where a server's tables read the time and wait for a deadline."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once `seconds` have passed by this clock."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


def settings(data: Any) -> dict[str, Any] | None:
    """A create request's `clock` checked at the door: None, or its settings; 422
    `config/invalid` otherwise."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise _bad(_SHAPE)
    mode = data.get("mode")
    keys = {"realtime": {"mode", "per_move", "bank"}, "async": {"mode", "per_move"}}
    if mode not in keys or set(data) != keys[mode]:
        raise _bad(_SHAPE)
    out: dict[str, Any] = {"mode": mode}
    for key in sorted(keys[mode] - {"mode"}):
        value = data[key]
        low = 0 if (mode, key) == ("realtime", "per_move") else 1
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= LONGEST
        ):
            raise _bad(f"clock {key} must be seconds in {low}..{LONGEST}")
        out[key] = value
    return out


_SHAPE = (
    'clock must be null, {"mode": "realtime", "per_move": S, "bank": S} or '
    '{"mode": "async", "per_move": S}'
)


_SHAPE = (
    'clock must be null, {"mode": "realtime", "per_move": S, "bank": S} or '
    '{"mode": "async", "per_move": S}'
)


def _bad(reason: str) -> ApiError:
    return ApiError(Code.CONFIG_INVALID, reason)


def start(clock: dict[str, Any], players: int, now: float) -> dict[str, Any]:
    """The clock of a table whose game begins now: every seat with its full time."""
    full = clock["bank"] if clock["mode"] == "realtime" else clock["per_move"]
    return {**_settings_of(clock), "remaining": [full] * players, "since": now}


def moved(clock: dict[str, Any], seat: int, now: float) -> dict[str, Any]:
    """The clock once `seat` has moved at `now`: a realtime seat pays the time it took and
    gains `per_move`, up to its starting bank; an async seat's next deadline is a fresh
    `per_move` away."""
    remaining = list(clock["remaining"])
    if clock["mode"] == "realtime":
        left = max(0.0, remaining[seat] - (now - clock["since"]))
        remaining[seat] = min(clock["bank"], left + clock["per_move"])
    else:
        remaining[seat] = clock["per_move"]
    return {**clock, "remaining": remaining, "since": now}


def taken_back(clock: dict[str, Any], seat: int, now: float) -> dict[str, Any]:
    """The clock once `seat` took its move back: the increment that move earned is returned
    and its turn starts again now."""
    remaining = list(clock["remaining"])
    if clock["mode"] == "realtime":
        remaining[seat] = max(0.0, remaining[seat] - clock["per_move"])
    return {**clock, "remaining": remaining, "since": now}


#: the least time a person taking their seat back from the stand-in gets on a realtime clock
RECLAIM_FLOOR = 60.0


def reclaimed(
    clock: dict[str, Any], seat: int, to_move: int | None, now: float, timed_out: bool
) -> dict[str, Any]:
    """The clock once `seat`'s person takes it back from the stand-in. If the stand-in took
    over because the seat's time ran out, the person gets at least a minute (or `per_move`,
    up to the bank) on a realtime clock, a fresh deadline on an async one; if they asked for
    the stand-in themselves, the seat keeps the time it has (asking and taking back must not
    refill a clock). Counted from now if it is their turn."""
    remaining = list(clock["remaining"])
    since = clock["since"]
    if to_move == seat:
        remaining[seat] = max(0.0, since + remaining[seat] - now)
    if timed_out and clock["mode"] == "realtime":
        floor = min(clock["bank"], max(clock["per_move"], RECLAIM_FLOOR))
        remaining[seat] = max(remaining[seat], floor)
    elif timed_out:
        remaining[seat] = clock["per_move"]
    if to_move == seat:
        # the others' clocks stand while this seat is to move, so restarting the turn is fair
        since = now
    return {**clock, "remaining": remaining, "since": since}


def deadline(clock: dict[str, Any] | None, to_move: int | None) -> float | None:
    """When the seat to move runs out of time (epoch seconds); None without a running clock."""
    if clock is None or clock.get("since") is None or to_move is None:
        return None
    return float(clock["since"] + clock["remaining"][to_move])


def public(
    clock: dict[str, Any] | None, to_move: int | None, now: float, running: bool
) -> dict[str, Any] | None:
    """The clock as snapshots show it: `{"mode", "remaining", "deadline"}`, the seat to
    move's time counted down to `now`."""
    if clock is None:
        return None
    remaining = list(clock.get("remaining") or [])
    due = deadline(clock, to_move) if running else None
    if due is not None and to_move is not None:
        remaining[to_move] = max(0.0, due - now)
    return {
        "mode": clock["mode"],
        "remaining": [round(r, 3) for r in remaining],
        "deadline": None if due is None else dt.datetime.fromtimestamp(due, dt.UTC).isoformat(),
    }


def _settings_of(clock: dict[str, Any]) -> dict[str, Any]:
    return {k: clock[k] for k in ("mode", "per_move", "bank") if k in clock}
