"""Learn the mine counter's digits: where they are and what each digit looks like.

The learner flags ten covered cells one by one and takes a frame after each: the counter counts
down by one every time, so its last digit runs through all ten digits and its tens digit changes
once. The last digit is the one place outside the field and the face that changes at nearly every
step (the timer changes once a second at most). Which digit each frame shows is known once the game
is over and its mine count can be counted on the board; the tens and hundreds digits are then
found by matching the last digit's sprites to their left.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

Box = tuple[int, int, int, int]  # left, top, width, height

#: A pixel that changed at this many steps or more belongs to a digit that counts every step.
OFTEN = 2
#: Two crops of one digit may differ by this RMS (0-255) before they are called inconsistent.
SAME_DIGIT = 12.0


def text_of(value: int, digits: int = 3) -> str:
    """What a classic counter shows for a value: zero-padded, a minus sign in front below zero."""
    return f"{value:0{digits}d}" if value >= 0 else "-" + f"{-value:0{digits - 1}d}"


def units_box(frames: list[np.ndarray], ignore: list[Box]) -> Box | None:
    """The last digit: the blob of pixels that changed most often between consecutive frames."""
    count = np.zeros(frames[0].shape[:2], np.int32)
    for a, b in itertools.pairwise(frames):
        count += np.abs(a.astype(np.int16) - b).max(axis=2) > 40
    for x, y, w, h in ignore:
        count[max(0, y) : y + h, max(0, x) : x + w] = 0
    often = (count >= OFTEN).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(often, np.ones((3, 3), np.uint8)))
    if n < 2:
        return None
    totals = [int(count[labels == i].sum()) for i in range(1, n)]
    best = 1 + int(np.argmax(totals))
    x, y, w, h, _ = stats[best]
    return int(x), int(y), int(w), int(h)  # the dilation already left a pixel of margin all round


def crops(frames: list[np.ndarray], values: list[int], box: Box) -> dict[str, np.ndarray]:
    """The last digit's sprite for each digit seen; None if two crops of one digit disagree."""
    x, y, w, h = box
    out: dict[str, np.ndarray] = {}
    for frame, value in zip(frames, values):
        if value < 0:
            continue  # how a game draws negative counts varies; not needed to read the board
        digit = str(value % 10)
        crop = frame[y : y + h, x : x + w]
        if digit in out:
            diff = out[digit].astype(np.float32) - crop
            if float(np.sqrt((diff * diff).mean())) > SAME_DIGIT:
                raise ValueError(f"the counter's last digit looked two ways while showing {digit}")
        else:
            out[digit] = crop.copy()
    return out


def place(
    frame: np.ndarray, value: int, sprites: dict[str, np.ndarray], units: Box, digits: int = 3
) -> list[Box] | None:
    """Boxes of every digit, left to right. The tens digit is where its sprite (known from the last
    digit's) matches best to the left; the rest follow at the same pitch,
    each checked against its own sprite. None when a digit is not where it should be."""
    text = text_of(value, digits)
    x, y, w, h = units
    if any(ch not in sprites for ch in text[:-1]) or x < 2 * w:
        return None
    # Digits may sit closer than a box width apart (boxes carry a pixel of margin), but not on top
    # of each other: the tens digit starts between two widths and half a width left of the units.
    strip = frame[y : y + h, x - 2 * w : x - w // 2 + w]
    _, _, (bx, _), _ = cv2.minMaxLoc(cv2.matchTemplate(strip, sprites[text[-2]], cv2.TM_SQDIFF))
    pitch = 2 * w - int(bx)
    boxes = []
    for k, ch in zip(range(digits - 1, -1, -1), text):
        # A pixel either way: on a scaled display the pitch need not be a whole number of pixels,
        # and neither need the digits' sub-pixel phases agree (hence also the looser limit).
        fits = []
        for dx in (0, -1, 1):
            bx = x - k * pitch + dx
            crop = frame[y : y + h, max(0, bx) : bx + w].astype(np.float32)
            if bx >= 0 and crop.shape == sprites[ch].shape:
                fits.append((float(np.sqrt(((crop - sprites[ch]) ** 2).mean())), bx))
        if not fits or min(fits)[0] > 2 * SAME_DIGIT:
            return None
        boxes.append((min(fits)[1], y, w, h))
    return boxes
