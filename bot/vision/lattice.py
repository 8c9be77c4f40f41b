"""Find a Minesweeper field from structure alone: a regular lattice of identical tiles.

Used to learn a look no template describes. A fresh game is a rectangle of identical covered
cells; nothing else on a desktop repeats one textured tile in both directions for 8+ periods.
So: for each candidate pitch, the pixels equal to their neighbours one pitch right and one pitch
down *and* not flat (plain background repeats at every pitch) mark the lattice; the pitch whose
marks form the largest block wins (its multiples tie, so the smallest such pitch). The phase,
which periodicity alone cannot give, comes from the field's edge: with the right origin every
tile of the rectangle equals the reference tile, with a wrong one the outermost row or column
takes in a strip of the window frame.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from bot.errors import VisionError
from bot.vision.reader import Field, field_tiles

PITCHES = range(8, 97)
#: Grey levels within this are "equal": a scaled display blurs tile edges into their neighbours.
TOLERANCE = 10
#: A lattice must be at least this many cells each way (no classic game is smaller than 8 x 8).
MIN_SIDE = 8
#: Tiles differing from the reference by at most this RMS (0-255) are the same covered cell.
SAME_TILE = 12.0
#: A reference tile plainer inside than this (grey-level deviation) is an opened cell, not a covered one.
FLAT = 4.0
BIN = 8
#: Cell-border phases tried each way: the strongest edges of the folded profile, and the strongest
#: one moved by up to SHIFT of the pitch either way: tiles with a gap between them (KMines' 25 px
#: tiles at a pitch of 29, a half gap at the field's edge) are alike out to the field's edge only
#: where a cell's border splits the gap as the field's edge does, in the gap's flat middle, where
#: no edge is. (Every phase of a small pitch, tried, found a 9 px lattice in GNOME Mines' window.)
PHASES = 4
SHIFT = 1 / 8


@dataclass(frozen=True)
class Lattice:
    """Cells of `pitch` pixels from (left, top); or, for a field stretched to its window (GNOME
    Mines: a homogeneous GTK grid hands the spare pixels to the first lines, so cells are 48 or
    49 px), each column's and row's own start in `xs` and `ys`, every cell then cut `pitch` (the
    smallest step) pixels square from its start."""

    left: int
    top: int
    pitch: int
    rows: int
    cols: int
    xs: tuple[int, ...] = ()
    ys: tuple[int, ...] = ()

    @property
    def width(self) -> int:
        return self.xs[-1] + self.pitch - self.left if self.xs else self.cols * self.pitch

    @property
    def height(self) -> int:
        return self.ys[-1] + self.pitch - self.top if self.ys else self.rows * self.pitch

    @property
    def offsets(self) -> tuple[tuple[float, ...] | None, tuple[float, ...] | None]:
        """A stretched lattice's column and row starts from (left, top), as bot.vision.reader.Field keeps
        them; None, None for a lattice of one pitch."""
        if not self.xs:
            return None, None
        return tuple(float(v - self.left) for v in self.xs), tuple(float(v - self.top) for v in self.ys)

    @property
    def starts(self) -> tuple[np.ndarray, np.ndarray]:
        """Each column's and each row's first pixel."""
        xs = np.array(self.xs) if self.xs else self.left + self.pitch * np.arange(self.cols)
        ys = np.array(self.ys) if self.ys else self.top + self.pitch * np.arange(self.rows)
        return xs, ys

    def centre(self, r: int, c: int) -> tuple[int, int]:
        xs, ys = self.starts
        return int(xs[c]) + self.pitch // 2, int(ys[r]) + self.pitch // 2

    @property
    def field(self) -> Field:
        """The lattice as bot.vision.reader's Field: the frame round it, the guard of a click, its tiles."""
        xs, ys = self.offsets
        return Field(self.left, self.top, self.pitch, self.rows, self.cols, xs=xs, ys=ys)

    def tiles(self, image: np.ndarray) -> np.ndarray:
        """One pitch x pitch tile per cell, row by row, cut as vision cuts a field's; VisionError
        where the field is not all in the image."""
        return field_tiles(image, self.field, self.pitch)


def _marks(grey: np.ndarray, textured: np.ndarray, p: int) -> np.ndarray:
    """Pixels equal to the ones a pitch right and a pitch down, and not in a flat area."""
    a = grey[:-p, :-p]
    same = (cv2.absdiff(a, grey[:-p, p:]) <= TOLERANCE) & (cv2.absdiff(a, grey[p:, :-p]) <= TOLERANCE)
    return same & textured[:-p, :-p]


def _block(marks: np.ndarray, p: int) -> tuple[int, tuple[int, int, int, int]]:
    """Marked pixels in the largest block of marks joined across gaps under a pitch, and its box.

    Worked on 8 x 8 pixel bins: the box only has to hold the field, not trace it.
    """
    h, w = marks.shape[0] // BIN, marks.shape[1] // BIN
    counts = cv2.resize(marks[: h * BIN, : w * BIN].astype(np.float32), (w, h), interpolation=cv2.INTER_AREA)
    k = -(-p // BIN) + 1
    joined = cv2.morphologyEx((counts > 0).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    if count < 2:
        return 0, (0, 0, 0, 0)
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh, _ = stats[best]
    inside = float(counts[labels == best].sum()) * BIN * BIN
    return int(inside), (int(x) * BIN, int(y) * BIN, int(bw) * BIN, int(bh) * BIN)


def _grid(grey: np.ndarray, left: int, top: int, p: int) -> np.ndarray:
    """Every whole tile of the lattice with this origin over the image: (rows, cols, p, p)."""
    rows, cols = (grey.shape[0] - top) // p, (grey.shape[1] - left) // p
    area = grey[top : top + rows * p, left : left + cols * p]
    return area.reshape(rows, p, cols, p).swapaxes(1, 2)


def _tile_grid(tiles: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """For every tile of the grid: equal to the reference? Nearer to it than half its own spread
    too: a plain tile lies its spread away from a faintly marked reference (a button's 1 px
    border, 6 grey levels RMS), inside SAME_TILE, and a window's plain area beside such buttons
    made a lattice larger than the field beside it."""
    inner = tiles[:, :, 1:-1, 1:-1] - reference[1:-1, 1:-1]  # edges are smeared by scaling
    near = min(SAME_TILE, float(reference[1:-1, 1:-1].std()) / 2)
    return np.sqrt((inner * inner).mean(axis=(2, 3))) <= near


def _rectangle(match: np.ndarray, r: int, c: int) -> tuple[int, int, int, int] | None:
    """The rectangle of matching tiles around (r, c): grown while whole rows/columns match."""
    if not match[r, c]:
        return None
    r0, r1, c0, c1 = r, r + 1, c, c + 1
    grown = True
    while grown:
        grown = False
        if c0 > 0 and match[r0:r1, c0 - 1].all():
            c0, grown = c0 - 1, True
        if c1 < match.shape[1] and match[r0:r1, c1].all():
            c1, grown = c1 + 1, True
        if r0 > 0 and match[r0 - 1, c0:c1].all():
            r0, grown = r0 - 1, True
        if r1 < match.shape[0] and match[r1, c0:c1].all():
            r1, grown = r1 + 1, True
    return r0, c0, r1 - r0, c1 - c0


def _alike(tiles: np.ndarray) -> np.ndarray:
    """Which tiles of the grid look the same as which: (rows, cols, rows, cols)."""
    rows, cols = tiles.shape[:2]
    flat = tiles[:, :, 1:-1, 1:-1].reshape(rows * cols, -1)
    norms = (flat * flat).sum(axis=1)
    d2 = norms[:, None] + norms[None] - 2 * flat @ flat.T
    return (d2 <= SAME_TILE**2 * flat.shape[1]).reshape(rows, cols, rows, cols)


def _spread(match: np.ndarray, rect: tuple[int, int, int, int], alike: Callable[[], np.ndarray]
            ) -> tuple[int, int, int, int]:
    """The rectangle grown on past lines that are not all covered: a game that opens a start area
    by itself (xdemineur) shows no fresh board, and the largest block of covered cells is then
    only a part of its field. A line joins while it holds a covered cell or, where the start area
    opened it whole (one seed in about forty on 16 x 16, at the field's edge too), while each of
    its tiles is a look already seen opened inside; or most of them, with a covered cell in the
    line beyond (a number shown nowhere else in the field is still in it). The frame round the
    field is none of these."""
    r0, c0, rows, cols = rect
    r1, c1 = r0 + rows, c0 + cols

    def line(kind: str, k: int) -> tuple[slice, slice] | None:
        if not 0 <= k < match.shape[kind == "col"]:
            return None
        return (slice(r0, r1), slice(k, k + 1)) if kind == "col" else (slice(k, k + 1), slice(c0, c1))

    def opened(box: tuple[slice, slice], beyond: tuple[slice, slice] | None) -> bool:
        if match[r0:r1, c0:c1].all():
            return False  # (a fresh field: nothing opened to compare with)
        seen = (alike()[box][..., r0:r1, c0:c1] & ~match[r0:r1, c0:c1]).any(axis=(-2, -1))
        return bool(seen.all()) or (2 * int(seen.sum()) >= seen.size and beyond is not None and match[beyond].any())

    while True:
        sides = [("col", c0 - 1, -1), ("col", c1, 1), ("row", r0 - 1, -1), ("row", r1, 1)]
        joining = next((s for s in sides if (box := line(s[0], s[1])) is not None and match[box].any()), None)
        if joining is None:  # (only once no line with a covered cell is left: the costlier test)
            joining = next((s for s in sides if (box := line(s[0], s[1])) is not None
                            and opened(box, line(s[0], s[1] + s[2]))), None)
        if joining is None:
            return r0, c0, r1 - r0, c1 - c0
        kind, k, _ = joining
        if kind == "col":
            c0, c1 = min(c0, k), max(c1, k + 1)
        else:
            r0, r1 = min(r0, k), max(r1, k + 1)


def _chequered(grey: np.ndarray) -> np.ndarray:
    """Pixels of a 1 px chequer: unlike the next pixel across and the next down, like the next one
    diagonally and the ones two across and two down. XBomb's covered tiles are a chequer of grey and white,
    which repeats at every even pitch (8 px marked its field more than its 50 px cells did); a
    pixel beside a 1 px line is like the one below it, and no edge qualifies."""
    g = grey.astype(np.int16)
    h, w = g.shape
    out = np.zeros((h, w), bool)
    if h < 3 or w < 3:
        return out
    a = g[:-2, :-2]
    out[:-2, :-2] = ((np.abs(a - g[:-2, 1:-1]) > TOLERANCE) & (np.abs(a - g[1:-1, :-2]) > TOLERANCE)
                     & (np.abs(a - g[1:-1, 1:-1]) <= TOLERANCE) & (np.abs(a - g[:-2, 2:]) <= TOLERANCE)
                     & (np.abs(a - g[2:, :-2]) <= TOLERANCE))
    return out


def _unchequered(grey: np.ndarray) -> np.ndarray:
    """The picture with any 1 px chequer (and the pixels round it) evened out to its mean. A fine
    fill repeats at every even pitch, as plain ground does at all, and the pixels along its edges
    with it: XBomb's chequered covered tiles marked a lattice of 10 px over its field of 50 px
    cells. Elsewhere the picture is unchanged."""
    chequer = _chequered(grey)
    if not chequer.any():
        return grey
    near = cv2.dilate(chequer.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    out = grey.copy()
    out[near] = cv2.blur(grey, (2, 2))[near]
    return out


def _phases(profile: np.ndarray, p: int) -> list[int]:
    """Where cells may start (0..p-1), from the folded edge profile: after its PHASES strongest
    edges (an edge between x and x + 1 starts a cell at x + 1), and round the strongest one."""
    strongest = [int(x) + 1 for x in np.argsort(profile)[-PHASES:][::-1]]
    shift = int(SHIFT * p)
    near = [(strongest[0] + d) % p for d in range(-shift, shift + 1)]
    return list(dict.fromkeys(x % p for x in strongest + near))


def _edge_strength(grey: np.ndarray, lat: Lattice) -> float:
    """How sharply the image changes across the lattice's outer border (the frame meets the field)."""
    g = grey.astype(np.float32)
    x0, y0, x1, y1 = lat.left, lat.top, lat.left + lat.width, lat.top + lat.height
    total = 0.0
    if x0 > 0:
        total += float(np.abs(g[y0:y1, x0] - g[y0:y1, x0 - 1]).mean())
    if x1 < g.shape[1]:
        total += float(np.abs(g[y0:y1, x1 - 1] - g[y0:y1, x1]).mean())
    if y0 > 0:
        total += float(np.abs(g[y0, x0:x1] - g[y0 - 1, x0:x1]).mean())
    if y1 < g.shape[0]:
        total += float(np.abs(g[y1 - 1, x0:x1] - g[y1, x0:x1]).mean())
    return total


def find_lattice(image: np.ndarray) -> Lattice:
    """The field of a game in a screenshot, from its structure alone: fresh (every cell covered), or
    with some cells open as long as every row and column of it keeps a covered cell. A field whose
    cells are a pixel wider here and there (stretched to its window) is found by its cells' flat
    insides instead, and taken where it holds more cells than any lattice of one pitch."""
    if image.ndim != 3 or min(image.shape[:2]) < MIN_SIDE * PITCHES[0]:
        raise VisionError("no Minesweeper board found: the image is too small")
    try:
        lat = _even_lattice(image)
    except VisionError:
        stretched = stretched_lattice(image)
        if stretched is None:
            raise
        return stretched
    stretched = stretched_lattice(image)
    if stretched is not None and stretched.rows * stretched.cols > lat.rows * lat.cols:
        return stretched
    return lat


def _lines(lefts: np.ndarray) -> list[float]:
    """Where the blobs' left (or top) edges gather: one value per column (or row) of cells."""
    lefts = np.sort(lefts)
    groups, start = [], 0
    for i in range(1, len(lefts) + 1):
        if i == len(lefts) or lefts[i] - lefts[i - 1] > 2:
            groups.append(float(np.median(lefts[start:i])))
            start = i
    return groups


def _run(lines: list[float]) -> list[float]:
    """The longest run of lines a near-constant step apart (steps differing by a pixel at most),
    a missing line (a column of opened cells) bridged where the gap is a whole number of steps."""
    best: list[float] = []
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            step = lines[j] - lines[i]
            if step < PITCHES[0] or step > PITCHES[-1]:
                continue
            run, at = [lines[i]], lines[i]
            while True:
                ahead = [x for x in lines if abs(x - (at + step)) <= 1.5]
                if not ahead:
                    break
                at = ahead[0]
                run.append(at)
            if len(run) > len(best):
                best = run
    return best


def stretched_lattice(image: np.ndarray) -> Lattice | None:
    """A field of cells whose insides are flat (a covered cell's face between its bevels or
    margins): the flat patches of the commonest size, lined up in columns and rows whose steps
    may differ by a pixel. None where no such field of at least MIN_SIDE x MIN_SIDE is seen, or
    where its steps are all equal (the lattice of one pitch finds that one)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edge = np.zeros(grey.shape, bool)
    across = cv2.absdiff(grey[:, 1:], grey[:, :-1]) > TOLERANCE // 2
    down = cv2.absdiff(grey[1:], grey[:-1]) > TOLERANCE // 2
    edge[:, 1:] |= across
    edge[:, :-1] |= across
    edge[1:] |= down
    edge[:-1] |= down
    _, _, stats, _ = cv2.connectedComponentsWithStats((~edge).astype(np.uint8), connectivity=4)
    x, y, w, h, area = (stats[1:, k] for k in range(5))
    keep = (w >= 6) & (h >= 6) & (w <= PITCHES[-1]) & (h <= PITCHES[-1]) & (area >= 0.7 * w * h) \
        & (w * 4 >= h * 3) & (h * 4 >= w * 3)
    if keep.sum() < MIN_SIDE * MIN_SIDE:
        return None
    sizes, counts = np.unique(np.stack([w[keep], h[keep]], 1), axis=0, return_counts=True)
    mw, mh = sizes[int(np.argmax(counts))]
    same = keep & (np.abs(w - mw) <= 1) & (np.abs(h - mh) <= 1)
    cols = _run(_lines(x[same]))
    rows = _run(_lines(y[same]))
    if len(cols) < MIN_SIDE or len(rows) < MIN_SIDE:
        return None
    steps = np.diff(cols).tolist() + np.diff(rows).tolist()
    if max(steps) - min(steps) < 0.5 or max(steps) - min(steps) > 2.5:
        return None  # one pitch (the other finder's), or not one lattice
    pitch = int(min(steps))
    inset_x, inset_y = (pitch - int(mw)) // 2, (pitch - int(mh)) // 2
    xs = tuple(round(v) - inset_x for v in cols)
    ys = tuple(round(v) - inset_y for v in rows)
    lat = Lattice(xs[0], ys[0], pitch, len(ys), len(xs), xs, ys)
    if lat.left <= 0 or lat.top <= 0 or lat.left + lat.width >= grey.shape[1] or lat.top + lat.height >= grey.shape[0]:
        return None
    # Every line of the field holds a cell of the common look (as a game's frame holds none).
    tiles = lat.tiles(image)[:, 1:-1, 1:-1].astype(np.float32)
    reference = np.median(tiles.reshape(len(tiles), -1), axis=0)
    like = (np.sqrt(((tiles.reshape(len(tiles), -1) - reference) ** 2).mean(axis=1)) <= SAME_TILE)
    like = like.reshape(lat.rows, lat.cols)
    if not (like.any(axis=0).all() and like.any(axis=1).all()):
        return None
    return lat


def _even_lattice(image: np.ndarray) -> Lattice:
    grey = _unchequered(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    gx = cv2.absdiff(grey[:, 1:], grey[:, :-1])
    gy = cv2.absdiff(grey[1:, :], grey[:-1, :])
    textured = np.zeros(grey.shape, bool)
    textured[:, 1:] |= gx > TOLERANCE
    textured[1:, :] |= gy > TOLERANCE
    scores = []
    for p in PITCHES:
        if p * MIN_SIDE > min(grey.shape):
            break
        count, box = _block(_marks(grey, textured, p), p)
        if box[2] >= (MIN_SIDE - 1) * p and box[3] >= (MIN_SIDE - 1) * p:
            scores.append((count, p, box))
    if not scores:
        raise VisionError("no Minesweeper board found: nothing on the screen is a grid of identical cells")
    top_count = max(s[0] for s in scores)
    # Multiples of the pitch mark nearly as much (one row and column fewer): the smallest pitch
    # that marks close to the most is tried first. A small pitch can mark as much where tiles are
    # flat between gaps (every tile edge repeats at any pitch along itself): GNOME Mines' 46 px
    # field, one cell lit by the pointer, marked 0.80 of its best at 9 px. A pitch whose lattice
    # is smaller than a field gives way to the next.
    tried = sorted((s for s in scores if s[0] >= 0.8 * top_count), key=lambda s: s[1])
    lat = _lattice_at(grey, tried[0][1], tried[0][2])
    for _, p, box in tried[1:]:
        if lat.rows >= MIN_SIDE and lat.cols >= MIN_SIDE:
            break
        try:
            other = _lattice_at(grey, p, box)
        except VisionError:
            continue
        if other.rows >= MIN_SIDE and other.cols >= MIN_SIDE:
            lat = other
    if lat.left == 0 or lat.top == 0 or lat.left + lat.width >= grey.shape[1] or lat.top + lat.height >= grey.shape[0]:
        # A field has a frame round it; a pattern running off the screen is wallpaper (or a
        # window partly off the screen, which cannot be learnt from either).
        raise VisionError("no Minesweeper board found: the only grid of identical cells runs off the screen")
    if lat.rows < MIN_SIDE or lat.cols < MIN_SIDE:
        raise VisionError(
            f"no fresh Minesweeper board found (the largest grid of identical cells is {lat.rows} x {lat.cols});"
            " start a new game with every cell covered"
        )
    return lat


def _lattice_at(grey: np.ndarray, p: int, block: tuple[int, int, int, int]) -> Lattice:
    """The largest lattice of one covered tile at pitch p round the block its marks form;
    VisionError where no covered tile is in it."""
    bx, by, bw, bh = block
    # Only around the block: the field is in it, give or take the last row and column of cells.
    ox, oy = max(0, bx - 2 * p), max(0, by - 2 * p)
    near = grey[oy : by + bh + 3 * p, ox : bx + bw + 3 * p].astype(np.float32)
    cx, cy = bx - ox + bw // 2, by - oy + bh // 2
    # Cell borders are where the image changes most, in every cell alike: the phases whose
    # folded edge profile peaks are the few worth trying.
    fold_x = np.abs(np.diff(near, axis=1))[:, : (near.shape[1] - 1) // p * p].reshape(near.shape[0], -1, p)
    fold_y = np.abs(np.diff(near, axis=0))[: (near.shape[0] - 1) // p * p].reshape(-1, p, near.shape[1])
    xs = _phases(fold_x.sum(axis=(0, 1)), p)
    ys = _phases(fold_y.sum(axis=(0, 2)), p)
    # The covered cell is taken from the block's middle, or from its quarters where the middle
    # is open (a game that opens a start area itself): the largest lattice of its tiles wins.
    points = [(cx, cy)] + [(bx - ox + bw * i // 4, by - oy + bh * j // 4) for i in (1, 3) for j in (1, 3)]
    candidates = []
    spread: dict[tuple, tuple[int, int, int, int]] = {}  # (several points of one phase find one block)

    @functools.cache
    def grid(left: int, top: int) -> np.ndarray:
        return _grid(near, left, top, p)

    @functools.cache
    def alike(left: int, top: int) -> np.ndarray:  # (only asked for where a field shows opened cells)
        return _alike(grid(left, top))

    for phase_y in ys:
        for phase_x in xs:
            for px, py in points:
                dx, dy = (px - int(phase_x)) % p, (py - int(phase_y)) % p
                left, top = (px - dx) % p, (py - dy) % p
                reference = near[py - dy : py - dy + p, px - dx : px - dx + p]
                if reference.shape != (p, p) or reference[1:-1, 1:-1].std() < FLAT:
                    continue  # (an opened cell is plain inside, as the window round it can be)
                match = _tile_grid(grid(left, top), reference)
                rect = _rectangle(match, (py - dy - top) // p, (px - dx - left) // p)
                if rect is None:
                    continue
                key = (left, top, rect, match.tobytes())
                if key not in spread:
                    spread[key] = _spread(match, rect, functools.partial(alike, left, top))
                r0, c0, rows, cols = spread[key]
                lat = Lattice(ox + left + c0 * p, oy + top + r0 * p, p, rows, cols)
                candidates.append((rows * cols, _edge_strength(grey, lat), lat))
    if not candidates:
        raise VisionError("no Minesweeper board found: the repeating area has no whole cells")
    return max(candidates, key=lambda c: (c[0], c[1]))[2]
