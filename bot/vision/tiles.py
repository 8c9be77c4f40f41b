"""Find a field of separate tiles: any pitch (non-integral too), gaps between tiles, tiles shaded by place.

The modern Minesweepers (Windows 7's, the Microsoft app) draw every cell as a tile of its own with a
gap or a line round it, shade the tiles across the board and scale them with the window, so no two
tiles are pixel-identical and bot.vision.lattice's equal-tiles test finds nothing. What survives
shading, smoothing and scale is the outline: the gap round a tile is darker than the tiles on both
sides of it (a black-hat of the grey image marks it) or, at the field's edge on a dark ground, a
sharp step (a morphological gradient). The regions the outlines enclose are near-square blobs of
one size on a regular lattice: their centres give the pitch each way, the gap lines give the phase,
and the largest cluster of lattice places holding such a blob is the field. A desktop full of
other windows has no such cluster of 16 or more. Flat tiles with no gap at all (a chessboard of
two shades, Google's kind) are parted by the faint steps between the shades, a view tried last.

Measured on real screenshots (Windows 7 18 px, the Microsoft app 36-48 px, at 80-200 %): the
pitch within 0.1 px of the labelled one, the size exact, 0.1-1 s on a 1 700 x 900 picture.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.vision.reader import Field

#: Black-hat kernel sizes tried: a gap must be narrower than the kernel (1-3 px at 18 px tiles,
#: 4-8 px at 37-75 px).
KERNELS = (5, 9, 15, 25)
#: A gap pixel is this many grey levels darker than the tiles round it.
DARKER = 20
#: ... and, with steps, a pixel inside a tile differs from its neighbours by less than this.
STEP = 2 * DARKER + 20
#: A line lighter than the flat cells either side of it by LIGHTER to FAINT grey levels parts them
#: too (KMines' opened cells: 192, their lines 203 at 29 px cells; 187 and 194 at 16 px), seen as a
#: ridge a pixel or two wide with the kernels up to LIGHT_KERNEL. A digit's ground beside a stroke
#: is no ridge (ground on its other side) and its counters are far lighter than their strokes,
#: where a top-hat marks both: bold digits filling a 16 px cell split it in the top-hat views.
LIGHTER, FAINT, LIGHT_KERNEL = 5, 40, 9
#: The top-hat views' threshold for lighter lines (KMines at 29 px), tried before the ridges.
TOPHAT = 8
#: Blobs from this share of a tile's size up to MEMBER[1] lie on its lattice too where they sit on
#: it: a game's covered tiles may be smaller than its opened cells (KMines: 23 and 27 px).
MEMBER = (0.75, 1.1)
#: An outer row or column of a field is cut short (a window over the field's side) where it holds
#: fewer than EDGE_SHARE of the typical one's tiles, or where its tiles are narrower across the side
#: than along it by more than NARROWER of a tile (or a pixel). On a drawn Expert field under a window
#: (benchmarks.covered) this leaves only windows within a pixel or two of a tile's edge taken whole.
EDGE_SHARE, NARROWER = 0.25, 0.06
#: Blobs seen between dark gaps alone that set the tile's side (else the blobs' the field was found by).
DARK_TILES = 4
MIN_TILE = 6  # px: smaller blobs are text, noise
MIN_TILES = 16  # a field holds at least this many tiles found as blobs
MIN_FILL = 0.5  # ... and they fill at least this share of its rectangle
#: Blob centres off their lattice place by more than this share of the pitch are not tiles of it.
OFF_LATTICE = 0.15
#: Lattices whose pitches differ by less than this share are one lattice seen two ways.
ALIGN = 0.03
#: Flat gapless tiles in alternating shades are parted where neighbouring pixels differ by this
#: much in a colour channel (a checkerboard's two greens: 8 apart, its two sands 6-14).
SHADE = 5
#: The gap lines may move the blobs' pitch by this share.
PITCH_SLACK = 0.015
#: A raised tile's highlight lies between these shares of the pitch (and a pixel or more) after
#: its shadow (bot.vision.tiles._bevelled).
BEVEL = (0.04, 0.18)


@dataclass(frozen=True)
class Tiles:
    """A field of tiles: cell (r, c) spans [left + c * pitch_x, left + (c + 1) * pitch_x) across and
    likewise down. `found` is how many of its cells were seen as separate tiles."""

    left: float
    top: float
    pitch_x: float
    pitch_y: float
    rows: int
    cols: int
    found: int
    tile: float  # a tile's side without its gap (the blobs')

    @property
    def field(self) -> Field:
        """As bot.vision.reader's Field: the mean pitch, each column's and row's own start."""
        xs = tuple(float(v) for v in self.pitch_x * np.arange(self.cols))
        ys = tuple(float(v) for v in self.pitch_y * np.arange(self.rows))
        return Field(self.left, self.top, (self.pitch_x + self.pitch_y) / 2, self.rows, self.cols, xs=xs, ys=ys)


def _outlines(image: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, bool]]:
    """(inside, line, dark) masks: pixels inside tiles, and gap pixels, one pair per way of seeing
    outlines; dark where darker gaps alone part them (no step, no lighter line)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gradient = cv2.morphologyEx(image, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)).max(axis=2)
    step = gradient >= STEP
    ridged = []
    for k in KERNELS:
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
        dark = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, kernel) >= DARKER
        yield ~dark, dark, True
        yield ~(dark | step), dark | step, False
        if k <= LIGHT_KERNEL:
            light = (cv2.morphologyEx(grey, cv2.MORPH_TOPHAT, kernel) >= TOPHAT) | dark
            yield ~light, light, False
            # (and widened a pixel: such a line may fade a pixel short of a dark frame, and the
            # cells along it run together through the gap)
            lines = cv2.dilate(light.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            yield ~lines, lines, False
            ridged.append(_ridges(grey, k) | dark)
    for light in ridged:  # (last: where the views above find as many tiles, theirs is the field)
        yield ~light, light, False
        yield ~(light | step), light | step, False  # (a dark frame's edge parts its cells too)
    # Flat tiles with no gap, told from their neighbours by their shade alone (a checkerboard of
    # two greens): any step of SHADE or more parts them.
    shade = gradient >= SHADE
    yield ~shade, shade, False


def _ridges(grey: np.ndarray, k: int) -> np.ndarray:
    """Faint light lines: pixels lighter by LIGHTER to FAINT than the pixels k // 2 away on both
    sides, across or down (a digit's ground beside its stroke has the ground on its other side; a
    digit's counter is far lighter than the strokes round it)."""
    g = grey.astype(np.int16)
    d = max(2, k // 2)
    pad = np.pad(g, d, mode="edge")
    h, w = g.shape
    across = g - np.maximum(pad[d : d + h, : w], pad[d : d + h, 2 * d :])
    down = g - np.maximum(pad[: h, d : d + w], pad[2 * d :, d : d + w])
    return ((across >= LIGHTER) & (across <= FAINT)) | ((down >= LIGHTER) & (down <= FAINT))


def _square_blobs(inside: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sizes (widths), centres and heights of the near-square, mostly filled regions of the mask."""
    _, _, stats, centres = cv2.connectedComponentsWithStats(inside.astype(np.uint8), connectivity=4)
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    ok = (w >= MIN_TILE) & (h >= MIN_TILE) & (np.abs(w - h) <= 0.15 * np.maximum(w, h) + 1) & (area >= 0.5 * w * h)
    return w[ok], centres[1:][ok], h[ok]


def _axis(along: np.ndarray, across: np.ndarray, size: float) -> tuple[float, float] | None:
    """Pitch and origin of the centres along one axis: the nearest neighbour's distance in the same
    row, then a least-squares fit of every centre to its lattice index."""
    gaps = []
    for i in range(len(along)):
        ahead = along - along[i]
        near = (np.abs(across - across[i]) < size / 2) & (ahead > 0.8 * size) & (ahead < 2.5 * size)
        if near.any():
            gaps.append(float((along[near] - along[i]).min()))
    if len(gaps) < 4:
        return None
    pitch, origin = float(np.median(gaps)), float(along.min())
    for _ in range(3):
        index = np.round((along - origin) / pitch)
        design = np.vstack([np.ones_like(index), index]).T
        (origin, pitch), *_ = np.linalg.lstsq(design, along, rcond=None)
    return float(pitch), float(origin)


def _largest_cluster(places: set[tuple[int, int]]) -> list[tuple[int, int]]:
    seen: set[tuple[int, int]] = set()
    best: list[tuple[int, int]] = []
    for start in places:
        if start in seen:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            r, c = stack.pop()
            group.append((r, c))
            for q in ((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
                if q in places and q not in seen:
                    seen.add(q)
                    stack.append(q)
        if len(group) > len(best):
            best = group
    return best


def _trimmed(group: list[tuple[int, int]], narrow: dict[tuple[int, int], tuple[int, int]],
             size: float) -> list[tuple[int, int]]:
    """The group without outer rows and columns cut short: holding fewer than EDGE_SHARE of the
    median one's tiles, or tiles narrower across that side than along it (a window over the
    field's side leaves its last column's tiles narrowed: one that still looks square would make
    it the field's last whole column). `narrow` is how much shorter each place's blob is down
    than across, and across than down."""
    slack = max(1.0, NARROWER * size)
    while group:
        for axis in (0, 1):
            count = Counter(place[axis] for place in group)
            typical = float(np.median(list(count.values())))
            weak = [at for at in (min(count), max(count)) if count[at] < EDGE_SHARE * typical
                    or np.median([narrow[p][axis] for p in group if p[axis] == at]) > slack]
            if weak:
                group = [place for place in group if place[axis] != weak[0]]
                break
        else:
            return group
    return group


def _boundaries(line: np.ndarray, lo: float, pitch: float, n: int, span: tuple[int, int],
                slack: float = PITCH_SLACK) -> tuple[float, float]:
    """Where the cell boundaries lie along one axis, and their pitch: the first boundary (within a
    third of a pitch of lo) and the pitch (within `slack` of the blobs') that put the n + 1
    boundaries on the most gap pixels, the gap profile smoothed to find a wide gap's middle. Blob
    centres alone drift (a digit moves its tile's blob): over 30 cells a pitch 0.1 px short is 3 px."""
    a, b = max(0, span[0]), max(span[0] + 1, span[1])
    profile = line[:, a:b].mean(axis=1)
    profile = cv2.GaussianBlur(profile.astype(np.float32).reshape(-1, 1), (1, 0), max(0.5, pitch / 20)).ravel()
    at = np.arange(len(profile))
    shifts = np.arange(-pitch / 3, pitch / 3, 0.25)
    best = (-1.0, lo, pitch)
    for p in pitch * (1 + np.linspace(-slack, slack, 13 if slack else 1)):
        bounds = lo + p * np.arange(n + 1)
        scores = [float(np.interp(bounds + s, at, profile, left=0, right=0).sum()) for s in shifts]
        k = int(np.argmax(scores))
        if scores[k] > best[0] + 1e-9:
            best = (scores[k], lo + float(shifts[k]), float(p))
    return best[1], best[2]


def _lattice(sizes: np.ndarray, centres: np.ndarray, heights: np.ndarray, line: np.ndarray) -> Tiles | None:
    best: Tiles | None = None
    for size in np.unique(sizes):
        pick = np.abs(sizes - size) <= max(1.0, 0.08 * size)
        if pick.sum() < MIN_TILES:
            continue
        cx, cy = centres[pick, 0], centres[pick, 1]
        fx, fy = _axis(cx, cy, size), _axis(cy, cx, size)
        if fx is None or fy is None:
            continue
        (px, ox), (py, oy) = fx, fy
        member = (sizes >= MEMBER[0] * size) & (sizes <= MEMBER[1] * size)
        cx, cy = centres[member, 0], centres[member, 1]
        ix, iy = np.round((cx - ox) / px), np.round((cy - oy) / py)
        on = (np.abs(cx - ox - ix * px) < OFF_LATTICE * px) & (np.abs(cy - oy - iy * py) < OFF_LATTICE * py)
        places = list(zip(iy[on].astype(int).tolist(), ix[on].astype(int).tolist(), strict=True))
        w, h = sizes[member][on].tolist(), heights[member][on].tolist()
        narrow = {place: (a - b, b - a) for place, a, b in zip(places, w, h, strict=True)}
        group = _trimmed(_largest_cluster(set(places)), narrow, float(size))
        if len(group) < MIN_TILES:
            continue
        rs, cs = [r for r, _ in group], [c for _, c in group]
        rows, cols = max(rs) - min(rs) + 1, max(cs) - min(cs) + 1
        if len(group) < MIN_FILL * rows * cols or (best is not None and len(group) <= best.found):
            continue
        left, top = ox + (min(cs) - 0.5) * px, oy + (min(rs) - 0.5) * py
        left, px = _boundaries(line.T, left, px, cols, (int(top), int(top + rows * py)))
        top, py = _boundaries(line, top, py, rows, (int(left), int(left + cols * px)))
        best = Tiles(left, top, px, py, rows, cols, len(group), float(size))
    return best


def _aligned(a: Tiles, b: Tiles) -> bool:
    """Two lattices of one pitch whose cell boundaries coincide, overlapping or side by side (two
    parts of a field with something laid across it between them are not one field seen twice)."""
    if abs(a.pitch_x - b.pitch_x) > ALIGN * a.pitch_x or abs(a.pitch_y - b.pitch_y) > ALIGN * a.pitch_y:
        return False
    dx, dy = (b.left - a.left) / a.pitch_x, (b.top - a.top) / a.pitch_y
    if abs(dx - round(dx)) >= OFF_LATTICE or abs(dy - round(dy)) >= OFF_LATTICE:
        return False
    return -b.cols <= round(dx) <= a.cols and -b.rows <= round(dy) <= a.rows


def _union(a: Tiles, b: Tiles) -> Tiles:
    """The lattice `a` grown to cover the aligned lattice `b` too."""
    c0 = min(0, round((b.left - a.left) / a.pitch_x))
    r0 = min(0, round((b.top - a.top) / a.pitch_y))
    c1 = max(a.cols, round((b.left - a.left) / a.pitch_x) + b.cols)
    r1 = max(a.rows, round((b.top - a.top) / a.pitch_y) + b.rows)
    return Tiles(a.left + c0 * a.pitch_x, a.top + r0 * a.pitch_y, a.pitch_x, a.pitch_y, r1 - r0, c1 - c0,
                 max(a.found, b.found), a.tile)


def find_tiles(image: np.ndarray) -> Tiles | None:
    """The largest field of separate tiles in the image (the most tiles seen), grown by what the
    other ways of seeing outlines found on the same lattice (a tile against the window's dark edge
    is seen by its step, its neighbours by their gaps), or None."""
    if image is None or image.ndim != 3 or min(image.shape[:2]) < 4 * MIN_TILE:
        return None
    views = [(*_square_blobs(inside), line, dark) for inside, line, dark in _outlines(image)]
    found = [t for *blobs, line, _ in views if (t := _lattice(*blobs, line)) is not None]
    if not found:
        return None
    best = max(found, key=lambda t: t.found)
    for other in found:
        if other is not best and _aligned(best, other):
            best = _union(best, other)
    best = _bevelled(image, best)
    # The tile's side as dark gaps alone show it, where they part some of the field's tiles: a
    # bevel's steps and light lines inside a tile shrink its blob (KMines' covered tiles: 25 px, 23
    # inside their bevel), and the reader's boxes are the tile's size.
    on = [sizes[_on(best, sizes, centres)] for sizes, centres, _, _, dark in views if dark]
    most = max(on, key=len)
    return replace(best, tile=float(np.median(most))) if len(most) >= DARK_TILES else best


def _bevelled(image: np.ndarray, tiles: Tiles) -> Tiles:
    """For raised tiles, the boundaries midway between their dark and light lines. A raised tile's
    bevel draws its shadow inside its own bottom and right edges and its highlight inside the next
    tile's top and left, so the boundary lies between the two, and the middle of the lines seen
    round it is a pixel or more off (Simon Tatham's Mines at 20 px: 1.4 px, the judged box cutting
    the side off its digits; midway, 0.05 px). Tiles are raised where the light lines lie after the
    dark ones both across and down, by BEVEL[0] to BEVEL[1] of the pitch (at least a pixel):
    Simon Tatham's Mines at 16-40 px, 0.06-0.14 (1-4 px). Glossy tiles in a dark gap are not:
    Windows 7's light lines lie before its gaps across or down, the app's 0-0.25 px after at 37 px
    and 0.21-0.30 of the pitch after at 14.4 px (our drawing of it: its gloss)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (KERNELS[0], KERNELS[0]))
    dark = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, kernel) >= DARKER
    light = cv2.morphologyEx(grey, cv2.MORPH_TOPHAT, kernel) >= DARKER

    def phased(line: np.ndarray) -> tuple[float, float]:  # (the pitch kept: light grid lines pull it)
        rows = (int(tiles.top), int(tiles.top + tiles.rows * tiles.pitch_y))
        left, _ = _boundaries(line.T, tiles.left, tiles.pitch_x, tiles.cols, rows, slack=0)
        cols = (int(left), int(left + tiles.cols * tiles.pitch_x))
        return left, _boundaries(line, tiles.top, tiles.pitch_y, tiles.rows, cols, slack=0)[0]

    (dark_left, dark_top), (light_left, light_top) = phased(dark), phased(light)
    lo, hi = max(1.0, BEVEL[0] * tiles.pitch_x), BEVEL[1] * tiles.pitch_x
    if not (lo <= light_left - dark_left <= hi and lo <= light_top - dark_top <= hi):
        return tiles
    return replace(tiles, left=(dark_left + light_left) / 2, top=(dark_top + light_top) / 2)


def _on(tiles: Tiles, sizes: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Which blobs lie on a cell of the field, centred on it, and of nearly its tile's size or larger."""
    u = (centres[:, 0] - tiles.left) / tiles.pitch_x - 0.5
    v = (centres[:, 1] - tiles.top) / tiles.pitch_y - 0.5
    inside = (u > -0.5) & (u < tiles.cols - 0.5) & (v > -0.5) & (v < tiles.rows - 0.5)
    centred = (np.abs(u - np.round(u)) < OFF_LATTICE) & (np.abs(v - np.round(v)) < OFF_LATTICE)
    return inside & centred & (sizes >= MEMBER[0] * tiles.tile) & (sizes <= tiles.pitch_x)
