"""Right-clicks on covered cells: learning what a flag and a question mark look like, baits (a
flag put on a cell that may be safe, so that a loss shows a wrong flag), and taking marks off.

A right-click on a loaded machine may be lost on the way, and some games ignore a second press
within a double-click's time: each click here is awaited until it shows, and sent again once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bot.board import Cell
from bot.errors import LearnError
from bot.learn.hands import Hands
from bot.learn.sight import Sight

#: Seconds a right-click may take to show before it is taken as lost on the way and sent again.
RIGHT_CLICK_SHOWS = 3.0


class Marks:
    def __init__(self, sight: Sight) -> None:
        self.sight = sight
        self.meanings = sight.meanings

    def bait(self, hands: Hands, cell: Cell, baits: set[Cell]) -> np.ndarray:
        """A flag on a covered cell, kept as a bait once it shows (a loss then shows a flag without
        a mine under it); one that never shows is no bait (a game at its flag limit refuses it).
        Returns the board as it is then: the click that follows is judged against it (a game
        without a face once took the bait's flag, far from the guess, for a loss showing its mines,
        called the game over and asked for a new one, which GNOME Mines answered with a dialog
        over the field)."""
        flag = self.meanings.having("flag")
        image = self.right_click(hands, cell, lambda ids: int(ids[cell]) in flag)
        if image is None:
            return self.sight.frame(self.sight.grab())
        baits.add(cell)
        return self.sight.frame(image)

    def right_click(self, hands: Hands, cell: Cell, shows: Callable[[np.ndarray], bool]) -> np.ndarray | None:
        """Right-click a cell, and the screen once it `shows` what the click does; a click that
        shows nothing is sent once more (lost on the way on a loaded machine). None: never shown."""
        for _ in range(2):
            hands.click(*self.sight.centre(cell), button="right")
            image = self.sight.grab_until(shows, timeout=RIGHT_CLICK_SHOWS)
            if image is not None:
                return image
        return None

    def uncover(self, hands: Hands, cells: list[Cell]) -> np.ndarray | None:
        """Right-click marked cells, round by round (a question mark may follow a flag), until each
        shows covered; a cell that shows no mark (a bait whose flag never came, opened by play
        since) is left as it is. No cell is clicked twice before the last click on it has shown.
        None: in a game without a face, a mark that never moved (a game over takes no clicks: GNOME
        Mines won with a bait on its last mine, unproven)."""
        image = self.sight.grab()
        for _ in range(4):
            ids = self.sight.frame(image)
            marked = [c for c in cells if self.meanings.role.get(int(ids[c])) in ("flag", "question")]
            if not marked:
                return image
            was = {c: int(ids[c]) for c in marked}
            for _ in range(2):  # (a click that shows nothing is sent once more)
                for c in marked:
                    hands.click(*self.sight.centre(c), button="right")
                image = self.sight.grab_until(
                    lambda ids, was=was, marked=marked: all(int(ids[c]) != was[c] for c in marked),
                    timeout=max(RIGHT_CLICK_SHOWS, 0.5 * len(marked)))
                if image is not None:
                    break
                ids = self.sight.frame(self.sight.last_grab)
                marked = [c for c in marked if int(ids[c]) == was[c]]
            else:
                if self.sight.face is None and all(int(ids[c]) == was[c] for c in was):  # (ids: the last grab)
                    return None
                break
        raise LearnError(f"the marks at {cells} did not come off")

    def learn(self, hands: Hands, cell: Cell) -> tuple[np.ndarray, bool]:
        """Right-click a covered cell until it is covered again: flag, maybe question mark, covered.
        Returns the screen then, and whether the game has question marks."""
        seen = []
        image = self.sight.grab()
        before = int(self.sight.frame(image)[cell])
        index = cell[0] * self.sight.lat.cols + cell[1]
        for _ in range(3):
            was = self.sight.tiles(image)[index].astype(np.int16)
            # (waited for: a game under load paints late, and a grab at once saw no change at all;
            # a mark can differ from the last by a few pixels only, as GNOME Mines' question mark
            # from its flag at 23 px: alike enough to be one look, but the pixels did change)
            changed = self.right_click(hands, cell, lambda ids, b=before, was=was: int(ids[cell]) != b or int(
                (np.abs(self.sight.tiles(self.sight.last_grab)[index] - was).max(axis=2) > 25).sum()) >= 3)
            if changed is None:
                break
            image = changed
            k = int(self.sight.frame(image)[cell])
            if k == before:  # (changed, but taken for the same look)
                k = self.meanings.looks.add(self.sight.tiles(image)[index])
            if self.meanings.role.get(k) == "unopened":
                break
            seen.append(k)
            before = k
        if not seen:
            raise LearnError("right-clicking a covered cell changed nothing: no flags in this game?")
        for k, role in zip(seen, ("flag", "question")):
            self.meanings.role[k] = role
        if self.meanings.role.get(int(self.sight.frame(image)[cell])) != "unopened":
            raise LearnError("right-clicking a flagged cell three times did not cover it again")
        return image, len(seen) > 1
