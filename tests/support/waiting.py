"""Waiting for a condition in a live test: polled, with a generous limit, never a fixed sleep."""

from __future__ import annotations

from collections.abc import Callable

from bot import waiting


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Whether `condition` came true within `timeout` seconds (polled every 20 ms)."""
    return waiting.wait_for(condition, timeout, 0.02)
