"""The face: found as what changes above the field while a cell is held down, and watched for
the change that says a game is over."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bot.errors import LearnError
from bot.vision.lattice import Lattice

#: A face differs from another state by at least this many pixels' worth of change.
FACE_CHANGE = 12


@dataclass(frozen=True)
class Face:
    box: tuple[int, int, int, int]  # left, top, width, height (a square), image pixels
    origin: tuple[int, int]  # where `playing` starts
    playing: np.ndarray  # the screen round the face (a face's size on each side) as a game starts

    def changed(self, image: np.ndarray) -> bool:
        """Does the face differ from its playing state (pressed, won, lost)?"""
        x, y, w, h = self.box
        now = image[y : y + h, x : x + w].astype(np.int16)
        was = self.playing[y - self.origin[1] : y - self.origin[1] + h,
                           x - self.origin[0] : x - self.origin[0] + w].astype(np.int16)
        return int((np.abs(now - was).max(axis=2) > 40).sum()) >= FACE_CHANGE

    @property
    def centre(self) -> tuple[int, int]:
        x, y, w, h = self.box
        return x + w // 2, y + h // 2


def find_face(fresh: np.ndarray, held: np.ndarray, lat: Lattice, ticking: np.ndarray) -> Face:
    """The face: what changed outside the field while the button was held down (`ticking`: pixels
    above the field that change by themselves, a running clock)."""
    changed = (np.abs(fresh.astype(np.int16) - held).max(axis=2) > 40).astype(np.uint8)
    changed[lat.top - 2 : lat.top + lat.height + 2, lat.left - 2 : lat.left + lat.width + 2] = 0
    changed[: ticking.shape[0]][ticking] = 0  # a running clock is not the face
    count, _, stats, centroids = cv2.connectedComponentsWithStats(cv2.dilate(changed, np.ones((5, 5), np.uint8)))
    boxes = []
    for i in range(1, count):
        x, y, w, h, _ = stats[i]
        cx, cy = centroids[i]
        if y + h > lat.top or w > 8 * lat.pitch or h > 8 * lat.pitch:
            continue  # the face is above the field and about a cell or two wide
        boxes.append((abs(cx - (lat.left + lat.width / 2)) + (lat.top - cy), int(x), int(y), int(w), int(h)))
    if not boxes:
        raise LearnError("no face found: nothing above the field changed while a cell was held down")
    _, x, y, w, h = min(boxes)
    # With the parts that changed beside it (a pressed button's bevel and the face's mouth
    # change apart): the whole of what changed there.
    for _, bx, by, bw, bh in boxes:
        near = bx < x + w + lat.pitch and x < bx + bw + lat.pitch
        if near and by < y + h + lat.pitch and y < by + bh + lat.pitch:
            x, y, w, h = min(x, bx), min(y, by), max(x + w, bx + bw) - min(x, bx), max(y + h, by + bh) - min(y, by)
    x, y, w, h = button_around(fresh, (x, y, w, h))
    side = max(w, h)  # a square round the button, kept on the screen (a window at its edge)
    x = min(max(0, x + w // 2 - side // 2), fresh.shape[1] - side)
    y = min(max(0, y + h // 2 - side // 2), fresh.shape[0] - side)
    x0, y0 = max(0, x - side), max(0, y - side)
    return Face((x, y, side, side), (x0, y0), fresh[y0 : y + 2 * side, x0 : x + 2 * side].copy())


def button_around(image: np.ndarray, change: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The whole face button around the pixels that changed: the blob of not-background pixels
    (background: the commonest colour round a window several times the change's size) holding the change."""
    x, y, w, h = change
    pad = 3 * max(w, h)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    window = image[y0 : y + h + pad, x0 : x + w + pad]
    ring = np.concatenate([window[0], window[-1], window[:, 0], window[:, -1]])
    colours, counts = np.unique(ring, axis=0, return_counts=True)
    background = colours[np.argmax(counts)].astype(np.int16)
    mask = (np.abs(window.astype(np.int16) - background).max(axis=2) > 24).astype(np.uint8)
    mask[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    bx, by, bw, bh, _ = stats[labels[y - y0 + h // 2, x - x0 + w // 2]]
    if bx == 0 or by == 0 or bx + bw >= window.shape[1] or by + bh >= window.shape[0]:
        return x - 1, y - 1, w + 2, h + 2  # no clear button: the change itself, with a pixel to spare
    return x0 + int(bx), y0 + int(by), int(bw), int(bh)
