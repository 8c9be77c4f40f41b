"""Group tiles that look alike, for learning a look no template describes.

Class ids are handed out in order of first sight and never change, so what the learner finds
out about a class in one frame (or one game) holds in every later one. Tiles are compared
without their outer pixel, which a scaled display smears into the neighbouring cells.
"""

from __future__ import annotations

import numpy as np

from bot.vision.reader import nearest

#: Tiles within this RMS distance (0-255) of a class's first tile belong to it. Cells of one
#: look differ by 0 at 100 % and by under 5 when scaled; different numbers by 20 or more.
SAME = 10.0


class Looks:
    def __init__(self, first: np.ndarray) -> None:
        self.samples: list[np.ndarray] = [first.copy()]
        self._stack = first[None].copy()

    def __len__(self) -> int:
        return len(self.samples)

    def add(self, sample: np.ndarray) -> int:
        """A class known beforehand (from a skin learnt earlier); returns its id."""
        self.samples.append(sample.copy())
        self._stack = np.concatenate([self._stack, sample[None]])
        return len(self.samples) - 1

    def classify(self, tiles: np.ndarray) -> np.ndarray:
        """Class id of every tile (N, p, p, 3); tiles like no class so far found new ones."""
        index, best, _ = nearest(tiles, self._stack)
        ids = np.where(best <= SAME, index, -1)
        for i in np.flatnonzero(ids < 0):
            # Against the classes found in this very call too: compare one by one.
            j, d, _ = nearest(tiles[i : i + 1], self._stack)
            if d[0] <= SAME:
                ids[i] = j[0]
                continue
            self.samples.append(tiles[i].copy())
            self._stack = np.concatenate([self._stack, tiles[i : i + 1]])
            ids[i] = len(self.samples) - 1
        return ids
