"""Bad WebSocket frames cannot flood the server's log.

uvicorn logs every text frame that is not UTF-8 with a full traceback (and closes that
socket with 1007): a client could write a page of log per frame it sends. `QuietBadFrames`
keeps one line, without the traceback, per `every` seconds, saying how many more it left
out. It is installed on uvicorn's error logger by `install`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

#: what uvicorn's WebSocket protocols log for a text frame that is not UTF-8
BAD_UTF8 = "Invalid UTF-8 sequence received from client."


class QuietBadFrames(logging.Filter):
    """Passes one bad-frame record per `every` seconds, without its traceback."""

    def __init__(self, every: float = 60.0, now: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.now = now
        self.last: float | None = None
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() != BAD_UTF8:
            return True
        record.exc_info = None
        record.exc_text = None
        moment = self.now()
        if self.last is not None and moment - self.last < self.every:
            self.dropped += 1
            return False
        if self.dropped:
            record.msg = f"{BAD_UTF8} ({self.dropped} more in the last {self.every:g} s)"
            record.args = ()
        self.last, self.dropped = moment, 0
        return True


def install(logger_name: str = "uvicorn.error") -> None:
    """Put one `QuietBadFrames` on the logger (again: no second one)."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, QuietBadFrames) for f in logger.filters):
        logger.addFilter(QuietBadFrames())
