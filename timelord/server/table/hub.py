"""The hub: where every committed change of a table is announced, once.

A module that commits a change (a move, an undo, a seat or life change, a clock's stand-in,
a chat line) or learns of one another process committed (`sync`) announces it here, after
the commit and after the live table holds it. The listeners, registered once at start, react
without blocking: the fan-out to sockets (`fanout`), the bots' and clocks' turns (`turns`).
Nobody is ever told of a change that could still be lost, and no committing module knows
who listens."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from timelord.server.table.live import Live

log = logging.getLogger("timelord.server")


class Kind(enum.Enum):
    #: the table came into this process's memory (created, read back): nothing to tell
    LOADED = "loaded"
    #: one or more actions were applied (here or by another process)
    MOVED = "moved"
    #: the last action was taken back
    UNDONE = "undone"
    #: the table's life changed: seats, status, clock, stand-ins
    LIFE = "life"
    #: who has the table open changed
    PRESENCE = "presence"
    #: new chat lines or notices (`lines`)
    CHAT = "chat"
    #: a rematch table was made (`live.rematch`)
    REMATCH = "rematch"


@dataclass(frozen=True)
class Change:
    kind: Kind
    live: Live
    #: for CHAT, the new lines as stored
    lines: tuple[dict[str, Any], ...] = field(default=())


Listener = Callable[[Change], None]


class Hub:
    """Listeners of every table's changes, called in the order they were added."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def announce(self, kind: Kind, live: Live, lines: tuple[dict[str, Any], ...] = ()) -> None:
        """Tell every listener; one that fails is logged and the others still hear it."""
        change = Change(kind, live, lines)
        for listener in self._listeners:
            try:
                listener(change)
            except Exception:
                log.exception("a listener failed on %s of table %s", kind.value, live.id)
