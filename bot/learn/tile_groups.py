"""Which cells of some screenshots show which tile (bot.learn.described's first step): the cells'
grounds grouped by colour, whatever a tile's shading does to their brightness; the group thick with
digits is the opened tile, the largest plain one of the rest the covered tile. Grey tiles on grey
(KMines) share their colour: their lightness and the covered tiles' raised bevel tell them apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bot.errors import DescribedError
from bot.vision.described import MINE_SHARE, RAISED_SHARE, CellLook
from bot.vision.glyphs import shape_scores
from bot.vision.look import lab_of

#: Grounds (Lab a, b: their chroma) within this of a group's densest colour join it; groups of
#: fewer than SMALL of the cells join the nearest larger group within twice as far. Measured:
#: Windows 7's covered tiles spread 10 round their mean, its opened ones 2, 63 apart.
GROUND_RADIUS = 22.0
SMALL = 0.01
#: Inks (Lab) within this of a group's densest colour join it. Windows 7's digits through a GIF
#: palette spread up to 18 (its 4), its 1 and 4 lie 31 apart.
INK_RADIUS = 20.0
#: Ink near a tile's hue (degrees: 56 measured on our green tiles' unlit half over a blue ground;
#: a red flag on them lies 120 away) is the tile's own shading.
SHADE_HUE = 70.0
#: A digit's ink covers less than MINE_SHARE of the box; where no coloured ink that thin is in a
#: digit's shape, less than DIGIT_MOST (KMines' bold digits: 0.31-0.39; our meadow look's flag, in
#: a digit's shape to the glyph test, covers 0.3 or more).
DIGIT_MOST = 0.5
#: Ink in the shape of a digit: its best drawn digit correlates at least this much.
DIGIT_LIKE = 0.35
#: Covered and opened tiles are grey alike where one colour group holds this share of the cells
#: (KMines: all; the app's blue covered tiles are a group of their own).
ONE_GROUP = 0.9
#: A plain cell in at most this relief (0-255) is flat (KMines' opened 0s: 0-3).
FLAT = 4.0
#: Grey cells in more than this many times the covered tiles' relief are none of the field's: text
#: in a box the game draws over it (KMines' "Congratulations! You have won!": 20-45, its tiles 13).
OVER_RELIEF = 2.0
#: Grey covered and opened tiles whose medians lie this close (lightness L*, 0-100) are of one
#: shade, told apart by relief alone (a classic look: both 192 grey, the covered raised).
SAME_LIGHT = 2.0
#: A group of tile colours where at least this share bears a number is opened tiles (measured:
#: 0.4-0.8 of the opened tiles mid-game; the flags on covered ones, 0.1 at most).
NUMBERED = 0.25
#: Tile colours whose hues lie this close (degrees, Lab) are one tile's shades.
SAME_HUE = 30.0
#: Chroma (Lab) under this is grey: a mine's ink, an opened tile's ground.
GREY = 12.0
#: A coloured tile's grounds within this (Lab a, b) of the opened tile's, of its hue, are that tile
#: in another light (Windows 7's covered tiles lie 63 from its opened ones, the spread 10).
SHADE_CHROMA = GROUND_RADIUS / 2


@dataclass(frozen=True, eq=False)
class Seen:
    """One cell of one picture."""

    picture: int
    row: int
    col: int
    look: CellLook


@dataclass
class TileGroups:
    """Each cell's tile colour group (`ids`, one per cell seen, in their order), and which group is
    the opened tile's and which the covered tile's."""

    lab: np.ndarray  # each cell's ground, Lab
    ids: np.ndarray
    opened: int
    covered: int
    rest: list[int]  # every group but the opened one, the covered one among them
    raised: float | None  # the covered tiles' relief, where they are raised grey tiles on grey
    bevelled: np.ndarray | None  # (then) each cell: in that relief


def hue_angle(lab: np.ndarray) -> float:
    return float(np.degrees(np.arctan2(lab[2], lab[1])))


def hue_apart(a: float, b: float) -> float:
    """How far two hues (degrees) lie apart round the circle, 0-180."""
    return abs((a - b + 180) % 360 - 180)


def chroma(lab: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.atleast_2d(lab)[:, 1:], axis=1)


def coloured(colours: list[np.ndarray]) -> bool:
    return bool(len(colours)) and float(np.median(chroma(lab_of(np.array(colours))))) >= GREY


def own_shade(cell: CellLook) -> bool:
    """Ink of its coloured tile's own hue: the tile's shading or gloss, not a digit."""
    if cell.ink_colour is None:
        return False
    ground, ink = lab_of(np.array([cell.ground, cell.ink_colour]))
    return bool(chroma(ground)[0] >= GREY and hue_apart(hue_angle(ground), hue_angle(ink)) <= SHADE_HUE)


def colour_groups(points: np.ndarray, radius: float) -> np.ndarray:
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
    """Gaussian groups from the first ones (a tile's shading spreads its colours, the covered as
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


def _sure_opened(seen: list[Seen]) -> np.ndarray:
    """Opened for sure: a tile bearing coloured ink in a digit's shape. The opened tiles' spread is
    taken from those alone, before the groups settle (the lightest covered tiles of Windows 7 lie
    nearer the opened tiles' colour than the darkest covered ones do)."""
    digit_like = np.array([s.look.ink_colour is not None and s.look.share < DIGIT_MOST
                           and coloured([s.look.ink_colour]) and shape_scores(s.look.ink).max() >= DIGIT_LIKE
                           for s in seen])
    thin = digit_like & (np.array([s.look.share for s in seen]) < MINE_SHARE)
    # (digits of a usual weight, where any shows: a flag in a digit's shape covers more of its tile;
    # bolder ones only in a colour other than their tile's, whose own shading is of its hue)
    return thin if thin.any() else digit_like & ~np.array([own_shade(s.look) for s in seen])


def group_tiles(seen: list[Seen], pictures: int, say: Callable[[str], None]) -> TileGroups:
    """The tiles the cells show (`pictures`: how many pictures they are of, for the account)."""
    lab = lab_of(np.array([s.look.ground for s in seen]))
    sure = _sure_opened(seen)
    ids = _merge_small(lab[:, 1:], colour_groups(lab[:, 1:], GROUND_RADIUS), GROUND_RADIUS)
    if not sure.any():
        raise DescribedError("the pictures show no opened cell with a number: give pictures of a game under way")
    first = int(np.argmax(np.bincount(ids[sure], minlength=ids.max() + 1)))
    ids[(ids == first) & ~sure] = ids.max() + 1
    others = ids == ids.max()
    # Grey tiles on grey (KMines: raised light grey covered tiles, translucent grey opened ones) share
    # their chroma: their lightness tells them apart. (One colour group holding nearly every cell.)
    greys = bool(chroma(np.median(lab[sure], axis=0))[0] < GREY and chroma(np.median(lab[others], axis=0))[0] < GREY
                 and np.mean(others | (ids == first)) >= ONE_GROUP)
    features, bevelled, raised = lab[:, 1:], None, None
    relief = np.array([s.look.relief for s in seen])
    if greys:
        # A raised tile's bevel (KMines' covered tiles) against flat opened ones, shaded by their
        # place: the plain cells in less relief than the covered tiles' start among the opened,
        # and lightness and relief tell the groups apart.
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
    opened = _settle(lab, ids, sure)
    groups = [int(g) for g in np.unique(ids)]
    say(f"{len(seen)} cells in {pictures} pictures, {len(groups)} tile colours")
    rest = [g for g in groups if g != opened]
    if not rest:
        raise DescribedError("the pictures show no covered cell beside the opened ones: "
                             "give pictures of a game under way")
    covered = max(rest, key=lambda g: _plain(seen, lab, ids, g))
    found = TileGroups(lab, ids, opened, covered, rest, raised, bevelled)
    if greys:
        _leave_out_grey(seen, found, sure, relief)
    return found


def _settle(lab: np.ndarray, ids: np.ndarray, sure: np.ndarray) -> int:
    """The opened tile's group, the groups of one tile in several shades merged into one (in
    `ids`): another group as thick with numbers is the opened tile in another shade (darkened
    under a header); what is left of one hue is one tile, shaded (Windows 7's dark and light
    covered tiles)."""
    opened = int(np.argmax(np.bincount(ids[sure], minlength=ids.max() + 1)))
    ground = np.median(lab[ids == opened], axis=0)
    for g in np.unique(ids):
        if g != opened and (sure[ids == g].mean() >= NUMBERED or _shade_of(np.median(lab[ids == g], axis=0), ground)):
            ids[ids == g] = opened
    medians = {int(g): np.median(lab[ids == g], axis=0) for g in np.unique(ids)}
    for g in sorted(medians, key=lambda g: -int((ids == g).sum())):
        for h in sorted(medians):
            if h in (g, opened) or g == opened or not (ids == h).any() or not (ids == g).any():
                continue
            if min(chroma(medians[g])[0], chroma(medians[h])[0]) >= GREY and \
                    hue_apart(hue_angle(medians[g]), hue_angle(medians[h])) <= SAME_HUE:
                ids[ids == h] = g
    return opened


def _shade_of(colour: np.ndarray, ground: np.ndarray) -> bool:
    """Whether a group's colour (Lab) is a coloured ground's in another light: its chroma within
    SHADE_CHROMA, of one hue (the meadow look's opened tiles darkened under its top edge: 4 apart,
    with 1 cell in 5 numbered where a large opening lay there; a flag's own tile, the app's orange
    on grey, is no shade)."""
    return bool(min(chroma(colour)[0], chroma(ground)[0]) >= GREY
                and np.linalg.norm(colour[1:] - ground[1:]) <= SHADE_CHROMA
                and hue_apart(hue_angle(colour), hue_angle(ground)) <= SAME_HUE)


def _plain(seen: list[Seen], lab: np.ndarray, ids: np.ndarray, g: int) -> int:
    """Cells of group g bearing nothing but, maybe, a shade of their own hue (a glossy tile's
    unlit half): the covered tiles, where flags (the app's late game) may outnumber them."""
    hue = hue_angle(np.median(lab[ids == g], axis=0))
    return sum(seen[i].look.ink_colour is None
               or hue_apart(hue_angle(lab_of(seen[i].look.ink_colour)[0]), hue) <= SHADE_HUE
               for i in np.flatnonzero(ids == g))


def _leave_out_grey(seen: list[Seen], found: TileGroups, sure: np.ndarray, relief: np.ndarray) -> None:
    """Grey tiles on grey: grey opened cells beyond the covered tiles' lightness (lighter where
    those are lighter) are no tile: a box the game draws over its field (KMines' "Congratulations!
    You have won!"), a group of their own, left out; a covered tile's flag goes to the covered
    group. (In `found`.)"""
    ids, covered, opened, bevelled, raised = found.ids, found.covered, found.opened, found.bevelled, found.raised
    light = found.lab[:, 0]
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
        inked = np.array([s.look.ink_colour is not None and coloured([s.look.ink_colour]) for s in seen])
        dark_enough = light <= np.quantile(light[ids == covered], 0.99)
        marked = (relief >= RAISED_SHARE * raised) & inked & dark_enough
        digits = (ids == opened) & inked & ~marked
        if (marked & ~bevelled).any() and digits.any():
            inks = lab_of(np.array([seen[i].look.ink_colour for i in np.flatnonzero(digits)]))
            for i in np.flatnonzero(marked & ~bevelled):
                ink = lab_of(seen[i].look.ink_colour)[0]
                marked[i] = np.linalg.norm(inks - ink, axis=1).min() > INK_RADIUS
        ids[marked] = covered
    if beyond.any():
        ids[beyond] = ids.max() + 1
    found.rest = [int(g) for g in np.unique(ids) if g != opened]
