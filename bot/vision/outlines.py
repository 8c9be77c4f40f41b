"""Tile outlines on a field of gapped tiles: whether a cell has a tile's outline round it (a plain
cell without one is a window's ground, not an opened 0), and whether the field goes on past one of
its sides under a window laid over it (the gaps of a next row of tiles in sight). Geometry on the
picture's brightness (its largest channel) alone: nothing here knows a look's colours."""

from __future__ import annotations

import itertools

import numpy as np

#: A tile's outline: the darkest line near each boundary at least this much darker (0-255, largest
#: channel) than the tile's middle, along this share of the side round its middle.
OUTLINE = 15.0
OUTLINE_SPAN = 0.6
#: The field goes on under a window laid over it when, past the gap beyond a side, some line of
#: the band out to CUT_BAND of a pitch past the cells' boundary shows tiles again: darker gaps at
#: the field's own, at least OUTLINE below the tiles either side, at more than CUT_SHARE of them (a
#: window cut at random through a row leaves that row's near part in sight). The gap is looked for
#: within CUT_INSIDE of a pitch either side of the boundary (its place is known to a few pixels:
#: a pitch 0.1 px off is 3 px off at the far end of 30 cells).
CUT_BAND = 0.25
CUT_INSIDE = 0.15
CUT_SHARE = 0.5


def outlined(value: np.ndarray, cx: float, cy: float, pitch: float, tile: float,
             edges: tuple[bool, bool, bool, bool] = (False, False, False, False)) -> bool:
    """Whether a tile's outline shows round the cell centred at (cx, cy): on each of its four sides
    the gap (within half the gap, or a pixel, of the cell's boundary) is darker than the tile.
    Used to tell the field's cells from what lies beyond it (a window's plain ground). `value` is
    the picture's brightness, its largest channel. `edges` (top, bottom, left, right) are the sides
    on the field's edge, where the frame round the field may be lighter than the tile instead: a
    sunken field lit from the top left has a white frame below and right of it (Simon Tatham's
    Mines: 255 beside its opened cells' 218, with no line between)."""
    height, width = value.shape[:2]
    half, reach = pitch / 2, max(1.0, (pitch - tile) / 2)
    x0, x1 = round(cx - OUTLINE_SPAN * half), round(cx + OUTLINE_SPAN * half)
    y0, y1 = round(cy - OUTLINE_SPAN * half), round(cy + OUTLINE_SPAN * half)
    if min(x0, y0) < 0 or x1 > width or y1 > height:
        return False
    inside = float(np.median(value[y0:y1, x0:x1]))
    sides = ((0, cy - half), (0, cy + half), (1, cx - half), (1, cx + half))
    for (axis, at), edge in zip(sides, edges, strict=True):
        lo, hi = round(at - reach), round(at + reach) + 1
        if lo < 0 or hi > (height if axis == 0 else width):
            return False
        band = value[lo:hi, x0:x1] if axis == 0 else value[y0:y1, lo:hi].T
        darker = inside - float(np.median(band.min(axis=0))) >= OUTLINE
        if not (darker or (edge and float(np.median(band.max(axis=0))) - inside >= OUTLINE)):
            return False
    return True


def edges_of(row: int, col: int, rows: int, cols: int) -> tuple[bool, bool, bool, bool]:
    """Which sides of cell (row, col) lie on the field's edge, as `outlined` takes them (top,
    bottom, left, right)."""
    return row == 0, row == rows - 1, col == 0, col == cols - 1


def goes_on(value: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray, pitch: float, tile: float) -> bool:
    """Whether, past some side of the field, tiles show again beyond its gap: the field cut by a
    window laid over it, not its edge."""
    return any(_goes_on(lines, along, pitch, tile) for lines, along in _near_bands(value, centres_x, centres_y, pitch))


def _near_bands(value: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray,
                pitch: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each side, the lines parallel to it from inside its outer tiles' edge out to where the
    near part of a next row (or column) of tiles would lie, nearest first, with the cells' centres
    along them."""
    height, width = value.shape[:2]
    out = []
    for axis, centres, across in ((0, centres_y, centres_x), (1, centres_x, centres_y)):
        for sign, last in ((-1, centres[0]), (1, centres[-1])):
            start, stop = round(last + sign * (0.5 - CUT_INSIDE) * pitch), round(last + sign * (0.5 + CUT_BAND) * pitch)
            if len(across) < 2 or min(start, stop) < 0 or max(start, stop) >= (height if axis == 0 else width):
                continue
            at = np.arange(start, stop + sign, sign)
            lines = value[at, :] if axis == 0 else value[:, at].T
            out.append((lines.astype(np.float32), across))
    return out


def _goes_on(lines: np.ndarray, centres: np.ndarray, pitch: float, tile: float) -> bool:
    """Whether, past the gap beyond the outer tiles (the line nearest the boundary where the fewest
    tiles show), tiles show again: the near part of a next row or column."""
    tiled = [_tiles_shown(line, centres, pitch, tile) for line in lines]
    inside = round(2 * CUT_INSIDE * pitch) + 1  # the lines up to as far past the boundary as inside it
    if not tiled:
        return False
    # (of the lines as bare, the one nearest the boundary: a raised tile's shadow along the outer
    # row's bottom, KMines' flags, shows as tiles parted by dark gaps just inside it)
    near = tiled[:inside]
    bare = np.flatnonzero(np.isclose(near, min(near)))
    gap = int(bare[np.argmin(np.abs(bare - round(CUT_INSIDE * pitch)))])
    return max(tiled[gap + 1 :], default=0.0) > CUT_SHARE


def _tiles_shown(profile: np.ndarray, centres: np.ndarray, pitch: float, tile: float) -> float:
    """The share of the field's own gaps along a line parallel to a side where the line shows
    tiles either side of a darker gap."""
    reach, middle = max(1.0, (pitch - tile) / 2), max(1.0, tile / 4)
    if round(centres[0] - pitch / 2) < 0 or round(centres[-1] + pitch / 2) > len(profile):
        return 0.0

    def span(at: float, half: float) -> np.ndarray:
        return profile[round(at - half) : round(at + half) + 1]

    tiles = [float(np.median(span(c, middle))) for c in centres]
    gaps = [float(span((a + b) / 2, reach).min()) for a, b in itertools.pairwise(centres)]
    darker = [min(left, right) - gap >= OUTLINE for gap, left, right in zip(gaps, tiles[:-1], tiles[1:])]
    return float(np.mean(darker))
