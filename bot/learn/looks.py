"""Group tiles that look alike, for learning a look no template describes.

Class ids are handed out in order of first sight and never change, so what the learner finds
out about a class in one frame (or one game) holds in every later one. Tiles are compared
without their outer pixel, which a scaled display smears into the neighbouring cells.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.vision.sprites import BORDER, nearest, squared_distances

#: Tiles within this RMS distance (0-255) of a class's first tile belong to it. Cells of one
#: look differ by 0 at 100 % and by under 5 when scaled; different numbers by 20 or more.
SAME = 10.0
#: Cells stretched to a window (GNOME Mines at 53/54 px) draw each digit anew at its own place,
#: its edges smoothed otherwise: one number's tiles were 10-16 apart, split into two or three
#: looks. Compared blurred (a Gaussian of this sigma, px), they are 3-7 apart, different numbers
#: 21 or more, and the lit covered cell and an opened 0 (flat greys) stay 10 apart: SAME_BLURRED.
BLUR = 2.0
SAME_BLURRED = 8.0
#: A tile is cut at the pitch from its column's start, so a column a pixel wider shows a pixel more
#: of its cell against the gap: GNOME Mines' 16 x 16 in the window its chooser has (24/25 px) drew
#: its covered cells 7.7-7.9 apart blurred whole, and some split. Without a rim of RIM of the
#: pitch they are within SAME_INNER, and looks of one game are too (worst pair of one look /
#: nearest of two, blurred without the rim: 24 px 4.4 / 11.3; 48 px 6.9 / 20.6; 53 px 7.8 / 21.8);
#: but a bevelled look (the toy's stretched classic, 16/17 px) tells its covered cell from an opened
#: 0 by the edge alone (30.6 whole, 10.2 without the rim). So tiles are one look where they are
#: within SAME_BLURRED whole, or within SAME_INNER without the rim and SAME_LOOSE whole.
RIM = 1 / 12
SAME_INNER = 9.0
SAME_LOOSE = 12.0


class Looks:
    def __init__(self, first: np.ndarray, smoothed: bool = False) -> None:
        """`smoothed`: the cells are stretched to the window, each drawn at its own size and place:
        tiles are compared blurred (BLUR, SAME_BLURRED; SAME_INNER without a rim) instead of pixel
        for pixel."""
        self.smoothed = smoothed
        self.same = SAME_BLURRED if smoothed else SAME
        self.samples: list[np.ndarray] = [first.copy()]
        self._stack = self._seen(first[None])
        self._inner = self._seen_inside(first[None])

    def __len__(self) -> int:
        return len(self.samples)

    def _seen(self, tiles: np.ndarray) -> np.ndarray:
        """The tiles as they are compared: as they are, or each one blurred."""
        if not self.smoothed:
            return tiles.copy()
        return np.stack([cv2.GaussianBlur(t, (0, 0), BLUR) for t in tiles])

    def _seen_inside(self, tiles: np.ndarray) -> np.ndarray | None:
        """Stretched tiles without their rim, blurred (None where tiles are compared whole)."""
        if not self.smoothed:
            return None
        rim = round(tiles.shape[1] * RIM)
        inner = tiles[:, rim : tiles.shape[1] - rim, rim : tiles.shape[2] - rim]
        return np.stack([cv2.GaussianBlur(t, (0, 0), BLUR) for t in inner])

    def _match(self, seen: np.ndarray, inner: np.ndarray | None) -> np.ndarray:
        """For each tile, the look it is one of; -1 where it is none."""
        if inner is None:
            index, best, _ = nearest(seen, self._stack)
            return np.where(best <= self.same, index, -1)
        b = BORDER  # (dropped as nearest drops it)
        whole = _rms(seen[:, b:-b, b:-b], self._stack[:, b:-b, b:-b])
        ids = np.where(whole.min(axis=1) <= self.same, whole.argmin(axis=1), -1)
        alike = (whole <= SAME_LOOSE) & (_rms(inner, self._inner) <= SAME_INNER)
        loose = np.where(alike, whole, np.inf).argmin(axis=1)
        return np.where((ids < 0) & alike.any(axis=1), loose, ids)

    def add(self, sample: np.ndarray) -> int:
        """A class known beforehand (from a skin learnt earlier); returns its id."""
        self.samples.append(sample.copy())
        self._stack = np.concatenate([self._stack, self._seen(sample[None])])
        if self._inner is not None:
            self._inner = np.concatenate([self._inner, self._seen_inside(sample[None])])
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
        inner = self._seen_inside(tiles)
        ids = self._match(seen, inner)
        for i in np.flatnonzero(ids < 0):
            # Against the classes found in this very call too: compare one by one.
            one = self._match(seen[i : i + 1], None if inner is None else inner[i : i + 1])
            if one[0] >= 0:
                ids[i] = one[0]
                continue
            self.samples.append(tiles[i].copy())
            self._stack = np.concatenate([self._stack, seen[i : i + 1]])
            if inner is not None:
                self._inner = np.concatenate([self._inner, inner[i : i + 1]])
            ids[i] = len(self.samples) - 1
        return ids


def _rms(tiles: np.ndarray, looks: np.ndarray) -> np.ndarray:
    """RMS distance (0-255) of every tile to every look, compared whole (N x K)."""
    x = tiles.astype(np.float32).reshape(len(tiles), -1)
    return np.sqrt(squared_distances(x, looks.astype(np.float32).reshape(len(looks), -1)) / x.shape[1])
