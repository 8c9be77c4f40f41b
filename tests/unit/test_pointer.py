"""The mouse pointer over a field (bot.vision.pointer): a recorded game draws it, and its black and
white were read as a mine on a covered tile, a 4 on a 1 (our drawn looks with a pointer laid over
them at every place, before: 425 cells wrong at 18 px in Windows 7's look, 142 at 24 px in the
app's). It is now found, and a cell it lies on is read from what shows, or left unread."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import FLAG, UNOPENED
from bot.vision.calibrate import calibrate
from bot.vision.described import BOX
from bot.vision.pointer import pointer_mask
from bot.vision.reader import read, tile_of
from bot.vision.skin import load_skins
from tests.support.modern_look import draw_modern, draw_pointer
from tests.unit.test_real_windows_modern import REAL

C = UNOPENED
#: Every digit, 0s, flags and covered cells, each beside others of every kind.
BOARD = np.pad(np.array([[1, 2, 3, 4, 5, 6], [7, 8, 0, C, FLAG, 0], [C, 1, 2, 3, C, C], [0, 0, 4, 5, 6, C]], np.int8),
               ((0, 5), (0, 3)), constant_values=C)


@pytest.mark.parametrize(("style", "pitch", "scale"), [("win7", 18.0, 1.0), ("win7", 14.4, 1.0), ("win7", 18.0, 2.0),
                                                      ("app", 24.0, 1.0)])
def test_a_pointer_anywhere_over_the_field_never_makes_a_cell_wrong(style, pitch, scale):
    skins = load_skins()
    image, (x0, y0) = draw_modern(BOARD, style, pitch)
    calibration, skin = calibrate(image, skins)
    field = calibration.with_pitch(skin)
    plain = read(image, field, skin).unknown
    step = pitch / 2.2  # (places about every half tile, over four rows and six columns; finer and
    # with the app's at 37 px in benchmarks.pointer)
    places = [(x0 + dx, y0 + dy) for dy in np.arange(0, 4 * pitch, step) for dx in np.arange(0, 6 * pitch, step)]
    xs, ys = field.centres()
    half = BOX * tile_of(field) / 2
    found = touched = unread = 0
    for x, y in places:
        shown = image.copy()
        draw_pointer(shown, x, y, scale)
        mask = pointer_mask(shown)
        found += mask is not None
        reading = read(shown, field, skin)
        wrong = (reading.codes != BOARD) & ~reading.unknown
        assert not wrong.any(), f"pointer at {x - x0:.0f}, {y - y0:.0f}: {np.argwhere(wrong).tolist()} read wrong"
        if mask is not None:
            touched += sum(bool(mask[round(cy - half) : round(cy + half), round(cx - half) : round(cx + half)].any())
                           for cy in ys for cx in xs)
        unread += int(reading.unknown.sum() - plain.sum())
    assert found == len(places)
    assert unread < touched  # (some cells it lies on are read: not merely refused)


def test_no_pointer_is_found_where_there_is_none():
    for style, pitch in (("win7", 18.0), ("app", 37.24), ("meadow", 27.3), ("sheet", 24.0)):
        assert pointer_mask(draw_modern(BOARD, style, pitch)[0]) is None, style
    if REAL.exists():
        import cv2

        for path in sorted(REAL.glob("msmodern_*.png")) + sorted(REAL.glob("win7_p1387h_f000.png")):
            assert pointer_mask(cv2.imread(str(path))) is None, path.name


def test_a_pointer_beside_a_dark_line_between_tiles_hides_only_the_cells_it_lies_on():
    """The outline's width is measured from the fill leftwards over dark pixels. Where the fill's
    middle row ran along a dark line between two rows of tiles (our meadow look, a 200 % pointer),
    the "outline" ran across the whole field and the pointer's extent grew over all of it: every
    cell unread, and a learner that leaves such cells out left out all."""
    pitch = 27.3
    image, (x0, y0) = draw_modern(BOARD, "meadow", pitch)
    draw_pointer(image, x0 + 4.4 * pitch, y0 + 1.4 * pitch, scale=2.0)
    mask = pointer_mask(image)
    assert mask is not None
    assert 0 < mask.sum() < 4 * pitch**2  # (a 200 % arrow: about 24 x 38 px)
