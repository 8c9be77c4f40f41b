"""A board's field grown cell by cell from a face: where its cells are and how many.

Every classic-style game draws its face at a fixed place above the field. From the cells under it
the field is grown sideways in pairs (the face sits over its middle), then down, while the tiles
match the skin's sprites; a face drawn its own way (a clone's) is first moved to where its cells
fit; and the field is nudged by a sub-pixel step where that reads more cells.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from bot.errors import VisionError
from bot.vision.reader import Field, Reading, cells_unread, field_tiles, read, read_cells
from bot.vision.skin import Skin
from bot.vision.sprites import bank, nearest, resample

MAX_SIDE = 60  # no game has more cells than this in a row or column
#: Growing the field compares whole tiles, edges included: an opened 0 differs from plain dark
#: background only in its edge lines. Scaled true cells stay below 50 on the fixtures.
EDGE_DISTANCE = 60.0
SUBPIXEL = (-0.5, -0.25, 0.0, 0.25, 0.5)
#: A sub-pixel offset must fit this much better than the whole pixel to be taken: on a scaled
#: display it fits far better, while at 100 % a drawn family skin (whose sprites differ from the
#: game's by a pixel here and there) can fit a quarter pixel off a little better by chance, and
#: that costs the face and counter their pixel-exact place (measured: 27.7 vs 30.2 on a real XP shot).
SUBPIXEL_COST = 1.15


def cell_distance(image: np.ndarray, skin: Skin, scale: float, left: float, top: float) -> float:
    """RMS distance (0-255) from the cell at (left, top), `scale` times the skin's size, to the
    nearest of the skin's cell sprites, edges included; inf off the image or on a flat patch."""
    n = skin.cell
    try:
        tile = resample(image, left, top, n * scale, n * scale, (n, n))
    except VisionError:
        return float("inf")
    x = tile.reshape(-1).astype(np.float64)
    if x.std() < 0.5 * skin.least_cell_spread:
        return float("inf")  # a flat patch of background
    # The RMS distance to the nearest sprite, as |s|^2 - 2 s.x + |x|^2 (one matrix product).
    squares = skin.cell_row_squares - 2.0 * (skin.cell_rows @ x) + x @ x
    return float(np.sqrt(max(float(squares.min()), 0.0) / x.size))


def _is_cell(image: np.ndarray, skin: Skin, scale: float, left: float, top: float) -> bool:
    return cell_distance(image, skin, scale, left, top) <= EDGE_DISTANCE


def grow_field(image: np.ndarray, skin: Skin, scale: float, face_left: float, face_top: float,
               chrome: float | None = None) -> Field | None:
    """The field under a face: the widest run of cells centred under it, then down to the last row.
    `scale` is the cells'; the face's, where it differs, is `chrome`."""
    pitch = skin.cell * scale
    dx, dy = skin.face_offset
    centre = face_left - dx * (scale if chrome is None else chrome)
    top = face_top - dy * (scale if chrome is None else chrome)
    # Odd width puts a cell under the face's centre, even width a cell edge: keep the better fit,
    # at the sub-pixel offset that fits best (the face was placed to the whole pixel).
    fits = {}
    for start in (1, 2):
        for dy in SUBPIXEL:
            for dx in SUBPIXEL:
                worst = max(
                    cell_distance(image, skin, scale, centre + dx - start * pitch / 2 + i * pitch, top + dy)
                    for i in range(start)
                )
                if dx or dy:
                    worst *= SUBPIXEL_COST
                if start not in fits or worst < fits[start][0]:
                    fits[start] = (worst, dx, dy)
    for start in sorted(fits, key=lambda k: fits[k][0]):
        worst, dx, dy = fits[start]
        if worst > EDGE_DISTANCE:
            continue
        centre, top = centre + dx, top + dy
        cols = start
        while cols + 2 <= MAX_SIDE:
            left = centre - (cols + 2) * pitch / 2
            if _is_cell(image, skin, scale, left, top) and _is_cell(image, skin, scale, left + (cols + 1) * pitch, top):
                cols += 2
            else:
                break
        left = centre - cols * pitch / 2
        rows = 1
        while rows < MAX_SIDE and _is_cell(image, skin, scale, left, top + rows * pitch) and _is_cell(
            image, skin, scale, left + (cols - 1) * pitch, top + rows * pitch
        ):
            rows += 1
        if cols >= 2 and rows >= 2:
            return _trim(image, skin, Field(left, top, pitch, rows, cols, chrome))
    return None


def _trim(image: np.ndarray, skin: Skin, field: Field) -> Field:
    """Drop outer rows and column pairs the reader cannot read: a frame drawn like cells (the
    classic sunken border is grey with light and dark lines) can pass the coarse growing test."""
    while field.rows > 2 and field.cols > 2:
        try:
            _, known, _ = read_cells(image, field, skin)
        except VisionError:
            return field
        if (~known[-1]).mean() > 0.5:
            field = replace(field, rows=field.rows - 1)
        elif (~known[:, 0]).mean() > 0.5 and (~known[:, -1]).mean() > 0.5:
            field = replace(field, left=field.left + field.pitch, cols=field.cols - 2)
        else:
            return field
    return field


#: How far (the skin's pixels) a field grown under a clone's face is moved to fit its cells.
SNAP = 3


def grown_near(image: np.ndarray, skin: Skin, scale: float, face_left: float, face_top: float,
               chrome: float | None = None) -> Field | None:
    """grow_field under a face placed its own way: grown, then moved to its cells (moved_to_cells)."""
    field = grow_field(image, skin, scale, face_left, face_top, chrome)
    return None if field is None else moved_to_cells(image, skin, field, scale, face_left, face_top, chrome)


def moved_to_cells(image: np.ndarray, skin: Skin, field: Field, scale: float, face_left: float, face_top: float,
                   chrome: float | None = None) -> Field | None:
    """`field`, grown by grow_field under the face at (face_left, face_top), grown again from
    where its cells fit best (bot.vision.growth._snap); `field` itself where it lies there already."""
    shift = _snap(image, skin, field)
    if shift == (0.0, 0.0):
        return field
    return grow_field(image, skin, scale, face_left + shift[0], face_top + shift[1], chrome)


def _snap(image: np.ndarray, skin: Skin, field: Field) -> tuple[float, float]:
    """The shift (x, y), up to SNAP pixels of the skin's size and then to a SUBPIXEL step, that
    puts the field's first row and column nearest the skin's sprites. Growing takes cells up to
    EDGE_DISTANCE from a sprite, and a clone places its face its own way: under Wine 8, Arbiter's
    Beginner field lies 1 px right and 2 px below where winmine's face puts it, its Expert field 1
    and 3, and there its covered tiles read as opened 0s (RMS 30 from the 0, 32 allowed): a fresh
    board of 0s."""
    sprites = bank(skin.cell_sprites, field.pitch / skin.cell)
    step = field.pitch / skin.cell

    def cost(dx: float, dy: float) -> float:
        moved = replace(field, left=field.left + dx, top=field.top + dy)
        try:
            tiles = np.concatenate([field_tiles(image, replace(moved, rows=1), skin.cell),
                                    field_tiles(image, replace(moved, cols=1), skin.cell)])
        except VisionError:
            return math.inf
        return float(nearest(tiles, sprites)[1].mean())

    whole = sorted(((dx * step, dy * step) for dx in range(-SNAP, SNAP + 1) for dy in range(-SNAP, SNAP + 1)),
                   key=lambda s: abs(s[0]) + abs(s[1]))  # (ties to the nearer)
    x, y = min(whole, key=lambda s: cost(*s))
    return min(((x + dx * step, y + dy * step) for dy in SUBPIXEL for dx in SUBPIXEL),
               key=lambda s: (cost(*s), abs(s[0] - x) + abs(s[1] - y)))


def best_offset(image: np.ndarray, skin: Skin, field: Field) -> tuple[Field, Reading]:
    """The field as grown, or moved by a sub-pixel step if that reads more cells. The growing
    placed it by the one or two cells under the face; on a scaled display a skin learnt from
    another rendering can fit those a half pixel off and leave a sixth of the board unread
    (measured: a skin learnt at 150 % on a 150 % fixture, 17.5 % unknown, 0 % half a pixel over)."""
    reading = read(image, field, skin)
    base, unread = field, int(reading.unknown.sum())
    if not unread:
        return field, reading
    for dy, dx in ((dy, dx) for dy in SUBPIXEL for dx in SUBPIXEL if dx or dy):
        moved = replace(base, left=base.left + dx, top=base.top + dy)
        try:
            here = cells_unread(image, moved, skin)  # (the cells alone: the face and counters once, at the end)
        except VisionError:
            continue
        if here < unread:
            field, unread = moved, here
            if not unread:
                break
    return field, (reading if field is base else read(image, field, skin))
