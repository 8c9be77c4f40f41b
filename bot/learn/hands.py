"""The mouse and keyboard as the learner uses them: image points, paced clicks.

The learner thinks in the screenshot's pixels; the hands it is given click screen points (the
live ones through the guarded actuator). These wrappers sit between: one shifts points onto a
virtual screen that may not start at 0, one spaces the clicks as a slow game needs.
"""

from __future__ import annotations

import time
from typing import Protocol

from bot.errors import LearnError
from bot.screen.capture import Region

#: Seconds between two clicks on one cell, longer than any desktop's double-click time.
DOUBLE_CLICK = 0.55


class Hands(Protocol):
    """The mouse, as the learner needs it (the live one is guarded by the field and face)."""

    def click(self, x: int, y: int, button: str = "left") -> None: ...
    def hold(self, x: int, y: int) -> None: ...
    def release(self, x: int, y: int) -> None: ...
    def key(self, x: int, y: int, combo: str) -> None: ...
    def move(self, x: int, y: int) -> None: ...


def within(screen, region: Region | None) -> Region:
    """What the learner looks at: the whole virtual screen, or `region` (the game's window) cut
    to it. The learner's image then starts at this rectangle's corner (Shifted adds it back)."""
    whole = screen.monitors()[0]
    if region is None:
        return whole
    left, top = max(whole.left, region.left), max(whole.top, region.top)
    right = min(whole.left + whole.width, region.left + region.width)
    bottom = min(whole.top + whole.height, region.top + region.height)
    if right - left < 24 or bottom - top < 24:
        raise LearnError("the game's window is not on the screen")
    return Region(left, top, right - left, bottom - top)


class Shifted:
    """Hands that take image points and click screen points (the virtual screen may not start at 0)."""

    def __init__(self, hands: Hands, dx: int, dy: int) -> None:
        self.hands, self.dx, self.dy = hands, dx, dy

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.hands.click(x + self.dx, y + self.dy, button)

    def hold(self, x: int, y: int) -> None:
        self.hands.hold(x + self.dx, y + self.dy)

    def release(self, x: int, y: int) -> None:
        self.hands.release(x + self.dx, y + self.dy)

    def key(self, x: int, y: int, combo: str) -> None:
        self.hands.key(x + self.dx, y + self.dy, combo)

    def move(self, x: int, y: int) -> None:
        self.hands.move(x + self.dx, y + self.dy)


class Paced:
    """Hands that rest the pointer at `park` after every action (where there is one), and never
    click one point twice within a double-click's time: GNOME Mines ignores the second press of a
    double click, so a flag right-clicked at once again stayed a flag."""

    def __init__(self, hands: Hands, park: tuple[int, int] | None) -> None:
        self.hands, self.park = hands, park
        self.last: dict[tuple[int, int], float] = {}

    def _rest(self) -> None:
        if self.park is not None:
            self.hands.move(*self.park)

    def click(self, x: int, y: int, button: str = "left") -> None:
        wait = self.last.get((x, y), -DOUBLE_CLICK) + DOUBLE_CLICK - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.hands.click(x, y, button)
        self.last[(x, y)] = time.monotonic()
        self._rest()

    def hold(self, x: int, y: int) -> None:
        self.hands.hold(x, y)

    def release(self, x: int, y: int) -> None:
        self.hands.release(x, y)
        self._rest()

    def key(self, x: int, y: int, combo: str) -> None:
        self.hands.key(x, y, combo)
        self._rest()

    def move(self, x: int, y: int) -> None:
        self.hands.move(x, y)
