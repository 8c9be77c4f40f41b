"""The shape of a digit, told without the game's own sprites: drawn glyphs, compared at any size.

A game that shades its tiles and scales them to the window draws no two digits alike pixel for
pixel, and its sprites may not be copied. What survives smoothing, palettes and scale is the
glyph's shape: the ink cut to its bounding box, scaled to a small fixed grid and compared by
normalised correlation with the digits 1-8 drawn here in two fonts that ship with the libraries
(Pillow's Aileron at four stroke weights, OpenCV's Hershey simplex, duplex and triplex, whose 1
has a foot, at three), plus the
box's aspect ratio (a 1 is narrow). The best drawing of each digit counts.

Measured on the Microsoft app's and Windows 7's numbers (real screenshots, 845 cells): the true digit
ranks first for 839; the six misses are font differences (the app's 6 nearer a drawn 5) that the
digit's colour settles (bot.vision.described weighs both).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

GRID = (12, 18)  # columns x rows of the compared shape
#: Weight of the aspect-ratio difference (log of the ratio) against the correlation.
ASPECT_WEIGHT = 0.3


def shape_vector(mask: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A unit vector of the ink's shape and its box's aspect ratio (width over height); None for no ink."""
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    box = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    aspect = box.shape[1] / box.shape[0]
    small = cv2.GaussianBlur(cv2.resize(box, GRID, interpolation=cv2.INTER_AREA), (3, 3), 0.8)
    small -= small.mean()
    norm = float(np.linalg.norm(small))
    if norm < 1e-6:
        small = np.zeros_like(small)
    else:
        small /= norm
    return small.ravel(), aspect


def _drawn(text: str) -> list[np.ndarray]:
    """The text drawn white on black in each font and weight, 80 px high."""
    out = []
    font = ImageFont.load_default(size=48)
    for weight in range(4):
        image = Image.new("L", (120, 80), 0)
        ImageDraw.Draw(image).text((10, 5), text, font=font, fill=255, stroke_width=weight, stroke_fill=255)
        out.append(np.array(image) > 127)
    for face in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX):
        for thickness in (2, 4, 6):
            image = np.zeros((80, 120), np.uint8)
            cv2.putText(image, text, (10, 65), face, 2, 255, thickness, cv2.LINE_AA)
            out.append(image > 127)
    return out


def _flat_top_three() -> list[np.ndarray]:
    """A 3 with a flat top bar and a round lower bowl, at three weights: Windows 7 draws its 3 so,
    and every 3 drawn above has a round top (Windows 7's 3s scored 0.39-0.59 against them, as
    much as against a 7). Drawn by the project from that description."""
    out = []
    for thickness in (5, 8, 11):
        image = np.zeros((80, 120), np.uint8)
        cv2.line(image, (26, 12), (46, 12), 255, thickness, cv2.LINE_AA)
        cv2.ellipse(image, (46, 25), (17, 13), 0, -90, 90, 255, thickness, cv2.LINE_AA)
        cv2.line(image, (38, 38), (46, 38), 255, thickness, cv2.LINE_AA)
        cv2.ellipse(image, (46, 54), (20, 16), 0, -90, 150, 255, thickness, cv2.LINE_AA)
        out.append(image > 127)
    return out


#: Drawings a look may add to a digit's own (a described look's "digit_shapes"): where a game's
#: digit is unlike every drawing above. Kept out of the common bank: a flat-topped 3 took 5s of
#: other fonts for 3s twice as often (36 of 171 system-font 5s ranked under it, 18 before).
VARIANTS = {"flat-top 3": ("3", _flat_top_three)}


@functools.cache
def _bank(texts: tuple[str, ...], variants: tuple[str, ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shape vectors, aspect ratios and which text each drawing is, for every drawing."""
    vectors, aspects, owner = [], [], []
    extra = [(texts.index(VARIANTS[v][0]), VARIANTS[v][1]()) for v in variants if VARIANTS[v][0] in texts]
    for i, text in enumerate(texts):
        for mask in _drawn(text) + [m for k, drawings in extra if k == i for m in drawings]:
            vec = shape_vector(mask)
            assert vec is not None
            vectors.append(vec[0])
            aspects.append(vec[1])
            owner.append(i)
    return np.stack(vectors), np.array(aspects), np.array(owner)


def shape_scores(mask: np.ndarray, texts: tuple[str, ...] = tuple("12345678"), variants: tuple[str, ...] = ()
                 ) -> np.ndarray:
    """How well the ink looks like each text (best drawing of it, `variants` (VARIANTS) among
    them): correlation less the aspect penalty, about 0.4-0.9 for the right digit; -inf each
    where there is no ink."""
    vec = shape_vector(mask)
    if vec is None:
        return np.full(len(texts), -np.inf)
    vectors, aspects, owner = _bank(texts, variants)
    score = vectors @ vec[0] - ASPECT_WEIGHT * np.abs(np.log(vec[1] / aspects))
    best = np.full(len(texts), -np.inf)
    np.maximum.at(best, owner, score)
    return best
