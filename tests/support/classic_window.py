"""A classic-grey Minesweeper window drawn from a board, for tests: the truth is the board itself.

Layout as Windows' Winmine: 12 px margin, 3 px sunken borders, counters and face in a panel
above the field. Sprites come from a skin folder, so the same drawing serves any skin.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from bot.board import CODE_TO_CHAR

NAMES = {"?": "unopened", "F": "flag", "Q": "question", "*": "mine", "X": "exploded", "W": "wrong_flag"}
GREY, DARK, WHITE, TEAL = (192, 192, 192), (128, 128, 128), (255, 255, 255), (128, 128, 0)


_SPRITES: dict[tuple[str, int, int], np.ndarray] = {}


def sprite(folder: Path, name: str) -> np.ndarray:
    """A skin's sprite, read once per version of its file (a window draws hundreds of cells)."""
    path = folder / f"{name}.png"
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _SPRITES:
        img = cv2.imread(str(path))
        assert img is not None, name
        img.setflags(write=False)
        _SPRITES[key] = img
    return _SPRITES[key]


@lru_cache(maxsize=8)
def _desktop(width: int, height: int) -> np.ndarray:
    img = np.full((height, width, 3), TEAL, np.uint8)  # the classic desktop
    img.setflags(write=False)
    return img


def sunken(img: np.ndarray, x: int, y: int, w: int, h: int, depth: int) -> None:
    for i in range(depth):
        img[y - 1 - i, x - 1 - i : x + w + i] = DARK
        img[y - 1 - i : y + h + i, x - 1 - i] = DARK
        img[y + h + i, x - i : x + w + 1 + i] = WHITE
        img[y - i : y + h + 1 + i, x + w + i] = WHITE


def draw_window(
    codes: np.ndarray,
    counter: int,
    face: str,
    folder: Path,
    screen: tuple[int, int] = (1024, 768),
    at: tuple[int, int] = (100, 80),
) -> tuple[np.ndarray, tuple[int, int]]:
    """Screenshot with the window at `at`; returns it and the field's top-left corner."""
    rows, cols = codes.shape
    width, height = cols * 16 + 24, rows * 16 + 67
    img = _desktop(screen[0], screen[1]).copy()
    x0, y0 = at
    win = img[y0 : y0 + height, x0 : x0 + width]
    win[:] = GREY
    win[0, :] = WHITE
    win[:, 0] = WHITE
    fx, fy = 12, 55
    sunken(win, fx, fy, cols * 16, rows * 16, 3)
    sunken(win, 9, 9, width - 18, 37, 2)
    for r in range(rows):
        for c in range(cols):
            ch = CODE_TO_CHAR[int(codes[r, c])]
            tile = sprite(folder, "cell_" + NAMES.get(ch, ch))
            win[fy + 16 * r : fy + 16 * r + 16, fx + 16 * c : fx + 16 * c + 16] = tile
    centre = fx + cols * 8
    win[16:40, centre - 12 : centre + 12] = sprite(folder, f"face_{face}")
    text = f"{counter:03d}" if counter >= 0 else "-" + f"{-counter:02d}"
    for k, ch in enumerate(text):
        name = "digit_minus" if ch == "-" else f"digit_{ch}"
        win[16:39, fx + 5 + 13 * k : fx + 18 + 13 * k] = sprite(folder, name)
    return img, (x0 + fx, y0 + fy)
