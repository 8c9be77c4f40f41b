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


def units_box(frames: list[np.ndarray], ignore: list[Box], pairs: list[tuple[int, int]] | None = None) -> Box | None:
    """The last digit: the blob of pixels that changed most often between consecutive frames (or
    the pairs given: frames whose values differ in the last digit alone, where they are known)."""
    count = np.zeros(frames[0].shape[:2], np.int32)
    for i, j in pairs if pairs is not None else itertools.pairwise(range(len(frames))):
        count += np.abs(frames[i].astype(np.int16) - frames[j]).max(axis=2) > 40
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
    fit = cv2.matchTemplate(strip, sprites[text[-2]], cv2.TM_SQDIFF)[0]
    # The nearest of equal fits: with digits a box apart, the strip's left end holds the hundreds
    # digit, and it matches as well when the two digits are the same ("000").
    bx = int(np.flatnonzero(fit <= fit.min() * 1.05 + 1.0)[-1])
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


#: The segments each digit lights on a seven-segment display: a top, b top right, c bottom right,
#: d bottom, e bottom left, f top left, g middle.
SEGMENTS = {"0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
            "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg"}
#: Two pixels of one segment state may differ by this much (largest channel) and still match.
SAME_PIXEL = 24
#: Digits that displays draw two ways (6 and 9 with or without their tail, 7 with or without the
#: top left segment): learnt from the game or not at all, never drawn.
VARIANTS = "679"


def complete_digits(sprites: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The digits not seen, drawn from the ones seen: on a seven-segment display every pixel that
    changes between digits belongs to one segment, lit in some digits and not in others. A pixel
    is given to the segment whose lit/unlit split of the digits seen matches its colours; the
    digits not seen then take each pixel's colour for their segment's state. Nothing is drawn
    (the sprites come back as they were) unless every changing pixel is explained that way and
    every segment was seen both lit and unlit."""
    seen = sorted(d for d in sprites if d in SEGMENTS)  # (a seen 6, 7 or 9 shows its own form)
    missing = [d for d in SEGMENTS if d not in sprites and d not in VARIANTS]
    if not missing or len(seen) < 2 or len({sprites[d].shape for d in seen}) != 1:
        return dict(sprites)
    stack = np.stack([sprites[d] for d in seen]).astype(np.int16)  # (K, h, w, 3)
    h, w = stack.shape[1:3]
    varies = (np.abs(stack - stack[:1]).max(axis=(0, 3)) > SAME_PIXEL)
    owner = np.full((h, w), -1, np.int8)
    on_colour = np.zeros((h, w, 3), np.int16)
    off_colour = np.zeros((h, w, 3), np.int16)
    for s, segment in enumerate("abcdefg"):
        lit = np.array([segment in SEGMENTS[d] for d in seen])
        if lit.all() or not lit.any():
            return dict(sprites)  # a segment never seen both ways: its other state is unknown
        on, off = stack[lit], stack[~lit]
        steady_on = np.abs(on - on[:1]).max(axis=(0, 3)) <= SAME_PIXEL
        steady_off = np.abs(off - off[:1]).max(axis=(0, 3)) <= SAME_PIXEL
        fits = steady_on & steady_off & varies & (owner < 0)
        owner[fits] = s
        on_colour[fits], off_colour[fits] = on[0][fits], off[0][fits]
    if (varies & (owner < 0)).any():
        return dict(sprites)  # a changing pixel no segment explains: not a seven-segment display
    out = dict(sprites)
    for d in missing:
        drawn = stack[0].copy()
        for s, segment in enumerate("abcdefg"):
            mine = owner == s
            drawn[mine] = on_colour[mine] if segment in SEGMENTS[d] else off_colour[mine]
        out[d] = drawn.astype(np.uint8)
    return out
