"""A GTK-like window drawn by the tests: flat, slightly rounded tiles with gaps between them (GNOME
Mines' kind of field), a side panel of framed buttons and text, and window frame lines. Its
measures are the kind GNOME Mines shows at 600 x 400 (tiles of 42 px, a 4 px gap, 8 x 8), drawn
here, not cut from it."""

from __future__ import annotations

import cv2
import numpy as np

from tests.support.modern_look import rounded

BACKGROUND = (244, 245, 246)
COVERED = (182, 189, 186)
LIT = (211, 215, 207)  # (a covered cell under the pointer)
PITCH, TILE, ORIGIN = 46, 42, (96, 111)
_SUPER = 4  # (tiles drawn 4 times larger, then shrunk: anti-aliased corners)


def _tile(colour: tuple[int, int, int], radius: int = 3) -> np.ndarray:
    side = TILE * _SUPER
    big = np.empty((side, side, 3), np.float32)
    big[:] = BACKGROUND
    rounded(big, 0, 0, side - 1, side - 1, radius * _SUPER, colour)
    return cv2.resize(big, (TILE, TILE), interpolation=cv2.INTER_AREA).round().astype(np.uint8)


def flat_tile_window(lit: tuple[int, int] | None = None, frame_lines: bool = True, title: bool = True
                     ) -> np.ndarray:
    """The window on a black screen, its 8 x 8 field fresh (cell `lit` lighter, as a pointer over
    it leaves it); `frame_lines`: the window's border and inner frame, each a 1 px line; `title`:
    a title bar (else the window's plain background reaches its top)."""
    image = np.zeros((700, 900, 3), np.uint8)
    cv2.rectangle(image, (60, 40), (660, 500), BACKGROUND, -1)
    if title:
        cv2.rectangle(image, (60, 40), (660, 85), (222, 224, 226), -1)
    if frame_lines:
        cv2.rectangle(image, (60, 40), (660, 500), (120, 120, 120), 1)
        cv2.rectangle(image, (64, 90), (656, 496), (200, 200, 200), 1)
        cv2.rectangle(image, (66, 92), (654, 494), (225, 225, 225), 1)
        if title:
            cv2.line(image, (60, 85), (660, 85), (190, 190, 190), 1)
    covered, lit_tile = _tile(COVERED), _tile(LIT)
    for r in range(8):
        for c in range(8):
            x, y = ORIGIN[0] + PITCH * c, ORIGIN[1] + PITCH * r
            image[y : y + TILE, x : x + TILE] = lit_tile if (r, c) == lit else covered
    for k, label in enumerate(("Start Over", "Change Difficulty", "Pause")):
        y = 280 + 64 * k
        cv2.rectangle(image, (480, y), (630, y + 56), (205, 205, 205), 1, cv2.LINE_AA)
        cv2.putText(image, label, (495, y + 32), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (60, 60, 60), 1, cv2.LINE_AA)
    cv2.circle(image, (560, 190), 14, (50, 50, 50), 3, cv2.LINE_AA)
    cv2.fillConvexPoly(image, np.array([[548, 110], [575, 120], [552, 130]]), (50, 50, 50), cv2.LINE_AA)
    cv2.putText(image, "0/10", (545, 155), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (60, 60, 60), 1, cv2.LINE_AA)
    return image
