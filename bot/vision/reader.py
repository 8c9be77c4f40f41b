"""Read a board off a screenshot, given where the field is: cells, face and mine counter.

The field is resampled once to the skin's 1x size and cut into tiles, each matched against the
skin's sprites (bot.vision.sprites); a look described by its colours is judged cell by cell instead
(bot.vision.described). A cell the matching is not sure of is reported as unknown: a cell the bot
is not sure of must never reach the solver as a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, Board, format_grid
from bot.errors import VisionError
from bot.vision.board_rules import board_face, exploded_by_count, impossible_zeros
from bot.vision.described import framed as described_framed
from bot.vision.described import read_described
from bot.vision.led import read_led
from bot.vision.look import largest_channel
from bot.vision.panel import read_panel_counter
from bot.vision.skin import Skin
from bot.vision.sprites import (
    LOOSE_MEMO,
    bank,
    cut_tiles,
    derived,
    edge_contrast,
    exact,
    judge,
    loose,
    nearest,
    plain_inside,
    resample,
    telling,
)

#: A tile whose mean colour is further than this (0-255, any channel) from its nearest sprite's
#: matches nothing either (bot.vision.sprites: the other limits).
#: Measured: JPEG at quality 95 moves a WineMine cell's mean by up to 14; GNOME Mines' 6 (a look
#: its skin lacked) sits 22 from its 5, which it is otherwise near enough to be read as.
MEAN_COLOUR = 18.0
#: Sub-pixel offsets tried for the face and the counter digits.
SHIFTS = (-0.5, -0.25, 0.0, 0.25, 0.5)
_SHIFT_ORDER = sorted(((y, x) for y in SHIFTS for x in SHIFTS), key=lambda s: (abs(s[0]) + abs(s[1]), s))


MEMO_MARGIN = 3  # px round a memoised read's box: more than any sub-pixel shift tried
#: A described look's tile over its pitch where the field does not say (bot.vision.tiles measures
#: 0.83 for the Microsoft app, 0.94 for Windows 7).
TILE_SHARE = 0.85


@dataclass(frozen=True)
class Field:
    """Where the cells are in the image: top-left corner, cell pitch (image pixels), size."""

    left: float
    top: float
    pitch: float
    rows: int
    cols: int
    #: The face's and counter's scale, where it is not the cells' (None: the same): a game whose
    #: cells grow with the level while its face and counter keep their size (ace-minesweeper).
    chrome: float | None = None
    #: A field stretched to its window (GNOME Mines: cells 48 or 49 px): each column's and row's
    #: start from (left, top), every cell then `pitch` (the smallest step) square from its start.
    xs: tuple[float, ...] | None = None
    ys: tuple[float, ...] | None = None
    #: A tile's side without the gap round it, for a look that draws gaps (bot.vision.tiles): what
    #: a described look (bot.vision.described) judges of each cell. None: the whole pitch.
    tile: float | None = None

    def scale_of_chrome(self, skin: Skin) -> float:
        return self.chrome if self.chrome is not None else self.pitch / skin.cell

    @property
    def offsets(self) -> tuple[np.ndarray, np.ndarray]:
        """Each column's and row's start from (left, top)."""
        xs = np.array(self.xs, float) if self.xs else self.pitch * np.arange(self.cols)
        ys = np.array(self.ys, float) if self.ys else self.pitch * np.arange(self.rows)
        return xs, ys

    def cell_origin(self, r: int, c: int) -> tuple[float, float]:
        xs, ys = self.offsets
        return self.left + float(xs[c]), self.top + float(ys[r])

    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """Each column's and row's middle, in image pixels."""
        xs, ys = self.offsets
        return self.left + xs + self.pitch / 2, self.top + ys + self.pitch / 2

    @property
    def width(self) -> float:
        return self.xs[-1] + self.pitch if self.xs else self.cols * self.pitch

    @property
    def height(self) -> float:
        return self.ys[-1] + self.pitch if self.ys else self.rows * self.pitch


@dataclass(frozen=True, eq=False)
class Reading:
    codes: np.ndarray  # rows x cols board codes (the nearest sprite, even where unknown)
    confidence: np.ndarray  # rows x cols in [0, 1]
    unknown: np.ndarray  # rows x cols bool: cells that must not be trusted
    face: str | None  # None when the face matches no sprite
    face_confidence: float
    counter: int | None
    counter_confidence: float
    framed: bool = True  # the game's frame is seen on all four sides (frame_seen)
    timer: int | None = None  # seconds shown, where the skin knows the timer (never needed to play)
    counted: bool = True  # the skin knows a mine counter (a game may have none it can read)
    face_by_disc: bool = False  # the face's state read off the board: no sprite matched, its disc was seen

    @property
    def complete(self) -> bool:
        return (self.framed and not self.unknown.any() and self.face is not None
                and (self.counter is not None or not self.counted))

    @property
    def counter_fits(self) -> bool:
        """Whether the counter, where read, can be true of the cells read: it shows the mines left
        to flag, each under a covered cell or shown (after a loss). A field read a pixel or two off
        its cells (covered tiles taken for opened 0s) has fewer such cells than its counter says."""
        room = np.isin(self.codes, (UNOPENED, QUESTION, MINE, EXPLODED)) | self.unknown
        return self.counter is None or self.counter <= int(room.sum())

    def board(self, mines: int | None = None) -> Board:
        if not self.framed:
            raise VisionError("the board's frame is not seen on every side: part of it is hidden or off the screen")
        if self.unknown.any():
            cells = [tuple(int(v) for v in c) for c in np.argwhere(self.unknown)[:8]]
            raise VisionError(f"{int(self.unknown.sum())} cell(s) could not be read, e.g. (row, col) {cells}")
        return Board(self.codes.copy(), mines)

    def game_board(self) -> Board:
        """board(), with the mine total while the game is on: the counter shows mines left to
        flag, and the solver wants the total, so the flags on the board are added back."""
        board = self.board()
        if self.face == "playing" and self.counter is not None:
            board = board.with_mines(self.counter + int((board.cells == FLAG).sum()))
        return board

    def grid(self) -> str:
        text = format_grid(Board(self.codes.copy()))
        rows = [list(row) for row in text.splitlines()]
        for r, c in np.argwhere(self.unknown):
            rows[r][c] = "!"
        return "\n".join("".join(row) for row in rows)


def _best_of_shifts(
    image: np.ndarray,
    box: tuple[float, float, float, float],
    out: tuple[int, int],
    split: int,
    sprites: np.ndarray,
    mask: np.ndarray | None = None,
    shifts: tuple[tuple[float, float], ...] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Small sprites (face, LED digits) with thin strokes: try sub-pixel shifts, keep the closest fit.

    Scaling puts their strokes between pixels; a fraction of a pixel off costs more than the
    difference between two digits. Cells are large enough not to need this.
    """
    left, top, width, height = box
    found = None
    for dy, dx in shifts or _SHIFT_ORDER:
            try:
                strip = resample(image, left + dx, top + dy, width, height, out)
            except VisionError:
                continue
            h, w = out[1], out[0] // split
            tiles = np.ascontiguousarray(strip.reshape(h, split, w, 3).swapaxes(0, 1))
            index, second = exact(tiles, sprites, mask)
            if (index >= 0).all():
                return index, np.zeros(len(index), np.float32), second
            index, best, second = nearest(tiles, sprites, mask)
            if found is None or best.sum() < found[1].sum():
                found = (index, best, second)
            if judge(best, second)[0].all():
                break  # a clear match: no need to look further between the pixels
    if found is None:
        raise VisionError("outside the image")
    return found


def field_tiles(image: np.ndarray, field: Field, n: int) -> np.ndarray:
    """Every cell of the field at n x n pixels, row by row. A stretched field's cells are first cut
    one by one from their own starts (placed side by side), then scaled together."""
    if field.xs is None and field.ys is None:
        norm = resample(image, field.left, field.top, field.width, field.height, (field.cols * n, field.rows * n))
        return cut_tiles(norm, field.rows, field.cols, n)
    p = round(field.pitch)
    xs, ys = field.offsets
    x0, y0 = np.rint(field.left + xs).astype(int), np.rint(field.top + ys).astype(int)
    if x0[0] < 0 or y0[0] < 0 or x0[-1] + p > image.shape[1] or y0[-1] + p > image.shape[0]:
        raise VisionError("the board runs off the edge of the image")
    span = np.arange(p)
    mosaic = image[(y0[:, None] + span).reshape(-1)[:, None], (x0[:, None] + span).reshape(-1)[None, :]]
    if p != n:
        mosaic = cv2.resize(mosaic, (field.cols * n, field.rows * n), interpolation=cv2.INTER_AREA)
    return cut_tiles(np.ascontiguousarray(mosaic), field.rows, field.cols, n)


def read_cells(image: np.ndarray, field: Field, skin: Skin) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Board codes, which of them to trust, and confidences, for every cell of the field."""
    if skin.look is not None:
        codes, known = read_described(image, *field.centres(), tile_of(field), skin.look)
        return codes, known, known.astype(np.float32)
    n = skin.cell
    tiles = field_tiles(image, field, n)
    sprites = bank(skin.cell_sprites, field.pitch / n)
    index, second = exact(tiles, sprites)
    best = np.zeros(len(tiles), np.float32)
    miss = np.flatnonzero(index < 0)
    if len(miss):
        index[miss], best[miss], second[miss] = nearest(tiles[miss], sprites)
    known, confidence = judge(best, second)
    if len(miss):
        # The comparison above ignores the tiles' edges. For a sprite plain inside (an opened 0)
        # the edges are all that tell it from a patch of plain background (a window not yet drawn):
        # the tile's edge must stand out from its inside at least a third as much as the sprite's
        # does (on a scaled display a one-pixel line lands across two pixels, or blends away).
        # Other sprites are told by their insides. (A tile equal to a sprite has its edges.)
        plain = miss[derived("plain", sprites, None, lambda: plain_inside(sprites))[index[miss]]]
        want = derived("contrast", sprites, None, lambda: edge_contrast(sprites))[index[plain]]
        if len(plain):
            known[plain] &= edge_contrast(tiles[plain]) >= want / 3
    # A field stretched to its window draws each cell at its own size (GNOME Mines' 24 and 25 px):
    # cut at one pitch from its start, a wider cell shows a pixel more tile against the gap than
    # the sprite learnt on a narrower one. Compared blurred, that pixel costs little.
    if (skin.family or field.xs is not None or field.ys is not None) and not known.all():
        doubt = np.flatnonzero(~known)
        found, sure = loose(tiles[doubt], sprites)
        took = found >= 0
        index[doubt[took]], known[doubt[took]], confidence[doubt[took]] = found[took], True, sure[took]
    if len(miss):
        # A look the skin lacks can sit within the distance of one it has where the cell is mostly
        # one flat colour and the glyph small (GNOME Mines' 6, on its own red, read as its 5 on
        # orange): a read is trusted only where the tile's mean colour is the sprite's.
        means = derived("means", sprites, None, lambda: sprites.reshape(len(sprites), -1, 3).mean(axis=1))
        off = np.abs(tiles[miss].reshape(len(miss), -1, 3).mean(axis=1) - means[index[miss]]).max(axis=1)
        known[miss[off > MEAN_COLOUR]] = False
    shape = (field.rows, field.cols)
    return skin.cell_codes[index].reshape(shape), known.reshape(shape), confidence.reshape(shape)


def face_box(field: Field, skin: Skin) -> tuple[float, float, float, float]:
    """Where the face is, in the field's pixels: (left, top, width, height)."""
    scale = field.scale_of_chrome(skin)
    h, w = skin.face_sprites.shape[1:3]
    dx, dy = skin.face_offset
    return field.left + field.width / 2 + dx * scale, field.top + dy * scale, w * scale, h * scale


def _memo(kind: str, sprites: np.ndarray, image: np.ndarray, box: tuple[float, float, float, float],
          scale: float, compute: Callable[[], tuple]) -> tuple:
    """compute(), kept for the pixels it can see: the box and a margin wider than any sub-pixel
    shift tried, at the same fractional offset and scale. The face and the LEDs are read on every
    frame, and again before every click; the game shows the same few of them over and over, and
    a family skin's reads (every shift tried, then the blurred comparison) are the dear ones."""
    left, top, width, height = box
    x0, y0 = int(np.floor(left)) - MEMO_MARGIN, int(np.floor(top)) - MEMO_MARGIN
    x1, y1 = int(np.ceil(left + width)) + MEMO_MARGIN, int(np.ceil(top + height)) + MEMO_MARGIN
    if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0]:
        return compute()
    key = (round(left - x0, 4), round(top - y0, 4), round(scale, 4), x1 - x0, image[y0:y1, x0:x1].tobytes())
    memo: dict = derived("read-memo", sprites, kind, dict)
    found = memo.get(key)
    if found is None:
        if len(memo) >= LOOSE_MEMO:
            memo.clear()
        found = memo[key] = compute()
    return found


#: How sure a face read off the board is where only its disc was seen (has_disc).
DISC_CONFIDENCE = 0.5
#: A disc's pixels: within this of its colour in every channel (a scaled display blends its rim).
DISC_TOLERANCE = 60


def colour_blobs(image: np.ndarray, colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The patches of one colour (within DISC_TOLERANCE): their OpenCV stats rows (left, top, width,
    height, area) and centres."""
    lo = np.clip(np.array(colour) - DISC_TOLERANCE, 0, 255)
    hi = np.clip(np.array(colour) + DISC_TOLERANCE, 0, 255)
    count, _, stats, centres = cv2.connectedComponentsWithStats(cv2.inRange(image, lo, hi), connectivity=8)
    return stats[1:count], centres[1:count]


def has_disc(image: np.ndarray, box: tuple[float, float, float, float], colour: tuple[int, int, int] | None) -> bool:
    """Whether a face's disc of `colour` sits at `box` (left, top, width, height), give or take a
    quarter of the box: a round patch of that colour, filling at least 40 % of the box's width.

    A family skin's faces are our drawing; a clone draws its own smiley (Arbiter's: another
    yellow face on a button where winmine has its face). Where none of our sprites matches but
    the disc is there, the face's state is read off the board (board_face): it says lost, won
    and playing as surely, and only a held button's "pressed" face is not told apart."""
    if colour is None:
        return False
    left, top, width, height = box
    pad = width / 4
    x0, y0 = max(0, int(left - pad)), max(0, int(top - pad))
    x1, y1 = min(image.shape[1], int(left + width + pad)), min(image.shape[0], int(top + height + pad))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    stats, centres = colour_blobs(image[y0:y1, x0:x1], colour)
    if not len(stats):
        return False
    k = int(np.argmax(stats[:, cv2.CC_STAT_AREA]))
    _, _, w, h, area = (int(v) for v in stats[k])
    cx, cy = centres[k][0] + x0, centres[k][1] + y0
    return (0.75 <= w / h <= 1.33 and 0.4 * width <= w <= 1.1 * width and area >= 0.5 * w * h
            and abs(cx - (left + width / 2)) <= width / 4 and abs(cy - (top + height / 2)) <= height / 4)


def read_face(image: np.ndarray, field: Field, skin: Skin) -> tuple[str | None, float]:
    box = face_box(field, skin)
    return _memo("face", skin.face_sprites, image, box, field.scale_of_chrome(skin),
                 lambda: _read_face(image, field, skin, box))


def _read_face(image: np.ndarray, field: Field, skin: Skin,
               box: tuple[float, float, float, float]) -> tuple[str | None, float]:
    scale = field.scale_of_chrome(skin)
    h, w = skin.face_sprites.shape[1:3]
    try:
        index, best, second = _best_of_shifts(
            image, box, (w, h), 1, bank(skin.face_sprites, scale), telling(skin.face_sprites)
        )
    except VisionError:
        return None, 0.0
    known, confidence = judge(best, second)
    if skin.family and not known[0]:
        tile = resample(image, *box, (w, h))[None]
        found, sure = loose(tile, bank(skin.face_sprites, scale), telling(skin.face_sprites))
        index, known, confidence = found, found >= 0, sure
    return (skin.face_names[index[0]] if known[0] else None), float(confidence[0])


def read_counter(image: np.ndarray, field: Field, skin: Skin) -> tuple[int | None, float]:
    """The mine counter: mines left to flag, as the game shows them."""
    return _read_led(image, field, skin, skin.counter_offset, skin.counter_anchor)


def read_timer(image: np.ndarray, field: Field, skin: Skin) -> tuple[int | None, float]:
    """The timer (the other LED counter), where the skin says where it is."""
    if skin.timer_offset is None:
        return None, 0.0
    return _read_led(image, field, skin, skin.timer_offset, skin.timer_anchor)


def _read_led(
    image: np.ndarray, field: Field, skin: Skin, offset: tuple[int, int], anchor: str
) -> tuple[int | None, float]:
    if not len(skin.digit_sprites):
        return None, 0.0
    scale = field.scale_of_chrome(skin)
    h, w = skin.digit_sprites.shape[1:3]
    side = field.left + (field.width if anchor == "right" else 0.0)
    whole = (side + offset[0] * scale, field.top + offset[1] * scale, w * skin.digits * scale, h * scale)
    return _memo("led", skin.digit_sprites, image, whole, scale, lambda: _read_led_either(image, skin, whole, scale))


def _read_led_either(
    image: np.ndarray, skin: Skin, whole: tuple[float, float, float, float], scale: float
) -> tuple[int | None, float]:
    """By the skin's digit sprites, or by the segments lit (bot.vision.led) where they read none.
    A family skin's digits are our drawing, and each clone draws its own seven-segment font
    (Arbiter's matches none of ours): its segments come first."""
    if skin.family:
        value, sure = read_led(image, whole, skin.digits)
        return (value, sure) if value is not None else _read_led_at(image, skin, whole, scale)
    value, sure = _read_led_at(image, skin, whole, scale)
    return (value, sure) if value is not None else read_led(image, whole, skin.digits)


def _read_led_at(
    image: np.ndarray, skin: Skin, whole: tuple[float, float, float, float], scale: float
) -> tuple[int | None, float]:
    """The LED whose digits fill `whole` (image pixels), the display scaled by `scale`."""
    h, w = skin.digit_sprites.shape[1:3]
    # LED segments are thin: their blurred rims are noise, so only the segments themselves count.
    sprites, mask = bank(skin.digit_sprites, scale), telling(skin.digit_sprites, grow=0)
    try:  # all digits at once, unshifted: enough whenever every digit reads clearly (always at 100 %)
        index_all, best_all, second_all = _best_of_shifts(image, whole, (w * skin.digits, h), skin.digits,
                                                          sprites, mask, shifts=((0.0, 0.0),))
    except VisionError:
        return None, 0.0
    if judge(best_all, second_all)[0].all():
        index, best, second = list(index_all), list(best_all), list(second_all)
    else:
        index, best, second = [], [], []
    if not index and skin.family:  # a family skin's digits differ from the game's by a pixel here and there
        strip = resample(image, *whole, (w * skin.digits, h))
        tiles = np.ascontiguousarray(strip.reshape(h, skin.digits, w, 3).swapaxes(0, 1))
        found, sure = loose(tiles, sprites, mask)
        if (found >= 0).all():
            return _led_value(skin, list(found), np.ones(skin.digits, bool), sure)
    for k in range(skin.digits if not index else 0):  # each digit finds its own sub-pixel fit
        box = (whole[0] + k * w * scale, whole[1], w * scale, h * scale)
        try:
            i, b, s2 = _best_of_shifts(image, box, (w, h), 1, sprites, mask)
        except VisionError:
            return None, 0.0
        index.append(int(i[0]))
        best.append(float(b[0]))
        second.append(float(s2[0]))
    return _led_value(skin, index, *judge(np.array(best), np.array(second)))


def _led_value(skin: Skin, index: list[int], known: np.ndarray, confidence: np.ndarray) -> tuple[int | None, float]:
    text = "".join(skin.digit_names[i] for i in index).replace("minus", "-")
    try:
        value = int(text)
    except ValueError:
        return None, float(confidence.min())
    return (value if known.all() else None), float(confidence.min())


#: A pixel of the frame band may differ from the frame's colour by this much (largest channel,
#: 0-255) and still count as frame: a scaled display blends the band's edges with what is beside it.
FRAME_TOLERANCE = 96


def _frame_bands(field: Field, depth: int, p: float, skip: int = 1) -> dict[str, tuple[float, float, float, float]]:
    """(left, top, width, height) of the band from `skip` 1x pixels (p image pixels each) out to
    `depth`, per side: the pixels next to the field blend with the cells on a scaled display."""
    d = (depth - skip) * p
    x, y, w, h = field.left + p, field.top + p, field.width - 2 * p, field.height - 2 * p  # corners left out
    return {
        "top": (x, field.top - depth * p, w, d),
        "bottom": (x, field.top + field.height + skip * p, w, d),
        "left": (field.left - depth * p, y, d, h),
        "right": (field.left + field.width + skip * p, y, d, h),
    }


def frame_of(
    image: np.ndarray, field: Field, depth: int = 3, skip: int = 1
) -> dict[str, tuple[int, int, int]] | None:
    """The frame's colour on each side of a field at 1x (what a learnt skin keeps), or None where a
    side is not one plain colour (no frame to check by)."""
    out = {}
    for side, (left, top, width, height) in _frame_bands(field, depth, 1.0, skip).items():
        try:
            band = resample(image, left, top, width, height, (round(width), round(height)))
        except VisionError:
            return None
        colours = band.reshape(-1, 3)
        colour = np.median(colours, axis=0)
        if (np.abs(colours.astype(np.int16) - colour).max(axis=1) > FRAME_TOLERANCE // 2).any():
            return None
        out[side] = tuple(int(v) for v in colour)
    return out


def frame_seen(image: np.ndarray, field: Field, skin: Skin) -> bool:
    """Whether the game's frame shows along every cell of all four sides of the field.

    A board cut off by the screen's edge or partly hidden by another window would otherwise read
    as a smaller complete board (a hidden last row leaves a board one row short that reads
    cleanly). Skins that do not say what their frame looks like are not checked.
    """
    if skin.frame is None:
        return True
    p = field.pitch / skin.cell
    for side, box in _frame_bands(field, skin.frame_depth, p, skin.frame_skip).items():
        try:  # the band at 1x: every pixel of it, so the top of one digit in a hidden row shows
            band = resample(image, *box, (max(1, round(box[2] / p)), max(1, round(box[3] / p))))
        except VisionError:
            return False  # the band runs off the image: the board is cut by the screen's edge
        diff = np.abs(band.astype(np.int16) - np.array(skin.frame[side], np.int16)).max(axis=2)
        if (diff > FRAME_TOLERANCE).any():
            return False
    return True


def tile_of(field: Field) -> float:
    """What a described look judges of each cell: the tile without its gap."""
    return field.tile if field.tile is not None else TILE_SHARE * field.pitch


def _read_described(image: np.ndarray, field: Field, skin: Skin) -> Reading:
    """A look described by colours (bot.vision.described): cells judged one by one, the game's state
    from the board (these games have no face), no counter read (with_panel_counter)."""
    xs, ys = field.centres()
    tile, value = tile_of(field), largest_channel(image)
    codes, known = read_described(image, xs, ys, tile, skin.look, value)
    unread = ~known | impossible_zeros(codes, known)
    codes, unknown = exploded_by_count(codes, unread, skin.mines.get(codes.shape))
    face = board_face(np.where(unknown, UNOPENED, codes))
    whole = described_framed(image, xs, ys, field.pitch, tile, skin.look, value)
    sure = (known | unread & ~unknown).astype(np.float32)  # (a cell the count named is sure)
    return Reading(codes, sure, unknown, face, 1.0, None, 0.0, whole, None, counted=False)


def with_panel_counter(image: np.ndarray, field: Field, skin: Skin, reading: Reading) -> Reading:
    """A described look's reading with the counter its panel shows, where the board confirms it
    (bot.vision.panel; ~0.1 s, so asked for by a replay, not by every read of play, which takes a
    standard level's total from the skin)."""
    if skin.look is None or not reading.framed or reading.unknown.any():
        return reading
    box = (field.left, field.top, field.left + field.width, field.top + field.height)
    counter = read_panel_counter(image, box, field.pitch, reading.codes, skin.mines.get(reading.codes.shape))
    return reading if counter is None else replace(reading, counter=counter, counter_confidence=1.0)


def cells_unread(image: np.ndarray, field: Field, skin: Skin) -> int:
    """How many of the field's cells read() leaves unknown, without reading its face or counters."""
    if skin.look is not None:
        return int(read(image, field, skin).unknown.sum())
    codes, known, _ = read_cells(image, field, skin)
    return int((~known | impossible_zeros(codes, known)).sum())


def read(image: np.ndarray, field: Field, skin: Skin) -> Reading:
    """Everything one screenshot says about the game, with how sure each part is."""
    if skin.look is not None:
        return _read_described(image, field, skin)
    codes, known, confidence = read_cells(image, field, skin)
    unknown = ~known | impossible_zeros(codes, known)
    by_disc = False
    if skin.faceless:  # (only cells read for sure say so: an unread one counts as covered)
        face, face_conf = board_face(np.where(unknown, UNOPENED, codes)), 1.0
    else:
        face, face_conf = read_face(image, field, skin)
        by_disc = face is None and skin.family and has_disc(image, face_box(field, skin), skin.disc_bgr)
        if by_disc:
            face, face_conf = board_face(np.where(unknown, UNOPENED, codes)), DISC_CONFIDENCE
    counter, counter_conf = read_counter(image, field, skin)
    framed = frame_seen(image, field, skin)
    timer, _ = read_timer(image, field, skin)
    return Reading(codes, confidence, unknown, face, face_conf, counter, counter_conf, framed, timer,
                   counted=bool(len(skin.digit_sprites)), face_by_disc=by_disc)
