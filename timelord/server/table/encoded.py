"""A live table's JSON texts, encoded once and shared: per seat, the text of each version's
told events, its view of the last two versions (what a delta is diffed against), and the
texts sent for the current version (snapshot, delta, board), so every socket of one seat,
and every spectator, is sent the same string built once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Encoded:
    """What was encoded for one table; `told[seat][v - 1]` is the comma-joined JSON of the
    events of version v as `seat` (None: a spectator) was told them."""

    told: dict[int | None, list[str]] = field(default_factory=dict)
    #: per seat, every told event's JSON so far, comma-joined
    joined: dict[int | None, str] = field(default_factory=dict)
    #: per seat, {version: view} of the newest versions it was sent (two at most)
    views: dict[int | None, dict[int, Any]] = field(default_factory=dict)
    #: per key (a kind, the seat, ...), a text of the current version and life
    current: dict[tuple[Any, ...], str] = field(default_factory=dict)

    def moved(self) -> None:
        """A new version or a change of the table's life: the texts of the old are dropped
        (views are kept: the next delta is diffed against them)."""
        self.current.clear()

    def rewound(self, version: int) -> None:
        """Back to `version`: what was told or seen of later versions is dropped."""
        for told in self.told.values():
            del told[version:]
        self.joined = {s: ",".join(p for p in told if p) for s, told in self.told.items()}
        for views in self.views.values():
            for later in [v for v in views if v > version]:
                del views[later]
        self.current.clear()

    def remember_view(self, seat: int | None, version: int, view: Any) -> None:
        views = self.views.setdefault(seat, {})
        views[version] = view
        for old in sorted(views)[:-2]:
            del views[old]
