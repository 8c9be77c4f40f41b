"""The dry run's overlay, without a display: what it draws where, and the Windows half of the seam."""

from __future__ import annotations

import numpy as np
import pytest

from bot.play.overlay import BLUE, GREEN, RED, _label_width, drawing
from bot.screen.platform import (
    GWL_EXSTYLE,
    KEY_COLOUR,
    WDA_EXCLUDEFROMCAPTURE,
    WS_EX_LAYERED,
    WS_EX_TRANSPARENT,
    OverlayError,
    Platform,
    Windows,
)
from bot.solver.advice import Advice
from bot.vision.reader import Field

FIELD = Field(100, 200, 16, 9, 9)


def advice(safe=(), mines=(), guess=None, safety=None) -> Advice:
    return Advice(frozenset(safe), frozenset(mines), None, guess, safety)


def painted(d, colour: str) -> np.ndarray:
    """Screen pixels (of a 600 x 600 screen) that rectangles of this colour cover."""
    out = np.zeros((600, 600), bool)
    for (x, y, w, h), c in d.rects:
        if c == colour:
            out[y : y + h, x : x + w] = True
    return out


def test_rings_sit_inside_their_cells_in_their_colours():
    d = drawing(FIELD, advice(safe={(0, 0), (2, 3)}, mines={(8, 8)}))
    green, red = painted(d, GREEN), painted(d, RED)
    for (r, c), mask in (((0, 0), green), ((2, 3), green), ((8, 8), red)):
        x0, y0 = 100 + 16 * c, 200 + 16 * r
        cell = mask[y0 : y0 + 16, x0 : x0 + 16]
        assert cell[1, 1:15].all() and cell[14, 1:15].all() and cell[1:15, 1].all() and cell[1:15, 14].all()
        assert not cell[0].any() and not cell[:, 0].any() and not cell[15].any() and not cell[:, 15].any()
        assert not cell[4:12, 4:12].any()  # the number or cover inside stays visible
    assert green.sum() == 2 * green[200:216, 100:116].sum() and not (green & red).any()
    assert d.label is None  # no guess while something is safe


def test_a_guess_gets_a_blue_ring_and_its_odds_under_the_field():
    d = drawing(FIELD, advice(guess=(4, 5), safety=0.8312))
    assert painted(d, BLUE)[200 + 4 * 16 + 1, 100 + 5 * 16 + 1]
    (x, y, w, h), text = d.label
    assert text == "guess r5 c6 83%"  # (the long form is wider than this 144 px field)
    assert y >= 200 + 9 * 16 and x >= 100 and x + w <= 100 + 9 * 16  # under the field, not over the face
    ax, ay, aw, ah = d.area
    assert ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah
    assert w == _label_width(text)  # the whole text fits its box: none of it cut at the field's edge


def test_under_a_wide_field_the_label_says_it_in_full():
    """An Expert field (480 px) has room for the long form; a Beginner one at 16 px (144 px) took
    "guess row 1, col 1: 88% safe" cut to "guess row 1, col 1: 88" before the short form."""
    d = drawing(Field(100, 200, 16, 16, 30), advice(guess=(0, 0), safety=0.88))
    (_, _, w, _), text = d.label
    assert text == "guess row 1, col 1: 88% safe" and w == _label_width(text) <= 30 * 16


def test_the_mask_is_what_is_drawn_in_a_grab_of_any_box():
    d = drawing(FIELD, advice(safe={(1, 1)}, guess=None))
    full = painted(d, GREEN)
    mask = d.mask(90, 190, 200, 100)
    assert np.array_equal(mask, full[190:290, 90:290])
    assert not drawing(FIELD, None).boxes()  # a finished game: nothing drawn


class FakeTop:
    def __init__(self) -> None:
        self.attrs: dict = {}

    def attributes(self, name, value):
        self.attrs[name] = value

    def update_idletasks(self):
        pass

    def winfo_id(self):
        return 7

    def wm_frame(self):
        return "0x2a"


class FakeUser32:
    def __init__(self) -> None:
        self.style, self.affinity = 0x100, None

    def GetWindowLongW(self, hwnd, index):
        assert (hwnd, index) == (42, GWL_EXSTYLE)
        return self.style

    def SetWindowLongW(self, hwnd, index, value):
        assert (hwnd, index) == (42, GWL_EXSTYLE)
        self.style = value

    def SetWindowDisplayAffinity(self, hwnd, value):
        self.affinity = (hwnd, value)


class FakeWindll:
    def __init__(self) -> None:
        self.user32 = FakeUser32()


def test_windows_overlay_is_keyed_topmost_click_through_and_not_captured():
    windll = FakeWindll()
    top = FakeTop()
    Windows(windll).prepare_overlay(top)
    assert top.attrs == {"-transparentcolor": KEY_COLOUR, "-topmost": True}
    style = windll.user32.style
    assert style & 0x100 and style & WS_EX_LAYERED and style & WS_EX_TRANSPARENT  # kept, and clicks pass
    assert windll.user32.affinity == (42, WDA_EXCLUDEFROMCAPTURE)


def test_elsewhere_no_overlay_is_promised():
    with pytest.raises(OverlayError):
        Platform().prepare_overlay(FakeTop())
