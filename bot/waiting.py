"""Waiting for something to come true: polled, up to a limit, never a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], bool], timeout: float, every: float = 0.1) -> bool:
    """Whether `condition` came true within `timeout` seconds, asked at once and then every
    `every` seconds (a last time at the limit)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(every)
    return True
