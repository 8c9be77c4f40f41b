"""Our own drawing of the modern Windows looks, for tests: a field of rounded, glossy tiles with
gaps between them, at any (non-integral) pitch, shaded across the board, no face.

Two styles, drawn here from scratch (no pixel of Microsoft's): "app", after the Microsoft app
(light-blue glossy covered tiles on a dark ground, white opened tiles, yellow flag tiles, digits
in the colours templates/msapp describes), and "win7", after Windows 7's (blue tiles shaded from
light at the top left to deep at the bottom right, pale opened tiles with grey lines, a red flag
on a blue tile, digits in templates/win7's colours; "win7-green": the same with green tiles, as
Windows 7's Change Appearance offers). A third, "meadow", is a look no skin
describes, for learning: green covered tiles shaded by their place, sand-coloured opened tiles
(coloured, not grey) darkening towards the top, digits in a palette of their own, a red flag, the
exploded mine on a red tile; its green covered tiles alone are Windows 7's green look's kind, and
"heather", the same with purple covered tiles, is a look no shipped skin's tiles match. A fourth,
"sheet", is grey on grey, after KDE's KMines in kind: raised light-grey covered tiles (a bevel,
lit above and left), flat grey opened cells with lighter lines between them, bold digits, a flag
that darkens its tile, shown mines on flat cells a shade darker than the opened ones, a dark
frame round the field. The digits are drawn in a font the glyph bank does not hold (Hershey
complex), so reading them is a test of shape, not a lookup. A fifth, "chequer", has no gap or
outline at all: flat square tiles in two shades each way, alternating like a chessboard (teal covered
tiles, pale opened ones), the meadow's digits and flag; only the shades part one tile from the next.
A sixth, "sunken", after Simon Tatham's Mines in kind: a field sunk into a light-grey window (its
frame dark above and left, white below and right), raised covered tiles with no gap (a bevel lit
above and left, 0.1 of the pitch), flat opened cells a shade darker with a dark line along each
one's top and left only (none between the last row or column and the white frame), the sheet's
digits, the exploded mine on a red cell.

Drawn four times larger and reduced with area averaging: edges are smooth and the pitch may be
any real number, as a scaled display shows them.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, WRONG_FLAG

SUPER = 4
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _bgr(text: str) -> tuple[int, int, int]:
    text = text.lstrip("#")
    return int(text[4:6], 16), int(text[2:4], 16), int(text[0:2], 16)


#: The covered tiles' shades (BGR: the top-left tile's, the bottom-right one's) of the shaded looks,
#: and the look each tinted variant is otherwise drawn as.
SHADES = {"win7": ((245, 200, 150), (215, 110, 60)), "win7-green": ((120, 228, 110), (45, 135, 40)),
          "meadow": ((110, 215, 120), (40, 150, 50)), "heather": ((220, 140, 215), (150, 50, 140))}
DRAWN_AS = {"win7-green": "win7", "heather": "meadow"}


#: The meadow look's digits (BGR): no shipped skin's.
MEADOW_INK = {1: (170, 40, 120), 2: (90, 100, 0), 3: (0, 90, 200), 4: (110, 30, 20), 5: (30, 30, 120),
              6: (120, 120, 0), 7: (20, 20, 20), 8: (110, 110, 110)}


#: The sheet look's digits (BGR): no shipped skin's.
SHEET_INK = {1: (140, 20, 20), 2: (20, 120, 20), 3: (20, 100, 140), 4: (100, 30, 110), 5: (20, 20, 140),
             6: (130, 130, 20), 7: (30, 30, 30), 8: (100, 100, 100)}


#: The chequer look's tiles (BGR), each kind in two shades alternating by place.
CHEQUER = {"covered": ((165, 160, 70), (150, 146, 60)), "opened": ((214, 226, 232), (198, 212, 220))}


def _ink(style: str) -> dict[int, tuple[int, int, int]]:
    if style in ("meadow", "chequer"):
        return MEADOW_INK
    if style in ("sheet", "sunken"):
        return SHEET_INK
    skin = "msapp" if style == "app" else "win7"
    digits = json.loads((TEMPLATES / skin / "skin.json").read_text())["look"]["digits"]
    ink = {int(d): _bgr(c) for d, c in digits.items()}
    ink.setdefault(7, (96, 25, 95) if style == "app" else (40, 40, 40))  # (the app's 7: purple in a store picture)
    ink.setdefault(8, (120, 120, 120))
    return ink


def rounded(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, radius: int, colour) -> None:
    """A filled rectangle with round corners of `radius`, corners (x0, y0) and (x1, y1) included."""
    cv2.rectangle(img, (x0 + radius, y0), (x1 - radius, y1), colour, -1)
    cv2.rectangle(img, (x0, y0 + radius), (x1, y1 - radius), colour, -1)
    for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius), (x0 + radius, y1 - radius),
                   (x1 - radius, y1 - radius)):
        cv2.circle(img, (cx, cy), radius, colour, -1)


def _glossy(img: np.ndarray, box: tuple[int, int, int, int], radius: int, top, bottom) -> None:
    """A tile shaded from `top` to `bottom` colour, its upper half lit."""
    x0, y0, x1, y1 = box
    part = img[y0 : y1 + 1, x0 : x1 + 1]
    h, w = part.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    rounded(mask, 0, 0, w - 1, h - 1, radius, 255)
    t = np.linspace(0, 1, h)[:, None, None]
    grad = np.broadcast_to(np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t, (h, w, 3)).copy()
    lit = np.zeros_like(mask)
    rounded(lit, 2 * SUPER, 2 * SUPER, w - 1 - 2 * SUPER, h // 2, max(1, radius // 2), 255)
    grad[lit > 0] = grad[lit > 0] * 0.7 + 255 * 0.3
    part[mask > 0] = grad[mask > 0].astype(np.uint8)


def _raised(img: np.ndarray, box: tuple[int, int, int, int], face, edge: int) -> None:
    """A raised tile: its face, lit along the top and left, shaded along the bottom and right."""
    x0, y0, x1, y1 = box
    img[y0 : y1 + 1, x0 : x1 + 1] = (150, 150, 150)
    img[y0 : y1 + 1 - edge, x0 : x1 + 1 - edge] = (235, 235, 235)
    img[y0 + edge : y1 + 1 - edge, x0 + edge : x1 + 1 - edge] = face


def _digit(img: np.ndarray, box: tuple[int, int, int, int], text: str, colour, bold: float = 1.0) -> None:
    x0, y0, x1, y1 = box
    size = (y1 - y0) / 42.0 * (1.0 + (bold - 1.0) / 2)
    thickness = max(1, round(size * 2.2 * bold))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_COMPLEX, size, thickness)
    cv2.putText(img, text, ((x0 + x1 - w) // 2, (y0 + y1 + h) // 2), cv2.FONT_HERSHEY_COMPLEX, size, colour,
                thickness, cv2.LINE_AA)


def _flag(img: np.ndarray, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pole = x0 + w // 2
    cv2.fillPoly(img, [np.array([[pole, y0 + h // 5], [pole, y0 + h // 2], [x0 + w // 5, y0 + h * 7 // 20]])],
                 (20, 20, 210))
    cv2.line(img, (pole, y0 + h // 5), (pole, y1 - h // 4), (30, 30, 30), max(1, w // 16))


def _mine(img: np.ndarray, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    c, r = ((x0 + x1) // 2, (y0 + y1) // 2), (x1 - x0) // 4
    for a in range(0, 180, 45):
        dx, dy = int(1.4 * r * np.cos(np.radians(a))), int(1.4 * r * np.sin(np.radians(a)))
        cv2.line(img, (c[0] - dx, c[1] - dy), (c[0] + dx, c[1] + dy), (60, 60, 60), max(1, r // 4))
    cv2.circle(img, c, r, (70, 70, 70), -1)
    cv2.circle(img, (c[0] - r // 3, c[1] - r // 3), max(1, r // 4), (230, 230, 230), -1)


class ModernCanvas:
    """The screen with the game's window on it, the window drawn four times larger; cells are drawn
    one by one (a game that changes a few cells redraws those alone) and `image()` gives the
    screen. The field's top-left corner is `corner` (image pixels): cell (r, c) spans
    [x + c * pitch, x + (c + 1) * pitch) across, likewise down. Only the window's area is drawn
    large (whole screen pixels, so shrinking it alone gives the same pixels as shrinking a whole
    large screen): a large screen a canvas took most of a drawn test's time."""

    def __init__(self, shape: tuple[int, int], style: str = "app", pitch: float = 37.24,
                 at: tuple[int, int] = (100, 80), screen: tuple[int, int] = (1280, 800)) -> None:
        rows, cols = shape
        self.shades = SHADES.get(style)  # (the covered tiles' colours; the rest as the look drawn)
        style = DRAWN_AS.get(style, style)
        self.rows, self.cols, self.style, self.pitch, self.screen = rows, cols, style, pitch, screen
        ground = {"app": (48, 44, 40), "win7": (236, 226, 216), "meadow": (200, 205, 200),
                  "sheet": (172, 172, 172), "chequer": (60, 90, 50), "sunken": (230, 230, 230)}[style]
        margin = pitch * 1.2
        wx1 = int((at[0] + 2 * margin + cols * pitch) * SUPER)
        wy1 = int((at[1] + 2 * margin + rows * pitch + pitch) * SUPER)
        # The window's area in whole screen pixels, one spare all round (the field's dark ground
        # reaches a pixel past the tiles), clipped to the screen.
        self.x0, self.y0 = max(0, at[0] - 1), max(0, at[1] - 1)
        self.x1 = max(self.x0 + 1, min(screen[0], -(-wx1 // SUPER) + 1))  # (a window off the screen: a pixel,
        self.y1 = max(self.y0 + 1, min(screen[1], -(-wy1 // SUPER) + 1))  # never shown)
        self.desktop = (120, 90, 60)
        shape = ((self.y1 - self.y0) * SUPER, (self.x1 - self.x0) * SUPER, 3)
        self.big = big = np.full(shape, self.desktop, np.uint8)
        self.origin = (self.x0 * SUPER, self.y0 * SUPER)  # (large pixels: where `big` starts on the large screen)
        ox, oy = self.origin
        big[max(0, int(at[1] * SUPER) - oy) : wy1 - oy, max(0, int(at[0] * SUPER) - ox) : wx1 - ox] = ground
        self.corner = fx, fy = at[0] + margin, at[1] + margin
        self.between = ground  # what shows between the tiles
        if style in ("win7", "meadow"):  # the field's dark ground: a dark line round every tile
            self.between = (90, 70, 60)
            far = (int((fx + cols * pitch + 1) * SUPER) - ox, int((fy + rows * pitch + 1) * SUPER) - oy)
            cv2.rectangle(big, (int((fx - 1) * SUPER) - ox, int((fy - 1) * SUPER) - oy), far, self.between, -1)
        if style == "sheet":  # a dark frame round the field, lighter lines between its opened cells
            self.between = (204, 204, 204)
            near = (int((fx - 4) * SUPER) - ox, int((fy - 4) * SUPER) - oy)
            far = (int((fx + cols * pitch + 4) * SUPER) - ox, int((fy + rows * pitch + 4) * SUPER) - oy)
            cv2.rectangle(big, near, far, (85, 85, 85), -1)
        if style == "sunken":  # the field's frame: shadowed above and left, lit below and right
            f = max(SUPER, int(pitch * 0.15 * SUPER))
            x0, y0 = int(fx * SUPER) - ox, int(fy * SUPER) - oy
            x1, y1 = int((fx + cols * pitch) * SUPER) - ox, int((fy + rows * pitch) * SUPER) - oy
            big[y0 - f : y1 + f, x0 - f : x1 + f] = (255, 255, 255)
            big[y0 - f : y0, x0 - f : x1] = (150, 150, 150)
            big[y0 - f : y1, x0 - f : x0] = (150, 150, 150)
        self.gap = pitch * {"app": 0.16, "win7": 0.06, "meadow": 0.1, "sheet": 0.06, "chequer": 0.0,
                            "sunken": 0.0}[style]
        self.radius = int(pitch * {"app": 0.12, "win7": 0.06, "meadow": 0.15, "sheet": 0.0, "chequer": 0.0,
                                   "sunken": 0.0}[style] * SUPER)
        self.ink = _ink(style)

    def cell(self, r: int, c: int, code: int) -> None:
        big, style, radius, pitch, gap = self.big, self.style, self.radius, self.pitch, self.gap
        rows, cols = self.rows, self.cols
        fx, fy = self.corner
        ox, oy = self.origin
        big[int((fy + r * pitch) * SUPER) - oy : int((fy + (r + 1) * pitch) * SUPER) - oy,
            int((fx + c * pitch) * SUPER) - ox : int((fx + (c + 1) * pitch) * SUPER) - ox] = self.between
        x0, y0 = int((fx + c * pitch + gap / 2) * SUPER) - ox, int((fy + r * pitch + gap / 2) * SUPER) - oy
        x1, y1 = int((fx + (c + 1) * pitch - gap / 2) * SUPER) - ox, int((fy + (r + 1) * pitch - gap / 2) * SUPER) - oy
        box = (x0, y0, x1, y1)
        covered = code in (UNOPENED, FLAG, QUESTION) or (code == MINE and style in ("win7", "meadow"))
        if style == "app":
            if code == FLAG:
                _glossy(big, box, radius, (70, 200, 250), (40, 170, 230))
            elif covered or code == MINE:
                _glossy(big, box, radius, (250, 200, 120), (225, 160, 60))
            else:
                rounded(big, x0, y0, x1, y1, radius, (236, 236, 236))
        elif style == "sheet":
            edge = max(SUPER, int(pitch * 0.08 * SUPER))
            if code in (UNOPENED, FLAG, QUESTION):
                _raised(big, box, (186, 186, 186) if code == FLAG else (207, 207, 207), edge)
            else:  # flat, to the lighter line round the cell
                line = max(1, int(pitch * 0.04 * SUPER))
                flat = {MINE: (176, 176, 176), WRONG_FLAG: (176, 176, 176), EXPLODED: (40, 150, 235)}
                x0, y0 = int((fx + c * pitch) * SUPER) - ox + line, int((fy + r * pitch) * SUPER) - oy + line
                x1 = int((fx + (c + 1) * pitch) * SUPER) - ox - line
                y1 = int((fy + (r + 1) * pitch) * SUPER) - oy - line
                big[y0:y1, x0:x1] = flat.get(code, (192, 192, 192))
        elif style == "sunken":
            if code in (UNOPENED, FLAG, QUESTION):
                _raised(big, box, (205, 205, 205), max(SUPER, int(pitch * 0.1 * SUPER)))
            else:  # flat, a dark line along its top and left
                line = max(SUPER, int(pitch * 0.05 * SUPER))
                big[y0:y1, x0:x1] = (150, 150, 150)
                big[y0 + line : y1, x0 + line : x1] = (40, 40, 235) if code == EXPLODED else (192, 192, 192)
        elif style == "chequer":  # flat, gapless; each tile's shade by its place's parity
            odd = (r + c) % 2
            tile = CHEQUER["covered" if covered or code == MINE else "opened"][odd]
            big[y0:y1, x0:x1] = (60, 60, 220) if code == EXPLODED else tile
        elif style == "meadow":
            k = (r / max(1, rows - 1) + c / max(1, cols - 1)) / 2
            if covered or code == MINE:
                light = np.array(self.shades[0]) * (1 - k) + np.array(self.shades[1]) * k
                _glossy(big, box, radius, tuple(light), tuple(light * 0.85))
            elif code == EXPLODED:
                rounded(big, x0, y0, x1, y1, radius, (60, 60, 220))
            else:
                shade = 0.85 + 0.15 * min(1.0, r / 3)  # darker under the header
                rounded(big, x0, y0, x1, y1, radius, tuple(np.array((150, 200, 228)) * shade))
        else:
            k = (r / max(1, rows - 1) + c / max(1, cols - 1)) / 2  # light top-left, deep bottom-right
            light = np.array(self.shades[0]) * (1 - k) + np.array(self.shades[1]) * k
            if covered:
                _glossy(big, box, radius, tuple(light), tuple(light * 0.8))
            else:
                rounded(big, x0, y0, x1, y1, radius, (238, 232, 228))
        if code == FLAG:
            _flag(big, box)
        elif code in (MINE, EXPLODED, WRONG_FLAG):
            _mine(big, box)
        elif code > 0:
            _digit(big, box, str(code), self.ink[code], 1.8 if style in ("sheet", "sunken") else 1.0)

    def image(self) -> np.ndarray:
        screen = np.full((self.screen[1], self.screen[0], 3), self.desktop, np.uint8)
        size = (self.x1 - self.x0, self.y1 - self.y0)
        shown = screen[self.y0 : self.y1, self.x0 : self.x1]
        shown[:] = cv2.resize(self.big, size, interpolation=cv2.INTER_AREA)[: shown.shape[0], : shown.shape[1]]
        return screen


def draw_modern(board: np.ndarray, style: str = "app", pitch: float = 37.24, at: tuple[int, int] = (100, 80),
                screen: tuple[int, int] = (1280, 800)) -> tuple[np.ndarray, tuple[float, float]]:
    """The screen with the game's window on it, and the field's top-left corner (image pixels):
    cell (r, c) spans [x + c * pitch, x + (c + 1) * pitch) across, likewise down."""
    canvas = ModernCanvas(board.shape, style, pitch, at, screen)
    for r in range(board.shape[0]):
        for c in range(board.shape[1]):
            canvas.cell(r, c, int(board[r, c]))
    return canvas.image(), canvas.corner


#: A mouse pointer's outline at 100 % (the arrow Windows draws: a straight left edge, a diagonal
#: one, a tail between them), tip at (0, 0), in px: drawn here from that description.
POINTER = np.array([(0, 0), (0, 15.5), (3.8, 11.8), (6.5, 17.5), (8.8, 16.6), (6.2, 10.8), (10.8, 10.8)])


def draw_pointer(image: np.ndarray, x: float, y: float, scale: float = 1.0) -> None:
    """The pointer, tip at (x, y), white with a black outline, smoothed, as a recording shows it."""
    points = np.round((POINTER * scale + (x, y)) * 8).astype(np.int32)
    cv2.fillPoly(image, [points], (255, 255, 255), cv2.LINE_AA, 3)
    cv2.polylines(image, [points], True, (0, 0, 0), max(1, round(scale)), cv2.LINE_AA, 3)
