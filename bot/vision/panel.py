"""The mine counter of a game that shows it as plain text in a panel beside its field (Windows 7:
a box under the field's right corner; the Microsoft app: a side panel or a header, next to a mine
icon, the time beside it as "09:17").

Light digits on a darker box are found near the field, split into glyphs by empty columns and named
by their loops and by the drawn digits of bot.vision.glyphs (no game's pixels). A counter is a line
that is one number alone, one to three digits, icons beside it no digit (the time has a colon, or
lies in a box of its own; a level's name has letters). Drawn fonts name a game's digits only
roughly (the runner-up often within 0.05 of the right digit on the screenshots measured), so a
line is taken for the counter only where the board confirms it: the level's mine total, less the
flags shown, is the number read. Otherwise the counter is None: refused, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.board import FLAG
from bot.vision.glyphs import shape_scores

DIGITS = "0123456789"
MIN_SCORE = 0.55  # shape score (bot.vision.glyphs) of the nearest drawn digit below which a glyph is no digit
#: ... and below which it cannot even confirm a digit the board expects beside digits read plainly:
#: Windows 7's counter box lightens to its right, and its second 9 scored 0.42-0.54 at 125-200 %,
#: still nearest the 9 (the 0 at 0.31-0.47).
LOOSE_SCORE = 0.4
BRIGHTER = 40  # luma over the box around it that makes a pixel ink
TEXT = (0.2, 0.9)  # a text line's height, in cell pitches
HOLE = 0.04  # of a glyph's box: the least area of a loop's hole
REACH = (3.0, 14.0, 5.0, 3.0)  # pitches searched left of, right of, above and below the field
AROUND = 0.4  # pitches: the side of the box a pixel's ink is judged against


@dataclass(frozen=True)
class Line:
    text: str  # digits, ":" for a colon, "?" for a glyph that is no digit (an icon's gloss, a letter)
    x: int
    y: int
    #: The same glyphs, each its nearest digit down to LOOSE_SCORE ("?" below): only to confirm.
    loose: str

    def alone(self) -> tuple[str, str] | None:
        """The line's text and loose text without the glyphs at either end that are no digit even
        loosely (an icon beside the number, a box's gloss), where what is left is one number alone:
        one to three glyphs, each a digit plainly or loosely, no colon. None for any other line (the
        time "09:17", a level's name "Expert 30x16", a line of the ads beside the app's field)."""
        start, stop = 0, len(self.text)
        while start < stop and self.text[start] == "?" and self.loose[start] == "?":
            start += 1
        while stop > start and self.text[stop - 1] == "?" and self.loose[stop - 1] == "?":
            stop -= 1
        text, loose = self.text[start:stop], self.loose[start:stop]
        return (text, loose) if 1 <= len(text) <= 3 and loose.isdigit() else None

    def shows(self, number: int) -> bool:
        """Whether the line is `number` alone (Line.alone): its digits read plainly, a glyph at
        either end that is no digit plainly left out (an icon near a digit in shape: the app's mine
        icon loosely a 7 at 150 %); or some of its digits read plainly and the others no digit by
        MIN_SCORE yet nearest that one (`loose`). A lone glyph confirms only when plain. A run of
        digits inside other text (the 16 of "Expert 30x16", the 0 of a time) confirms nothing."""
        alone = self.alone()
        if alone is None:
            return False
        text, loose = alone
        want = str(number)
        if _one_stripped(text) == want:
            return True
        return len(text) == len(want) and 0 < sum(t.isdigit() for t in text) < len(want) \
            and all(t == w or (t == "?" and k == w) for t, k, w in zip(text, loose, want, strict=True))


def _one_stripped(text: str) -> str:
    """The text without one glyph that is no digit ("?") at either end: an icon beside a number
    ("?26"). More is a word, not a number beside its icon: the app's "Menu" read "?9??"."""
    start = 1 if text.startswith("?") else 0
    stop = len(text) - 1 if text.endswith("?") and len(text) > start else len(text)
    return text[start:stop]


def _holds_ink(mask: np.ndarray) -> bool:
    """Whether ink lies inside a loop of the glyph's largest stroke: an icon in a ring (the app's
    menu button, a list in a circle, read plainly as a 0). No digit has anything inside its loops."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if count <= 2:
        return False
    outer = labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    outside = np.pad(~outer, 1, constant_values=True).astype(np.uint8)
    cv2.floodFill(outside, None, (0, 0), 2)
    enclosed = outside[1:-1, 1:-1] == 1
    return bool((mask & ~outer & enclosed).any())


def holes(mask: np.ndarray) -> list[float]:
    """The enclosed holes of a glyph, each as its centre's height in the glyph (0 top, 1 bottom)."""
    ys = np.nonzero(mask.any(axis=1))[0]
    top, height = ys[0], ys[-1] - ys[0] + 1
    padded = np.pad(~mask, 1, constant_values=True).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(padded, connectivity=4)
    outside = labels[0, 0]
    least = HOLE * mask.shape[1] * height  # a pinhole between two smoothed strokes is no loop
    return [float((centres[i][1] - 1 - top) / height) for i in range(1, count)
            if i != outside and stats[i][4] >= least]


def _allowed(mask: np.ndarray) -> str:
    """The digits a glyph's holes leave: two, an 8; one low, a 6 (or 0); one high, a 9, 4 (or 0);
    one in the middle, a 0 (or 4, 6, 9). No hole rules nothing out (a thin stroke smoothed or
    paletted may break a loop open)."""
    found = holes(mask)
    if len(found) == 1:
        return "06" if found[0] > 0.58 else "049" if found[0] < 0.42 else "0469"
    return "8" if len(found) == 2 else DIGITS if not found else ""


def nearest_digit(mask: np.ndarray) -> tuple[str, float]:
    """The nearest drawn digit (bot.vision.glyphs) of those with the glyph's holes, and its score;
    "?" and -1 where no digit has such holes."""
    allowed = _allowed(mask)
    scores = shape_scores(mask, tuple(DIGITS))
    best = max((d for d in DIGITS if d in allowed), key=lambda d: scores[DIGITS.index(d)], default=None)
    return ("?", -1.0) if best is None else (best, float(scores[DIGITS.index(best)]))


def _ink(image: np.ndarray, pitch: float) -> np.ndarray:
    """Light, less saturated pixels on a darker box: text drawn over a panel. The box round a pixel
    is AROUND pitches wide, 15 px at least: at a fixed 15 px, the app's bold 6 at 200 % (pitch
    78) had the join of its stem and bowl lost, the bowl's ink lifting the median there."""
    luma = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 1]
    side = max(15, int(AROUND * pitch) // 2 * 2 + 1)
    around, sat_around = cv2.medianBlur(luma, side), cv2.medianBlur(sat, side)
    return ((luma.astype(np.int16) - around > BRIGHTER) & (luma > 110) & (sat < sat_around))


def _read_line(ink: np.ndarray, x: int, y: int, w: int, h: int) -> Line:
    box = ink[y:y + h, x:x + w]
    columns = np.concatenate([box.any(axis=0), [False]])
    text, loose, start = "", "", None
    for i, inked in enumerate(columns):
        if inked and start is None:
            start = i
        elif not inked and start is not None:
            glyph, start_at = box[:, start:i], start
            start = None
            rows = np.nonzero(glyph.any(axis=1))[0]
            if rows[-1] - rows[0] + 1 < 0.6 * h:  # a colon, a dot, a dash: no digit
                dots = cv2.connectedComponents(glyph.astype(np.uint8))[0] - 1
                mark = ":" if dots == 2 and i - start_at <= 0.5 * h else "?"
                text, loose = text + mark, loose + mark
                continue
            best, score = ("?", -1.0) if _holds_ink(glyph) else nearest_digit(glyph)
            text += best if score >= MIN_SCORE else "?"
            loose += best if score >= LOOSE_SCORE else "?"
    return Line(text, x, y, loose)


def text_lines(image: np.ndarray, box: tuple[int, int, int, int], pitch: float,
               hole: tuple[int, int, int, int] | None = None) -> list[Line]:
    """Lines of light text in box (x0, y0, x1, y1) of the image, each read glyph by glyph; nothing
    inside hole (the field: its tiles' gloss is no text)."""
    x0, y0, x1, y1 = box
    ink = _ink(image[y0:y1, x0:x1], pitch)
    if hole is not None:
        ink[max(0, hole[1] - y0):max(0, hole[3] - y0), max(0, hole[0] - x0):max(0, hole[2] - x0)] = False
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    low, high = TEXT[0] * pitch, TEXT[1] * pitch
    inside = stats[:, 0] > 0
    inside &= stats[:, 1] > 0
    inside &= stats[:, 0] + stats[:, 2] < ink.shape[1]
    inside &= stats[:, 1] + stats[:, 3] < ink.shape[0]  # (a glyph cut by the box's edge: no digit)
    parts = sorted(tuple(int(v) for v in stats[i][:4]) for i in range(1, count)
                   if inside[i] and stats[i][3] <= high and stats[i][2] <= 2 * high and stats[i][4] >= 2)
    groups: list[list[int]] = []  # [x, y, w, h] of each line so far
    for x, y, w, h in parts:
        for g in groups:
            overlap = min(y + h, g[1] + g[3]) - max(y, g[1])
            if overlap > 0.5 * min(h, g[3]) and x - (g[0] + g[2]) < 0.8 * max(h, g[3]):
                right, bottom = max(x + w, g[0] + g[2]), max(y + h, g[1] + g[3])
                g[0], g[1] = min(x, g[0]), min(y, g[1])
                g[2], g[3] = right - g[0], bottom - g[1]
                break
        else:
            groups.append([x, y, w, h])
    lines = [_read_line(ink, *g) for g in groups if low <= g[3] <= high]
    return [replace(line, x=line.x + x0, y=line.y + y0) for line in lines]


def read_panel_counter(image: np.ndarray, field_box: tuple[float, float, float, float], pitch: float,
                       codes: np.ndarray, total: int | None) -> int | None:
    """The counter beside a field at field_box (left, top, right, bottom), confirmed by the board:
    a line that shows the level's total (None where unknown) less the flags shown, else None."""
    if total is None:
        return None
    left, top, right, bottom = field_box
    height, width = image.shape[:2]
    box = (max(0, int(left - REACH[0] * pitch)), max(0, int(top - REACH[2] * pitch)),
           min(width, int(right + REACH[1] * pitch)), min(height, int(bottom + REACH[3] * pitch)))
    hole = (int(left), int(top), int(np.ceil(right)), int(np.ceil(bottom)))
    expected = total - int((codes == FLAG).sum())
    lines = text_lines(image, box, pitch, hole)
    return expected if any(line.shows(expected) for line in lines) else None
