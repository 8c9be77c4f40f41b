"""Read the cells of a look described in words and colours, not sprites: shaded, glossy, any size.

A described look (a skin.json with a "look" and no cell pictures: templates/win7, templates/msapp)
says what each kind of cell is made of: the colour range of a covered tile, of an opened one and of
a flag tile where the game has one, the ink colour of each number, the ink of a flag and a mine on a
covered tile. Each cell is judged by itself, against its own tile: its ground is the middle of the
tile (the tile's own shading, whatever its place on the board), its ink what stands out from that
ground, and a number is the digit whose colour and drawn shape (bot.vision.glyphs) the ink is
nearest, with a clear margin over the next. Anything else is unknown, and an unknown cell stops
the board from being used: a cell the bot is not sure of never reaches the solver.
"""

from __future__ import annotations

import functools
import hashlib
import weakref
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, UNOPENED
from bot.vision.glyphs import shape_scores
from bot.vision.look import LUMA, Look, hsv_of, largest_channel, luma
from bot.vision.outlines import edges_of, goes_on, outlined
from bot.vision.pointer import pointer_mask

#: Share of the tile (as bot.vision.tiles finds it, without its gap) the judged box spans round the
#: cell's centre: a digit is at most about 0.75 of the tile (Windows 7's).
BOX = 0.9
#: ... and, where nothing is read there, the box tried again to read a number: the Java Windows 7
#: clone draws its 5 low in the tile, its foot cut by the narrower box.
WIDE = 1.0
#: A pixel is ink when it stands this far (0-255, the largest channel) from the ground ...
INK = 48
#: ... and over half as far as the cell's farthest pixel.
INK_SHARE = 0.5
#: Ink of the covered tile's own hue is its gloss or shading while it covers less than this share of
#: the box (Windows 7: at most 0.13; a mine shown on the tile, 0.28 or more) ...
GLOSS = 0.2
#: ... or, of any share, while it is this light (value 0-1): a highlight, the lit half of a glossy
#: tile. A mine drawn on the tile darkens it (its ink 0.36 or darker, Windows 7).
GLOSS_VALUE = 0.45
#: Ink running along a side of the box for this share of it touches that side (bot.vision.described._entering).
EDGE_RUN = 0.25
EDGE_DEPTH = 0.2
#: A mine covers at least this share of the box: on a covered tile (Windows 7's at 80 %: 0.2 or
#: more), and on an opened one, where grey ink may also be a digit in a palette's wrong colour
#: (0.15-0.3 of the box), more.
MINE_ON_TILE = 0.2
MINE_SHARE = 0.3
#: A mine's dark body is the ink this much darker than the ground (luma, 0-255): on a flat pale
#: tile its white highlight stands farther from the ground by the largest channel than its body
#: (our chequer's teal: 160 against 95), so the strongest ink is the highlight. Its dark ink covers
#: 0.39-0.42 of the box on either shade of the tile (the exploded one's, 0.34); a plain covered
#: tile has no ink.
DARKER = 30
#: A mine that large on a covered tile may grey the box's brighter half, the ground, with its
#: light half: the ground is then of the tile's hue at this share of its least saturation or more
#: (Windows 7's at 80-200 %: 0.216-0.223 against the covered tiles' 0.225).
GREYED = 0.5
#: ... and is centred in the box: its ink's extent's middle within this share of the box's side from
#: the box's centre (a drawn mine in a 14 px box: up to 0.11, a pixel and a half; a dark band over a
#: cell's left third, a window's edge: 0.31).
CENTRED = 0.15
#: A look whose covered tiles are raised (Look.raised): a flat cell of their colour, in less than
#: this share of their relief, is none (KMines' white box over its field at a game's end: relief
#: about 0), and a flag's ink on a cell in this share or more is a flag (KMines' flags: 13.9-22.8
#: against its plain covered tiles' 19-32 and its opened cells' -6 to 8).
RAISED_SHARE = 0.4
#: ... but ink of a digit's colour (within NEAR_COLOUR) is a flag only in this share or more: a
#: digit where a shaded background shows through the opened cells stands nearly as high (KMines'
#: at 16 px: up to 7.7 against 19; its flags 18-22 there).
RAISED_CLEAR = 0.6
#: A tile's relief is measured in a frame of FRAME of the pitch round the cell's centre: the judged
#: box, a share of the tile as found, may lie inside a raised tile's bevel (the drawn grey look's,
#: 0.08 of the pitch; a classic look's at 150 %), where every tile is flat.
FRAME = 0.9
#: ... and in the frame this many pixels in from each side, the largest of them taken: a frame
#: that takes in the gap beside a tile or not, as the lattice lies half a pixel off, moves the
#: relief by half (KMines' 14 px tiles at 16 px, in a 14 px frame: 7 to 20; a pixel in: 17 to 20).
INSETS = (0, 1, 2)
MIN_FRAME = 8  # px: the smallest frame measured in
STRIP_KEPT = 0.75  # ... a pixel or more in, where every strip keeps this share clear of ink
#: Grounds this share of the distance between the covered and opened shades' middles past the edge
#: of either, or between them, are told by relief in a raised look (_between).
BETWEEN_SLACK = 0.05
#: ... by strips along the frame's sides, this share of its side deep.
STRIP = 0.15
#: Ink parts smaller than this share of the largest part are specks (the tile's corner, noise).
SPECK = 0.1
#: ... and parts touching the box's edge are the glyph only if they reach into its middle, this
#: share of its side round its centre.
MIDDLE = 0.5
#: No glyph reaches a tile's corners: ink beyond this in |x| + |y| (x, y from -1 to 1 across the
#: box) is left out (a rounded tile's corner shows the dark ground between tiles; a mine's
#: diagonal spikes reach 1.0).
CORNER = 1.5
#: Lines along the box's sides inked their whole length, this many deep at most, are the outline
#: between tiles, not ink (bot.vision.described._outlines).
OUTLINE = 2
#: A shape this much like a digit is no mine (mines scored 0.5-0.58 at most, mine_sized).
DIGIT_LIKE = 0.65
#: Ink covering less than this share of the box is none (specks of palette noise, the gloss).
NO_INK = 0.012
#: The digit nearest the cell's ink in colour lies within NEAR_COLOUR (0-255 RGB distance) of it,
#: and the candidates are every digit within COLOUR_TIE of that one (the app's inks lie within 10
#: of their digit's; Windows 7's, through a GIF's palette, within 45 of theirs, or nearer another
#: digit's: its 3s turned so dark a red that its 5's is 41 away, its 3's 66: both candidates, the
#: shape decides).
NEAR_COLOUR = 50.0
COLOUR_TIE = 40.0
#: A digit alone in colour must look nearly as much like itself as like any other digit (its
#: correlation at most this far below the best): the app's 6 comes 0.07 under a drawn 5. Ink
#: darker than DARK_INK (largest channel) says little by its colour: it must also look like a digit
#: (MIN_SHAPE); a tile fading in mid-animation (Windows 7, a GIF's frames) is as dark, and
#: correlates under 0.3 with every digit.
SOLE_SLACK = 0.2
#: ... unless a digit the look has no colour for is this much nearer in shape: KMines' 6, never
#: shown while it was learnt, is a darker red than its 5 (43 apart): shapes 0.71 as a 6, 0.62 as a 5
#: (0.85 and 0.80 in the wide box); its 5s are their own best shape (0.87-0.92).
UNSEEN_AHEAD = 0.02
DARK_INK = 64
#: Ink this far from every digit's colour a learnt look knows, each mixed with up to BLENDED of the
#: ground (and not near black), is none of those digits: of the digits it has no colour for, the
#: one of its shape (Simon Tatham's teal 6, never shown while learnt: 127 from its green 2, 90 from
#: its 2 and 4 mixed; a thin digit shrunk with its picture lies within 25 of its own mixed).
FAR_COLOUR = 80.0
#: Digits alike in colour: the best shape at least MIN_SHAPE and SHAPE_MARGIN above the next.
MIN_SHAPE = 0.3
SHAPE_MARGIN = 0.1
DIGITS = tuple("12345678")
#: A digit's ink covers at least this share of the box (measured: the app's 1, the thinnest, 0.07).
MIN_DIGIT = 0.04
#: A shape this plain (correlation, and margin over every other digit) is the digit even in an
#: ink colour up to OFF_COLOUR away from its own: a GIF's palette turns Windows 7's 3 near black.
SURE_SHAPE = 0.5
SURE_MARGIN = 0.25
OFF_COLOUR = 140.0
#: A glyph so thin that smoothing blends its strokes with the tile (a display scaled down) has an
#: ink colour between its digit's and its ground's: where no digit's colour is within NEAR_COLOUR,
#: the distances are taken to each digit's colour mixed with up to this share of the ground
#: (Windows 7's green 2 at 80 %: 53 from its colour, 23 from it mixed with 0.2 of the tile).
BLENDED = 0.3


#: A cell the mouse pointer lies on (bot.vision.pointer) is read from what it leaves in sight where it
#: hides at most this share of the box's middle (MIDDLE), and no number shown runs under it. A glyph
#: hidden whole would take more: the narrowest, a 1, spans the middle's height and 0.4 of its width
#: or more ...
HIDDEN_MOST = 0.25
#: ... and a mark on a covered tile, a flag or a question mark, more still: a cell read as a plain
#: covered tile may have this much of its middle hidden, where none of its ink runs under the
#: pointer (our drawn Windows 7 flag at 80 %, smaller than the middle, was read covered without that).
COVERED_HIDDEN_MOST = 0.6
#: A side of the field is its edge when at most this share of the places beyond it are outlined
#: tiles (measured: none beyond, at most 0.03, on the labelled screenshots; a cut field has its
#: next row or column of tiles, nearly all outlined).
BEYOND = 0.25




@dataclass(frozen=True)
class CellLook:
    """What one cell shows: its ground's colour, its ink (mask over the box) and the ink's colour."""

    ground: np.ndarray  # BGR
    ink: np.ndarray  # bool mask
    ink_colour: np.ndarray | None  # BGR of the strongest ink, None without ink
    #: How raised the tile stands (bot.vision.described._relief, 0-255 either way): a raised tile's
    #: bevel, lit from above and left (KMines' covered tiles 19-32, the classic look's 32-72 at
    #: 125-200 %), against a flat cell (KMines' opened ones -6 to 8; a classic opened cell, its dark
    #: line above and left, -35 to 7).
    relief: float = 0.0
    #: The strongest ink's pixels (BGR, one a row), whose mean is ink_colour; None without ink.
    strong: np.ndarray | None = None
    #: Without ink: whether something is drawn in the box's middle all the same (_faint).
    faint: bool = False
    #: Where the box is INK or more from the ground and DARKER or more below it (bool mask; None
    #: without ink), and those pixels (BGR, one a row): a mine's body, whatever its highlight.
    dark: np.ndarray | None = None
    dark_ink: np.ndarray | None = None

    @property
    def share(self) -> float:
        return float(self.ink.mean())


def _middle(box: np.ndarray) -> np.ndarray:
    """The box's middle: MIDDLE of its side round its centre, each way (a view)."""
    h, w = box.shape[:2]
    dy, dx = round(h * (1 - MIDDLE) / 2), round(w * (1 - MIDDLE) / 2)
    return box[dy : h - dy, dx : w - dx]


def _stray(labels: np.ndarray, stats: np.ndarray) -> np.ndarray:
    """Labels of the ink parts that are not the glyph: specks (under SPECK of the largest part), and
    parts touching the box's edge with no pixel in its middle (a tile's border or bevel, a corner's
    bracket, the neighbour's gap). A glyph is centred: some of it always crosses the middle."""
    h, w = labels.shape
    x, y, cw, ch, area = (stats[1:, i] for i in range(5))
    touches = (x == 0) | (y == 0) | (x + cw == w) | (y + ch == h)
    central = np.zeros(len(area) + 1, bool)
    central[np.unique(_middle(labels))] = True
    largest = area.max() if len(area) else 0
    return np.flatnonzero((area < SPECK * largest) | (touches & ~central[1:])) + 1


#: The brighter half by lightness is the ground where it is this much more uniform than the brighter
#: half by the largest channel (a bold red digit as bright as its grey tile by that channel).
UNIFORM = 0.5


def _ground(box: np.ndarray) -> np.ndarray:
    """The tile's own colour: the median of the brighter half of the box. These looks draw every
    glyph darker than its tile, and a glyph covers less than half of it (a mine about half), so the
    brighter half is tile whatever its shading; the ring round the box would not do (Windows 7's
    digits reach the tile's bevel, which is darker than its face). Brighter by the largest channel,
    unless by lightness the half is far more uniform: KMines' bold red 5 at 16 px fills 45 % of the
    box and its red is as bright as the grey tile by the largest channel, not by lightness."""
    pixels = box.reshape(-1, 3).astype(np.float32)
    halves = [pixels[key >= np.median(key)] for key in (pixels.max(axis=1), pixels @ LUMA)]
    grounds = [np.median(half, axis=0) for half in halves]
    spreads = [float(np.median(np.abs(half - ground).max(axis=1)))
               for half, ground in zip(halves, grounds, strict=True)]
    return grounds[1] if spreads[1] < UNIFORM * spreads[0] else grounds[0]


@functools.cache
def _corners(height: int, width: int) -> np.ndarray:
    """The box's four corners, beyond CORNER in |x| + |y| (each from -1 to 1 across the box)."""
    v, u = np.meshgrid(np.linspace(-1, 1, height), np.linspace(-1, 1, width), indexing="ij")
    return np.abs(u) + np.abs(v) > CORNER


def _outlines(inked: np.ndarray) -> np.ndarray:
    """The box's outermost lines inked along their whole length, corners and all, up to OUTLINE
    deep from each side: the line between two tiles, which a box reaches where the lattice lies a
    fraction of a pixel off and smoothing spreads the line (Windows 7's at 80 %: a grey row of one
    value across the box, right over a 3's top bar). No glyph reaches the box's corners."""
    out = np.zeros_like(inked)
    for lines, cut in ((inked, out), (inked.T, out.T)):  # (rows, then columns: views of the same)
        for side in (np.s_[:], np.s_[::-1]):
            for depth in range(OUTLINE):
                if not lines[side][depth].all():
                    break
                cut[side][depth] = True
    return out


def cell_look(box: np.ndarray, frame: np.ndarray | None = None) -> CellLook:
    """What the judged box shows; its relief measured in `frame` (bot.vision.described.frames) where
    given, else in the box."""
    ground = _ground(box)
    distance = np.abs(box.astype(np.float32) - ground).max(axis=2)
    outlines = _outlines(distance >= INK)
    distance[_corners(*distance.shape)] = 0  # a rounded tile's corner shows the ground behind it
    far = float(distance.max())
    mask = distance >= max(INK, INK_SHARE * far)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    drop = _stray(labels, stats)
    if len(drop):
        mask &= ~np.isin(labels, drop)
    relief_mask = mask.copy()  # (the relief keeps the outlines out of its strips, as before)
    mask &= ~outlines
    if mask.mean() < NO_INK:
        return CellLook(ground, np.zeros_like(mask), None, _relief(box if frame is None else frame, None),
                        faint=_faint(distance))
    strong = box[mask & (distance >= 0.75 * float(distance[mask].max()))].reshape(-1, 3).astype(np.float32)
    dark = (distance >= INK) & ~outlines & (box.astype(np.float32) @ LUMA <= luma(ground) - DARKER)
    return CellLook(ground, mask, strong.mean(axis=0), _relief(box if frame is None else frame, relief_mask), strong,
                    dark=dark, dark_ink=box[dark].reshape(-1, 3).astype(np.float32))


def _faint(distance: np.ndarray) -> bool:
    """Whether the box's middle (MIDDLE of its side round its centre) holds NO_INK of the box in
    pixels INK or more from the ground, though no ink was found: the ink threshold rises with the
    farthest pixel (INK_SHARE), and a tile's dark rim in the box can lift it over a glyph still
    fading in (the app's grey 1 mid-animation, 50-90 from its white tile under a rim 172 away,
    was read as an opened 0). Such a cell is no plain 0."""
    return int((_middle(distance) >= INK).sum()) >= NO_INK * distance.size


def _relief(frame: np.ndarray, ink: np.ndarray | None) -> float:
    """How much brighter the frame's top and left strips are than its bottom and right ones (by the
    largest channel), the ink and a pixel round it left out (`ink`: a mask of the judged box, centred
    in the frame). Signed, so that a flat cell with a dark line above and left (a classic look's
    opened cell) stands below a raised tile; a spread would not tell them apart, and a bold digit
    blurred into a small cell spreads a flat one's pixels as much as a bevel. The largest over the
    frame and the frame a pixel or two in (INSETS)."""
    value = frame.max(axis=2).astype(np.float32)
    h, w = value.shape
    keep = np.ones((h, w), bool)
    if ink is not None and ink.any():
        mask = np.zeros((h, w), np.uint8)
        y, x = max(0, (h - ink.shape[0]) // 2), max(0, (w - ink.shape[1]) // 2)
        part = ink[: h - y, : w - x]
        mask[y : y + part.shape[0], x : x + part.shape[1]] = part
        keep = cv2.dilate(mask, np.ones((3, 3), np.uint8)) == 0
    found = [_strips(value[d : h - d, d : w - d], keep[d : h - d, d : w - d], d > 0)
             for d in INSETS if d == 0 or min(h, w) - 2 * d >= MIN_FRAME]
    return max(v for v in found if v is not None)


def _strips(value: np.ndarray, keep: np.ndarray, clear: bool = False) -> float | None:
    """Top and left strips' mean brightness less bottom and right ones', halved (`keep`: the pixels
    counted, where a strip has some); with `clear`, None unless every strip keeps STRIP_KEPT of its
    pixels (a frame a pixel or two in, round a bold digit, is mostly its blurred edge)."""
    h, w = value.shape
    k = max(1, round(STRIP * min(h, w)))
    sides = [np.s_[:k, :], np.s_[:, :k], np.s_[h - k :, :], np.s_[:, w - k :]]  # top, left, bottom, right
    if clear and min(float(keep[side].mean()) for side in sides) < STRIP_KEPT:
        return None
    means = [float(value[side][keep[side]].mean()) if keep[side].any() else float(value[side].mean())
             for side in sides]
    return (means[0] + means[1] - means[2] - means[3]) / 2


def _entering(mask: np.ndarray) -> bool:
    """Whether ink lies thick along two neighbouring sides of the box, or three: something reaching
    in from beyond the cell (a panel's corner). Thick: the outer EDGE_DEPTH of the box's side or
    more, each line of it inked along EDGE_RUN of its length. A tile's bevel is a line or two deep,
    a glyph centred (a tall one may touch the top and the bottom: Windows 7's 1 fills its tile)."""
    depth = max(3, round(EDGE_DEPTH * min(mask.shape)))

    def thick(lines: np.ndarray) -> bool:  # the side's lines, outermost first
        return bool((lines[:depth].mean(axis=1) >= EDGE_RUN).all())

    top, bottom, left, right = thick(mask), thick(mask[::-1]), thick(mask.T), thick(mask.T[::-1])
    return top + right + bottom + left >= 3 or ((top or bottom) and (left or right))


def number_of(cell: CellLook, look: Look) -> int | None:
    """The number the ink shows; None where it is not clearly one.

    A plain shape (SURE_SHAPE, far ahead of every other digit) is the digit in any ink near its
    colour (a GIF's palette turns Windows 7's 3 near black). Otherwise colour first: the nearest
    digit's ink colour within NEAR_COLOUR of the cell's, and every digit within COLOUR_TIE of it.
    One is the number unless another digit's drawn shape is plainly nearer (the Microsoft app's
    colours are far apart, its font far from the drawn ones). Several (Windows 7 draws its 3 and 5
    in one dark red) are told apart by shape, by a clear margin over the others and no digit of
    another colour plainly nearer.
    """
    if cell.share < MIN_DIGIT:
        return None  # a speck: no digit is so small
    numbers = sorted(look.digits)
    colours = _colour_distances(cell, look, numbers, 0.0)
    if len(numbers) and colours.min() > NEAR_COLOUR:
        colours = _colour_distances(cell, look, numbers, BLENDED)
    # Shapes of all eight digits, those the look gives no colour too: a 7 the look cannot name must
    # not pass for the 3 of its colour (a Windows 7 clone's red 7 read as 3).
    drawn = shape_scores(cell.ink, DIGITS, look.shapes)
    every = drawn[[d - 1 for d in numbers]]
    ranked = np.sort(drawn)[::-1]
    clear = int(np.argmax(drawn)) + 1
    if clear in look.digits and ranked[0] >= SURE_SHAPE and ranked[0] - ranked[1] >= SURE_MARGIN \
            and colours[numbers.index(clear)] <= OFF_COLOUR:
        return clear
    if look.unseen_by_shape and clear not in look.digits and ranked[0] >= SURE_SHAPE \
            and ranked[0] - ranked[1] >= SURE_MARGIN:
        return clear  # (a known digit near in colour looks SURE_MARGIN less like it: it is not that one)
    if not numbers:
        return None  # a look still being learnt, no digit's colour known yet: only a plain shape above
    if colours.min() > NEAR_COLOUR:
        dark = float(cell.ink_colour.max()) < DARK_INK
        if dark and clear in look.digits and ranked[0] >= SURE_SHAPE and ranked[0] - ranked[1] >= SHAPE_MARGIN \
                and colours[numbers.index(clear)] <= OFF_COLOUR:
            return clear  # near black, near no digit's colour: a palette's darkening, the shape alone tells
        if look.unseen_by_shape and not dark and colours.min() > FAR_COLOUR:
            return _unseen(drawn, look)
        return None
    near = np.flatnonzero(colours <= colours.min() + COLOUR_TIE)
    shapes = every[near]
    order = np.argsort(-shapes)
    best = int(near[order[0]])
    if len(near) == 1:
        floor = MIN_SHAPE if float(cell.ink_colour.max()) < DARK_INK else -np.inf
        if clear not in look.digits and ranked[0] - shapes[0] >= UNSEEN_AHEAD:
            return None  # more like a digit the look has no colour for (KMines' dark red 6 by its 5)
        return numbers[best] if shapes[0] >= max(floor, ranked[0] - SOLE_SLACK) else None
    margin = float(shapes[order[0]] - shapes[order[1]])
    if margin < SHAPE_MARGIN or shapes[order[0]] < MIN_SHAPE or shapes[order[0]] < ranked[0] - SHAPE_MARGIN:
        return None
    return numbers[best]


def _unseen(drawn: np.ndarray, look: Look) -> int | None:
    """Of the digits the look has no colour for, the one whose shape is plainly the ink's: SURE_SHAPE
    or more, SHAPE_MARGIN ahead of the others such, and within SOLE_SLACK of the best digit of all
    (Simon Tatham's teal 6, never shown while its look was learnt: 0.80 as a 6, 0.62 as an 8, 0.84
    as the 5 it is 214 from in colour)."""
    unseen = [d for d in range(1, 9) if d not in look.digits]
    if not unseen:
        return None
    scores = drawn[[d - 1 for d in unseen]]
    order = np.argsort(-scores)
    if scores[order[0]] < max(SURE_SHAPE, float(drawn.max()) - SOLE_SLACK):
        return None
    if len(unseen) > 1 and scores[order[0]] - scores[order[1]] < SHAPE_MARGIN:
        return None
    return unseen[int(order[0])]


def _colour_distances(cell: CellLook, look: Look, numbers: list[int], blended: float) -> np.ndarray:
    """How far the cell's ink colour lies from each digit's colours, each mixed with up to `blended`
    of the cell's ground (0: the colours themselves)."""
    ink, ground = cell.ink_colour, cell.ground.astype(np.float64)
    out = []
    for d in numbers:
        colours = look.digits[d].astype(np.float64)
        towards = ground - colours
        reach = np.maximum((towards * towards).sum(axis=1), 1e-9)
        t = np.clip(((ink - colours) * towards).sum(axis=1) / reach, 0.0, blended)
        out.append(float(np.linalg.norm(colours + t[:, None] * towards - ink, axis=1).min()))
    return np.array(out)


def mine_sized(cell: CellLook, shapes: tuple[str, ...] = ()) -> bool:
    """Ink as large as a mine shown on an opened tile: MINE_SHARE of the box or more, or
    MINE_ON_TILE or more in no digit's plain shape, and less like any digit than DIGIT_LIKE. (A
    mine drawn a little small covers 0.29-0.32 of its box at 27 px, its best digit shape 0.5-0.58
    and under SURE_MARGIN ahead; KMines' mines 0.44-0.49. Bold digits cover 0.31-0.39, and a grey
    one this large is a plain shape. Windows 7's 3 near black, bolder through a JPEG at 80 %:
    0.25 of its box, 0.68 like its own flat-topped 3 and 0.24 ahead.) `shapes`: the look's own
    drawings of digits (Look.shapes)."""
    if cell.share >= MINE_SHARE:
        return True
    if cell.share < MINE_ON_TILE or cell.ink is None:
        return False
    ranked = np.sort(shape_scores(cell.ink, DIGITS, shapes))[::-1]
    return ranked[0] < DIGIT_LIKE and not (ranked[0] >= SURE_SHAPE and ranked[0] - ranked[1] >= SURE_MARGIN)


#: Boxes already judged, per look (a look is compared by identity) and by a digest of the box's
#: pixels: a game read again after a click has most of its cells unchanged (an Expert board read
#: in play: 480 judgements of about 0.3 ms). A look's judgements are cleared when full.
_JUDGED: weakref.WeakKeyDictionary[Look, dict[tuple[tuple[int, ...], bytes], int | None]] = weakref.WeakKeyDictionary()
JUDGED_MOST = 100_000
_UNJUDGED = object()


def classify_box(box: np.ndarray, look: Look, frame: np.ndarray | None = None) -> int | None:
    """classify(cell_look(box, frame), look), remembered for the same pixels under the same look."""
    judged = _JUDGED.setdefault(look, {})
    digest = hashlib.blake2b(np.ascontiguousarray(box).data, digest_size=16)
    if frame is not None:
        digest.update(np.ascontiguousarray(frame).data)
    key = (box.shape + (() if frame is None else frame.shape), digest.digest())
    known = judged.get(key, _UNJUDGED)  # (one look, not two: another thread may clear it meanwhile)
    if known is not _UNJUDGED:
        return known  # type: ignore[return-value]
    code = classify(cell_look(box, frame), look)
    if len(judged) >= JUDGED_MOST:
        judged.clear()
    judged[key] = code
    return code


def _digit_coloured(ink: np.ndarray, look: Look) -> bool:
    """Whether the ink lies within NEAR_COLOUR of one of the look's digits' colours."""
    return any(float(np.linalg.norm(colours - ink, axis=1).min()) <= NEAR_COLOUR for colours in look.digits.values())


def _between(hsv: np.ndarray, look: Look) -> bool:
    """Whether a ground of both grounds' tint lies between their shades, or within BETWEEN_SLACK of
    the distance between their middles past either's edge: a raised look's opened cells may be a
    sheet the board's background shows through (KMines' opened cells in its lighter stripe: up to
    0.765; the look's opened to 0.757 and covered from 0.762 as learnt, their middles 0.22 apart).
    Such a cell is told by its relief: a plain one is opened where plainly flat, a digit's coloured
    ink is on a covered tile only from RAISED_CLEAR up (its blur lifts a flat cell's relief). A flat
    cell well inside the covered tiles' shades stays unread: a box laid over the field."""
    (c0, c1), (o0, o1) = look.covered.value, look.opened.value
    slack = BETWEEN_SLACK * abs((c0 + c1) - (o0 + o1)) / 2
    low, high = (o1, c0) if o1 <= c0 else (c1, o0)  # (the opened cells darker, or lighter)
    return look.covered.tints(hsv) and look.opened.tints(hsv) and low - slack < float(hsv[2]) < high + slack


def classify(cell: CellLook, look: Look) -> int | None:
    """The board code of one cell, or None when it is none of what the look describes, clearly."""
    hsv = hsv_of(cell.ground)
    inked = cell.ink_colour is not None
    if look.flag_tile is not None and look.flag_tile.holds(hsv):
        return FLAG
    if look.raised is not None and inked and look.flag_ink is not None and look.flag_ink.holds(hsv_of(cell.ink_colour)):
        coloured = _digit_coloured(cell.ink_colour, look)
        if cell.relief >= RAISED_SHARE * look.raised and (cell.relief >= RAISED_CLEAR * look.raised or not coloured):
            return FLAG
        if float(shape_scores(cell.ink, DIGITS).max()) < MIN_SHAPE:
            # (a small tile's relief is lost under its flag: KMines' at 16 px, -3 to 15; its flag's
            # dark red lies 36 from its 6's, and no digit's shape: 0.17 at most, its 5s and 6s 0.73)
            return FLAG
    covered, opened = look.covered.holds(hsv), look.opened.holds(hsv)
    if look.raised is not None and _between(hsv, look):  # (told by relief)
        share = RAISED_CLEAR if inked and _digit_coloured(cell.ink_colour, look) else RAISED_SHARE
        covered = cell.relief >= share * look.raised
        opened = not covered and (inked or opened or cell.relief < share * look.raised / 2)
    if covered and (look.raised is None or cell.relief >= RAISED_SHARE * look.raised):
        ink = hsv_of(cell.ink_colour) if inked else None
        own = ink is not None and look.covered.tints(ink)  # the tile's own hue
        shading = ink is not None and look.covered_ink is not None and look.covered_ink.holds(ink)
        if ink is None or (own and (ink[2] >= GLOSS_VALUE or cell.share < GLOSS)) or shading:
            return UNOPENED  # no ink, or the tile's own gloss and shading: light, or a little of it dark
        if look.flag_ink is not None and look.flag_ink.holds(ink):
            return FLAG
        if look.mine_ink is not None and ((cell.share >= MINE_ON_TILE and (
                look.mine_ink.holds(ink) or look.mine_ink.holds_most(cell.strong))) or _dark_mine(cell, look)):
            return MINE
        return None
    if opened:
        if not inked:
            return None if cell.faint else 0  # (a glyph fading in: no plain 0, nor any number yet)
        if luma(cell.ink_colour) >= luma(cell.ground):
            return None  # ink brighter than its tile: a glow, a reflection, never a number here
        if _entering(cell.ink):  # a glyph is centred: this is something else reaching into the box,
            return MINE if _mine_shown(cell, look, hsv) else None  # or a mine filling it
        if look.mine_ink is not None and look.mine_ink.holds(hsv_of(cell.ink_colour)) \
                and mine_sized(cell, look.shapes) and _centred(cell.ink):
            return MINE  # the mines a lost game shows, on opened tiles (Windows 7's)
        return number_of(cell, look)
    if look.exploded is not None and look.exploded.holds(hsv) and inked and cell.share >= MINE_ON_TILE:
        return EXPLODED
    return MINE if _mine_shown(cell, look, hsv) else None


def _mine_shown(cell: CellLook, look: Look, hsv: np.ndarray) -> bool:
    """A mine a lost game shows, so large that it fills the box (its spikes touch every side) or
    greys the ground with its light half: MINE_SHARE of the box or more, mostly of the mine's
    colour, darker than the ground and centred (CENTRED), on a ground of the opened tiles' tint or
    of the covered tiles' hue at GREYED of their least saturation (Windows 7's at 80-200 %: grounds
    of saturation 0.18-0.223 round its mines, the covered tiles' from 0.225)."""
    if look.mine_ink is None or cell.ink_colour is None or cell.share < MINE_SHARE:
        return False
    greyed = np.array([hsv[0], min(1.0, float(hsv[1]) / GREYED), hsv[2]])
    return (look.opened.tints(hsv) or look.covered.tints(greyed)) and luma(cell.ink_colour) < luma(cell.ground) \
        and look.mine_ink.holds_most(cell.strong) and _centred(cell.ink)


def _dark_mine(cell: CellLook, look: Look) -> bool:
    """A mine on a covered tile whose strongest ink is its light highlight (on a dark tile, the
    body may then fall short of the ink's threshold): its dark ink (CellLook.dark) covers
    MINE_ON_TILE of the box or more, mostly of the mine's colour, centred."""
    assert look.mine_ink is not None
    return (cell.dark is not None and float(cell.dark.mean()) >= MINE_ON_TILE
            and look.mine_ink.holds_most(cell.dark_ink) and _centred(cell.dark))


def _centred(mask: np.ndarray) -> bool:
    """Whether the ink's extent is centred: its middle within CENTRED of the box's side from the
    box's centre (its extent, not its mass: a mine's light half is no ink)."""
    return all(abs((at.min() + at.max() + 1) / 2 - side / 2) <= CENTRED * side
               for at, side in zip(np.nonzero(mask), mask.shape, strict=True))


def _places(image: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray, tile: float
            ) -> list[tuple[int, int, int, int] | None]:
    """The judged box round each cell's centre (x0, y0, x1, y1), row by row; None where it leaves
    the image."""
    half = BOX * tile / 2
    out: list[tuple[int, int, int, int] | None] = []
    for cy in centres_y:
        for cx in centres_x:
            x0, y0, x1, y1 = round(cx - half), round(cy - half), round(cx + half), round(cy + half)
            inside = x0 >= 0 and y0 >= 0 and x1 <= image.shape[1] and y1 <= image.shape[0]
            out.append((x0, y0, x1, y1) if inside else None)
    return out


def boxes(image: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray, tile: float) -> list[np.ndarray | None]:
    """The judged box round each cell's centre, row by row; None where it leaves the image."""
    return [None if at is None else image[at[1] : at[3], at[0] : at[2]]
            for at in _places(image, centres_x, centres_y, tile)]


def under_pointer(box: np.ndarray, hidden: np.ndarray, look: Look) -> int | None:
    """The board code of a cell the pointer lies on (`hidden`: its pixels in the box), from what
    shows, the hidden pixels given the ground's colour (taken from the rest): None where it hides
    more than HIDDEN_MOST of the box's middle (COVERED_HIDDEN_MOST for a plain covered tile: a
    glyph or a mark may lie whole under more), where the ink of a number or a covered tile runs up
    to it (a glyph or a mark cut), or in a raised look (told by relief, which the pointer upsets)."""
    share = float(_middle(hidden).mean())
    if look.raised is not None or hidden.all() or share > COVERED_HIDDEN_MOST:
        return None
    filled = box.copy()
    filled[hidden] = _ground(box[~hidden])
    cell = cell_look(filled)
    code = classify(cell, look)
    if share > (COVERED_HIDDEN_MOST if code == UNOPENED else HIDDEN_MOST):
        return None
    if code is not None and (1 <= code <= 8 or code == UNOPENED):
        beside = cv2.dilate(hidden.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        if (cell.ink & beside).any():
            return None
    return code


def pointed(image: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray, tile: float,
            value: np.ndarray | None = None) -> list[np.ndarray | None]:
    """Where the mouse pointer (bot.vision.pointer) lies on each cell's judged box, row by row: its
    pixels in the box, or None where it lies off the box (or the box off the image). It is looked
    for within a pitch round the field; `value`, the picture's largest channel, where known."""
    pitch = pitch_of(centres_x, tile)
    places = _places(image, centres_x, centres_y, tile)
    reach = round(pitch)
    x0, y0 = max(0, round(centres_x[0]) - reach), max(0, round(centres_y[0]) - reach)
    pointer = pointer_mask(image, (x0, y0, round(centres_x[-1]) + reach, round(centres_y[-1]) + reach), value)
    out: list[np.ndarray | None] = []
    for at in places:
        hidden = None if pointer is None or at is None else \
            pointer[max(0, at[1] - y0) : at[3] - y0, max(0, at[0] - x0) : at[2] - x0]
        ok = hidden is not None and hidden.shape == (at[3] - at[1], at[2] - at[0]) and hidden.any()
        out.append(hidden if ok else None)
    return out


def pitch_of(centres_x: np.ndarray, tile: float) -> float:
    """The cells' pitch from their centres (the smallest usual step: a stretched field's columns
    differ by a pixel); a single column's from its tile."""
    return float(np.median(np.diff(centres_x))) if len(centres_x) > 1 else tile / BOX


def frames(image: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray, pitch: float) -> list[np.ndarray | None]:
    """The frame round each cell's centre its relief is measured in (FRAME of the pitch), row by
    row, sampled at the centre's fraction of a pixel (bilinear): a bevel a pixel or two wide moves
    the relief a lot when a frame rounded to whole pixels takes in a pixel of the gap beside it or
    not (KMines' covered tiles at 16 px: 2 or 8 in one picture, its lattice 0.4 px off); None where
    it leaves the image."""
    side = max(3, round(FRAME * pitch))
    h, w = image.shape[:2]
    out: list[np.ndarray | None] = []
    for cy in centres_y:
        for cx in centres_x:
            if cx - side / 2 < 0 or cy - side / 2 < 0 or cx + side / 2 > w or cy + side / 2 > h:
                out.append(None)
            else:  # (getRectSubPix places pixel i's middle at i)
                out.append(cv2.getRectSubPix(image, (side, side), (float(cx) - 0.5, float(cy) - 0.5)))
    return out


def read_described(image: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray, tile: float,
                   look: Look, value: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Board codes and which of them are known, for the cells centred at the given places. `value`
    is the picture's brightness (its largest channel), where the caller has it already."""
    rows, cols = len(centres_y), len(centres_x)
    codes = np.full(rows * cols, UNOPENED, np.int8)
    known = np.zeros(rows * cols, bool)
    value = largest_channel(image) if value is None else value
    pitch = pitch_of(centres_x, tile)
    wide = None
    around = frames(image, centres_x, centres_y, pitch)
    places = _places(image, centres_x, centres_y, tile)
    for i, (at, hidden) in enumerate(zip(places, pointed(image, centres_x, centres_y, tile, value), strict=True)):
        box = None if at is None else image[at[1] : at[3], at[0] : at[2]]
        if box is not None and hidden is not None:
            code = under_pointer(box, hidden, look)
            if code is not None:
                codes[i], known[i] = code, True
            continue
        code = None if box is None else classify_box(box, look, around[i])
        if code is None and box is not None:  # a glyph drawn off the tile's middle, cut by the box?
            wide = boxes(image, centres_x, centres_y, tile * WIDE / BOX) if wide is None else wide
            code = None if wide[i] is None else _wide_number(classify_box(wide[i], look, around[i]), wide[i], look)
        if code == 0 and look.zero_outlined:
            r, c = divmod(i, cols)
            if not outlined(value, centres_x[c], centres_y[r], pitch, tile, edges_of(r, c, rows, cols)):
                code = None  # plain and with no tile's outline: a dialog or a window over the field, not a 0
        if code is not None:
            codes[i], known[i] = code, True
    return codes.reshape(rows, cols), known.reshape(rows, cols)


def _wide_number(code: int | None, box: np.ndarray, look: Look) -> int | None:
    """A number read in the wide box, in no mine's grey; anything else there is not trusted (the
    wide box reaches the tile's edge, where neighbours and gaps show; the dark half of a mine on
    a greyed tile, through a JPEG at 125 %, was plainly enough a 4 at 0.51 in grey ink)."""
    if code is None or not 1 <= code <= 8:
        return None
    ink = cell_look(box).ink_colour
    grey = ink is not None and look.mine_ink is not None and look.mine_ink.holds(hsv_of(ink))
    return None if grey else code


def framed(image: np.ndarray, centres_x: np.ndarray, centres_y: np.ndarray, pitch: float, tile: float,
           look: Look, value: np.ndarray | None = None) -> bool:
    """Whether the whole field is seen: the gap round its outer tiles lies inside the image, and the
    places one pitch beyond each side hold no tile: neither outlined nor read as a number or a
    flag of the look (a field cut by the picture's or the screen's edge, partly covered, or found
    only in part, would otherwise read as a smaller whole board)."""
    reach = max(1.0, (pitch - tile) / 2)
    left, right = centres_x[0] - pitch / 2 - reach, centres_x[-1] + pitch / 2 + reach
    top, bottom = centres_y[0] - pitch / 2 - reach, centres_y[-1] + pitch / 2 + reach
    if left < 0 or top < 0 or right > image.shape[1] or bottom > image.shape[0]:
        return False
    sides = (([centres_x[0] - pitch], centres_y), ([centres_x[-1] + pitch], centres_y),
             (centres_x, [centres_y[0] - pitch]), (centres_x, [centres_y[-1] + pitch]))
    value = largest_channel(image) if value is None else value
    for xs, ys in sides:
        beyond = [outlined(value, x, y, pitch, tile) for y in ys for x in xs]
        around = frames(image, np.asarray(xs), np.asarray(ys), pitch)
        # (a plain ground reads as 0, a counter's box or a panel in the tiles' blue as covered:
        # neither is a cell beyond)
        read = [box is not None and classify_box(box, look, frame) not in (None, 0, UNOPENED)
                for box, frame in zip(boxes(image, np.asarray(xs), np.asarray(ys), tile), around, strict=True)]
        if np.mean(beyond) > BEYOND or np.mean(read) > BEYOND:
            return False
    return not goes_on(value, centres_x, centres_y, pitch, tile)
