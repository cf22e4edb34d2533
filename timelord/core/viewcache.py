"""One small cache of per-view preparations, shared by every game's `sample_state`.

Search agents sample thousands of states from one view, and each game prepares a view once
(what is hidden, where it may go) before dealing. The cache is keyed by the view object and
keeps it alive, so its id cannot be reused; it also keeps a snapshot of the view and serves a
preparation only while the view still equals that snapshot, so a view edited in place is
prepared again instead of being served stale. A lock makes it safe under threads; preparing
happens outside the lock, so two threads may prepare one view at once (both are correct).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from timelord.core.door import door
from timelord.core.errors import CorruptRecord

T = TypeVar("T")


def snapshot(value: Any) -> Any:
    """A deep copy of a JSON-like value (dicts, lists, tuples of scalars), same types kept."""
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    if isinstance(value, list):
        return [snapshot(v) for v in value]
    if isinstance(value, tuple):
        return tuple(snapshot(v) for v in value)
    return value


class ViewCache(Generic[T]):
    """Maps a view to `prepare(view)`, most recent `size` views, never stale, thread-safe."""

    def __init__(self, prepare: Callable[[Any], T], size: int = 64) -> None:
        self._prepare = prepare
        self._size = size
        self._lock = threading.Lock()
        self._entries: OrderedDict[int, tuple[Any, Any, T]] = OrderedDict()

    def get(self, view: Any) -> T:
        """The preparation of `view`, made now or reused if `view` is unchanged since."""
        key = id(view)
        with self._lock:
            entry = self._entries.get(key)
        if entry is not None and entry[0] is view and entry[1] == view:
            return entry[2]
        with door(CorruptRecord, "a view too deep to be real"):
            copy = snapshot(view)  # a doctored view nested thousands of levels deep
        prepared = self._prepare(copy)
        with self._lock:
            self._entries[key] = (view, copy, prepared)
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return prepared

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
