"""The mine counter of a panel beside the field (bot.vision.panel): what a line of text confirms."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bot.vision.panel import Line, text_lines


@pytest.mark.parametrize(("text", "loose", "number", "shown"), [
    ("99", "99", 99, True),  # read plainly
    ("9?", "99", 99, True),  # the second 9 faint (Windows 7's box lightens to its right), still nearest a 9
    ("?9", "99", 99, True),
    ("??", "99", 99, False),  # nothing read plainly: no confirmation from faint glyphs alone
    ("9?", "98", 99, False),  # the faint glyph nearer another digit
    ("9?", "9?", 99, False),  # ... or nearer none by LOOSE_SCORE
    ("?", "7", 7, False),  # a lone glyph confirms only when plain
    ("19?", "199", 99, False),  # the run touches another digit: 199 is no 99
    ("9?:", "99:", 99, False),  # ... or a colon: the time
    ("?9?", "?99", 99, True),  # an icon's gloss beside the counter
    ("09:17", "09:17", 9, False),  # the time is no counter
    ("?26", "?26", 26, True),  # the app's mine icon, no digit even loosely, beside its count
    ("????30?16", "?9??30?16", 16, False),  # a number inside other text: the app's "Expert 30x16"
    ("?0?0", "?000", 0, False),  # ... an icon's parts read loosely as digits, one of them plainly
    ("?22", "722", 22, True),  # the app's icon at 150 %, loosely a 7
    ("?25", "?25", 26, False),  # a digit misread: refused, never the expected count
    ("?9??", "?900", 9, False),  # a word: the app's "Menu" beside its button, one letter plainly a 9
])
def test_a_line_shows_the_number_the_board_expects(text: str, loose: str, number: int, shown: bool):
    assert Line(text, 0, 0, loose).shows(number) is shown


def _panel(width: int = 500, height: int = 300, colour: tuple[int, int, int] = (50, 45, 40)) -> np.ndarray:
    return np.full((height, width, 3), colour, np.uint8)


def test_bold_digits_at_a_large_pitch_keep_the_joins_of_their_strokes():
    """Each pixel's ink is judged against a box round it of 0.4 pitches (15 px at least): in a fixed
    15 px box, the bowl of a bold 6 drawn 44 px high lifted the median at the join of its stem and
    bowl, the loop opened and the 6 read as a 5 (the app's counter at 200 %, pitch 78)."""
    image = _panel(colour=(140, 60, 25))  # (BGR) the app's dark blue panel
    cv2.putText(image, "26", (150, 180), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (250, 250, 250), 7, cv2.LINE_AA)
    assert [line.text for line in text_lines(image, (0, 0, 500, 300), 78.0)] == ["26"]


def test_a_ring_with_an_icon_in_it_or_cut_by_the_searched_box_is_no_digit():
    """The app's menu button, a list in a ring, read plainly as a 0 and confirmed an expected 0.
    No digit has ink inside its loops; and a glyph the searched box's edge cuts is no digit (this
    ring cut 20 px from its left read plainly as a 3)."""
    ring = _panel()
    cv2.circle(ring, (200, 150), 22, (245, 245, 245), 3, cv2.LINE_AA)
    assert [line.text for line in text_lines(ring, (0, 0, 500, 300), 60.0)] == ["0"]  # (a ring alone: a 0)
    for left in (180, 190):
        assert not any(c.isdigit() for line in text_lines(ring, (left, 0, 500, 300), 60.0) for c in line.text)
    button = ring.copy()
    for y in (142, 150, 158):
        cv2.line(button, (193, y), (207, y), (245, 245, 245), 2)
    assert not any(c.isdigit() for line in text_lines(button, (0, 0, 500, 300), 60.0) for c in line.text)
