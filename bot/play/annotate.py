"""Draw the advice over a screenshot: field outline, safe cells green, mines red, the guess and its odds.

Used by `replay --out` and by the dry-run fallback when no overlay window can be shown.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.solver.advice import Advice
from bot.vision.reader import Field

GREEN = (0, 200, 0)
RED = (0, 0, 230)
BLUE = (255, 120, 0)
OUTLINE = (255, 0, 255)
ORANGE = (0, 150, 255)  # a flag the numbers prove wrong


def _cell_box(field: Field, cell: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    r, c = cell
    left, top = field.cell_origin(r, c)
    x0, y0 = round(left), round(top)
    return (x0 + 1, y0 + 1), (round(x0 + field.pitch) - 2, round(y0 + field.pitch) - 2)


def annotate(image: np.ndarray, field: Field, advice: Advice | None) -> np.ndarray:
    out = image.copy()
    top_left = (round(field.left) - 2, round(field.top) - 2)
    bottom_right = (round(field.left + field.width) + 1, round(field.top + field.height) + 1)
    cv2.rectangle(out, top_left, bottom_right, OUTLINE, 2)
    if advice is None:
        return out
    thick = max(1, round(field.pitch / 8))
    for cell in advice.safe:
        cv2.rectangle(out, *_cell_box(field, cell), GREEN, thick)
    for cell in advice.mines:
        cv2.rectangle(out, *_cell_box(field, cell), RED, thick)
    for cell in advice.wrong_flags:
        cv2.rectangle(out, *_cell_box(field, cell), ORANGE, thick)
    if advice.guess is not None and not advice.safe:
        (x0, y0), (x1, y1) = _cell_box(field, advice.guess)
        cv2.rectangle(out, (x0, y0), (x1, y1), BLUE, thick)
        safety = advice.guess_safety if advice.guess_safety is not None else float("nan")
        label = f"guess {safety:.0%} safe"
        cv2.putText(out, label, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, BLUE, 1, cv2.LINE_AA)
    return out
