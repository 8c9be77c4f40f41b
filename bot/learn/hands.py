"""The mouse and keyboard as the learner uses them: image points, paced clicks.

The learner thinks in the screenshot's pixels; the hands it is given click screen points (the
live ones through the guarded actuator). These wrappers sit between: one shifts points onto a
virtual screen that may not start at 0, one spaces the clicks as a slow game needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from bot.errors import LearnError
from bot.screen.actuator import TargetMoved
from bot.screen.capture import Region
from bot.screen.platform import CLOSE_AFTER
from bot.waiting import wait_for

#: Seconds between two clicks on one cell, longer than any desktop's double-click time.
DOUBLE_CLICK = 0.55
#: Presses in a window of the game's own over it before the learner acts on (Return, then a close
#: request, as the play loop: bot.screen.xmouse), one each ANSWER_WAIT seconds.
ANSWERS = 2 * CLOSE_AFTER
ANSWER_WAIT = 0.5
#: Seconds a click the guard refused (the game's window covered) waits for a window of the game's
#: own to show over it: KMines opens its score table a moment after the won board is drawn, and a
#: click made in between was refused with no window yet to answer.
WINDOW_SHOWS = 5.0


@dataclass(frozen=True)
class Pace:
    """How the learner spaces its clicks. A real desktop merges two presses on one point into a
    double click (GNOME Mines then ignores the second: a flag right-clicked at once again stayed a
    flag), so one point is pressed again only after `double_click` seconds. A game in the same
    process that takes each press as it comes (the tests' toy games) needs no spacing. The pointer
    stays `dwell` seconds where it clicked before it rests: a game that reads the pointer on its own
    frame clock (the genuine Windows 7 Minesweeper) takes the click where the pointer is then."""

    double_click: float = DOUBLE_CLICK
    dwell: float = 0.05


#: A real desktop's pace; and for games that take every press as it comes, no spacing.
SPACED, UNSPACED = Pace(), Pace(double_click=0.0, dwell=0.0)


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


def whole_on_screen(field, origin: Region, whole: Region, image: np.ndarray) -> None:
    """LearnError where the field found in `image` (grabbed from `origin`) may run past a side of
    the screen: the lattice keeps only whole cells, so a field cut there is a smaller game in
    every way but one (a 16 x 30 field learnt as 12 x 27 on a 640 x 400 screen). Cut means less
    than a cell's room left to that side, and there either no pixel at all or the start of one
    more cell (the strip beyond the edge alike the same strip of the cells along it, rising and
    falling cell by cell), where a whole game shows its frame (flat along the edge, though its
    bevel may be as light as a cell's)."""
    left, top = round(field.left), round(field.top)
    right, bottom = round(field.left + field.width), round(field.top + field.height)
    pitch = round(field.pitch)
    room = {"left": origin.left + left - whole.left, "top": origin.top + top - whole.top,
            "right": whole.left + whole.width - (origin.left + right),
            "bottom": whole.top + whole.height - (origin.top + bottom)}
    box = (left, top, right, bottom)
    cut = [side for side, gap in room.items()
           if gap < 2 or (gap < pitch and _more_cells(image, side, min(gap, pitch // 2), box, pitch))]
    if cut:
        raise LearnError(f"the field runs to the screen's {' and '.join(cut)} edge: part of the game may be off "
                         "the screen; move its window fully onto it")


#: Mean difference (0-255) under which the strip beyond a field's edge is the start of more cells.
MORE_CELLS = 12.0


def _more_cells(image: np.ndarray, side: str, depth: int, box: tuple[int, int, int, int], pitch: int) -> bool:
    """Whether the `depth` pixels beyond the field's `side` look like the same strip of the field's
    own cells on that side: the start (or end) of another row or column of cells."""
    left, top, right, bottom = box
    if side == "right":
        beyond, own = image[top:bottom, right : right + depth], image[top:bottom, right - pitch : right - pitch + depth]
    elif side == "bottom":
        beyond = image[bottom : bottom + depth, left:right]
        own = image[bottom - pitch : bottom - pitch + depth, left:right]
    elif side == "left":
        beyond, own = image[top:bottom, left - depth : left], image[top:bottom, left + pitch - depth : left + pitch]
    else:
        beyond, own = image[top - depth : top, left:right], image[top + pitch - depth : top + pitch, left:right]
    if beyond.size == 0 or beyond.shape != own.shape:
        return True  # nothing of the frame to be seen there
    along = 0 if side in ("left", "right") else 1  # the axis that runs along the edge
    flat = _along(beyond, along).std() < 0.5 * max(_along(own, along).std(), 1.0)
    return not flat and float(np.abs(beyond.astype(np.int16) - own.astype(np.int16)).mean()) < MORE_CELLS


def _along(strip: np.ndarray, axis: int) -> np.ndarray:
    """The strip's brightness along the edge (averaged across it): a frame's is flat, a row of
    cells' rises and falls with every cell's bevel or gap."""
    return strip.astype(np.float32).mean(axis=2).mean(axis=1 - axis)


class Shifted:
    """Hands that take image points and click screen points (the virtual screen may not start at 0).
    Before a press, a window of the game's own over it is answered, as the play loop answers it:
    a game the learner won opens its score table there (KMines' "High Scores", on its first win
    with every fresh set of scores), and the guarded mouse refuses every click meanwhile. A press
    the guard refused is made once more if such a window shows within WINDOW_SHOWS seconds and is
    answered; else the refusal stands."""

    def __init__(self, hands: Hands, dx: int, dy: int) -> None:
        self.hands, self.dx, self.dy = hands, dx, dy

    def answer_game_windows(self, key: str = "Return") -> None:
        """Answer the game's own windows over it with `key`, if any (where the hands can tell)."""
        answer, is_open = getattr(self.hands, "answer_dialog", None), getattr(self.hands, "dialog_open", None)
        for _ in range(ANSWERS if answer is not None and is_open is not None else 0):
            if not is_open():
                return
            answer(key)
            time.sleep(ANSWER_WAIT)

    def window_title(self) -> str | None:
        """The title of the game's own window open over it now, where the hands can tell."""
        title = getattr(self.hands, "open_dialog_title", None)
        return title() if title is not None else None

    def _window_shown(self) -> bool:
        """Whether a window of the game's own is open over it within WINDOW_SHOWS seconds."""
        is_open = getattr(self.hands, "dialog_open", None)
        if is_open is None:
            return False
        return wait_for(is_open, WINDOW_SHOWS)

    def _past_windows(self, press: Callable[[], None]) -> None:
        """`press`, a window of the game's over it answered first; once more where the guard
        refused it and a window of the game's showed after all (answered in turn)."""
        self.answer_game_windows()
        try:
            press()
        except TargetMoved:
            if not self._window_shown():
                raise
            self.answer_game_windows()
            press()

    def click(self, x: int, y: int, button: str = "left") -> None:
        self._past_windows(lambda: self.hands.click(x + self.dx, y + self.dy, button))

    def hold(self, x: int, y: int) -> None:
        self._past_windows(lambda: self.hands.hold(x + self.dx, y + self.dy))

    def release(self, x: int, y: int) -> None:
        self.hands.release(x + self.dx, y + self.dy)

    def key(self, x: int, y: int, combo: str) -> None:
        self._past_windows(lambda: self.hands.key(x + self.dx, y + self.dy, combo))

    def move(self, x: int, y: int) -> None:
        self.hands.move(x + self.dx, y + self.dy)


class Paced:
    """Hands that rest the pointer at `park` after every action (where there is one), and never
    click one point twice within a double-click's time: GNOME Mines ignores the second press of a
    double click, so a flag right-clicked at once again stayed a flag."""

    def __init__(self, hands: Hands, park: tuple[int, int] | None, pace: Pace = SPACED) -> None:
        self.hands, self.park, self.pace = hands, park, pace
        self.last: dict[tuple[int, int], float] = {}

    def _rest(self) -> None:
        if self.park is not None:
            self.hands.move(*self.park)

    def _let_go(self) -> None:
        """After a press: the pointer held where it pressed for the pace's dwell, then rested."""
        if self.pace.dwell > 0:
            time.sleep(self.pace.dwell)
        self._rest()

    def click(self, x: int, y: int, button: str = "left") -> None:
        spacing = self.pace.double_click
        wait = self.last.get((x, y), -spacing) + spacing - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.hands.click(x, y, button)
        self.last[(x, y)] = time.monotonic()
        self._let_go()

    def hold(self, x: int, y: int) -> None:
        self.hands.hold(x, y)

    def release(self, x: int, y: int) -> None:
        self.hands.release(x, y)
        self._let_go()

    def key(self, x: int, y: int, combo: str) -> None:
        self.hands.key(x, y, combo)
        self._rest()

    def move(self, x: int, y: int) -> None:
        self.hands.move(x, y)
