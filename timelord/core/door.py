"""The one door between outside input and the rules.

Readers of outside input (JSON states, views, records, actions, options) are written as plain
code that indexes, converts and compares; malformed input makes that code raise Python's own
errors. Each reader runs inside `door(...)`, which turns those into the one library error its
caller documents, so every door refuses the same malformed inputs the same way.
"""

from __future__ import annotations

from types import TracebackType
from typing import Literal

from timelord.core.errors import GameError

#: What plain reading code raises on malformed input: a missing key, a wrong type, an index
#: out of range, a bad or huge number, an empty iterator, a field nested past the recursion
#: limit (a repr or a copy of it overflows the stack).
MALFORMED: tuple[type[BaseException], ...] = (
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    AttributeError,
    OverflowError,
    StopIteration,
    RecursionError,
)


class door:
    """`with door(CorruptRecord, "not a Keys state"): ...` raises `CorruptRecord("not a Keys
    state: <detail>")` for whatever malformed input makes the body raise (`MALFORMED`).

    A library error raised inside passes unchanged, so a reader's own precise refusals keep
    their class; with `rewrap`, any other library error becomes `error` too (a view door whose
    trial deal fails an inner check still answers "not a view")."""

    __slots__ = ("error", "rewrap", "what")

    def __init__(self, error: type[GameError], what: str, rewrap: bool = False) -> None:
        self.error = error
        self.what = what
        self.rewrap = rewrap

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> Literal[False]:
        if exc is None or isinstance(exc, self.error):
            return False
        if isinstance(exc, GameError):
            if not self.rewrap:
                return False
            raise self.error(f"{self.what}: {exc}") from exc
        if isinstance(exc, RecursionError):
            # the detail would be a repr of the deep value, which overflows again
            raise self.error(f"{self.what}: a field is nested too deep") from None
        if isinstance(exc, KeyError):
            raise self.error(f"{self.what}: it lacks {exc.args[0]!r}") from exc
        if isinstance(exc, MALFORMED):
            raise self.error(f"{self.what}: {exc}") from exc
        return False
