"""The mouse pointer drawn over the field: where it is, so that the cells it lies on are read from
what it leaves in sight (bot.vision.described) instead of being left unread or misread.

A screenshot leaves the pointer out, but a recording of a game (a GIF, a video's frames) draws it,
and a recorded game's player points at the cell they click: in the Windows 7 GIF of
../shared/real-windows-modern it lay over a cell in most frames, and those cells were all the
learnt look left unread but for tiles mid-animation. Windows' arrow is white, outlined in black,
its tip up and left; it is found by its white fill, whose shape must match the arrow drawn from
that description (ARROW) and whose rim must be mostly dark. Its whole extent is the matched arrow
laid over the fill, with the fill grown by the outline's width and a disc round the tip (a thick
outline's tip lies well above the fill), all grown by MARGIN.
"""

from __future__ import annotations

import functools
import itertools
import math

import cv2
import numpy as np

from bot.vision.look import largest_channel, smallest_channel

#: The arrow's outline at 100 %, tip at (0, 0), x right and y down (px): a left edge straight down,
#: a diagonal edge to the right, and a tail down and right from between them; 12 x 19 px with its
#: outline, as Windows draws its standard pointer.
ARROW = np.array([(0, 0), (0, 16), (4, 12), (7, 18), (9, 17), (6, 11), (11, 11)], np.float32)
#: Its white fill: each channel at least FILL_LEAST (0-255), the channels within NEUTRAL of each
#: other (the Windows 7 GIF's fill: 245-249; Windows 7's opened tiles 221-228 and tinted).
FILL_LEAST = 236
NEUTRAL = 20
#: The fill's pixels (FILL_LEAST) lie inside the outline and its smoothed edge: in the GIF a fill
#: of 7 x 12 px in an arrow of 11 x 18 with its outline.
FILL_SHARE = (7 / 11, 12 / 18)
#: A fill's shape matches the arrow where their intersection over union is this much or more (the
#: GIF's: 0.61; a round glint on a mine, a bar of light: under 0.4) ...
MATCH = 0.5
#: ... and this share or more of the ring of pixels round it is dark (largest channel DARK_MOST or
#: less) or beside a dark pixel: the outline, or the fill's smoothed edge before it (the GIF's:
#: 0.58 dark, the diagonal edge's 224-242 between).
RING_DARK = 0.4
DARK_MOST = 100
#: The top share of the fill's rows that must widen from the tip down its straight left edge.
TIP_ROWS = 0.6
#: The fills looked at: at least this many pixels and rows (the GIF's at 100 %: 48 and 12; at 80 %
#: about 31 and 10), and at most this share of the region searched.
LEAST_FILL = 24
LEAST_ROWS = 8
MOST_FILL = 0.05
#: The arrow's tip lies beyond the fill's top by up to this many outline widths (two edges meeting
#: at 45 degrees: 2.6).
TIP_REACH = 3
#: The pointer's extent is grown by this many pixels each way: its smoothed edge, a pixel of doubt.
MARGIN = 1
#: The outline is at most this share of the fill's width thick (Windows' arrow: 1 px round a fill 7
#: px wide at 100 %, 2 round 14 at 200 %): dark pixels beyond it, left of the fill, are what the
#: pointer lies on (a dark line between tiles, along which the outline had been measured across
#: the whole field, and the pointer's extent grown over all of it).
THICK_MOST = 0.25


@functools.cache
def _arrow(width: int, height: int) -> np.ndarray:
    """The whole arrow, outline included, rasterised into a box of this size."""
    big = np.zeros((height * 8, width * 8), np.uint8)
    points = ARROW.copy()
    points[:, 0] *= (width * 8 - 1) / float(ARROW[:, 0].max())
    points[:, 1] *= (height * 8 - 1) / float(ARROW[:, 1].max())
    cv2.fillPoly(big, [np.round(points).astype(np.int32)], 255)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA) > 127


def _tip_up_left(fill: np.ndarray) -> bool:
    """Whether a fill (cut to its box) has the arrow's upper part: each of its top rows one run from
    the box's left side (the first two may start a pixel in, at the smoothed tip), the first at most
    2 px wide, each at least as wide as the one above and the last half as wide as there are rows
    or more (the diagonal edge). A white letter on a dark panel ("h" of "Around the Web" beside the
    app's field matched the arrow by area at 0.67) has a gap in a row, the inside of a light "O"
    a left side that moves."""
    widths = []
    for i, row in enumerate(fill[: max(3, round(TIP_ROWS * fill.shape[0]))]):
        xs = np.flatnonzero(row)
        if len(xs) == 0 or xs[0] > (1 if i < 2 else 0) or xs[-1] - xs[0] + 1 != len(xs):
            return False
        widths.append(len(xs))
    return widths[0] <= 2 and widths[-1] >= len(widths) / 2 and all(b >= a for a, b in itertools.pairwise(widths))


def pointer_mask(image: np.ndarray, region: tuple[int, int, int, int] | None = None,
                 value: np.ndarray | None = None) -> np.ndarray | None:
    """Where the pointer lies in `region` (x0, y0, x1, y1 of the image; all of it by default), as a
    mask of the region's size; None where no pointer is seen there. `value`: the image's largest
    channel, where the caller has it already."""
    x0, y0, x1, y1 = region or (0, 0, image.shape[1], image.shape[0])
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(image.shape[1], x1), min(image.shape[0], y1)
    part = image[y0:y1, x0:x1]
    if part.size == 0:
        return None
    low = smallest_channel(part)
    high = largest_channel(part) if value is None else value[y0:y1, x0:x1]
    fill = (low >= FILL_LEAST) & (high.astype(np.int16) - low <= NEUTRAL)
    if not fill.any():
        return None
    outline = cv2.dilate((high <= DARK_MOST).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fill.astype(np.uint8), connectivity=4)
    out = np.zeros(fill.shape, bool)
    for k in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[k])
        if area < LEAST_FILL or area > MOST_FILL * fill.size or h < LEAST_ROWS or not 1.1 <= h / w <= 2.6:
            continue
        own = labels[y : y + h, x : x + w] == k
        if not _tip_up_left(own):
            continue
        whole_w, whole_h = round(w / FILL_SHARE[0]), round(h / FILL_SHARE[1])
        drawn = _arrow(whole_w, whole_h)
        # (the fill lies one outline in from the tip, down the left edge: its box's upper left corner)
        dx, dy = max(1, round((whole_w - w) / 4)), max(1, round((whole_h - h) / 6))
        inner = drawn[dy : dy + h, dx : dx + w]
        if inner.shape != own.shape:
            continue
        match = float((own & inner).sum()) / float((own | inner).sum())
        blob = (labels == k).astype(np.uint8)
        ring = (cv2.dilate(blob, np.ones((3, 3), np.uint8)) > 0) & (blob == 0)
        if match < MATCH or float(outline[ring].mean()) < RING_DARK:
            continue
        # The outline, however thick (a 200 % display's pointer: 2-3 px): the fill grown by its
        # width; the tip, where the two edges meet, up to TIP_REACH widths beyond the fill's top;
        # and the matched arrow, grown by twice the width past one pixel (its tail's outline).
        row = y + h // 2
        left = int(np.flatnonzero(labels[row] == k)[0])
        thick, most = 1, max(1, math.ceil(THICK_MOST * w))
        while thick < most and left - thick - 1 >= 0 and high[row, left - thick - 1] <= DARK_MOST:
            thick += 1
        ax, ay = x - dx, y - dy
        placed = np.zeros((fill.shape[0] + whole_h + 2, fill.shape[1] + whole_w + 2), np.uint8)
        placed[max(0, ay) : ay + whole_h, max(0, ax) : ax + whole_w] = drawn[max(0, -ay) :, max(0, -ax) :]
        grow = 2 * (thick - 1)
        out |= cv2.dilate(placed[: fill.shape[0], : fill.shape[1]], np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)) > 0
        out |= cv2.dilate(blob, np.ones((2 * thick + 1, 2 * thick + 1), np.uint8)) > 0
        tip = np.zeros_like(blob)
        cv2.circle(tip, (x + int(np.flatnonzero(own[0])[0]), y), TIP_REACH * thick, 1, -1)
        out |= tip > 0
    if not out.any():
        return None
    return cv2.dilate(out.astype(np.uint8), np.ones((2 * MARGIN + 1, 2 * MARGIN + 1), np.uint8)) > 0
