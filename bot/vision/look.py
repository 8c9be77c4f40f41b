"""A look described in colours, not sprites (a skin.json's "look": templates/win7, templates/msapp):
the colour range of each kind of tile, each number's ink colours, a flag's and a mine's ink, as
plain data. bot.vision.described judges cells against it; the learners write it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from bot.vision.glyphs import VARIANTS

Number = float | np.ndarray  # one colour's channel, or each pixel's


def _rgb(text: str) -> np.ndarray:
    """'#rrggbb' as a BGR vector, as OpenCV holds pixels."""
    text = text.lstrip("#")
    return np.array([int(text[4:6], 16), int(text[2:4], 16), int(text[0:2], 16)], np.float32)


@dataclass(frozen=True)
class Ground:
    """A range of tile colours: hue in degrees (a range may wrap past 360), saturation and value 0-1."""

    hue: tuple[float, float] = (0.0, 360.0)
    saturation: tuple[float, float] = (0.0, 1.0)
    value: tuple[float, float] = (0.0, 1.0)

    @classmethod
    def from_json(cls, data: dict | None) -> Ground | None:
        if not data:
            return None
        return cls(tuple(data.get("hue", (0, 360))), tuple(data.get("saturation", (0, 1))),
                   tuple(data.get("value", (0, 1))))

    def holds(self, hsv: np.ndarray) -> bool:
        return bool(self._within(float(hsv[0]), float(hsv[1]), float(hsv[2])))

    def holds_most(self, pixels: np.ndarray | None) -> bool:
        """Whether over half of the pixels (BGR, one a row) lie in the range: a mine's ink taken pixel
        by pixel, where its mean is not (Windows 7's grey mine enlarged, its rim blurred into the blue
        tile: mean saturation 0.21, the median pixel's 0.04)."""
        if pixels is None or not len(pixels):
            return False
        hsv = hsv_of(pixels)
        return float(np.mean(self._within(hsv[:, 0], hsv[:, 1], hsv[:, 2]))) > 0.5

    def tints(self, hsv: np.ndarray) -> bool:
        """Its hue and saturation, at any brightness."""
        return bool(self._within(float(hsv[0]), float(hsv[1])))

    def _within(self, h: Number, s: Number, v: Number | None = None) -> bool | np.ndarray:
        """Whether hue h and saturation s (and value v, where given) lie in the range: floats or
        arrays alike (& and | of comparisons)."""
        lo, hi = self.hue
        inside = ((lo <= h) & (h <= hi) if lo <= hi else (h >= lo) | (h <= hi)) \
            & (self.saturation[0] <= s) & (s <= self.saturation[1])
        return inside if v is None else inside & (self.value[0] <= v) & (v <= self.value[1])


@dataclass(frozen=True, eq=False)
class Look:
    covered: Ground
    opened: Ground
    digits: dict[int, np.ndarray]  # number -> its ink colours (BGR), one a row (a palette may give several)
    flag_tile: Ground | None = None  # a game that draws a flag as a tile of its own colour
    flag_ink: Ground | None = None  # ... or as ink of this colour on a covered tile
    mine_ink: Ground | None = None  # the mine shown on a covered tile once the game is lost
    exploded: Ground | None = None  # the ground of the mine that was clicked
    #: Ink that is the covered tile's own shading, however much of it (a look learnt from pictures:
    #: a glossy tile's unlit half); never a mine's or a flag's colour.
    covered_ink: Ground | None = None
    #: A digit the look gives no colour is still read where its shape is plain (SURE_SHAPE, far ahead
    #: of every other digit's), whatever its ink (a look learnt from pictures showing no 7 or 8; our
    #: meadow look's unseen 6 lies 35 from its 2 in colour).
    unseen_by_shape: bool = False
    #: Its opened 0s show a tile's outline (a darker gap round them): a plain cell without one is a
    #: window over the field, not a 0. KMines draws its opened cells as a translucent sheet, faint
    #: lighter lines between them: a look learnt so says False.
    zero_outlined: bool = True
    #: A raised covered tile's relief (CellLook.relief), where its tiles are told by it (grey tiles
    #: on grey): a cell in RAISED_SHARE of it or more bearing a flag's ink is a flag whatever its
    #: ground's shade (KMines' flag darkens its tile's ground to its opened cells' shade).
    raised: float | None = None
    #: Drawings of digits unlike the common ones (bot.vision.glyphs.VARIANTS) this look's digits are
    #: compared with too: Windows 7's flat-topped 3.
    shapes: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: dict) -> Look:
        unknown = sorted(set(data.get("digit_shapes", ())) - set(VARIANTS))
        if unknown:
            raise ValueError(f"no digit shape named {', '.join(unknown)} (there are: {', '.join(VARIANTS)})")
        return cls(
            covered=Ground.from_json(data["covered"]),
            opened=Ground.from_json(data["opened"]),
            digits={int(d): np.array([_rgb(c)] if isinstance(c, str) else [_rgb(x) for x in c]).reshape(-1, 3)
                    for d, c in data["digits"].items()},
            flag_tile=Ground.from_json(data.get("flag_tile")),
            flag_ink=Ground.from_json(data.get("flag_ink")),
            mine_ink=Ground.from_json(data.get("mine_ink")),
            exploded=Ground.from_json(data.get("exploded")),
            unseen_by_shape=data.get("unseen_digits") == "shape",
            covered_ink=Ground.from_json(data.get("covered_ink")),
            zero_outlined=data.get("zero_outlined", True),
            raised=data.get("raised"),
            shapes=tuple(data.get("digit_shapes", ())),
        )


def largest_channel(image: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel (its value, 0-255), by OpenCV: 1 ms a 1280 x 800 picture where
    numpy's max over the last axis took 24."""
    return functools.reduce(cv2.max, cv2.split(np.ascontiguousarray(image)))


def smallest_channel(image: np.ndarray) -> np.ndarray:
    """Each pixel's smallest channel, as largest_channel."""
    return functools.reduce(cv2.min, cv2.split(np.ascontiguousarray(image)))


#: Rec. 601 lightness weights, in BGR order.
LUMA = np.array([0.114, 0.587, 0.299])


def luma(bgr: np.ndarray) -> float:
    """Brightness as the eye has it (Rec. 601): an orange digit's red channel may pass its darkened
    tile's largest one (200 over 194, our sand under a header) while the digit is far the darker."""
    return float(np.asarray(bgr, np.float64) @ LUMA)


def hsv_of(bgr: np.ndarray) -> np.ndarray:
    """Hue in degrees, saturation and value 0-1, of one BGR colour, or of each (one a row)."""
    colours = np.asarray(bgr, np.float32)
    pixels = np.clip(colours.reshape(-1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2HSV).reshape(colours.shape)


def lab_of(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab of one BGR colour or of each (one a row), a row each: the learners group colours in
    it, where distances follow the eye."""
    pixels = np.clip(np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(-1, 3)
