"""Reading a screenshot saved with lossy compression (JPEG): compare what the codec kept.

JPEG keeps brightness nearly intact but stores colour at half resolution, so a thin red flag, a
blue 1 or an LED segment arrives smeared into its neighbours, far from every sprite (38 RMS for a
flag at quality 95, beyond the reader's limit) while its shape is still plain. Rather than loosen
the reader's limits for every image, the skins' sprites are softened the way the codec softened the
screenshot (colour blurred, brightness kept) and the usual reader runs, with its usual limits: what
the codec threw away no longer counts, what it kept must still match. (Softening the screenshot
again as well was tried: it breaks the face's yellow disc into pieces the face finder misses.)
Measured on the WineMine fixtures and the real Windows screenshots saved at quality 75-95: every
one read right, none read wrong (tests/test_lossy.py).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from bot.vision.skin import Skin

#: Image formats whose pixels are not the screen's (PIL's names).
LOSSY_FORMATS = frozenset({"JPEG", "MPO", "WEBP"})
#: How far the colour is blurred, in pixels: JPEG's colour samples are two pixels apart.
COLOUR_SIGMA = 1.0


def soften(image: np.ndarray) -> np.ndarray:
    """The image with its colour blurred and its brightness kept (YCrCb, chroma only): what JPEG's
    half-resolution colour does to it."""
    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    for channel in (1, 2):
        ycc[..., channel] = cv2.GaussianBlur(ycc[..., channel], (0, 0), COLOUR_SIGMA,
                                             borderType=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)


def _soften_all(stack: np.ndarray) -> np.ndarray:
    if not stack.size or stack.shape[1] < 2 or stack.shape[2] < 2:
        return stack
    return np.stack([soften(np.ascontiguousarray(sprite)) for sprite in stack])


def soften_skin(skin: Skin) -> Skin:
    """The skin as a JPEG of the game would show it: every sprite softened."""
    return dataclasses.replace(skin, cell_sprites=_soften_all(skin.cell_sprites),
                               face_sprites=_soften_all(skin.face_sprites),
                               digit_sprites=_soften_all(skin.digit_sprites))
