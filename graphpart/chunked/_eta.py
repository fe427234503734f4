"""Progress of a long step as log lines: how far, how long so far, about how long to go."""

from __future__ import annotations

import logging
import time

__all__ = ["Progress"]

logger = logging.getLogger("graphpart.chunked.progress")


class Progress:
    """Log ``what: done / total, elapsed, about ... left`` at INFO, at most every ``every`` seconds
    (the command line shows these lines on a terminal).

    Examples
    --------
    >>> p = Progress("fennel pass 1", 4, every=0)
    >>> p.advance(); p.advance(3)
    >>> p.done
    4
    """

    def __init__(self, what: str, total: int, every: float = 5.0) -> None:
        self.what, self.total, self.every = what, max(int(total), 1), every
        self.done, self.start = 0, time.monotonic()
        self.last = self.start

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last < self.every and self.done < self.total:
            return
        self.last = now
        spent = now - self.start
        left = spent / self.done * (self.total - self.done) if self.done else 0.0
        logger.info(
            "%s: %d / %d, %s elapsed, about %s left",
            self.what,
            self.done,
            self.total,
            _duration(spent),
            _duration(left),
        )


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
