"""Tiles matched against a skin's sprites: a tile equal to a sprite byte for byte (what a display
at 100 % shows) is found by a lookup; the others are compared with every sprite in one matrix
product (a full Expert read well under a millisecond at 100 %, a few milliseconds scaled); a family
skin's (skin.family) loosely, both blurred first. A tile far from every sprite, or about as near to
two of them, is judged unknown (judge): a cell the bot is not sure of must never reach the solver.
Knows nothing of fields, faces or boards: bot.vision.reader cuts the tiles."""

from __future__ import annotations

import cv2
import numpy as np

from bot.errors import VisionError

#: A tile whose RMS distance to its nearest sprite is above this (0-255 scale) matches nothing.
#: Measured on the fixtures: true matches stay below 24 at 125 % scaling, 0 at 100 %.
MAX_DISTANCE = 32.0
#: ... or whose nearest sprite is not clearly nearer than the runner-up (fixtures: 11.6 or more).
MIN_GAP = 6.0
#: A sprite whose inside varies less than this (standard deviation, per channel) is plain.
PLAIN = 8.0
#: Tiles are compared without their outer pixel, which scaling smears into the neighbours.
BORDER = 1

#: Loose matching, for a family skin (skin.family): tiles and sprites blurred this much (1x pixels)
#: before they are compared, so a stroke a pixel wider or a pixel off costs little and a
#: different colour or shape still costs much. Measured on real Windows XP tiles against the
#: drawn classic sprites: right sprites within 28, wrong ones 38 or more.
LOOSE_SIGMA = 1.5
LOOSE_DISTANCE = 30.0
#: ... and the runner-up must be this many times as far as the nearest.
LOOSE_RATIO = 1.3
LOOSE_MEMO = 5_000  # verdicts kept per sprite set, loose tiles or memoised reads (~15 MB at 200 %)


def resample(
    image: np.ndarray, left: float, top: float, width: float, height: float, out: tuple[int, int]
) -> np.ndarray:
    """The image rectangle scaled to out=(w, h): exact slicing at 1x, sub-pixel sampling otherwise."""
    if left < -0.5 or top < -0.5 or left + width > image.shape[1] + 0.5 or top + height > image.shape[0] + 0.5:
        raise VisionError("the board runs off the edge of the image")
    x0, y0 = round(left), round(top)
    if (out[0], out[1]) == (round(width), round(height)) and abs(x0 - left) < 1e-6 and abs(y0 - top) < 1e-6:
        return image[y0 : y0 + out[1], x0 : x0 + out[0]]
    size = (max(1, round(width)), max(1, round(height)))
    centre = (left + width / 2 - 0.5, top + height / 2 - 0.5)
    patch = cv2.getRectSubPix(image, size, centre)
    if size == out:
        return patch
    return cv2.resize(patch, out, interpolation=cv2.INTER_AREA)


def _bank(stack: np.ndarray, scale: float) -> np.ndarray:
    """The sprites as they look after the display scaled them and we scaled them back."""
    if abs(scale - 1.0) < 1e-6:
        out = stack
    else:
        h, w = stack.shape[1:3]
        out = np.empty_like(stack)
        for i, sprite in enumerate(stack):
            pad = cv2.copyMakeBorder(sprite, 2, 2, 2, 2, cv2.BORDER_REPLICATE)
            up = cv2.resize(pad, (round((w + 4) * scale), round((h + 4) * scale)), interpolation=cv2.INTER_LINEAR)
            out[i] = cv2.resize(up, (w + 4, h + 4), interpolation=cv2.INTER_AREA)[2:-2, 2:-2]
    return np.ascontiguousarray(out)


_DERIVED: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def derived(kind: str, sprites: np.ndarray, extra: object, make) -> np.ndarray:
    """What is derived from a skin's sprites, kept per array: a skin's arrays never change, and
    hashing their bytes on every read cost more than the read's arithmetic."""
    key = (kind, id(sprites), extra)
    found = _DERIVED.get(key)
    if found is None or found[0] is not sprites:
        found = (sprites, make())
        _DERIVED[key] = found
    return found[1]


def bank(sprites: np.ndarray, scale: float) -> np.ndarray:
    scale = round(scale, 4)
    return derived("bank", sprites, scale, lambda: _bank(sprites, scale))


def telling(sprites: np.ndarray, grow: int = 1) -> np.ndarray:
    return derived("telling", sprites, grow, lambda: _telling(sprites, grow))


def _telling(sprites: np.ndarray, grow: int) -> np.ndarray:
    """Pixels where the sprites differ (grown by one): where the face states are told apart.

    The faces share most of their pixels; comparing only these keeps scaling noise on the shared
    pixels from drowning a difference of a dozen pixels (WineMine's won face is one).
    """
    differ = (sprites != sprites[:1]).any(axis=(0, 3)).astype(np.uint8)
    grown = (cv2.dilate(differ, np.ones((3, 3), np.uint8)) if grow > 0 else differ).astype(bool)
    return grown[BORDER:-BORDER, BORDER:-BORDER]  # nearest() crops the same border off


def squared_distances(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Summed squared differences of every row of x to every row of t (N x K, float32 rows), from
    one matrix product (|x|^2 + |t|^2 - 2 x.t)."""
    d2 = np.einsum("ij,ij->i", x, x)[:, None] + np.einsum("ij,ij->i", t, t)[None, :] - 2.0 * (x @ t.T)
    return np.maximum(d2, 0.0, out=d2)


def nearest(
    tiles: np.ndarray, sprites: np.ndarray, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index of the nearest sprite for each tile, its RMS distance, and the runner-up's distance.

    Tiles come whole; their outer pixel is dropped here, as it is from the bank.
    Distances come from one matrix product (|x|^2 + |t|^2 - 2 x.t), which is most of a board read.
    """
    tiles = np.ascontiguousarray(tiles[:, BORDER:-BORDER, BORDER:-BORDER])  # gather bytes, then convert
    sprites = sprites[:, BORDER:-BORDER, BORDER:-BORDER]
    if mask is not None:
        tiles, sprites = tiles[:, mask], sprites[:, mask]
    x = tiles.astype(np.float32).reshape(len(tiles), -1)  # one copy: convert, then the reshape is free
    d2 = squared_distances(x, sprites.astype(np.float32).reshape(len(sprites), -1))
    rows = np.arange(len(x))
    if d2.shape[1] > 1:
        two = np.argpartition(d2, 1, axis=1)[:, :2]
        first, other = d2[rows, two[:, 0]], d2[rows, two[:, 1]]
        swap = other < first
        index = np.where(swap, two[:, 1], two[:, 0])
        best2, second2 = np.minimum(first, other), np.maximum(first, other)
    else:
        index, best2, second2 = np.zeros(len(x), np.intp), d2[:, 0], np.full(len(x), np.inf, np.float32)
    scale = 1.0 / x.shape[1]
    return index, np.sqrt(best2 * scale), np.sqrt(second2 * scale)


def _key_positions(flat: np.ndarray) -> np.ndarray | None:
    """Up to 8 byte positions whose values tell every sprite apart (greedy), or None if none do."""
    chosen: list[int] = []
    for _ in range(8):
        groups = [len({tuple(row) for row in flat[:, [*chosen, p]]}) for p in range(flat.shape[1])]
        chosen.append(int(np.argmax(groups)))
        if max(groups) == len(flat):
            return np.array(chosen)
    return None


def _keys(flat: np.ndarray, positions: np.ndarray) -> np.ndarray:
    picked = np.zeros((len(flat), 8), np.uint8)
    picked[:, : len(positions)] = flat[:, positions]
    return picked.view(np.uint64)[:, 0]


def _exact_index(sprites: np.ndarray, mask: np.ndarray | None) -> tuple | None:
    flat = sprites.reshape(len(sprites), -1)
    positions = _key_positions(flat)
    if positions is None:
        return None
    keys = _keys(flat, positions)
    order = np.argsort(keys)
    # How far each sprite is from its nearest other sprite, measured as nearest() measures: what a
    # tile equal to the sprite has as its runner-up distance.
    _, _, gap = nearest(sprites, sprites, mask)
    return positions, keys[order], order, flat, gap


def exact(
    tiles: np.ndarray, sprites: np.ndarray, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """For each whole tile, the sprite it equals byte for byte (-1: none), and that sprite's
    distance to its nearest other sprite.

    At 100 % the screen shows the sprites pixel for pixel, so nearly every tile is found by a
    lookup and one comparison, and only the rest pay for nearest(). The answer is the same:
    a tile equal to a sprite is at distance 0 from it and, by the triangle inequality, no nearer
    to any other sprite than the two sprites are to each other.
    """
    info = derived("exact", sprites, None if mask is None else mask.tobytes(), lambda: _exact_index(sprites, mask))
    flat = tiles.reshape(len(tiles), -1)
    if info is None or flat.shape[1] != info[3].shape[1]:
        return np.full(len(tiles), -1), np.zeros(len(tiles), np.float32)
    positions, keys, order, sprite_flat, gap = info
    found = _keys(flat, positions)
    at = np.minimum(np.searchsorted(keys, found), len(keys) - 1)
    index = order[at]
    equal = (keys[at] == found) & (flat == sprite_flat[index]).all(axis=1)
    return np.where(equal, index, -1), gap[index]


def _blurred(stack: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    out = np.empty(stack.shape, np.float32)
    for i, tile in enumerate(stack):
        out[i] = cv2.GaussianBlur(tile.astype(np.float32), (0, 0), LOOSE_SIGMA)
    return (out if mask is None else out[:, mask]).reshape(len(stack), -1)


def ring_mask(h: int, w: int, width: int = 2) -> np.ndarray:
    ring = np.ones((h, w), bool)
    ring[width:-width, width:-width] = False
    return ring


def loose(
    tiles: np.ndarray, sprites: np.ndarray, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """For each tile, the sprite it resembles (-1: none clearly), and how sure: glyph differences
    within a family of looks are tolerated, never a change of colour or a cell out of place.

    The glyph inside is compared blurred, so a stroke a pixel wider or a pixel off costs little;
    the cell's frame (its outer two pixels: bevel or grid line) must still match as closely as a
    strict read asks, since that is what places the tile on the lattice: a tile straddling two
    cells has a plain or doubled frame. Tiles are compared once per distinct tile; mask (whole
    tile, as telling() gives it without its border) limits the comparison to where sprites differ.
    A game draws the same few tiles again and again: each distinct tile is judged once, and its
    verdict kept per sprite set (LOOSE_MEMO tiles at most).
    """
    if mask is not None:
        mask = np.pad(mask, BORDER)
    mask_key = None if mask is None else mask.tobytes()
    memo: dict[bytes, tuple[int, float]] = derived("loose-memo", sprites, mask_key, dict)
    keys = [tile.tobytes() for tile in tiles]
    new = list(dict.fromkeys(k for k in keys if k not in memo))
    if new:
        if len(memo) + len(new) > LOOSE_MEMO:
            memo.clear()  # (and every tile of this read judged anew: its known ones went too)
            new = list(dict.fromkeys(keys))
        distinct = np.stack([np.frombuffer(k, tiles.dtype).reshape(tiles.shape[1:]) for k in new])
        t = derived("loose", sprites, mask_key, lambda: _blurred(sprites, mask))
        for key, found, sure in zip(new, *_loose_distinct(distinct, sprites, t, mask), strict=True):
            memo[key] = (int(found), float(sure))
    found = np.array([memo[k][0] for k in keys], int)
    return found, np.array([memo[k][1] for k in keys], np.float32)


def _loose_distinct(distinct: np.ndarray, sprites: np.ndarray, t: np.ndarray,
                    mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    x = _blurred(distinct, mask)
    d = np.sqrt(((x[:, None, :] - t[None, :, :]) ** 2).mean(axis=2))
    order = np.argsort(d, axis=1)
    rows = np.arange(len(d))
    best = d[rows, order[:, 0]]
    second = d[rows, order[:, 1]] if d.shape[1] > 1 else np.full(len(d), np.inf)
    ring = ring_mask(*distinct.shape[1:3])
    frame = distinct[:, ring].astype(np.float32) - sprites[order[:, 0]][:, ring]
    framed = np.sqrt((frame**2).mean(axis=(1, 2))) <= MAX_DISTANCE
    clear = framed & (best <= LOOSE_DISTANCE) & (second >= LOOSE_RATIO * best)
    index = np.where(clear, order[:, 0], -1)
    confidence = np.where(clear, np.clip(1.0 - best / LOOSE_DISTANCE, 0.0, 1.0) * 0.5, 0.0)
    return index, confidence


def judge(best: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which reads to trust, and a confidence in [0, 1] to report (1: exact and unambiguous)."""
    known = (best <= MAX_DISTANCE) & (second - best >= MIN_GAP)
    confidence = np.clip((second - best) / (4 * MIN_GAP), 0.0, 1.0) * np.clip(1.0 - best / MAX_DISTANCE, 0.0, 1.0)
    return known, confidence


def edge_contrast(tiles: np.ndarray) -> np.ndarray:
    """How far each tile's outer pixel ring stands from the mean colour of its inside (two pixels
    in): mean absolute difference over the ring's pixels and channels. 0 for plain background."""
    ring = np.concatenate((tiles[:, 0], tiles[:, -1], tiles[:, :, 0], tiles[:, :, -1]), axis=1).astype(np.float32)
    inside = tiles[:, 2:-2, 2:-2].reshape(len(tiles), -1, 3).mean(axis=1, dtype=np.float32)
    return np.abs(ring - inside[:, None, :]).mean(axis=(1, 2))


def plain_inside(sprites: np.ndarray) -> np.ndarray:
    """Which sprites are one flat colour away from their edges (two pixels in: scaling blurs one)."""
    inner = sprites[:, 2:-2, 2:-2].reshape(len(sprites), -1, 3).astype(np.float32)
    return (inner.std(axis=1) < PLAIN).all(axis=1)


def cut_tiles(area: np.ndarray, rows: int, cols: int, n: int) -> np.ndarray:
    """A field exactly rows x cols cells of n pixels, as one contiguous n x n tile per cell, row by row."""
    whole = area.reshape(rows, n, cols, n, 3).swapaxes(1, 2)
    return np.ascontiguousarray(whole).reshape(rows * cols, n, n, 3)
