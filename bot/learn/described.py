"""Learn a described look (bot.vision.described) from screenshots: for games whose tiles are not
pixel-identical (shaded by their place, glossy, smoothed by scaling, through a GIF's palette),
where grouping cells by their pixels (bot.learn.pictures) finds a look per cell.

Every cell is reduced to what survives those: its ground's colour, and its ink's colour and shape
(bot.vision.described.cell_look). Then, from all pictures at once:

- the grounds fall into a few colour groups (chroma, whatever the shading's brightness); the
  opened ground is the one bearing inks of the most colours in the shape of digits, the covered
  one the largest of the rest;
- inks on the opened ground are grouped by colour; each group is named by the drawn digits'
  shapes (bot.vision.glyphs), a group whose shapes split between two digits is their shared colour
  (Windows 7 draws its 3 and 5 in one dark red); achromatic ink covering much of a tile is a mine;
- ink on the covered ground that is not the tile's own gloss is a flag when coloured, a mine when grey;
- a small ground group of its own colour is a flag tile, or the exploded mine's where it bears a mine.

The look so described is then checked as the bot will use it: every picture read with it, cell by
cell, must be a position some mine layout explains (the SAT core); a naming that makes any picture
impossible is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from bot.board import EXPLODED, FLAG, MINE, UNOPENED
from bot.errors import DescribedError
from bot.learn.labels import COVERED_CLASS, FLAGGED_CLASS, fits
from bot.learn.look_file import DescribedLearnt, hex_colour
from bot.learn.tile_groups import (
    DIGIT_LIKE,
    GREY,
    INK_RADIUS,
    SHADE_HUE,
    Seen,
    TileGroups,
    chroma,
    colour_groups,
    coloured,
    group_tiles,
)
from bot.vision.calibrate import UNKNOWN_MOST
from bot.vision.described import (
    GLOSS,
    GLOSS_VALUE,
    MINE_ON_TILE,
    CellLook,
    boxes,
    cell_look,
    frames,
    mine_sized,
    number_of,
    pointed,
    read_described,
)
from bot.vision.glyphs import VARIANTS, shape_scores
from bot.vision.look import Ground, Look, hsv_of, lab_of
from bot.vision.outlines import edges_of, outlined
from bot.vision.tiles import Tiles, find_tiles

#: A mine's ink is at most this saturated (Windows 7's 0.12, ours 0.03).
MINE_GREY = 0.15
#: The covered tiles have a shading of their own (a glossy tile's unlit half, with the dark ground
#: showing at its rounded corners) when ink near their hue (bot.learn.tile_groups.SHADE_HUE), at
#: least SHADE_GREY saturated, lies on SHADED of them or more.
SHADED, SHADE_GREY = 0.3, 0.2
#: A picture shows a lost game when at least this share of its numbers have a mine shown round
#: them (all, but for ink that is no number: the pointer, a speck of a palette's noise).
LOST_SHARE = 0.95
#: A look's opened 0s are outlined where at least this share of those seen are (the app's and
#: Windows 7's: all; KMines': none).
OUTLINED = 0.5
#: A kind of tile seen in one colour alone (KMines' covered tiles, all alike) still spreads this
#: much (saturation or value, 0-1) when a boundary is set between it and another.
SPREAD_FLOOR = 0.01
#: A tile colour group this much of whose cells bear a mine is the mines a lost game shows, on a
#: ground of their own shade (KMines' flat tiles under a mine: 0.68-0.72 against 0.75 opened).
MINES_ALONE = 0.9
#: One of the glyph bank's extra drawings (bot.vision.glyphs.VARIANTS) is taken for the look's own
#: where it names at least this many of the pictures' numbers that the look left unread.
DRAWING_GAIN = 2
#: Ink this dark (value, 0-1) is black whatever its saturation says.
NEAR_BLACK = 0.12
#: Grey covered and opened tiles whose medians lie this close (value 0-1) are of one shade, told
#: apart by relief alone (a classic look: both 192 grey, the covered raised).
SAME_SHADE = 0.02
#: Covered tiles this saturated or more are coloured, told from grey opened ones by saturation alone.
GREY_SATURATION = 0.08
#: Digits share an ink's colour when each is named by a share of its cells: SHARED / 2 of those
#: counted in lost pictures, SHARED / 4 (and two at least) of those whose shape names it plainly.
SHARED = 0.2
#: ... and a digit not the group's first named by at least this many of its cells.
MINOR = 3
#: A digit takes a colour of a group naming it on at least this share of the cells of its main group.
RARE = 0.05
#: A shape names its digit plainly when it correlates this much better with it than with any other.
CLEAR = 0.15
#: Greys whose saturation is at least TINTED all have a hue; within an arc of GREY_ARC degrees it
#: is theirs (Windows 7's opened tiles: 209-238, saturation 0.06 or more; the exploded mine's
#: flash, no ink on it, is yellowish).
TINTED, GREY_ARC = 0.04, 90.0
#: A tile is still itself this much darker than the darkest seen (Windows 7 shades its covered
#: tiles from 0.76 to 0.99 in value; the app darkens its top row's opened tiles from 0.96 to 0.83).
SHADE = 0.65
#: Margins round what was seen when it is written as a colour range.
HUE_MARGIN, SAT_MARGIN, VALUE_MARGIN = 12.0, 0.08, 0.08


def picture_cells(image: np.ndarray, tiles: Tiles) -> list[CellLook | None]:
    """What each cell of the field shows, row by row; None where it leaves the picture, or where
    the mouse pointer lies on it (a recorded game draws it: its black and white would be taken for
    a mine, or for a digit's ink)."""
    xs, ys = tiles.field.centres()
    around = frames(image, xs, ys, tiles.field.pitch)
    hidden = pointed(image, xs, ys, tiles.tile)
    return [None if box is None or under is not None else cell_look(box, frame)
            for box, frame, under in zip(boxes(image, xs, ys, tiles.tile), around, hidden, strict=True)]


def _range(values: np.ndarray, margin: float, lo: float, hi: float) -> tuple[float, float]:
    q0, q1 = np.quantile(values, [0.01, 0.99]) if len(values) else (lo, hi)
    return max(lo, float(q0) - margin), min(hi, float(q1) + margin)


def _hue_range(hues: np.ndarray) -> tuple[float, float]:
    """The arc of hues (degrees) seen, widened by HUE_MARGIN; it may wrap past 360."""
    if not len(hues):
        return 0.0, 360.0
    shift = (np.degrees(np.angle(np.exp(1j * np.radians(hues)).mean())) + 180) % 360  # opposite the mean
    rel = (hues - shift) % 360
    lo, hi = np.quantile(rel, [0.01, 0.99])
    if hi - lo + 2 * HUE_MARGIN >= 360:
        return 0.0, 360.0
    return float((lo - HUE_MARGIN + shift) % 360), float((hi + HUE_MARGIN + shift) % 360)


def _ground_of(colours: np.ndarray, grey: bool) -> Ground:
    """The colour range of some grounds or inks (BGR): a grey's saturation as seen, with a margin;
    a colour's hue as seen and its saturation from the least seen up; the value of either from
    SHADE of the darkest seen up (a tile's shading and a palette move them; the app darkens its top
    rows under a header; no other look of the game is the same hue but more vivid)."""
    hsv = hsv_of(np.asarray(colours).reshape(-1, 3))
    saturation = _range(hsv[:, 1], SAT_MARGIN, 0.0, 1.0)
    darkest = float(np.quantile(hsv[:, 2], 0.01)) * SHADE
    if grey:  # a hue only where every one of them is tinted alike (Windows 7's bluish grey)
        hue = _hue_range(hsv[:, 0]) if float(np.quantile(hsv[:, 1], 0.01)) >= TINTED else (0.0, 360.0)
        if (hue[1] - hue[0]) % 360 > GREY_ARC:
            hue = (0.0, 360.0)
        return Ground(hue, (0.0, saturation[1]), (darkest, _range(hsv[:, 2], VALUE_MARGIN, 0.0, 1.0)[1]))
    return Ground(_hue_range(hsv[:, 0]), (saturation[0], 1.0), (darkest, 1.0))  # (more vivid: the same)


def _apart(covered: Ground, opened: Ground, covered_hsv: np.ndarray, opened_hsv: np.ndarray) -> tuple[Ground, Ground]:
    """A coloured covered tile and a grey opened one must not share a saturation: the boundary goes
    between what each showed, nearer the tighter (Windows 7's opened tiles spread 0.03, its covered
    ones 0.12: a lighter covered tile than any seen is still covered). Grey tiles on grey (KMines)
    must not share a value: the boundary goes between them, the covered tile on the side it
    showed (lighter or darker than the opened). (Rows of hue, saturation and value.)"""
    if opened.hue != (0.0, 360.0):
        return covered, opened  # (a coloured opened tile is told from the covered one by its hue)
    if float(np.quantile(covered_hsv[:, 1], 0.01)) >= GREY_SATURATION:
        if covered.saturation[0] > opened.saturation[1]:
            return covered, opened
        cut = _between(opened_hsv[:, 1], covered_hsv[:, 1])
        return (Ground(covered.hue, (cut + 0.005, covered.saturation[1]), covered.value),
                Ground(opened.hue, (opened.saturation[0], cut), opened.value))
    grey = Ground((0.0, 360.0), (0.0, min(1.0, float(np.quantile(covered_hsv[:, 1], 0.99)) + SAT_MARGIN)),
                  covered.value)
    if abs(float(np.median(covered_hsv[:, 2]) - np.median(opened_hsv[:, 2]))) < SAME_SHADE:
        return grey, opened  # (one grey, the covered tiles raised: their relief tells them apart)
    if np.median(covered_hsv[:, 2]) >= np.median(opened_hsv[:, 2]):
        cut = _between(opened_hsv[:, 2], covered_hsv[:, 2])
        # (and no lighter than seen: a box the game draws over the field, white, is no tile)
        top = min(1.0, float(np.quantile(covered_hsv[:, 2], 0.9)) + VALUE_MARGIN)
        return (replace(grey, value=(cut + 0.005, top)), replace(opened, value=(opened.value[0], cut)))
    cut = _between(covered_hsv[:, 2], opened_hsv[:, 2])
    return (replace(grey, value=(covered.value[0], cut)), replace(opened, value=(cut + 0.005, opened.value[1])))


def _between(low: np.ndarray, high: np.ndarray) -> float:
    """A boundary between what two kinds of tile showed, `low` the lower, nearer the tighter."""
    lo, hi = float(np.quantile(low, 0.99)), float(np.quantile(high, 0.01))
    spread_lo, spread_hi = max(SPREAD_FLOOR, float(np.std(low))), max(SPREAD_FLOOR, float(np.std(high)))
    return lo + max(0.0, hi - lo) * spread_lo / max(1e-6, spread_lo + spread_hi)


def _is_mine(look: CellLook, on_tile: bool) -> bool:
    """Grey ink a mine's size: a mine shown (the game drew it: a lost game). On a covered or
    exploded tile MINE_ON_TILE of the box or more; on an opened one, where a grey digit may be,
    mine_sized. Grey by saturation: a glossy tile's unlit half is a dull shade of its own colour (0.3)."""
    if look.ink_colour is None or look.share < MINE_ON_TILE or not (on_tile or mine_sized(look)):
        return False
    hsv = hsv_of(look.ink_colour)  # (near black, a saturation means nothing: KMines' mine on its red
    return float(hsv[1]) <= MINE_GREY or float(hsv[2]) <= NEAR_BLACK  # tile, (9, 11, 12): 0.21)


def _counted(seen: list[Seen], mined: set[tuple[int, int, int]], lost: set[int],
             unseen: set[tuple[int, int, int]] = frozenset()) -> dict[Seen, int]:
    """The number each inked cell of a lost picture shows: the mines shown round it (a lost game
    shows every mine, flagged or not). A cell beside one not seen (`unseen`: under the pointer, off
    the picture) is left out: a mine may lie there."""
    out = {}
    for s in seen:
        if s.picture in lost:
            around = [(s.picture, s.row + dr, s.col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
            if not any(cell in unseen for cell in around):
                out[s] = sum(cell in mined for cell in around)
    return out


def _name_inks(numbers: list[Seen], counted: dict[Seen, int], say: Callable[[str], None]) -> dict[int, np.ndarray]:
    """Each digit's ink colours (rows, BGR) from the inks on opened tiles (mines left out). An ink
    group's digits are the counts its cells show in lost pictures where there are any; else what
    its shapes name plainly. A group may be several digits' colour (Windows 7's 3 and 5) and a digit
    have several colours (a GIF's palette): the reader tells them apart by shape. A colour joins a
    digit where it names it on two cells and RARE of the most any colour does, or is its only one.
    A grey names no digit but its group's first (grey is a mine's colour)."""
    named: dict[int, list[tuple[int, np.ndarray]]] = {}  # digit -> (cells naming it, colour) per group
    if not numbers:
        return {}
    lab = lab_of(np.array([s.look.ink_colour for s in numbers]))
    ids = colour_groups(lab, INK_RADIUS)  # (no merging of the few: a rare digit, Windows 7's 4, lies 22 from its 1)
    for g in np.unique(ids):
        members = [numbers[i] for i in np.flatnonzero(ids == g)]
        colour = np.median(np.array([s.look.ink_colour for s in members]), axis=0).astype(np.float32)
        counts = [counted[s] for s in members if s in counted and counted[s] > 0]
        if counts:
            votes, how = np.bincount(counts, minlength=9), "the mines round them"
        else:
            scores = np.array([shape_scores(s.look.ink) for s in members])
            ranked = np.sort(scores, axis=1)
            clear = (ranked[:, -1] - ranked[:, -2] >= CLEAR) & (ranked[:, -1] >= DIGIT_LIKE)
            votes, how = np.bincount(np.argmax(scores, axis=1)[clear] + 1, minlength=9), "their shapes"
        top = int(np.argmax(votes))
        grey = float(hsv_of(colour)[1]) <= MINE_GREY
        enough = max(MINOR, SHARED / 2 * votes.sum())
        digits = [d for d in range(1, 9) if votes[d] and (d == top or (not grey and votes[d] >= enough))]
        if not digits:
            say(f"an ink on {len(members)} cell(s) whose shapes name no digit plainly: left out")
            continue
        for d in digits:
            named.setdefault(d, []).append((int(votes[d]), colour))
        say(f"ink {hex_colour(colour)} on {len(members)} cell(s): {' or '.join(map(str, digits))}, by {how}")
    out = {}
    for d, found in sorted(named.items()):
        most = max(n for n, _ in found)
        out[d] = np.array([c for n, c in found if n >= max(2, RARE * most) or n == most], np.float32)
    return out


def _shading(covered: list[Seen], ground: Ground) -> Ground | None:
    """The covered tiles' own shading, where they have one: ink near their hue (within SHADE_HUE of
    the arc their grounds span), clearly coloured (a mine's is grey), on SHADED of them or more."""
    arc = Ground(((ground.hue[0] - SHADE_HUE) % 360, (ground.hue[1] + SHADE_HUE) % 360), (SHADE_GREY, 1.0))
    inks = [s.look.ink_colour for s in covered if s.look.ink_colour is not None]
    own = [c for c in inks if arc.tints(hsv_of(c))]
    if ground.hue == (0.0, 360.0) or len(own) < SHADED * len(covered):
        return None
    found = _ground_of(np.array(own), grey=False)
    return Ground(found.hue, (max(SHADE_GREY, found.saturation[0]), 1.0), found.value)


Say = Callable[[str], None]


@dataclass(frozen=True)
class Described:
    look: Look
    fields: list[Tiles]  # each picture's
    names: list[str]  # what was learnt
    labels: dict[tuple[int, int, int], int]  # (picture, row, col) -> the board code the cell was taken for


def describe(pictures: list[np.ndarray], say: Say = lambda _: None, field: Tiles | None = None,
             cells: list[list[CellLook | None]] | None = None) -> Described:
    """The look the pictures show, the field found in each (or the one `field` given, where they
    are of one window that stayed put), and what each cell was taken for. `cells`: each picture's
    picture_cells() on that field, where the caller has them already."""
    fields = []
    for i, image in enumerate(pictures):
        tiles = field or find_tiles(image)
        if tiles is None or tiles.rows < 5 or tiles.cols < 5:
            raise DescribedError(f"picture {i + 1}: no field of separate tiles found")
        fields.append(tiles)
    looks = [cells[p] if cells is not None else picture_cells(image, t)
             for p, (image, t) in enumerate(zip(pictures, fields, strict=True))]
    seen = [Seen(p, k // t.cols, k % t.cols, look)
            for p, t in enumerate(fields) for k, look in enumerate(looks[p]) if look is not None]
    # (cells not judged: off the picture, or under the mouse pointer; a mine may lie there)
    unseen = {(p, k // t.cols, k % t.cols) for p, t in enumerate(fields) for k, look in enumerate(looks[p])
              if look is None}
    if not seen:
        raise DescribedError("no pictures of a field to learn from")
    grouped = group_tiles(seen, len(pictures), say)
    ids, opened, covered, lab = grouped.ids, grouped.opened, grouped.covered, grouped.lab

    def members(g: int) -> list[Seen]:
        return [seen[i] for i in np.flatnonzero(ids == g)]

    names = ["unopened", "0"]

    cov, opn = members(covered), members(opened)
    if not cov:  # (every tile taken for the covered one was left out above: no split of the looks)
        raise DescribedError("the pictures' tiles could not be told covered from opened")
    covered_ground = _ground_of(np.array([s.look.ground for s in cov]), grey=False)
    opened_ground = _ground_of(np.array([s.look.ground for s in opn]), grey=chroma(
        np.median(lab[ids == opened], axis=0))[0] < GREY)
    covered_ground, opened_ground = _apart(covered_ground, opened_ground,
                                           hsv_of(np.array([s.look.ground for s in cov])),
                                           hsv_of(np.array([s.look.ground for s in opn])))
    others = _other_tiles([members(g) for g in grouped.rest if g != covered], len(pictures), say)
    mined = {(s.picture, s.row, s.col) for s, g in zip(seen, ids, strict=True)
             if _is_mine(s.look, on_tile=bool(g == covered))}
    covered_ink = _shading(cov, covered_ground)
    marks = _marks(cov, covered_ground, covered_ink)
    # A flag: ink of a colour of its own (a dark shade of the tile's own hue is its bevel or shadow).
    # (a grey tile, of no hue, has no coloured shade of its own)
    own_hue = Ground(covered_ground.hue, (0.0, 1.0) if covered_ground.hue != (0.0, 360.0) else (0.0, 0.0))
    flag_marks = [s for s in marks if coloured([s.look.ink_colour]) and not own_hue.tints(hsv_of(s.look.ink_colour))]
    flagged = {(s.picture, s.row, s.col) for s in flag_marks}
    flagged |= {(s.picture, s.row, s.col) for s in others.flag_cells}
    numbers = [s for s in opn if s.look.ink_colour is not None and (s.picture, s.row, s.col) not in mined]
    counted = _counted(numbers, mined | flagged, {p for p, _, _ in mined}, unseen)
    # A lost game shows every mine: a picture where numbers have none round them is not lost, and
    # what looked like a mine there is something else (the pointer, a digit darkened by a palette).
    lost = {p for p, _, _ in mined
            if np.mean([counted[s] > 0 for s in counted if s.picture == p] or [False]) >= LOST_SHARE}
    mined = {m for m in mined if m[0] in lost}
    for k in sorted(lost):
        say(f"picture {k + 1} shows a lost game: {sum(m[0] == k for m in mined)} mines")
    digits = _name_inks(numbers, {s: n for s, n in counted.items() if s.picture in lost}, say)
    names += [str(d) for d in sorted(digits)]
    grey_on_opened = [s for s in opn if (s.picture, s.row, s.col) in mined]

    flags = [s.look.ink_colour for s in flag_marks]
    mines = [s.look.ink_colour for s in marks if (s.picture, s.row, s.col) in mined]
    grey_on_opened += [s for s in others.mines_alone if (s.picture, s.row, s.col) in mined]
    mines += [s.look.ink_colour for s in grey_on_opened] + others.exploded_inks
    flag_ink = _ground_of(np.array(flags), grey=False) if flags and others.flag_tile is None else None
    mine_ink = _ground_of(np.array(mines), grey=True) if mines else None
    names += [n for n, v in (("flag", others.flag_tile or flag_ink), ("mine", mine_ink),
                             ("exploded", others.exploded)) if v]
    say("learnt: " + ", ".join(names))
    zeros = [s for s in opn if s.look.ink_colour is None and not s.look.faint]
    zero_outlined = _outlined_share(pictures, fields, zeros) >= OUTLINED
    if zeros and not zero_outlined:
        say("its opened 0s show no tile's outline round them: read by their colour alone")
    look = Look(covered_ground, opened_ground, digits, flag_tile=others.flag_tile, flag_ink=flag_ink,
                mine_ink=mine_ink, exploded=others.exploded, unseen_by_shape=True, covered_ink=covered_ink,
                zero_outlined=zero_outlined, raised=grouped.raised)
    look = with_drawings(look, numbers, say)
    plain = {id(s) for s in cov} - {id(s) for s in marks}
    labels = _labels(seen, grouped, mined, flagged, plain)
    return Described(look, fields, names, labels)


def with_drawings(look: Look, numbers: list[Seen], say: Say) -> Look:
    """The look with each extra drawing of the glyph bank (bot.vision.glyphs.VARIANTS) that its
    digits are read better with: one naming DRAWING_GAIN or more of the pictures' numbers the look
    left unread, and changing none it read. (Windows 7's 3 has a flat top: the bank's common 3s
    match it as little as a 7; the look learnt from five frames of a GIF left one 3 unread in 35
    frames of 168.)"""
    before = [number_of(s.look, look) for s in numbers]
    for name in VARIANTS:
        trial = replace(look, shapes=(*look.shapes, name))
        after = [number_of(s.look, trial) for s in numbers]
        gained = sum(b is None and a is not None for a, b in zip(after, before, strict=True))
        if gained >= DRAWING_GAIN and all(b is None or a == b for a, b in zip(after, before, strict=True)):
            look, before = trial, after
            say(f"its digits read better with the drawing {name!r}: {gained} more cell(s)")
    return look


@dataclass
class _OtherTiles:
    """The tiles neither covered nor opened: a flag's tile, the exploded mine's, mines on a flat tile."""

    flag_tile: Ground | None
    flag_cells: list[Seen]
    exploded: Ground | None
    exploded_inks: list[np.ndarray]
    mines_alone: list[Seen]  # on a ground of their own shade (KMines' flat tile)


def _other_tiles(groups: list[list[Seen]], pictures: int, say: Say) -> _OtherTiles:
    """What each tile colour group but the covered and opened tiles' is: one of a picture each
    bearing a mine is the exploded mine's tile; the first coloured one a flag's tile; one bearing
    mines nearly all over, mines on a tile of their own; anything else left out."""
    out = _OtherTiles(None, [], None, [], [])
    for group in groups:
        bearing = [s for s in group if _is_mine(s.look, on_tile=True)]
        per_picture = np.bincount([s.picture for s in group], minlength=pictures)
        colour = _ground_of(np.array([s.look.ground for s in group]), grey=False)
        if bearing and per_picture.max() == 1:
            out.exploded, out.exploded_inks = colour, [s.look.ink_colour for s in bearing]
        elif out.flag_tile is None and coloured([s.look.ground for s in group]):
            out.flag_tile, out.flag_cells = colour, group
        elif np.mean([_is_mine(s.look, on_tile=False) for s in group]) >= MINES_ALONE:
            out.mines_alone += group
        else:
            say(f"a tile colour on {len(group)} cell(s) not named: left out")
    return out


def _marks(covered: list[Seen], ground: Ground, shading: Ground | None) -> list[Seen]:
    """The covered tiles bearing a mark: ink that is not the tile's own gloss (its hue, light or
    small) or its shading."""
    marks = []
    for s in covered:
        ink = s.look.ink_colour
        if ink is None:
            continue
        hsv = hsv_of(ink)
        if (ground.tints(hsv) and (hsv[2] >= GLOSS_VALUE or s.look.share < GLOSS)) or \
                (shading is not None and shading.holds(hsv)):
            continue
        marks.append(s)
    return marks


def _labels(seen: list[Seen], grouped: TileGroups, mined: set[tuple[int, int, int]],
            flagged: set[tuple[int, int, int]], plain: set[int]) -> dict[tuple[int, int, int], int]:
    """What each cell was taken for by its tile and marks (not a number's count: a lost game's
    exploded mine may go unseen): the look must read them so. `plain`: ids of the covered cells
    with no mark."""
    labels: dict[tuple[int, int, int], int] = {}
    for s, g in zip(seen, grouped.ids, strict=True):
        key = (s.picture, s.row, s.col)
        if key in mined:
            labels[key] = MINE
        elif key in flagged:
            labels[key] = FLAG
        elif g == grouped.covered and id(s) in plain:
            labels[key] = UNOPENED
        elif g == grouped.opened and s.look.ink_colour is None and not s.look.faint:
            labels[key] = 0  # (a glyph fading in is no 0: left unlabelled, as the reader leaves it)
    return labels


def _outlined_share(pictures: list[np.ndarray], fields: list[Tiles], cells: list[Seen]) -> float:
    """The share of the cells that show a tile's outline round them (1 where there are none)."""
    if not cells:
        return 1.0
    values: dict[int, np.ndarray] = {}
    found = []
    for s in cells:
        tiles = fields[s.picture]
        xs, ys = tiles.field.centres()
        value = values.setdefault(s.picture, pictures[s.picture].max(axis=2))
        edges = edges_of(s.row, s.col, tiles.rows, tiles.cols)
        found.append(outlined(value, float(xs[s.col]), float(ys[s.row]), tiles.field.pitch, tiles.tile, edges))
    return float(np.mean(found))


def consistent(codes: np.ndarray, unknown: np.ndarray | None = None) -> bool:
    """Whether some mine layout explains a read board: numbers their own; flags, shown mines and
    unknown cells covered for the rules, each free to be a mine or not (bot.learn.labels: a flag
    is a covered cell that a 0 beside it does not contradict)."""
    frame = codes.astype(np.int64).copy()
    frame[codes == UNOPENED] = COVERED_CLASS
    frame[np.isin(codes, (FLAG, MINE, EXPLODED))] = FLAGGED_CLASS
    if unknown is not None:
        frame[unknown] = FLAGGED_CLASS
    return fits([frame], {n: n for n in range(9)})


def learn_described(named: list[tuple[str, np.ndarray]], say: Say = lambda _: None,
                    field: Tiles | None = None) -> DescribedLearnt:
    """A described look from screenshots of one game, checked by reading every one of them with it."""
    found = describe([image for _, image in named], say, field)
    look, fields, names = found.look, found.fields, found.names
    sizes = {(t.rows, t.cols) for t in fields}
    unread = []
    for k, ((name, image), tiles) in enumerate(zip(named, fields)):
        codes, known = read_described(image, *tiles.field.centres(), tiles.tile, look)
        unread.append(int((~known).sum()))
        otherwise = [(r, c) for (p, r, c), code in found.labels.items() if p == k and known[r, c]
                     and codes[r, c] != code and {int(codes[r, c]), code} != {MINE, EXPLODED}]
        if otherwise:
            r, c = otherwise[0]
            raise DescribedError(f"{name}: the look learnt reads {len(otherwise)} cell(s) otherwise than the "
                                 f"pictures showed them (first: row {r + 1}, column {c + 1})")
        if not consistent(codes, ~known):
            raise DescribedError(f"{name}: read with the look learnt, no mine layout explains it: "
                                 "are the pictures all of one game, and whole?")
        say(f"{name}: field {tiles.rows}x{tiles.cols} of {tiles.field.pitch:.1f} px, "
            + ("every cell read" if known.all() else f"{unread[-1]} cell(s) not read"))
    share = float(np.median([n / (t.rows * t.cols) for n, t in zip(unread, fields, strict=True)]))
    if share > UNKNOWN_MOST:
        raise DescribedError(f"the look learnt leaves {share:.0%} of the cells unread in the median picture: "
                             "it would find no board")
    if len(sizes) > 1:
        say(f"fields of several sizes: {sorted(sizes)}")
    pitch = float(np.median([t.field.pitch for t in fields]))
    rows, cols = fields[0].rows, fields[0].cols
    return DescribedLearnt(look, pitch, rows, cols, len(named), names, unread)
