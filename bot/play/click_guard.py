"""Checks around each click, by pixels: right before it, the game grabbed again must still be the
one the batch was decided on; after it, the game is given time to draw; in a dry run, anything
that changes under the overlay's marks means the advice is old.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from bot.board import QUESTION, UNOPENED, Board, Cell
from bot.errors import CaptureError, VisionError
from bot.screen.capture import Region, Screen
from bot.vision.reader import Field, read
from bot.vision.skin import Skin

SETTLE = 0.03  # WineMine starts redrawing ~20 ms after a click


class Stale(VisionError):
    """The game on the screen is no longer the one a batch was decided on (moved, covered,
    restarted): the batch is dropped and the board read again, not a misread."""


@dataclass(frozen=True)
class Guard:
    """The game's region on the screen and the field within it, as the last calibration left
    them (region None: not calibrated yet)."""

    screen: Screen
    region: Region | None
    view: Field | None
    skin: Skin | None

    def still_covered(self, board: Board, cell: Cell) -> bool:
        """Right before a click: the game, grabbed again, must still be the one the batch was
        decided on, where it was, and the cell still covered.

        The whole game region is read afresh: its frame seen on all four sides where the field
        was (a window moved, even by a whole number of cells, or covered, fails this), the face
        still there, and no cell read contradicting the board decided on (a restart or a level
        change shows covered cells where numbers were). Cells still being drawn may read as
        unknown; only the clicked one must read. An opened cell (a cascade from an earlier click
        of the batch got there first) is skipped; anything else stops the batch, so no click is
        ever decided on a stale board.
        """
        if self.region is None or self.view is None or self.skin is None:
            raise Stale("no game found on the screen yet")
        image = self.screen.grab(self.region)
        reading = read(image, self.view, self.skin)
        known = ~reading.unknown
        opened = board.cells >= 0
        stale = (not reading.framed or reading.face is None or reading.face == "lost" or not known[cell]
                 or not np.array_equal(reading.codes[opened & known], board.cells[opened & known]))
        if stale:
            raise Stale("the game window moved, was covered or restarted during a batch")
        return int(reading.codes[cell]) in (UNOPENED, QUESTION)

    def wait_for_change(self, before: np.ndarray, clicked: list[Cell], timeout: float = 0.5) -> None:
        """Poll until every cell just clicked looks different from the frame the batch was decided
        on: the game has drawn the batch (the next read then waits for the drawing to settle).
        Cheaper than a fixed pause, which must allow for the slowest response. A frame grabbed
        while the game still draws is never unsafe, only stale: it is a board from earlier in the
        same game."""
        if (not clicked or self.region is None or self.view is None
                or before.shape[:2] != (self.region.height, self.region.width)):
            time.sleep(SETTLE)
            return
        v = self.view
        boxes = [(round(y), round(x)) for x, y in (v.cell_origin(r, c) for r, c in clicked)]
        size = round(v.pitch)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                now = self.screen.grab(self.region)
            except CaptureError:
                return
            if now.shape == before.shape and all(
                    not np.array_equal(now[y : y + size, x : x + size], before[y : y + size, x : x + size])
                    for y, x in boxes):
                return
            time.sleep(0.002)

    def field_pixels(self, frame: np.ndarray, field: Field | None = None) -> np.ndarray:
        """The field's pixels in a grab of the region (or in a frame whose field is given)."""
        f = field or self.view
        assert f is not None
        return frame[round(f.top) : round(f.top + f.height), round(f.left) : round(f.left + f.width)]

    def changed(self, clean: np.ndarray, ours: np.ndarray) -> bool:
        """Has anything in the field changed since the clean grab, outside the overlay's marks?"""
        if self.region is None:
            return True
        try:
            now = self.screen.grab(self.region)
        except CaptureError:
            return True
        if now.shape != clean.shape:
            return True
        differs = (now != clean).any(axis=2) & ~ours
        return bool(self.field_pixels(differs).any())
