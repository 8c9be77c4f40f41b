"""Screen grabs as numpy arrays (BGR, uint8), with mss: the whole virtual screen, a monitor or a region.

mss is imported here, before anything imports pyautogui, because on Windows it is mss that makes
the process DPI-aware; the other order gives scaled, blurred grabs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import mss
import numpy as np

from bot.errors import CaptureError


@dataclass(frozen=True)
class Region:
    """A rectangle in screen pixels (the virtual screen's origin may be negative)."""

    left: int
    top: int
    width: int
    height: int

    def as_mss(self) -> dict[str, int]:
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}


def _open() -> mss.base.MSSBase:
    factory = getattr(mss, "MSS", None) or mss.mss  # mss >= 10 renamed the factory
    return factory()


class Screen:
    """One mss handle, reused: opening a new one per grab costs more than the grab."""

    def __init__(self) -> None:
        try:
            self._mss = _open()
        except Exception as err:  # mss raises its own ScreenShotError, or OSError without a display
            raise CaptureError(f"cannot open the screen: {err}") from err

    def monitors(self) -> list[Region]:
        """Index 0 is the whole virtual screen, then one entry per monitor (mss's order)."""
        return [Region(m["left"], m["top"], m["width"], m["height"]) for m in self._mss.monitors]

    def grab(self, region: Region | None = None, monitor: int = 0) -> np.ndarray:
        target = region.as_mss() if region is not None else self._mss.monitors[monitor]
        try:
            shot = self._mss.grab(target)
        except Exception as err:
            raise CaptureError(f"screen grab failed: {err}") from err
        return np.ascontiguousarray(np.asarray(shot)[:, :, :3])

    def grab_stable(
        self, region: Region | None = None, monitor: int = 0, timeout: float = 1.0, interval: float = 0.01
    ) -> np.ndarray:
        """A grab that two consecutive grabs agree on: the game has finished drawing."""
        deadline = time.monotonic() + timeout
        last = self.grab(region, monitor)
        while True:
            time.sleep(interval)
            shot = self.grab(region, monitor)
            if np.array_equal(shot, last):
                return shot
            if time.monotonic() > deadline:
                raise CaptureError(f"the screen did not settle within {timeout:.1f} s")
            last = shot

    def close(self) -> None:
        self._mss.close()

    def __enter__(self) -> Screen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
