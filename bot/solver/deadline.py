"""A time budget for one decision, shared by the stages of the solver.

Counting layouts is #P-hard: a board with numbers on a sparse lattice (a 20 x 20 one is enough)
keeps any exact method busy for hours and its states fill gigabytes. A user waiting on `solve`, or
a game waiting on `play`, wants an answer in seconds. So each stage checks the same deadline and
gives up cleanly, and the advice says what it could not finish: forced cells stay sound (a cell
is called safe only when the SAT solver proved it), odds fall back to a labelled approximation.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

#: Seconds a decision may take by default (`--deadline` on the command line).
DEFAULT_SECONDS = 5.0


class OutOfTime(Exception):
    """The deadline passed, or the work would not fit in memory: the exact answer is given up."""


@dataclass(frozen=True)
class Deadline:
    """A point in time.monotonic(), or None for no limit."""

    at: float | None = None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        return cls(None if seconds is None else time.monotonic() + seconds)

    def left(self) -> float | None:
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at

    def check(self) -> None:
        if self.expired():
            raise OutOfTime("the deadline passed")

    def interrupter(self, interrupt: Callable[[], None]) -> threading.Timer | None:
        """A started timer thread that calls `interrupt` when the deadline passes (a SAT call in C
        holds the thread until it is interrupted), or None for no limit. Stop it with `disarm`."""
        left = self.left()
        if left is None:
            return None
        timer = threading.Timer(left, interrupt)
        timer.daemon = True
        timer.start()
        return timer

    @contextmanager
    def interrupting(self, interrupt: Callable[[], None]) -> Iterator[None]:
        """`interrupt` called if the deadline passes inside the block."""
        timer = self.interrupter(interrupt)
        try:
            yield
        finally:
            disarm(timer)


def disarm(timer: threading.Timer | None) -> None:
    """Stop an interrupter; once this returns, its call cannot come (the solver it would interrupt
    may be deleted next)."""
    if timer is not None:
        timer.cancel()
        timer.join()


NO_LIMIT = Deadline()
