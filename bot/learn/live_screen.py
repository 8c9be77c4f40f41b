"""The live screen as both learners take it: grabs of the game's rectangle once it has redrawn,
and guarded hands for each field found on it, their mice let go when learning ends."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from bot.learn.hands import Shifted, whole_on_screen, within
from bot.screen.actuator import Actuator, Target
from bot.screen.capture import Region


class LiveScreen:
    """`with LiveScreen(screen, region, backend) as live:` a learner grabs with `live.grab` and
    clicks with `live.hands(...)`; only what lies in `region` (the game's window) is looked at,
    where one is given. Actuators made here with no backend passed in hold an X connection and an
    input-only window each: they are closed on leaving the block (never closed, a long session's
    display filled with them); a backend passed in is the caller's to close."""

    def __init__(self, screen, region: Region | None = None, backend: Any = None) -> None:
        self.screen, self.backend = screen, backend
        self.origin = within(screen, region)
        self._made: list[Actuator] = []

    def grab(self) -> np.ndarray:
        time.sleep(0.06)  # the game redraws a little after the event
        return self.screen.grab_stable(self.origin, timeout=2.0)

    def hands(self, field, rows: int, cols: int, face: tuple[int, int, int, int] | None = None) -> Shifted:
        """Hands for a field found in a grab (image points), refused where it may run off the
        screen; `face`, the face's box in the image, is clicked as well."""
        origin = self.origin
        box = (face[0] + origin.left, face[1] + origin.top, face[2], face[3]) if face else (0, 0, 0, 0)
        whole_on_screen(field, origin, self.screen.monitors()[0], self.screen.grab(origin))
        target = Target(field.left + origin.left, field.top + origin.top, field.pitch, rows, cols, box,
                        xs=field.xs, ys=field.ys)
        actuator = Actuator(target, self.backend)
        self._made.append(actuator)
        return Shifted(actuator, origin.left, origin.top)

    def close(self) -> None:
        for actuator in self._made if self.backend is None else ():
            actuator.close()
        self._made.clear()

    def __enter__(self) -> LiveScreen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
