"""The learner's eyes: the field's cells as looks, what each look is taken to mean, and the waits
for a game that paints late.

Every frame read is checked against the strip of window round the field, which never changes while
a game runs: a window moved, covered or closed stops learning before a click can go astray.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from bot.board import Cell
from bot.errors import LearnError, VisionError
from bot.learn.face import Face
from bot.learn.labels import COVERED_CLASS, FLAGGED_CLASS, settle
from bot.learn.looks import Looks
from bot.vision.lattice import Lattice

#: Seconds a board that shows an end waits for the face to show it too (WineMine on a loaded
#: machine painted a won board, its mines flagged, well before its won face).
FACE_LAG = 2.0
#: Seconds clicked cells have to show open before the game is taken for one that did not respond,
#: and more for a long batch: a wait that ends as soon as they show costs nothing when the game is
#: quick, and a loaded machine running two live games (CI) is not. 5 s was too short once in about
#: 35 runs of GNOME Mines' learning beside busy loops (not reproduced since in 27).
RESPOND = 15.0


@dataclass
class Meanings:
    """What each look (a class of `looks`) is taken to be: its role (unopened, number, flag,
    question, mine, exploded, wrong_flag) and, for a number, its value once the game's logic or a
    lost board has named it (`possible`: the values a look not yet named may still have)."""

    looks: Looks
    role: dict[int, str] = field(default_factory=lambda: {0: "unopened"})
    names: dict[int, int] = field(default_factory=dict)
    possible: dict[int, set[int]] = field(default_factory=dict)

    def having(self, *roles: str) -> list[int]:
        return [k for k, role in self.role.items() if role in roles]

    def knows(self, role: str) -> bool:
        return role in self.role.values()

    def covered(self, ids: np.ndarray) -> np.ndarray:
        return np.isin(ids, self.having("unopened", "question"))

    def logic_frame(self, ids: np.ndarray) -> np.ndarray:
        """Class ids of the numbers; everything else covered (flags: FLAGGED_CLASS), for bot.learn.labels."""
        out = ids.astype(np.int64).copy()
        flagged = np.isin(ids, self.having("flag", "wrong_flag"))
        shown = np.isin(ids, self.having("mine", "exploded"))
        out[self.covered(ids) | shown] = COVERED_CLASS
        out[flagged] = FLAGGED_CLASS
        return out

    def number_classes(self) -> list[int]:
        return [k for k in range(len(self.looks)) if self.role.get(k) is None or self.role[k] == "number"]

    def settle(self, frames: list[np.ndarray]) -> tuple[dict[int, int], dict[int, set[int]]]:
        """The names the frames pin down, and each number look's possible names (bot.learn.labels.settle,
        kept in `possible`). No naming fitting at all means looks were split wrongly: learning stops."""
        classes = [k for k in self.number_classes() if any((f == k).any() for f in frames)]
        sure, possible, count = settle(frames, classes, {k: v for k, v in self.names.items() if k in classes})
        self.possible.update(possible)
        if count == 0:
            raise LearnError("no naming of the numbers fits what the game showed: the looks were split wrongly")
        return sure, possible


class Sight:
    """The field seen through `grab`: looks per cell, the face, and the screen awaited."""

    def __init__(self, grab: Callable[[], np.ndarray], lat: Lattice, fresh: np.ndarray) -> None:
        self.grab = grab
        self.lat = lat
        self.ring = self._surround(fresh)
        first = self.tiles(fresh)
        # The covered cell first (a game may open some itself); cells stretched to the window
        # (columns or rows of two widths: their own starts kept) are compared smoothed.
        self.meanings = Meanings(Looks(first[_commonest(first)], smoothed=bool(lat.xs or lat.ys)))
        self.face: Face | None = None
        self.ticking = np.zeros((max(0, lat.top - 2), fresh.shape[1]), bool)
        self.last_grab = fresh

    def tiles(self, image: np.ndarray) -> np.ndarray:
        try:
            return self.lat.tiles(image)
        except VisionError as err:
            raise LearnError("the board is no longer where it was (window moved or closed)") from err

    def _surround(self, image: np.ndarray) -> np.ndarray:
        """The strip of window frame just outside the field: it never changes while the game runs."""
        lat, m, gap = self.lat, 5, 2  # (the pixels next to the field blend with its cells when scaled)
        x0, y0 = max(0, lat.left - m), max(0, lat.top - m)
        box = image[y0 : lat.top + lat.height + m, x0 : lat.left + lat.width + m].astype(np.int16)
        band = np.ones(box.shape[:2], bool)
        top, left = max(0, lat.top - y0 - gap), max(0, lat.left - x0 - gap)
        band[top : lat.top - y0 + lat.height + gap, left : lat.left - x0 + lat.width + gap] = False
        return box[band]

    def frame(self, image: np.ndarray) -> np.ndarray:
        tiles = self.tiles(image)
        ring = self._surround(image)
        if ring.shape != self.ring.shape or float(np.abs(ring - self.ring).mean()) > 8:
            raise LearnError("the board is no longer where it was (window moved, covered or closed)")
        return self.meanings.looks.classify(tiles).reshape(self.lat.rows, self.lat.cols)

    def centre(self, cell: Cell) -> tuple[int, int]:
        return self.lat.centre(*cell)

    def face_changed(self, image: np.ndarray) -> bool:
        return self.face is not None and self.face.changed(image)

    def face_caught_up(self, image: np.ndarray) -> np.ndarray:
        """The screen once the face has changed and holds still (a face caught half painted is a
        wrong sprite), or as it is after FACE_LAG seconds: WineMine on a loaded machine painted
        its won board well before its won face, and the learner acted on a game already over."""
        assert self.face is not None  # (only a game with a face waits for it)
        x, y, w, h = self.face.box
        deadline = time.monotonic() + FACE_LAG
        last = None
        while time.monotonic() < deadline:
            now = self.grab()
            if self.face_changed(now):
                face = now[y : y + h, x : x + w]
                if last is not None and np.array_equal(face, last):
                    return now
                last = face.copy()
            image = now
        return image

    def still(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The end of a game, once it has all been painted: the mines a loss shows name the numbers."""
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            time.sleep(0.1)
            again = self.grab()
            now = self.frame(again)
            if np.array_equal(now, ids):
                return again, now
            ids = now
        raise LearnError("the board kept changing after the game ended")

    def opened(self, *cells: Cell) -> np.ndarray:
        """The screen once every clicked cell shows open (or the end of the game): reasoning on a
        frame painted only in part would name looks wrongly."""
        at = tuple(np.array(cells).T)  # (a batch of 40 flags took over 5 s to show on a loaded machine)
        image = self.grab_until(lambda ids: bool((ids[at] != 0).all()), timeout=max(RESPOND, 0.5 * len(cells)))
        if image is None:
            raise LearnError(f"the game did not respond to the last clicks ({self.showing(cells)})")
        return image

    def showing(self, cells: tuple[Cell, ...]) -> str:
        """What clicked cells show now, by the role of their looks: a cell the game left covered, or
        marked instead of opening (GNOME Mines flags a cell held long), says which."""
        ids = self.frame(self.last_grab)
        shown = [f"{cell} {self.meanings.role.get(int(ids[cell]), 'unknown')}" for cell in cells[:4]]
        return "cells " + ", ".join(shown) + (" ..." if len(cells) > 4 else "")

    def watch_ticking(self, fresh: np.ndarray, seconds: float = 1.2) -> None:
        """Pixels above the field that change by themselves (a game that starts its clock with the
        game, having opened a start area itself: xdemineur), grown by a few pixels: never the face."""
        top = max(0, self.lat.top - 2)
        deadline = time.monotonic() + seconds
        ticking = np.zeros((top, fresh.shape[1]), bool)
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = self.grab()
            self.frame(now)  # (the board itself must hold still: a window moved stops here)
            ticking |= np.abs(now[:top].astype(np.int16) - fresh[:top]).max(axis=2) > 40
        if ticking.any():
            ticking = cv2.dilate(ticking.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        self.ticking = ticking

    def grab_changed_above(self, before: np.ndarray, timeout: float = 5.0, quiet: float | None = None
                            ) -> np.ndarray | None:
        """The screen once something above the field differs from `before` (the face, with a button
        held) and has stopped changing (a face caught half painted is a wrong sprite), or as it is
        after `timeout`: the face is then looked for in what did change. None when nothing above
        has changed after `quiet` seconds: a game without a face."""
        top = max(0, self.lat.top - 2)
        start = time.monotonic()
        last = None
        while True:
            image = self.grab()
            above = image[:top]
            moved = np.abs(above.astype(np.int16) - before[:top]).max(axis=2, initial=0) > 40
            changed = bool((moved & ~self.ticking[:top]).any())
            if (changed and last is not None and np.array_equal(above, last)) or time.monotonic() > start + timeout:
                return image
            if quiet is not None and not changed and time.monotonic() > start + quiet:
                return None
            last = above if changed else None

    def grab_until(self, done: Callable[[np.ndarray], bool], timeout: float = 5.0) -> np.ndarray | None:
        """Grab until the board shows what the clicks must have done (a game may paint late)."""
        deadline = time.monotonic() + timeout
        while True:
            image = self.last_grab = self.grab()
            if done(self.frame(image)):
                return image
            if time.monotonic() > deadline:
                return None


def _commonest(tiles: np.ndarray, most: int = 600) -> int:
    """Index of the tile most others look like (on any board, the covered cells); on a big board,
    among every k-th tile (the distances between every two of 10 000 tiles would take 400 MB)."""
    step = max(1, -(-len(tiles) // most))
    picked = tiles[::step]
    small = np.stack([cv2.resize(t, (8, 8), interpolation=cv2.INTER_AREA) for t in picked]).reshape(len(picked), -1)
    small = small.astype(np.float32)
    square = (small * small).sum(axis=1)
    distance = square[:, None] + square[None, :] - 2 * small @ small.T  # squared, between every two tiles
    return step * int((distance <= (8.0 ** 2) * small.shape[1]).sum(axis=1).argmax())
