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
# 7x9 bold digits, one string per row ('#' = ink), drawn at 1 px per dot inside the cell.
GLYPHS = {
    1: ["..##...", ".###...", "####...", "..##...", "..##...", "..##...", "..##...", "######.", "######."],
    2: [".#####.", "##...##", ".....##", "....##.", "..###..", ".##....", "##.....", "#######", "#######"],
    3: ["######.", ".....##", ".....##", "..####.", ".....##", ".....##", ".....##", "######.", "#####.."],
    4: ["...###.", "..####.", ".##.##.", "##..##.", "#######", "#######", "....##.", "....##.", "....##."],
    5: ["#######", "##.....", "##.....", "######.", ".....##", ".....##", "##...##", "######.", ".####.."],
    6: [".#####.", "##.....", "##.....", "######.", "##...##", "##...##", "##...##", "######.", ".####.."],
    7: ["#######", "#######", ".....##", "....##.", "...##..", "...##..", "..##...", "..##...", "..##..."],
    8: [".#####.", "##...##", "##...##", ".#####.", "##...##", "##...##", "##...##", "#######", ".#####."],
}
QUESTION = [".####..", "##..##.", "....##.", "...##..", "..##...", "..##...", ".......", "..##...", "..##..."]
SEGMENTS = {  # which of the 7 LED segments (a-g) each digit lights
    "0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc", "5": "afgcd",
    "6": "afgedc", "7": "abc", "8": "abcdefg", "9": "abcdfg", "minus": "g",
}


def opened() -> np.ndarray:
    cell = np.full((16, 16, 3), GREY, np.uint8)
    cell[0, :] = DARK
    cell[:, 0] = DARK
    return cell


def unopened() -> np.ndarray:
    cell = np.full((16, 16, 3), GREY, np.uint8)
    cell[:2, :] = WHITE
    cell[:, :2] = WHITE
    cell[14:, 1:] = DARK
    cell[1:, 14:] = DARK
    cell[15, 0] = DARK
    cell[0, 15] = DARK
    return cell


def glyph(cell: np.ndarray, rows: list[str], colour: tuple[int, int, int]) -> np.ndarray:
    out = cell.copy()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                out[4 + y, 5 + x] = colour
    return out


def flag(cell: np.ndarray) -> np.ndarray:
    out = cell.copy()
    pts = np.array([[9, 3], [9, 8], [4, 6]], np.int32)
    cv2.fillPoly(out, [pts], RED)
    out[8:12, 9] = BLACK
    out[11, 7:12] = BLACK
    out[12, 5:13] = BLACK
    return out


def mine(cell: np.ndarray) -> np.ndarray:
    out = cell.copy()
    cv2.circle(out, (8, 8), 4, BLACK, -1)
    out[2:15, 8] = BLACK
    out[8, 2:15] = BLACK
    for d in (-4, 4):
        out[8 + d, 8 + d] = BLACK
        out[8 + d, 8 - d] = BLACK
    out[6:8, 6:8] = WHITE
    return out


def face(kind: str) -> np.ndarray:
    img = np.full((24, 24, 3), GREY, np.uint8)
    img[0, :] = DARK
    img[:, 0] = DARK
    img[23, :] = DARK
    img[:, 23] = DARK
    inner = (slice(1, 23), slice(1, 23))
    if kind == "pressed_button":
        img[inner] = GREY
    else:
        img[1:3, 1:22] = WHITE
        img[1:22, 1:3] = WHITE
        img[21:23, 2:23] = DARK
        img[2:23, 21:23] = DARK
    cv2.circle(img, (12, 12), 8, YELLOW, -1)
    cv2.circle(img, (12, 12), 8, BLACK, 1)
    if kind == "lost":
        for cx in (9, 15):
            for d in (-1, 0, 1):
                img[10 + d, cx + d] = BLACK
                img[10 + d, cx - d] = BLACK
        img[16, 10:15] = BLACK
        img[15, 9] = img[15, 15] = BLACK
    elif kind == "won":
        img[9:11, 6:19] = BLACK
        img[10:12, 8:11] = BLACK
        img[10:12, 14:17] = BLACK
        img[15, 9] = img[15, 15] = BLACK
        img[16, 10:15] = BLACK
    elif kind == "pressed":
        img[9:11, 9] = img[9:11, 15] = BLACK
        cv2.circle(img, (12, 16), 2, BLACK, 1)
    else:
        img[9:11, 9] = img[9:11, 15] = BLACK
        img[15, 9] = img[15, 15] = BLACK
        img[16, 10:15] = BLACK
    return img


def led(name: str) -> np.ndarray:
    img = np.zeros((23, 13, 3), np.uint8)
    boxes = {"a": (2, 1, 9, 2), "b": (9, 2, 2, 9), "c": (9, 12, 2, 9), "d": (2, 20, 9, 2),
             "e": (1, 12, 2, 9), "f": (1, 2, 2, 9), "g": (2, 10, 9, 2)}
    lit = SEGMENTS[name]
    for seg, (x, y, w, h) in boxes.items():
        img[y : y + h, x : x + w] = RED if seg in lit else DARK_RED
    return img


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "templates/classic")
    out.mkdir(parents=True, exist_ok=True)
    sprites = {"cell_unopened": unopened(), "cell_0": opened(), "cell_flag": flag(unopened()),
               "cell_question": glyph(unopened(), QUESTION, BLACK), "cell_mine": mine(opened())}
    exploded = opened()
    exploded[1:, 1:] = RED
    sprites["cell_exploded"] = mine(exploded)
    wrong = mine(opened())
    for d in range(-5, 6):
        wrong[8 + d, 8 + d] = RED
        wrong[8 + d, 8 - d] = RED
    sprites["cell_wrong_flag"] = wrong
    for n, rows in GLYPHS.items():
        sprites[f"cell_{n}"] = glyph(opened(), rows, DIGIT_BGR[n])
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
        "face": {"size": [24, 24], "from_field_centre_top": [-12, -39], "disc_bgr": list(YELLOW)},
        "counter": {"digit": [13, 23], "digits": 3, "from_field_left_top": [5, -39]},
    }
    (out / "skin.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{len(sprites)} sprites in {out}")


if __name__ == "__main__":
    main()
