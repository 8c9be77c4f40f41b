"""The mine counter of a panel beside the field (bot.vision.panel): what a line of text confirms."""

from __future__ import annotations

import pytest

from bot.vision.panel import Line


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
])
def test_a_line_shows_the_number_the_board_expects(text: str, loose: str, number: int, shown: bool):
    assert Line(text, 0, 0, loose).shows(number) is shown
