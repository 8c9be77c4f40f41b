"""Group tiles that look alike, for learning a look no template describes.

Class ids are handed out in order of first sight and never change, so what the learner finds
out about a class in one frame (or one game) holds in every later one. Tiles are compared
without their outer pixel, which a scaled display smears into the neighbouring cells.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.vision.reader import nearest

#: Tiles within this RMS distance (0-255) of a class's first tile belong to it. Cells of one
#: look differ by 0 at 100 % and by under 5 when scaled; different numbers by 20 or more.
SAME = 10.0
#: Cells stretched to a window (GNOME Mines at 53/54 px) draw each digit anew at its own place,
#: its edges smoothed otherwise: one number's tiles were 10-16 apart, split into two or three
#: looks. Compared blurred (a Gaussian of this sigma, px), they are 3-7 apart, different numbers
#: 21 or more, and the lit covered cell and an opened 0 (flat greys) stay 10 apart: SAME_BLURRED.
BLUR = 2.0
SAME_BLURRED = 8.0


class Looks:
    def __init__(self, first: np.ndarray, smoothed: bool = False) -> None:
        """`smoothed`: the cells are stretched to the window, each drawn at its own size and place:
        tiles are compared blurred (BLUR, SAME_BLURRED) instead of pixel for pixel."""
        self.smoothed = smoothed
        self.same = SAME_BLURRED if smoothed else SAME
        self.samples: list[np.ndarray] = [first.copy()]
        self._stack = self._seen(first[None])

    def __len__(self) -> int:
        return len(self.samples)

    def _seen(self, tiles: np.ndarray) -> np.ndarray:
        """The tiles as they are compared: as they are, or each one blurred."""
        if not self.smoothed:
            return tiles.copy()
        return np.stack([cv2.GaussianBlur(t, (0, 0), BLUR) for t in tiles])

    def add(self, sample: np.ndarray) -> int:
        """A class known beforehand (from a skin learnt earlier); returns its id."""
        self.samples.append(sample.copy())
        self._stack = np.concatenate([self._stack, self._seen(sample[None])])
        return len(self.samples) - 1

    def nearest_to(self, k: int) -> tuple[int, float]:
        """The look most like look k (another one), and how far it is, as looks are compared."""
        others = [j for j in range(len(self.samples)) if j != k]
        if not others:
            return -1, float("inf")
        j, d, _ = nearest(self._stack[k : k + 1], self._stack[others])
        return others[int(j[0])], float(d[0])

    def classify(self, tiles: np.ndarray) -> np.ndarray:
        """Class id of every tile (N, p, p, 3); tiles like no class so far found new ones."""
        seen = self._seen(tiles)
        index, best, _ = nearest(seen, self._stack)
        ids = np.where(best <= self.same, index, -1)
        for i in np.flatnonzero(ids < 0):
            # Against the classes found in this very call too: compare one by one.
            j, d, _ = nearest(seen[i : i + 1], self._stack)
            if d[0] <= self.same:
                ids[i] = j[0]
                continue
            self.samples.append(tiles[i].copy())
            self._stack = np.concatenate([self._stack, seen[i : i + 1]])
            ids[i] = len(self.samples) - 1
        return ids
