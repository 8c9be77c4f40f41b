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

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, UNOPENED
from bot.errors import BotError
from bot.learn.labels import COVERED_CLASS, FLAGGED_CLASS, fits
from bot.learn.look_file import DescribedLearnt, hex_colour
from bot.vision.calibrate import UNKNOWN_MOST
from bot.vision.described import (
    GLOSS,
    GLOSS_VALUE,
    MINE_ON_TILE,
    MINE_SHARE,
    RAISED_SHARE,
    CellLook,
    Ground,
    Look,
    boxes,
    cell_look,
    frames,
    hsv_of,
    mine_sized,
    read_described,
)
from bot.vision.glyphs import shape_scores
from bot.vision.outlines import outlined
from bot.vision.tiles import Tiles, find_tiles

#: Grounds (Lab a, b: their chroma) within this of a group's densest colour join it; groups of
#: fewer than SMALL of the cells join the nearest larger group within twice as far. Measured:
#: Windows 7's covered tiles spread 10 round their mean, its opened ones 2, 63 apart.
GROUND_RADIUS = 22.0
SMALL = 0.01
#: Inks (Lab) within this of a group's densest colour join it. Windows 7's digits through a GIF
#: palette spread up to 18 (its 4), its 1 and 4 lie 31 apart.
INK_RADIUS = 20.0
#: A mine's ink is at most this saturated (Windows 7's 0.12, ours 0.03).
MINE_GREY = 0.15
#: The covered tiles have a shading of their own (a glossy tile's unlit half, with the dark ground
#: showing at its rounded corners) when ink near their hue (SHADE_HUE degrees: 56 measured on our
#: green tiles over a blue ground; a red flag on them lies 120 away), at least SHADE_GREY
#: saturated, lies on SHADED of them or more.
SHADED, SHADE_GREY, SHADE_HUE = 0.3, 0.2, 70.0
#: A picture shows a lost game when at least this share of its numbers have a mine shown round
#: them (all, but for ink that is no number: the pointer, a speck of a palette's noise).
LOST_SHARE = 0.95
#: A digit's ink covers less than MINE_SHARE of the box; where no coloured ink that thin is in a
#: digit's shape, less than DIGIT_MOST (KMines' bold digits: 0.31-0.39; our meadow look's flag, in
#: a digit's shape to the glyph test, covers 0.3 or more).
DIGIT_MOST = 0.5
#: A look's opened 0s are outlined where at least this share of those seen are (the app's and
#: Windows 7's: all; KMines': none).
OUTLINED = 0.5
#: A kind of tile seen in one colour alone (KMines' covered tiles, all alike) still spreads this
#: much (saturation or value, 0-1) when a boundary is set between it and another.
SPREAD_FLOOR = 0.01
#: Covered and opened tiles are grey alike where one colour group holds this share of the cells
#: (KMines: all; the app's blue covered tiles are a group of their own).
ONE_GROUP = 0.9
#: A tile colour group this much of whose cells bear a mine is the mines a lost game shows, on a
#: ground of their own shade (KMines' flat tiles under a mine: 0.68-0.72 against 0.75 opened).
MINES_ALONE = 0.9
#: Ink this dark (value, 0-1) is black whatever its saturation says.
NEAR_BLACK = 0.12
#: A plain cell in at most this relief (0-255) is flat (KMines' opened 0s: 0-3).
FLAT = 4.0
#: Grey cells in more than this many times the covered tiles' relief are none of the field's: text
#: in a box the game draws over it (KMines' "Congratulations! You have won!": 20-45, its tiles 13).
OVER_RELIEF = 2.0
#: Grey covered and opened tiles whose medians lie this close (value 0-1; lightness L* 0-100) are
#: of one shade, told apart by relief alone (a classic look: both 192 grey, the covered raised).
SAME_SHADE = 0.02
SAME_LIGHT = 2.0
#: Covered tiles this saturated or more are coloured, told from grey opened ones by saturation alone.
GREY_SATURATION = 0.08
#: A group of tile colours where at least this share bears a number is opened tiles (measured:
#: 0.4-0.8 of the opened tiles mid-game; the flags on covered ones, 0.1 at most).
NUMBERED = 0.25
#: Tile colours whose hues lie this close (degrees, Lab) are one tile's shades.
SAME_HUE = 30.0
#: Chroma (Lab) under this is grey: a mine's ink, an opened tile's ground.
GREY = 12.0
#: Digits share an ink's colour when each is named by a share of its cells: SHARED / 2 of those
#: counted in lost pictures, SHARED / 4 (and two at least) of those whose shape names it plainly.
SHARED = 0.2
#: ... and a digit not the group's first named by at least this many of its cells.
MINOR = 3
#: A digit takes a colour of a group naming it on at least this share of the cells of its main group.
RARE = 0.05
#: A shape names its digit plainly when it correlates this much better with it than with any other.
CLEAR = 0.15
#: Ink in the shape of a digit: its best drawn digit correlates at least this much.
DIGIT_LIKE = 0.35
#: Greys whose saturation is at least TINTED all have a hue; within an arc of GREY_ARC degrees it
#: is theirs (Windows 7's opened tiles: 209-238, saturation 0.06 or more; the exploded mine's
#: flash, no ink on it, is yellowish).
TINTED, GREY_ARC = 0.04, 90.0
#: A tile is still itself this much darker than the darkest seen (Windows 7 shades its covered
#: tiles from 0.76 to 0.99 in value; the app darkens its top row's opened tiles from 0.96 to 0.83).
SHADE = 0.65
#: Margins round what was seen when it is written as a colour range.
HUE_MARGIN, SAT_MARGIN, VALUE_MARGIN = 12.0, 0.08, 0.08


class DescribedError(BotError):
    """The pictures do not teach a described look."""


@dataclass(frozen=True, eq=False)
class Seen:
    """One cell of one picture."""

    picture: int
    row: int
    col: int
    look: CellLook




def _lab(bgr: np.ndarray) -> np.ndarray:
    pixels = np.clip(np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(-1, 3)


def _groups(points: np.ndarray, radius: float) -> np.ndarray:
    """A group id per point: the densest point not yet taken leads a group of every untaken point
    within `radius` of it, and so on (groups centre on the modes, not on the first point seen).
    Points are first binned to a unit: a few thousand cells make a few hundred colours."""
    bins, inverse, counts = np.unique(np.round(points), axis=0, return_inverse=True, return_counts=True)
    near = np.linalg.norm(bins[:, None] - bins[None], axis=2) <= radius
    density = near.astype(np.int64) @ counts
    ids = np.full(len(bins), -1)
    group = 0
    for i in np.argsort(-density, kind="stable"):
        if ids[i] >= 0:
            continue
        ids[near[i] & (ids < 0)] = group
        group += 1
    return ids[inverse.reshape(-1)]


def _merge_small(points: np.ndarray, ids: np.ndarray, radius: float) -> np.ndarray:
    """Groups under SMALL of the points join the nearest large group within 2 x radius (outliers
    of one shading, not a colour of their own); the others keep theirs."""
    counts = np.bincount(ids)
    large = np.flatnonzero(counts >= max(2, SMALL * len(ids)))
    if not len(large):
        return ids
    centres = np.array([np.median(points[ids == g], axis=0) for g in large])
    out = ids.copy()
    for g in np.flatnonzero(counts < max(2, SMALL * len(ids))):
        centre = np.median(points[ids == g], axis=0)
        dist = np.linalg.norm(centres - centre, axis=1)
        if dist.min() <= 2 * radius:
            out[ids == g] = large[int(np.argmin(dist))]
    return out


def _refine(points: np.ndarray, ids: np.ndarray, rounds: int = 40) -> np.ndarray:
    """Groups as Gaussians, each with its own spread (Windows 7's covered tiles spread five times as
    wide as its opened ones): every point to the group likeliest to hold it, until none moves.
    A group of fewer than three points (the one exploded mine of a lost game) keeps them."""
    x = points.astype(np.float64)
    out = np.unique(ids, return_inverse=True)[1].reshape(-1)
    small = np.isin(out, np.flatnonzero(np.bincount(out) < 3))
    for _ in range(rounds):
        likelihood = np.full((out.max() + 1, len(x)), -np.inf)
        for g in range(out.max() + 1):
            members = x[(out == g) & ~small]
            if len(members) < 3:
                continue
            cov = np.cov(members.T) + np.eye(x.shape[1])  # (a unit floor: a group of one colour)
            d = x - members.mean(axis=0)
            likelihood[g] = (-0.5 * np.einsum("ij,jk,ik->i", d, np.linalg.inv(cov), d)
                             - 0.5 * np.log(np.linalg.det(cov)) + np.log(len(members) / len(x)))
        moved = np.where(small, out, np.argmax(likelihood, axis=0))
        if (moved == out).all():
            break
        out = moved
    return np.unique(out, return_inverse=True)[1].reshape(-1)


def _hue_angle(lab: np.ndarray) -> float:
    return float(np.degrees(np.arctan2(lab[2], lab[1])))


def _hue_apart(a: float, b: float) -> float:
    """How far two hues (degrees) lie apart round the circle, 0-180."""
    return abs((a - b + 180) % 360 - 180)


def _chroma(lab: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.atleast_2d(lab)[:, 1:], axis=1)


def picture_cells(image: np.ndarray, tiles: Tiles) -> list[CellLook | None]:
    """What each cell of the field shows, row by row; None where it leaves the picture."""
    xs, ys = tiles.field.centres()
    around = frames(image, xs, ys, tiles.field.pitch)
    return [None if box is None else cell_look(box, frame)
            for box, frame in zip(boxes(image, xs, ys, tiles.tile), around, strict=True)]


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
    hsv = np.array([hsv_of(c) for c in colours])
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


def _counted(seen: list[Seen], mined: set[tuple[int, int, int]], lost: set[int]) -> dict[Seen, int]:
    """The number each inked cell of a lost picture shows: the mines shown round it (a lost game
    shows every mine, flagged or not)."""
    out = {}
    for s in seen:
        if s.picture in lost:
            out[s] = sum((s.picture, s.row + dr, s.col + dc) in mined
                         for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
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
    lab = _lab(np.array([s.look.ink_colour for s in numbers]))
    ids = _groups(lab, INK_RADIUS)  # (no merging of the few: a rare digit, Windows 7's 4, lies 22 from its 1)
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


def _coloured(colours: list[np.ndarray]) -> bool:
    return bool(len(colours)) and float(np.median(_chroma(_lab(np.array(colours))))) >= GREY


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
    seen = [Seen(p, k // t.cols, k % t.cols, look)
            for p, (image, t) in enumerate(zip(pictures, fields))
            for k, look in enumerate(cells[p] if cells is not None else picture_cells(image, t)) if look is not None]
    if not seen:
        raise DescribedError("no pictures of a field to learn from")
    lab = _lab(np.array([s.look.ground for s in seen]))
    chroma = lab[:, 1:]
    # Opened for sure: a tile bearing coloured ink in a digit's shape. The opened tiles' spread is
    # taken from those alone, before the groups settle (the lightest covered tiles of Windows 7 lie
    # nearer the opened tiles' colour than the darkest covered ones do).
    digit_like = np.array([s.look.ink_colour is not None and s.look.share < DIGIT_MOST
                           and _coloured([s.look.ink_colour]) and shape_scores(s.look.ink).max() >= DIGIT_LIKE
                           for s in seen])
    thin = digit_like & (np.array([s.look.share for s in seen]) < MINE_SHARE)
    # (digits of a usual weight, where any shows: a flag in a digit's shape covers more of its tile;
    # bolder ones only in a colour other than their tile's, whose own shading is of its hue)
    sure = thin if thin.any() else digit_like & ~np.array([_own_shade(s.look) for s in seen])
    ids = _merge_small(chroma, _groups(chroma, GROUND_RADIUS), GROUND_RADIUS)
    if not sure.any():
        raise DescribedError("the pictures show no opened cell with a number: give pictures of a game under way")
    first = int(np.argmax(np.bincount(ids[sure], minlength=ids.max() + 1)))
    ids[(ids == first) & ~sure] = ids.max() + 1
    # Grey tiles on grey (KMines: raised light grey covered tiles, translucent grey opened ones) share
    # their chroma: their lightness tells them apart.
    others = ids == ids.max()
    # (one colour group holding nearly every cell: covered and opened tiles alike in chroma)
    greys = bool(_chroma(np.median(lab[sure], axis=0))[0] < GREY and _chroma(np.median(lab[others], axis=0))[0] < GREY
                 and np.mean(others | (ids == first)) >= ONE_GROUP)
    features, bevelled, raised = chroma, None, None
    if greys:
        # A raised tile's bevel (KMines' covered tiles) against flat opened ones, shaded by their
        # place: the plain cells in less relief than the covered tiles' start among the opened,
        # and lightness and relief tell the groups apart.
        relief = np.array([s.look.relief for s in seen])
        plain = others & np.array([s.look.ink_colour is None for s in seen])
        up = relief[plain & (relief > FLAT)]
        features = lab
        if len(up):  # the covered tiles, alike, share one relief: the commonest above the flat
            tile = raised = float(np.argmax(np.bincount(np.round(up).astype(int))))
            bevelled = relief > (FLAT + tile) / 2  # (a digit's smoothed edge: 3-8)
            ids[sure & bevelled] = ids[others][0]  # (a flag on a raised tile, in a digit's shape)
            sure = sure & ~bevelled
            ids[others & ~bevelled] = first
            ids[others & (relief > OVER_RELIEF * tile)] = ids.max() + 1  # (text in a box over the field)
            features = np.column_stack([lab, relief])
    ids = _refine(features, ids)
    opened = int(np.argmax(np.bincount(ids[sure], minlength=ids.max() + 1)))
    # Another group as thick with numbers is the opened tile in another shade (darkened under a header).
    for g in np.unique(ids):
        if g != opened and sure[ids == g].mean() >= NUMBERED:
            ids[ids == g] = opened
    # What is left of one hue is one tile, shaded (Windows 7's dark and light covered tiles).
    medians = {int(g): np.median(lab[ids == g], axis=0) for g in np.unique(ids)}
    for g in sorted(medians, key=lambda g: -int((ids == g).sum())):
        for h in sorted(medians):
            if h in (g, opened) or g == opened or not (ids == h).any() or not (ids == g).any():
                continue
            if min(_chroma(medians[g])[0], _chroma(medians[h])[0]) >= GREY and \
                    _hue_apart(_hue_angle(medians[g]), _hue_angle(medians[h])) <= SAME_HUE:
                ids[ids == h] = g
    groups = [int(g) for g in np.unique(ids)]
    say(f"{len(seen)} cells in {len(pictures)} pictures, {len(groups)} tile colours")

    def members(g: int) -> list[Seen]:
        return [seen[i] for i in np.flatnonzero(ids == g)]

    i_of = {s: i for i, s in enumerate(seen)}
    rest = [g for g in groups if g != opened]
    if not rest:
        raise DescribedError("the pictures show no covered cell beside the opened ones: "
                             "give pictures of a game under way")
    def plain(g: int) -> int:
        """Cells of group g bearing nothing but, maybe, a shade of their own hue (a glossy tile's
        unlit half): the covered tiles, where flags (the app's late game) may outnumber them."""
        hue = _hue_angle(np.median(lab[ids == g], axis=0))
        return sum(s.look.ink_colour is None or _hue_apart(_hue_angle(_lab(s.look.ink_colour)[0]), hue) <= SHADE_HUE
                   for s in members(g))

    covered = max(rest, key=plain)
    if greys:
        # Grey opened cells beyond the covered tiles' lightness (lighter where those are lighter)
        # are no tile: a box the game draws over its field (KMines' "Congratulations! You have
        # won!"), left out.
        light = lab[:, 0]
        shades = np.median(light[ids == covered]), np.median(light[ids == opened])
        # (the two of one shade, the covered tiles told by their relief alone: no side to be beyond)
        beyond = (ids == opened) & ((light > shades[0]) == (shades[0] > shades[1])) & ~sure \
            & (abs(shades[0] - shades[1]) >= SAME_LIGHT)
        if bevelled is not None:  # (and plain flat cells among the raised covered ones: its white ground)
            beyond |= (ids == covered) & ~bevelled & np.array([s.look.ink_colour is None for s in seen])
        if raised is not None:
            # Coloured ink on a tile in a raised tile's relief (RAISED_SHARE of it) or more, no
            # lighter than the covered tiles, is a covered tile's mark (a flag) whatever its
            # ground's shade: KMines' flag darkens it to the opened cells' (its flags at 29 px:
            # 0.43-0.71 of the raised tiles' relief). (A box over the field is lighter: digits
            # under its edge are in relief too.) Unless its ink is a flat digit's colour and the
            # cell not bevelled: a digit where a shaded background shows through opened cells
            # stands nearly as high (KMines' at 16 px: 7.7 against 19).
            coloured = np.array([s.look.ink_colour is not None and _coloured([s.look.ink_colour]) for s in seen])
            dark_enough = light <= np.quantile(light[ids == covered], 0.99)
            marked = (relief >= RAISED_SHARE * raised) & coloured & dark_enough
            digits = (ids == opened) & coloured & ~marked
            if (marked & ~bevelled).any() and digits.any():
                inks = _lab(np.array([seen[i].look.ink_colour for i in np.flatnonzero(digits)]))
                for i in np.flatnonzero(marked & ~bevelled):
                    ink = _lab(seen[i].look.ink_colour)[0]
                    marked[i] = np.linalg.norm(inks - ink, axis=1).min() > INK_RADIUS
            ids[marked] = covered
        if beyond.any():
            ids[beyond] = ids.max() + 1
        rest = [int(g) for g in np.unique(ids) if g != opened]
    names = ["unopened", "0"]

    cov, opn = members(covered), members(opened)
    if not cov:  # (every tile taken for the covered one was left out above: no split of the looks)
        raise DescribedError("the pictures' tiles could not be told covered from opened")
    covered_ground = _ground_of(np.array([s.look.ground for s in cov]), grey=False)
    opened_ground = _ground_of(np.array([s.look.ground for s in opn]), grey=_chroma(
        np.median(lab[ids == opened], axis=0))[0] < GREY)
    covered_ground, opened_ground = _apart(covered_ground, opened_ground,
                                           np.array([hsv_of(s.look.ground) for s in cov]),
                                           np.array([hsv_of(s.look.ground) for s in opn]))
    exploded_inks: list[np.ndarray] = []
    flag_tile = exploded = flag_group = None
    on_their_own: list[Seen] = []  # mines shown on a ground of their own shade (KMines': a flat tile)
    for g in rest:
        if g == covered:
            continue
        group = members(g)
        bearing = [s for s in group if _is_mine(s.look, on_tile=True)]
        per_picture = np.bincount([s.picture for s in group], minlength=len(pictures))
        colour = _ground_of(np.array([s.look.ground for s in group]), grey=False)
        if bearing and per_picture.max() == 1:
            exploded = colour
            exploded_inks = [s.look.ink_colour for s in bearing]
        elif flag_tile is None and _coloured([s.look.ground for s in group]):
            flag_tile, flag_group = colour, g
        elif np.mean([_is_mine(s.look, on_tile=False) for s in group]) >= MINES_ALONE:
            on_their_own += group
        else:
            say(f"a tile colour on {len(group)} cell(s) not named: left out")
    mined = {(s.picture, s.row, s.col) for s in seen if _is_mine(s.look, on_tile=bool(ids[i_of[s]] == covered))}
    covered_ink = _shading(cov, covered_ground)
    marks = []  # on the covered tiles: what is not the tile's own gloss (its hue, light or small) or shading
    for s in cov:
        ink = s.look.ink_colour
        if ink is None:
            continue
        hsv = hsv_of(ink)
        if (covered_ground.tints(hsv) and (hsv[2] >= GLOSS_VALUE or s.look.share < GLOSS)) or \
                (covered_ink is not None and covered_ink.holds(hsv)):
            continue
        marks.append(s)
    # A flag: ink of a colour of its own (a dark shade of the tile's own hue is its bevel or shadow).
    # (a grey tile, of no hue, has no coloured shade of its own)
    own_hue = Ground(covered_ground.hue, (0.0, 1.0) if covered_ground.hue != (0.0, 360.0) else (0.0, 0.0))
    flag_marks = [s for s in marks if _coloured([s.look.ink_colour]) and not own_hue.tints(hsv_of(s.look.ink_colour))]
    flagged = {(s.picture, s.row, s.col) for s in flag_marks}
    flagged |= {(s.picture, s.row, s.col) for s in seen if flag_group is not None and ids[i_of[s]] == flag_group}
    numbers = [s for s in opn if s.look.ink_colour is not None and (s.picture, s.row, s.col) not in mined]
    counted = _counted(numbers, mined | flagged, {p for p, _, _ in mined})
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
    grey_on_opened += [s for s in on_their_own if (s.picture, s.row, s.col) in mined]
    mines += [s.look.ink_colour for s in grey_on_opened] + exploded_inks
    flag_ink = _ground_of(np.array(flags), grey=False) if flags and flag_tile is None else None
    mine_ink = _ground_of(np.array(mines), grey=True) if mines else None
    names += [n for n, v in (("flag", flag_tile or flag_ink), ("mine", mine_ink), ("exploded", exploded)) if v]
    say("learnt: " + ", ".join(names))
    zeros = [s for s in opn if s.look.ink_colour is None]
    zero_outlined = _outlined_share(pictures, fields, zeros) >= OUTLINED
    if zeros and not zero_outlined:
        say("its opened 0s show no tile's outline round them: read by their colour alone")
    look = Look(covered_ground, opened_ground, digits, flag_tile=flag_tile, flag_ink=flag_ink, mine_ink=mine_ink,
                exploded=exploded, unseen_by_shape=True, covered_ink=covered_ink, zero_outlined=zero_outlined,
                raised=raised)
    # What each cell was taken for by its tile and marks (not a number's count: a lost game's exploded
    # mine may go unseen): the look must read them so.
    labels: dict[tuple[int, int, int], int] = {}
    plain = {id(s) for s in cov} - {id(s) for s in marks}
    for s in seen:
        key, g = (s.picture, s.row, s.col), ids[i_of[s]]
        if key in mined:
            labels[key] = MINE
        elif key in flagged:
            labels[key] = FLAG
        elif g == covered and id(s) in plain:
            labels[key] = UNOPENED
        elif g == opened and s.look.ink_colour is None:
            labels[key] = 0
    return Described(look, fields, names, labels)


def _own_shade(cell: CellLook) -> bool:
    """Ink of its coloured tile's own hue: the tile's shading or gloss, not a digit."""
    if cell.ink_colour is None:
        return False
    ground, ink = _lab(np.array([cell.ground, cell.ink_colour]))
    return bool(_chroma(ground)[0] >= GREY and _hue_apart(_hue_angle(ground), _hue_angle(ink)) <= SHADE_HUE)


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
        found.append(outlined(value, float(xs[s.col]), float(ys[s.row]), tiles.field.pitch, tiles.tile))
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
