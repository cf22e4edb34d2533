"""A small progress bar on stderr (no dependency), redrawn at most a few times a second."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str = "games", out: TextIO | None = None) -> None:
        self.total = total
        self.label = label
        self.out = out if out is not None else sys.stderr
        self.done = 0
        self.start = time.perf_counter()
        self._drawn = 0.0
        self._draw(0.0)

    def advance(self, count: int) -> None:
        self.done += count
        now = time.perf_counter()
        if now - self._drawn >= 0.2 or self.done >= self.total:
            self._drawn = now
            self._draw(now - self.start)

    def _draw(self, elapsed: float) -> None:
        width = 30
        filled = width * self.done // max(1, self.total)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        self.out.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.label}"
            f"  {rate:.1f}/s  {elapsed:.0f}s elapsed, ~{left:.0f}s left "
        )
        if self.done >= self.total > 0:
            self.out.write("\n")
        self.out.flush()
