"""A field of tiles found short of whole, grown to the whole field: an outer row of opened tiles,
small or smoothed, can go unseen as blobs (bot.vision.tiles), and the field found then stops a
row short of the game's edge, to be refused as not whole."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bot.vision.look import largest_channel
from bot.vision.outlines import outlined
from bot.vision.reader import Reading, read, tile_of
from bot.vision.skin import Skin
from bot.vision.tiles import Tiles

#: Rows and columns a field may grow by, in all.
GROW = 2
#: A grown tile's edge band, checked for a cut (a share of the tile's side) ...
EDGE_BAND = 0.12
#: ... less this share of the side at each end, where a rounded tile's corner shows the gap.
CORNER_SKIP = 0.2
#: How much darker than the tile's middle a pixel of that band may be (0-255); not the gap's
#: contrast of bot.vision.outlines.OUTLINE, which is measured outside the tile.
CUT_DARKER = 60


def grown_whole(image: np.ndarray, skin: Skin, tiles: Tiles, reading: Reading) -> tuple[Tiles, Reading]:
    """The field (its `reading` not whole) grown a row or column at a time: on the side where that
    makes it whole, or else on one where the new row or column is every cell a tile, read as the
    look's and outlined by its gaps (Windows 7's look drawn at 14.4 px lost its top row so). At
    most GROW cells in all; where no growth reads whole, the last one that read tiles."""
    value = largest_channel(image)
    grown = 0
    while not reading.framed and grown < GROW:
        best = None
        for side in ("top", "bottom", "left", "right"):
            other = _grown_by(tiles, side)
            field = replace(other.field, tile=other.tile)
            again = read(image, field, skin)
            if _added(again.unknown, side).any() or again.unknown.sum() > reading.unknown.sum():
                continue  # (the new cells are not all the look's: no tile of the field there)
            xs, ys = np.meshgrid(*field.centres())
            tile = tile_of(field)
            new = zip(_added(xs, side), _added(ys, side), strict=True)
            if not all(outlined(value, x, y, field.pitch, tile) and _whole_tile(value, x, y, tile) for x, y in new):
                continue  # (a band of the covered tiles' colour beyond the field, a tile cut by a window)
            if again.framed:
                return other, again
            best = best or (other, again)
        if best is None:
            break
        tiles, reading = best
        grown += 1
    return tiles, reading


def _grown_by(tiles: Tiles, side: str) -> Tiles:
    if side == "top":
        return replace(tiles, top=tiles.top - tiles.pitch_y, rows=tiles.rows + 1)
    if side == "bottom":
        return replace(tiles, rows=tiles.rows + 1)
    if side == "left":
        return replace(tiles, left=tiles.left - tiles.pitch_x, cols=tiles.cols + 1)
    return replace(tiles, cols=tiles.cols + 1)


def _added(grid: np.ndarray, side: str) -> np.ndarray:
    """The row or column of a per-cell grid that a growth on `side` added."""
    return {"top": grid[0], "bottom": grid[-1], "left": grid[:, 0], "right": grid[:, -1]}[side]


def _whole_tile(value: np.ndarray, cx: float, cy: float, tile: float) -> bool:
    """Whether the tile centred at (cx, cy) is whole: along its four sides, just inside its edge
    (where no glyph reaches), nothing is darker than the tile by CUT_DARKER or more. A tile a window's
    edge cuts shows the window, or its border, inside that band (a window's dark border laid
    across the top row of a drawn field had it grown by that row and read whole)."""
    half, inset = tile / 2, max(1.0, EDGE_BAND * tile)
    x0, x1, y0, y1 = round(cx - half + 1), round(cx + half - 1), round(cy - half + 1), round(cy + half - 1)
    if x0 < 0 or y0 < 0 or x1 > value.shape[1] or y1 > value.shape[0] or x1 - x0 < 4 or y1 - y0 < 4:
        return False
    box = value[y0:y1, x0:x1].astype(np.int16)
    k = max(1, round(inset))
    inside = float(np.median(box))
    strips = (box[:, :k].min(axis=1), box[:, -k:].min(axis=1), box[:k].min(axis=0), box[-k:].min(axis=0))
    end = max(1, round(CORNER_SKIP * tile))  # (a rounded tile's corners show the gap)
    return all(float(strip[end:-end].min()) > inside - CUT_DARKER for strip in strips)
