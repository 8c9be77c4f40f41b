"""Starting games: the first click's surprises, and a new game by the face or, where there is
none, by the key the game answers.

Some games do more with a pointer than click: GNOME Mines lights a covered cell under it and
flags a cell held for half a second. Both are found by watching one cell, and undone, before
they can be taken for looks of their own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from bot.board import Cell
from bot.errors import LearnError, VisionError
from bot.learn.hands import Hands
from bot.learn.sight import Sight
from bot.vision.lattice import Lattice, find_lattice

#: What starts a new game in a game without a face, tried in this order: Winmine's key, then
#: GNOME Mines' "start over" (its Ctrl+N shows a screen of levels, not a board), KDE's and
#: Simon Tatham's Ctrl+N, and last XBomb's plain `s` (a letter is tried only where no
#: combination started a game: a game may take letters for other things, XBomb's `q` quits).
NEW_GAME_KEYS = ("f2", "ctrl+r", "ctrl+n", "s")


def wait_for_field(
    grab: Callable[[], np.ndarray], wait: float, say: Callable[[str], None]
) -> tuple[np.ndarray, Lattice]:
    """The fresh field, looked for again for up to `wait` seconds: a game just started may still be
    drawing it. Nothing is clicked before it is found."""
    deadline = time.monotonic() + wait
    told = False
    while True:
        fresh = grab()
        try:
            return fresh, find_lattice(fresh)
        except VisionError:
            if time.monotonic() >= deadline:
                raise
            if not told:
                say(f"no fresh board on the screen yet: looking again for up to {wait:.0f} s")
                told = True
            time.sleep(0.25)


def find_hover(sight: Sight, hands: Hands, cell: Cell, say: Callable[[str], None]) -> tuple[int, int] | None:
    """Does a covered cell light up under the pointer (GNOME Mines)? Then the pointer rests off
    the cells, just above the field, after every action (the point returned): a lit cell is a
    look of no meaning."""
    was = int(sight.frame(sight.grab())[cell])
    hands.move(*sight.centre(cell))
    if sight.grab_until(lambda ids: int(ids[cell]) != was, timeout=0.5) is None:
        return None
    park = (sight.lat.left + sight.lat.width // 2, max(0, sight.lat.top - 4))
    hands.move(*park)
    if sight.grab_until(lambda ids: int(ids[cell]) == was) is None:
        raise LearnError("a cell lit up under the pointer and stayed lit once it left")
    say("cells light up under the pointer: it rests above the field after each action")
    return park


def undo_long_press(sight: Sight, hands: Hands, cell: Cell, say: Callable[[str], None]) -> None:
    """GNOME Mines flags a cell held for half a second, as the face's probe holds one: if the
    held cell alone changed, a right-click tells a mark (it moves on) from a number (nothing
    happens); a mark is cycled back to covered and the cell clicked as it should have been."""
    image = sight.grab_until(lambda ids: int(ids[cell]) != 0)
    if image is None or int((sight.frame(image) != 0).sum()) != 1:
        return  # (an area opened: the hold was a click)
    mark = int(sight.frame(image)[cell])
    hands.click(*sight.centre(cell), button="right")
    if sight.grab_until(lambda ids: int(ids[cell]) != mark, timeout=1.5) is None:
        return  # a number: a right-click does nothing to an opened cell
    for _ in range(3):
        if sight.grab_until(lambda ids: int(ids[cell]) == 0, timeout=1.0) is not None:
            break
        hands.click(*sight.centre(cell), button="right")
    else:
        raise LearnError("a cell the first click marked did not come back to covered")
    say("the held cell was marked, not opened (a long press): unmarked and clicked")
    hands.click(*sight.centre(cell))
    sight.opened(cell)


class NewGame:
    """Starts the next game, and knows a started one when it sees it."""

    def __init__(self, sight: Sight, opens_itself: bool, key_cell: Cell, say: Callable[[str], None]) -> None:
        self.sight, self.opens_itself, self.key_cell, self.say = sight, opens_itself, key_cell, say
        self.key: str | None = None  # what starts one where there is no face, once found

    def start(self, hands: Hands, image: np.ndarray) -> np.ndarray:
        """A click on the face, or in a game without one the first key that starts a new game (kept
        for the next games). A new game: every cell covered again or, in a game that opens a start
        area itself (xdemineur), some cell that showed anything but covered shows something else.
        In any other game only a field all covered is a new game: GNOME Mines, asked for one while
        a game went on, put a dialog over the field, and its pixels were taken for a new board."""
        sight = self.sight
        old = sight.frame(image)
        shown = old != 0

        def started(ids: np.ndarray) -> bool:
            return not ids.any() or (self.opens_itself and bool((ids[shown] != old[shown]).any()))

        if sight.face is not None:
            hands.click(*sight.face.centre)
            image = sight.grab_until(started)
            if image is None:
                raise LearnError("clicking the face did not start a new game")
            return image
        for combo in [self.key] if self.key else NEW_GAME_KEYS:
            hands.key(*sight.centre(self.key_cell), combo)  # (the pointer on the field: the game's keys)
            image = sight.grab_until(started, timeout=3.0)
            if image is not None:
                if self.key is None:
                    self.say(f"a new game starts with {combo}")
                self.key = combo
                return image
        raise LearnError(f"no face, and none of {', '.join(NEW_GAME_KEYS)} started a new game")
