"""Waiting for a condition in a live test: polled, with a generous limit, never a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Whether `condition` came true within `timeout` seconds (polled every 20 ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False
