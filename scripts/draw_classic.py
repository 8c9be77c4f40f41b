#!/usr/bin/env python3
"""Draw the classic grey Windows Minesweeper skin (16 px cells, Winmine's colours) from code.

    python3 scripts/draw_classic.py templates/classic

The sprites are our own drawing in the classic colours (../shared/README.md), not copies of
Microsoft's bitmaps; what matters for reading is the palette and the layout, which match.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

GREY, DARK, WHITE, BLACK = (192, 192, 192), (128, 128, 128), (255, 255, 255), (0, 0, 0)
RED, YELLOW, DARK_RED = (0, 0, 255), (0, 255, 255), (0, 0, 128)
DIGIT_BGR = {  # classic digit colours, as BGR
    1: (255, 0, 0), 2: (0, 128, 0), 3: (0, 0, 255), 4: (128, 0, 0),
    5: (0, 0, 128), 6: (128, 128, 0), 7: (0, 0, 0), 8: (128, 128, 128),
}
# Digits are drawn bold in a 10 x 10 box, as the classic family draws them: stems 3 px wide,
# bars 2 px tall, built from the parts below (our own construction, not a copy of any bitmap).
BOX = 3  # the glyph box's top-left pixel inside the cell
PARTS = {  # name: (rows, cols) of the 10 x 10 box
    "top": (slice(0, 2), slice(1, 9)), "mid": (slice(4, 6), slice(1, 9)), "bot": (slice(8, 10), slice(1, 9)),
    "ul": (slice(0, 6), slice(0, 3)), "ur": (slice(0, 6), slice(7, 10)),
    "ll": (slice(4, 10), slice(0, 3)), "lr": (slice(4, 10), slice(7, 10)),
    "r4": (slice(0, 10), slice(6, 9)),  # the 4's stem stands off the box's right edge
}
DIGIT_PARTS = {
    2: ("top", "mid", "bot", "ur", "ll"), 3: ("top", "mid", "bot", "ur", "lr"), 4: ("mid", "ul", "ur", "lr"),
    5: ("top", "mid", "bot", "ul", "lr"), 6: ("top", "mid", "bot", "ul", "ll", "lr"),
    7: ("top", "ur", "lr"), 8: ("top", "mid", "bot", "ul", "ur", "ll", "lr"),
}
SEGMENTS = {  # which of the 7 LED segments (a-g) each digit lights
    "0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc", "5": "afgcd",
    "6": "afgedc", "7": "abc", "8": "abcdefg", "9": "abcdfg", "minus": "g",
}


def opened() -> np.ndarray:
    cell = np.full((16, 16, 3), GREY, np.uint8)
    cell[0, :] = DARK
    cell[:, 0] = DARK
    return cell


def raised(h: int, w: int) -> np.ndarray:
    """A raised button, the classic 3-D look: 2 px of light on the top and left, 2 px of shadow on
    the bottom and right, the two meeting on the diagonal at the other corners."""
    img = np.full((h, w, 3), GREY, np.uint8)
    img[:2, : w - 1] = WHITE
    img[: h - 1, :2] = WHITE
    img[h - 2 :, 1:] = DARK
    img[1:, w - 2 :] = DARK
    img[0, w - 1] = img[h - 1, 0] = img[h - 2, 1] = img[1, w - 2] = GREY
    img[1, w - 1] = img[h - 1, 1] = DARK
    return img


def unopened() -> np.ndarray:
    return raised(16, 16)


def disc(size: int, centre: float, radius: float) -> np.ndarray:
    yy, xx = np.mgrid[:size, :size]
    return (yy - centre) ** 2 + (xx - centre) ** 2 <= radius**2


def digit(cell: np.ndarray, n: int, colour: tuple[int, int, int]) -> np.ndarray:
    box = np.zeros((10, 10), bool)
    if n == 1:
        box[0:8, 4:7] = True  # stem
        box[1:4, 2:4] = True  # its flag, stepping down to the left
        box[0, 3] = box[2:4, 1] = True
        box[8:10, 1:9] = True  # foot
    else:
        for part in DIGIT_PARTS[n]:
            box[PARTS[part]] = True
    if n in (2, 3, 5, 6, 8):  # rounded outer corners
        box[0, 0] = box[0, 9] = box[9, 0] = box[9, 9] = False
    out = cell.copy()
    out[BOX : BOX + 10, BOX : BOX + 10][box] = colour
    return out


def question(cell: np.ndarray) -> np.ndarray:
    box = np.zeros((10, 10), bool)
    box[0:2, 2:8] = True
    box[1:4, 7:10] = True
    box[1:3, 0:3] = True
    box[4:6, 4:8] = True
    box[6, 4:7] = True
    box[8:10, 4:7] = True
    out = cell.copy()
    out[BOX : BOX + 10, BOX : BOX + 10][box] = BLACK
    return out


def flag(cell: np.ndarray) -> np.ndarray:
    out = cell.copy()
    cv2.fillPoly(out, [np.array([[8, 3], [8, 7], [3, 5]], np.int32)], RED)  # pennant on a pole
    out[8:10, 8] = BLACK
    out[10, 6:10] = BLACK
    out[11:13, 4:12] = BLACK  # base
    return out


def mine(cell: np.ndarray) -> np.ndarray:
    out = cell.copy()
    out[disc(16, 8, 4.6)] = BLACK  # the body
    out[2:15, 8] = BLACK  # spikes, four straight and four diagonal
    out[8, 2:15] = BLACK
    for d in (-4, 4):
        out[8 + d, 8 + d] = BLACK
        out[8 + d, 8 - d] = BLACK
    out[6:8, 6:8] = WHITE  # highlight
    return out


def face(kind: str) -> np.ndarray:
    """A 24 px raised button with a smiley: a yellow disc of 17 px ringed in black."""
    img = raised(24, 24)
    img[disc(24, 12, 8.5)] = BLACK
    img[disc(24, 12, 7.4)] = YELLOW
    eyes = ((9, 9), (9, 14))
    if kind == "lost":  # crossed eyes and a frown
        for y, x in ((9, 9), (9, 15)):
            for d in (-1, 0, 1):
                img[y + d, x + d] = img[y + d, x - d] = BLACK
        cv2.ellipse(img, (12, 17), (4, 3), 0, 190, 350, BLACK, 1)
    elif kind == "won":  # sunglasses and a smile
        img[9, 6:19] = BLACK
        img[10:12, 7:11] = BLACK
        img[10:12, 14:18] = BLACK
        cv2.ellipse(img, (12, 12), (5, 4), 0, 20, 160, BLACK, 1)
    elif kind == "pressed":  # wide eyes, an open mouth
        for y, x in eyes:
            img[y : y + 2, x : x + 2] = BLACK
        cv2.circle(img, (12, 16), 2, BLACK, 1)
    else:
        for y, x in eyes:
            img[y : y + 2, x : x + 2] = BLACK
        cv2.ellipse(img, (12, 12), (4, 4), 0, 20, 160, BLACK, 1)
    return img


def led(name: str) -> np.ndarray:
    """A 13 x 23 seven-segment digit: lit segments red, unlit ones dithered dark red on black."""
    img = np.zeros((23, 13, 3), np.uint8)
    lit = np.zeros((23, 13), bool)
    unlit = np.zeros((23, 13), bool)
    for seg in "abcdefg":
        mask = np.zeros((23, 13), np.uint8)
        cv2.fillPoly(mask, [np.array(SEGMENT_SHAPES[seg], np.int32)], 1)
        (lit if seg in SEGMENTS[name] else unlit)[mask > 0] = True
    dither = (np.add.outer(np.arange(23), np.arange(13)) % 2).astype(bool)
    img[unlit & dither & ~lit] = DARK_RED
    img[lit] = RED
    return img


# Tapered segments of the LED digit, as polygons (x, y) inside its 13 x 23 box.
SEGMENT_SHAPES = {
    "a": [(2, 1), (10, 1), (8, 3), (4, 3)], "g": [(3, 11), (9, 11), (8, 12), (4, 12), (3, 11)],
    "d": [(4, 19), (8, 19), (10, 21), (2, 21)],
    "f": [(1, 2), (3, 4), (3, 9), (1, 10)], "e": [(1, 12), (3, 14), (3, 19), (1, 20)],
    "b": [(11, 2), (11, 10), (9, 9), (9, 4)], "c": [(11, 12), (11, 20), (9, 19), (9, 14)],
}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "templates/classic")
    out.mkdir(parents=True, exist_ok=True)
    sprites = {"cell_unopened": unopened(), "cell_0": opened(), "cell_flag": flag(unopened()),
               "cell_question": question(unopened()), "cell_mine": mine(opened())}
    exploded = opened()
    exploded[1:, 1:] = RED
    sprites["cell_exploded"] = mine(exploded)
    wrong = mine(opened())
    for d in range(-5, 6):
        wrong[8 + d, 8 + d] = RED
        wrong[8 + d, 8 - d] = RED
    sprites["cell_wrong_flag"] = wrong
    for n, colour in DIGIT_BGR.items():
        sprites[f"cell_{n}"] = digit(opened(), n, colour)
    for kind in ("playing", "pressed", "won", "lost"):
        sprites[f"face_{kind}"] = face(kind)
    for name in SEGMENTS:
        sprites[f"digit_{name}"] = led(name)
    for name, img in sprites.items():
        cv2.imwrite(str(out / f"{name}.png"), img)
    meta = {
        "name": "classic",
        "about": "Classic grey Windows Minesweeper look, drawn by scripts/draw_classic.py in Winmine's colours.",
        "cell": 16,
        "family": True,
        "frame_bgr": {"top": list(DARK), "left": list(DARK), "bottom": list(WHITE), "right": list(WHITE)},
        "face": {"size": [24, 24], "from_field_centre_top": [-12, -39], "disc_bgr": list(YELLOW)},
        "counter": {"digit": [13, 23], "digits": 3, "from_field_left_top": [5, -39]},
        "timer": {"from_field_right_top": [-46, -39]},
    }
    (out / "skin.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{len(sprites)} sprites in {out}")


if __name__ == "__main__":
    main()
