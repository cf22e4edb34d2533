"""A live table's JSON texts, encoded once and shared: per seat, the text of each version's
told events, and the texts sent for the current version (snapshot, delta, board), so every
socket of one seat, and every spectator, is sent the same string built once."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Encoded:
    """What was encoded for one table; `told[seat][v - 1]` is the comma-joined JSON of the
    events of version v as `seat` (None: a spectator) was told them."""

    told: dict[int | None, list[str]] = field(default_factory=dict)
    #: per seat, every told event's JSON so far, comma-joined
    joined: dict[int | None, str] = field(default_factory=dict)
    #: per (kind, seat), a text of the current version ("snapshot", "delta", "board", ...)
    current: dict[tuple[str, int | None], str] = field(default_factory=dict)

    def moved(self) -> None:
        """A new version: the texts of the old one are dropped."""
        self.current.clear()

    def rewound(self, version: int) -> None:
        """Back to `version`: what was told of later versions is dropped."""
        for told in self.told.values():
            del told[version:]
        self.joined = {s: ",".join(p for p in told if p) for s, told in self.told.items()}
        self.current.clear()
