"""A seven-segment LED display read by its segments, not by any game's digit sprites.

The classic Minesweepers (winmine, Minesweeper X, Arbiter, the web clones) all show their counter
and timer as lit segments on a dark panel, but each draws its own font: Arbiter's 0 has cut
corners, its unlit segments are a dithered dark red where winmine's are plain. What they share is
the panel and the seven segments. So the panel is found as the dark box near where the skin puts
the display, cut into its digits, and each segment is judged lit where most of its middle is far
brighter than the panel (lit 255, unlit dark red at most half of that in every clone measured).
A pattern that is no digit, or a segment neither clearly lit nor clearly dark, reads as None.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Where each segment may lie, as (left, top, right, bottom) of the digit's box, 0-1, and which way
#: it runs. A segment's share is that of its best line along its run inside the band: at 80 % a
#: stroke is two pixels wide and falls anywhere in the band; its ends, where neighbours meet and
#: fonts differ most, are left out.
SEGMENTS = {
    "a": ((0.3, 0.0, 0.7, 0.22), "across"),
    "b": ((0.65, 0.18, 1.0, 0.40), "down"),
    "c": ((0.65, 0.60, 1.0, 0.82), "down"),
    "d": ((0.3, 0.78, 0.7, 1.0), "across"),
    "e": ((0.0, 0.60, 0.35, 0.82), "down"),
    "f": ((0.0, 0.18, 0.35, 0.40), "down"),
    "g": ((0.3, 0.40, 0.7, 0.60), "across"),
}
#: Segments lit (in order) -> the character; a few fonts draw 6, 7 and 9 with a segment more or less.
PATTERNS = {
    "abcdef": "0", "bc": "1", "abdeg": "2", "abcdg": "3", "bcfg": "4", "acdfg": "5", "acdefg": "6",
    "abc": "7", "abcdefg": "8", "abcdfg": "9", "g": "-", "cdefg": "6", "abcf": "7", "abcfg": "9",
}
#: A segment is lit where this share of its middle is lit, dark where under UNLIT; between is unsure.
LIT, UNLIT = 0.6, 0.3
#: The panel: pixels whose brightest channel is under this (0-255).
PANEL = 70
#: Lit: at least this far from the panel's level towards the brightest ink (0-1).
BRIGHT = 0.7
#: A segment's ink, lit or unlit: at least this far above the panel's level (0-255).
UNLIT_INK = 40
#: A digit cut by the panel's edge is read while at most this share of its width is cut: its right
#: (or left) segments must still show a column.
CUT_MOST = 0.3


def panel_box(image: np.ndarray, around: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
    """(left, top, width, height) of the dark panel that overlaps `around` most, searched within it
    grown by half its height on every side; None where no dark box is there."""
    left, top, width, height = around
    pad = height / 2
    x0, y0 = max(0, int(left - pad)), max(0, int(top - pad))
    x1, y1 = min(image.shape[1], int(left + width + pad + 1)), min(image.shape[0], int(top + height + pad + 1))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    part = image[y0:y1, x0:x1]
    inked = part.max(axis=2) < PANEL
    inked |= _lit(cv2.cvtColor(part, cv2.COLOR_BGR2HSV))  # the segments lie inside the panel: part of its box
    closed = cv2.morphologyEx(inked.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=4)
    best, best_overlap = None, 0.0
    for k in range(1, count):
        bx, by, bw, bh = (int(v) for v in stats[k, :4])
        if bh < 0.6 * height or bh > 1.5 * height or bw < 0.5 * width or bw > 1.6 * width:
            continue
        if stats[k, cv2.CC_STAT_AREA] < 0.7 * bw * bh:
            continue  # not a filled box
        ox = max(0.0, min(bx + bw, left + width - x0) - max(bx, left - x0))
        oy = max(0.0, min(by + bh, top + height - y0) - max(by, top - y0))
        if ox * oy > best_overlap:
            best, best_overlap = (bx + x0, by + y0, bw, bh), ox * oy
    if best is None:  # the panel runs into a dark frame (WineMine's black chrome): the box itself
        x, y, w, h = round(left), round(top), round(width), round(height)
        inside = closed[y - y0 : y - y0 + h, x - x0 : x - x0 + w]
        if inside.size and inside.mean() >= 0.7:
            best = (x, y, w, h)
    return best


def _lit(hsv: np.ndarray) -> np.ndarray:
    """Pixels of a saturated, bright ink (an LED's lit segment) in an image's HSV."""
    return (hsv[..., 1] >= 100) & (hsv[..., 2] >= 100)


def read_digits(image: np.ndarray, box: tuple[int, int, int, int], digits: int) -> tuple[str | None, float]:
    """The text of an LED panel at `box` holding `digits` digits side by side, and how sure (0-1):
    the least margin of any segment from its threshold."""
    left, top, width, height = box
    if left < 0 or top < 0 or left + width > image.shape[1] or top + height > image.shape[0] or min(width, height) < 4:
        return None, 0.0  # a display cut by the picture's edge: not read
    panel = image[top : top + height, left : left + width]
    value = panel.max(axis=2).astype(np.float32)
    dark, bright = float(np.percentile(value, 10)), float(np.percentile(value, 99.5))
    if bright - dark < 80:
        return None, 0.0  # nothing lit: a panel with no digits drawn
    hsv = cv2.cvtColor(panel, cv2.COLOR_BGR2HSV)
    lit = (value >= dark + BRIGHT * (bright - dark)) & _lit(hsv)
    rows, _ = np.nonzero(lit)
    if not len(rows):
        return None, 0.0
    y0, y1 = int(rows.min()), int(rows.max()) + 1  # the digits' height: from the lit ink
    lit = lit[y0:y1]
    cells = _cells_by_gaps(lit, _segment_ink(hsv, dark)[y0:y1], digits)
    if cells is not None:
        text, sure = _read_cells(cells)
        if text is not None:
            return text, sure
    step = width / digits
    return _read_cells([_trim_columns(lit[:, round(k * step) : round((k + 1) * step)]) for k in range(digits)])


def _segment_ink(hsv: np.ndarray, dark: float) -> np.ndarray:
    """Pixels of a segment, lit or not, in the panel's HSV: saturated and above the panel (winmine's
    unlit segments are plain dark red, Arbiter's a dithered one; a font that leaves them black has
    only its lit ink)."""
    return (hsv[..., 1] >= 100) & (hsv[..., 2] >= dark + UNLIT_INK)


def _cells_by_gaps(lit: np.ndarray, ink: np.ndarray, digits: int) -> list[np.ndarray] | None:
    """Each digit's lit pixels in its own box, the boxes found by the dark columns between digits
    where every segment is drawn: the panel's box need not hold the digits evenly (Arbiter under
    Wine draws its last digit cut two pixels short, and equal slices then take a stroke of its
    neighbour). A run at the panel's edge narrower than the others is a digit cut there: padded
    with unlit columns on its cut side. None where the runs are not `digits` digits' boxes."""
    cols = ink.any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], cols.astype(np.int8), [0]))))
    runs = list(zip(edges[::2], edges[1::2]))
    if len(runs) != digits:
        return None
    wide = max(b - a for a, b in runs)
    if wide < 0.6 * lit.shape[1] / digits:
        return None  # the strokes of a font that draws no unlit segment (a row of 1s)
    cells = []
    for k, (a, b) in enumerate(runs):
        cut = wide - (b - a)
        if cut > CUT_MOST * wide or (cut and not ((k == 0 and a == 0) or (k == digits - 1 and b == lit.shape[1]))):
            return None  # a narrow run inside the panel: not a whole digit's box
        pad = ((0, 0), (cut, 0)) if k == 0 and a == 0 and cut else ((0, 0), (0, cut))
        cells.append(np.pad(lit[:, a:b], pad))
    return cells


def _read_cells(cells: list[np.ndarray | None]) -> tuple[str | None, float]:
    """The characters of the digits' lit pixels, each in its own box, and how sure (0-1)."""
    text, sure = "", 1.0
    for cell in cells:
        if cell is None:
            return None, 0.0
        on = ""
        h, w = cell.shape
        for name, ((u0, v0, u1, v1), run) in SEGMENTS.items():
            band = cell[int(v0 * h) : max(int(v0 * h) + 1, round(v1 * h)),
                        int(u0 * w) : max(int(u0 * w) + 1, round(u1 * w))]
            share = float(band.mean(axis=1 if run == "across" else 0).max())
            if share >= LIT:
                on += name
            elif share > UNLIT:
                return None, 0.0
            sure = min(sure, abs(share - (LIT + UNLIT) / 2) / ((LIT - UNLIT) / 2))
        char = PATTERNS.get("".join(sorted(on)))
        if char is None:
            return None, 0.0
        text += char
    return text, min(1.0, sure)


def _trim_columns(cell: np.ndarray) -> np.ndarray | None:
    """The digit's own columns: the panel's slice less the gap at its sides. A 1 lights only its
    right side, so the digit's width is the slice's, trimmed only of columns no digit ever lights
    (measured from the slice's edges inwards, at most a sixth each side)."""
    if cell.size == 0:
        return None
    cols = cell.any(axis=0)
    w = cell.shape[1]
    limit = max(1, w // 6)
    left = 0
    while left < limit and not cols[left]:
        left += 1
    right = w
    while w - right < limit and not cols[right - 1]:
        right -= 1
    return cell[:, left:right] if right - left >= 3 else None


def read_led(image: np.ndarray, around: tuple[float, float, float, float], digits: int) -> tuple[int | None, float]:
    """The number an LED display near `around` (image pixels) shows, or None with 0.0."""
    box = panel_box(image, around)
    if box is None:
        return None, 0.0
    text, sure = read_digits(image, box, digits)
    if text is None:
        return None, 0.0
    try:
        return int(text), sure
    except ValueError:
        return None, 0.0
