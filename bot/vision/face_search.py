"""Where a classic game's face may be in a screenshot: found by its disc's colour (a few ms), or by
the face's drawing matched on a grey image COARSE times smaller (the fallback: a grey lost face),
then placed and scaled exactly at full size. bot.vision.calibrate grows the field from under it.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.vision.reader import colour_blobs
from bot.vision.skin import Skin

#: The display's scales (Windows' own steps), and 0.8 for screenshots shrunk after they were taken.
SCALES = (0.8, 1.0, 1.25, 1.5, 1.75, 2.0)
COARSE = 2  # the fallback face search runs on an image this many times smaller
PEAKS = 3  # spots per scale checked at full size


def grey_of(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _peaks(score: np.ndarray, count: int, radius: int) -> list[tuple[float, int, int]]:
    score = score.copy()
    out = []
    for _ in range(count):
        _, value, _, (x, y) = cv2.minMaxLoc(score)
        out.append((float(value), x, y))
        score[max(0, y - radius) : y + radius + 1, max(0, x - radius) : x + radius + 1] = -1
    return out


def face_discs(skin: Skin) -> list[tuple[tuple[int, int, int], int, int, int]]:
    """(colour, x, y, side) of each face's disc: the roughly square patch of one colour at its
    centre (yellow for a smiling face; WineMine's lost face is grey). Derived from the sprites."""
    out = []
    for face in skin.face_sprites:
        h, w = face.shape[:2]
        colour = tuple(int(v) for v in face[h // 2, w // 2])
        mask = cv2.inRange(face, np.array(colour) - 40, np.array(colour) + 40)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        x, y, cw, ch, area = stats[labels[h // 2, w // 2]]
        if 0.8 <= cw / ch <= 1.25 and area >= 0.5 * cw * ch and cw < w - 4:
            spec = (colour, int(x), int(y), int(max(cw, ch)))
            if spec not in out:
                out.append(spec)
    return out


def _has_disc(face: np.ndarray, skin: Skin) -> bool:
    h, w = face.shape[:2]
    colour = tuple(int(v) for v in face[h // 2, w // 2])
    return any(spec[0] == colour for spec in face_discs(skin))


def face_candidates(grey: np.ndarray, small: np.ndarray, skin: Skin) -> list[tuple[float, float, int, int]]:
    """(score, scale, x, y) of likely faces, x and y in full-size pixels, searched in `small` (the
    grey image COARSE times smaller) and, below the display's 100 %, in `grey` itself: a face
    shrunk to under 10 px matched the wrong place (Arbiter's won face at 80 %: 10 px off).

    Only the faces the disc search cannot find are searched for here (WineMine's lost face is
    grey): the others were looked for already, and each face costs a full template match.
    """
    faces = [grey_of(f) for f in skin.face_sprites if not _has_disc(f, skin)] or [grey_of(skin.face_sprites[0])]
    h, w = skin.face_sprites.shape[1:3]  # a learnt face may be any size: not Winmine's 24 px
    out = []
    for scale in SCALES:
        where, coarse = (grey, 1) if scale < 1 else (small, COARSE)
        size = (max(4, round(w * scale / coarse)), max(4, round(h * scale / coarse)))
        if max(size) >= min(where.shape):
            continue
        best = None
        for face in faces:
            tmpl = cv2.resize(face, size, interpolation=cv2.INTER_AREA)
            res = cv2.matchTemplate(where, tmpl, cv2.TM_CCOEFF_NORMED)
            best = res if best is None else np.maximum(best, res)
        for value, x, y in _peaks(best, PEAKS, max(size)):
            out.append((value, scale, x * coarse, y * coarse))
    out.sort(reverse=True)
    return out


def _blobs(image: np.ndarray, colour: tuple[int, int, int], memo: dict) -> np.ndarray:
    """Bounding boxes and areas of the patches of one colour (shared by skins with that colour)."""
    if colour not in memo:
        memo[colour] = colour_blobs(image, colour)[0]
    return memo[colour]


def disc_candidates(
    image: np.ndarray, memo: dict, colour: tuple[int, int, int], off_x: int, off_y: int, side: int,
    spread: float = 1.15,
) -> list[tuple[float, float, int, int]]:
    """Faces found by the colour of their disc: one colour test, a few ms.

    The disc's size gives the scale to within a pixel; refine_face makes it exact. A clone's disc
    has a size of its own: `spread` widens the sizes taken beyond the display's scales.
    """
    out = []
    for x, y, w, h, area in _blobs(image, colour, memo):
        scale = max(w, h) / side
        if not (0.8 <= w / h <= 1.25 and SCALES[0] / spread <= scale <= SCALES[-1] * spread and area >= 0.4 * w * h):
            continue
        out.append((float(area), scale, round(x - off_x * scale), round(y - off_y * scale)))
    out.sort(reverse=True)
    return out


#: Relative scales tried around a coarse face hit: the disc looks smaller than it is (blurred rim).
REFINE_STEPS = tuple(np.linspace(-0.06, 0.18, 13))


def refine_face(
    image: np.ndarray, skin: Skin, scale: float, x: int, y: int, steps: tuple[float, ...] = REFINE_STEPS
) -> tuple[float, float, float, float]:
    """Exact face position and scale near a coarse hit: (score, scale, left, top)."""
    h, w = skin.face_sprites.shape[1:3]
    best = (-1.0, scale, float(x), float(y))
    for step in steps:
        s = scale * (1 + step)
        tw, th = round(w * s), round(h * s)
        pad = COARSE + 3
        x0, y0 = max(0, x - pad), max(0, y - pad)
        roi = grey_of(image[y0 : y + th + pad, x0 : x + tw + pad])  # (the part searched, not the whole screen)
        if roi.shape[0] < th or roi.shape[1] < tw:
            continue
        for face in skin.face_sprites:
            tmpl = cv2.resize(grey_of(face), (tw, th), interpolation=cv2.INTER_LINEAR)
            res = cv2.matchTemplate(roi, tmpl, cv2.TM_CCOEFF_NORMED)
            _, value, _, (mx, my) = cv2.minMaxLoc(res)
            if value > best[0]:
                best = (float(value), s, float(x0 + mx), float(y0 + my))
    return best
