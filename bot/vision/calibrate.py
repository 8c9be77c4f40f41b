"""Find a Minesweeper board anywhere in a screenshot, with no hint: skin, scale, field, size.

The face is the anchor: every classic-style game has exactly one, at a fixed place above the
field, and it looks the same at any board size. It is found coarsely on a quarter-size grey image
(a few ms for all scales), confirmed at full size around the best few spots, and then the field
is grown cell by cell from under the face (bot.vision.growth) until the cells stop matching.
Display scaling (125 %, 150 %, 200 %) is only a different scale to try.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, UNOPENED
from bot.errors import VisionError
from bot.vision.face_search import (
    COARSE,
    PEAKS,
    SCALES,
    disc_candidates,
    face_candidates,
    face_discs,
    grey_of,
    refine_face,
)
from bot.vision.growth import EDGE_DISTANCE, best_offset, cell_distance, grow_field, grown_near, moved_to_cells
from bot.vision.lattice import find_lattice
from bot.vision.reader import Field, Reading, read, read_cells
from bot.vision.skin import Skin
from bot.vision.tiles import Tiles, find_tiles
from bot.vision.whole_tiles import grown_whole

#: Cell sizes tried, over the face's, when none is found at the face's own: some games draw bigger
#: cells at smaller levels and keep the face (ace-minesweeper: 12, 24, 36 and 48 px cells).
CELL_FACTORS = (2.0, 3.0, 4.0, 1.5, 1.25)
#: Cells a side a grown field may lose to find the game's frame inside it (bot.vision.calibrate._framed_inside).
TRIM = 2
STILL_TILES = (UNOPENED, FLAG, MINE, EXPLODED)
#: A described look's board is taken where at most this share of its cells is unread.
UNKNOWN_MOST = 0.1
MIN_SIDE = 8  # no game has fewer cells in a row or column (Winmine's custom minimum is 8 or 9)


@dataclass(frozen=True)
class Calibration:
    skin: str
    scale: float
    left: float
    top: float
    rows: int
    cols: int
    #: The cells' size over the skin's where it differs from the face's (`scale`): None when not.
    cell_scale: float | None = None
    #: A field stretched to its window: each column's and row's start from (left, top) (bot.vision.reader.Field).
    xs: tuple[float, ...] | None = None
    ys: tuple[float, ...] | None = None
    #: A tile's side without its gap, for a look with gaps (bot.vision.reader.Field.tile).
    tile: float | None = None

    def with_pitch(self, skin: Skin) -> Field:
        if self.cell_scale is None:
            return Field(self.left, self.top, skin.cell * self.scale, self.rows, self.cols, xs=self.xs, ys=self.ys,
                         tile=self.tile)
        return Field(self.left, self.top, skin.cell * self.cell_scale, self.rows, self.cols, chrome=self.scale,
                     xs=self.xs, ys=self.ys, tile=self.tile)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Calibration:
        try:
            data = json.loads(text)
            cell_scale = data.get("cell_scale")
            xs, ys = (tuple(float(v) for v in data[k]) if data.get(k) else None for k in ("xs", "ys"))
            tile = data.get("tile")
            return cls(str(data["skin"]), float(data["scale"]), float(data["left"]), float(data["top"]),
                       int(data["rows"]), int(data["cols"]), None if cell_scale is None else float(cell_scale), xs, ys,
                       None if tile is None else float(tile))
        except (ValueError, KeyError, TypeError) as err:
            raise VisionError(f"bad calibration profile: {err}") from err


def calibrate(image: np.ndarray, skins: list[Skin]) -> tuple[Calibration, Skin]:
    """Where the board is and which skin draws it; VisionError when there is no readable board."""
    if image is None or image.ndim != 3 or image.shape[0] < 24 or image.shape[1] < 24:
        raise VisionError("the image is empty or too small to hold a board")
    found = [r for skin in skins if skin.faceless and skin.look is None and (r := _from_lattice(image, skin))]
    memo: dict = {}
    for skin in (s for s in skins if not s.faceless):
        for disc in face_discs(skin):  # the playing face's colour first: most screenshots show it
            result = _from_candidates(image, skin, disc_candidates(image, memo, *disc)[:PEAKS])
            if result is not None:
                found.append(result)
                break
    if not found and any(s.look is not None for s in skins):  # the described looks, found by their tiles
        tiles = find_tiles(image)
        found = [r for skin in skins if skin.look is not None and tiles and (r := _from_tiles(image, skin, tiles))]
    if not found:  # no disc matched: a lost face, or a skin without a disc colour: the slow search
        grey = grey_of(image)
        small = cv2.resize(grey, (image.shape[1] // COARSE, image.shape[0] // COARSE), interpolation=cv2.INTER_AREA)
        found = [r for skin in skins if not skin.faceless
                 and (r := _from_candidates(image, skin, face_candidates(grey, small, skin)[: PEAKS * 2]))]
    if not found:  # a clone of a family's look with a face of its own (Arbiter): under its disc (no
        # disc, no face: the fallback costs a picture with no board nothing)
        for skin in (s for s in skins if s.family and not s.faceless):
            discs = [(c, disc) for disc in face_discs(skin)
                     for c in disc_candidates(image, memo, *disc, spread=1.6)[:PEAKS]]
            if discs and (result := _under_a_disc(image, skin, discs)):
                found.append(result)
    if not found:
        raise VisionError("no Minesweeper board found in the image")
    # (equal reads: the skin drawn nearest its own size; a described look's score has its
    # off-centre share taken off already, bot.vision.calibrate._off_centre)
    found.sort(key=lambda item: (-round(item[0], 4), abs(math.log(item[1].scale))))
    return found[0][1], found[0][2]


def _placed_by_cells(image: np.ndarray, skin: Skin, cal: Calibration, reading: Reading) -> Calibration:
    """A family skin's field as its face placed it (`reading` its read there), or as its cells'
    lattice places it where that reads more cells. A clone's own face (Arbiter's sunglasses) can
    match our drawing weakly and a pixel or two off: the field under it then leaves cells unread
    (22 of 480 at 200 %)."""
    if not skin.family or not reading.unknown.any():
        return cal
    other = _from_lattice(image, skin)
    return other[1] if other is not None and other[0] > 1.0 - float(reading.unknown.mean()) else cal


#: Cells between two parts of one field (bot.vision.calibrate.parts_of_one) at most.
SPLIT_GAP = 4

#: What a described look's score loses for tiles at the edge of its covered hues (_off_centre): less
#: than one unread cell of a 30 x 16 board, so it only ever decides between equal reads. Without it
#: the Java clone's fresh 18 px board went to msapp at 0.49 (the first skin), whose digit colours
#: then read Windows 7's blue 1 as the app's blue 4.
OFF_CENTRE = 0.001


def _from_lattice(image: np.ndarray, skin: Skin) -> tuple[float, Calibration, Skin] | None:
    """A skin without a face, or one whose face the game draws its own way, has no anchor but its
    field: found by structure (bot.vision.lattice: a board whose every row and column holds a
    covered cell), then read with the skin, every cell of it."""
    try:
        lat = find_lattice(image)
    except VisionError:
        return None
    if not 0.4 <= lat.pitch / skin.cell <= 1.1 * SCALES[-1]:  # (a game may shrink its cells to its window)
        return None
    xs, ys = lat.offsets
    cal = Calibration(skin.name, lat.pitch / skin.cell, lat.left, lat.top, lat.rows, lat.cols, xs=xs, ys=ys)
    reading = read(image, cal.with_pitch(skin), skin)
    if reading.unknown.mean() > 0.1 or not reading.framed or (not skin.faceless and not _a_clone(reading)):
        return None
    return 1.0 - float(reading.unknown.mean()), cal, skin


def _a_clone(reading: Reading) -> bool:
    """Whether a board a family skin reads without its face's sprites is that family's game: framed,
    a face (a disc of its colour where the face sits, bot.vision.reader) and the counter read by its
    lit segments. Cells alone are not enough: a fresh board of grey raised tiles is many games' (a
    toy drawn with its own digits and a text counter read as classic, then stopped at its first
    number)."""
    return reading.framed and reading.face is not None and reading.counter is not None and reading.counter_fits


def _tiles_calibration(skin: Skin, tiles: Tiles) -> Calibration:
    field = tiles.field
    return Calibration(skin.name, field.pitch / skin.cell, field.left, field.top, field.rows, field.cols,
                       xs=field.xs, ys=field.ys, tile=tiles.tile)


def _from_tiles(image: np.ndarray, skin: Skin, tiles: Tiles) -> tuple[float, Calibration, Skin] | None:
    """A described look (bot.vision.described) on the field of tiles found: taken where nearly every
    cell reads as something the look describes and some cell holds a mine or may (covered, flagged,
    a mine shown): every game has mines, and a grid of plain light squares is no game."""
    cal = _tiles_calibration(skin, tiles)
    field = cal.with_pitch(skin)
    reading = read(image, field, skin)
    if not reading.framed and reading.unknown.mean() <= UNKNOWN_MOST:
        tiles, reading = grown_whole(image, skin, tiles, reading)
        cal = _tiles_calibration(skin, tiles)
        field = cal.with_pitch(skin)
    if reading.unknown.mean() > UNKNOWN_MOST or not np.isin(reading.codes[~reading.unknown], STILL_TILES).any():
        return None
    return 1.0 - float(reading.unknown.mean()) - OFF_CENTRE * _off_centre(image, field, skin, reading), cal, skin


def _off_centre(image: np.ndarray, field: Field, skin: Skin, reading: Reading) -> float:
    """How far the covered tiles' median hue lies from the middle of the look's covered hues, in
    half-widths of that range (0 in the middle, 1 at its edge). Two looks of blue tiles both read a
    fresh board; this tells them apart: Windows 7's tiles measured 225-233 degrees, the app's 200-201,
    the looks' ranges 190-245 and 190-225."""
    low, high = skin.look.covered.hue
    covered = np.argwhere((reading.codes == UNOPENED) & ~reading.unknown)
    if not covered.size or high <= low:  # (a range wrapping past 360: no middle to measure from)
        return 0.0
    xs, ys = field.centres()
    patches = np.stack([image[int(ys[r]) - 2:int(ys[r]) + 3, int(xs[c]) - 2:int(xs[c]) + 3]
                        for r, c in covered[:: max(1, len(covered) // 200)]])  # 5 x 5 px at up to 200 tiles
    hues = cv2.cvtColor(patches.reshape(-1, 5, 3), cv2.COLOR_BGR2HSV_FULL)[..., 0].reshape(len(patches), -1)
    hue = float(np.median(np.median(hues, axis=1))) * 360 / 256
    return min(1.0, abs(hue - (low + high) / 2) / ((high - low) / 2))


def _within(image: np.ndarray, skins: list[Skin], box: tuple[int, int, int, int]) -> tuple[Calibration, Skin] | None:
    left, top, width, height = box
    x0, y0 = max(0, left), max(0, top)
    part = image[y0 : top + height, x0 : left + width]
    try:
        cal, skin = calibrate(part, skins)
    except VisionError:
        return None
    return replace(cal, left=cal.left + x0, top=cal.top + y0), skin


def _scales_to_try(face_scale: float) -> list[float]:
    """The face alone never sets the scale: a drawn face unlike the game's can match best a few
    per cent off. The display's own steps near it come first, the face's measure last; the field
    grown and read at each decides (every cell of an 8 x 8 or larger lattice must read)."""
    i = min(range(len(SCALES)), key=lambda k: abs(math.log(SCALES[k] / face_scale)))
    j = i + (1 if face_scale > SCALES[i] else -1)  # the next step on the face's side
    # (80 % is no display's step, only a shrunk screenshot's: tried for a face measured under 100 %)
    other = [SCALES[j]] if 0 <= j < len(SCALES) and (SCALES[j] >= 1 or face_scale < 1) else []
    order = [SCALES[i], *other, face_scale]
    return [float(s) for s in dict.fromkeys(order) if SCALES[0] <= s <= SCALES[-1]][:3]


def _from_candidates(
    image: np.ndarray, skin: Skin, candidates: list[tuple[float, float, int, int]]
) -> tuple[float, Calibration, Skin] | None:
    for _, scale, x, y in candidates:
        score, fine, fx, fy = refine_face(image, skin, scale, x, y)
        if score < 0.6:
            continue
        display = _scales_to_try(fine)  # (never empty: the nearest step at least)
        trials = [(t, None) for t in display] + [(display[0] * k, display[0]) for k in CELL_FACTORS]
        for trial, chrome in trials:
            face_scale = trial if chrome is None else chrome
            if face_scale != fine:  # the face's place at exactly this scale
                _, _, fx, fy = refine_face(image, skin, face_scale, round(fx), round(fy), steps=(0.0,))
            grown = grow_field(image, skin, trial, fx, fy, chrome)
            found = _under_face(image, skin, grown)
            # Not the game's where the face puts it, or a clone's face: its field placed its own way.
            if grown is not None and (found is None or found[1].face_by_disc):
                moved = moved_to_cells(image, skin, grown, trial, fx, fy, chrome)
                found = found if moved is grown else _under_face(image, skin, moved)
            if found is None:
                continue
            field, reading = found
            if chrome is None:
                cal = Calibration(skin.name, trial, field.left, field.top, field.rows, field.cols)
            else:
                cal = Calibration(skin.name, chrome, field.left, field.top, field.rows, field.cols, trial)
            return score * (1 - float(reading.unknown.mean())), _placed_by_cells(image, skin, cal, reading), skin
    return None


def _under_face(image: np.ndarray, skin: Skin, field: Field | None) -> tuple[Field, Reading] | None:
    """The field grown under a face, and its reading, where it is the game's: framed, the face read
    and nearly every cell; a face only like ours (its disc) with an LED counter too."""
    if field is None or min(field.rows, field.cols) < MIN_SIDE:
        return None  # a few cells that happen to fit: a face-like blob at a wrong scale
    field, reading = best_offset(image, skin, field)
    if not reading.framed:
        field, reading = _framed_inside(image, skin, field, reading)
    if reading.unknown.mean() > 0.1 or reading.face is None or not reading.framed or not reading.counter_fits:
        return None
    if reading.face_by_disc and not _a_clone(reading):
        return None  # a face like ours that none of our sprites draws: taken with its LED counter only
    return field, reading


#: How far (1x pixels) a clone's face may sit above or below ours, measured from the field's top:
#: Arbiter's disc centre is 28.5 px above its field, our drawing's 27.
DISC_DRIFT = (0, 1, -1, 2, -2, 3, -3)
#: A field found under a disc that is not our face's scores this much of its share of cells read:
#: below any face our sprites match.
DISC_SCORE = 0.5


def _under_a_disc(image: np.ndarray, skin: Skin, candidates: list[tuple[tuple[float, float, int, int], tuple]]
                  ) -> tuple[float, Calibration, Skin] | None:
    """The field under a face our sprites do not draw: a disc of the face's colour taken for the
    face's centre (a clone's disc has its own size, so the display's scale comes from the cells),
    the field grown under it at each display scale, a few pixels up or down. Each candidate comes
    with the disc (colour, x, y, side in our sprite) it was found by."""
    h, w = skin.face_sprites.shape[1:3]
    for (_, scale, x, y), (_, off_x, off_y, side) in candidates:
        cx, cy = x + (off_x + side / 2) * scale, y + (off_y + side / 2) * scale
        for trial in sorted(SCALES, key=lambda s: abs(math.log(s / scale))):  # (the disc's size: a hint)
            pitch = skin.cell * trial
            for drift in DISC_DRIFT:
                face_top = cy - (h / 2 + drift) * trial
                top = face_top - skin.face_offset[1] * trial
                if min(cell_distance(image, skin, trial, cx - k * pitch / 2, top) for k in (1, 2)) > 2 * EDGE_DISTANCE:
                    continue  # no cell at all under the disc there: not worth growing a field
                field = grown_near(image, skin, trial, cx - w / 2 * trial, face_top)
                if field is None or min(field.rows, field.cols) < MIN_SIDE:
                    continue
                field, reading = best_offset(image, skin, field)
                if reading.unknown.mean() > 0.1 or not _a_clone(reading):
                    continue
                cal = _placed_by_cells(image, skin, Calibration(skin.name, trial, field.left, field.top, field.rows,
                                                                field.cols), reading)
                return DISC_SCORE * (1 - float(reading.unknown.mean())), cal, skin
    return None


def _framed_inside(image: np.ndarray, skin: Skin, field: Field, reading: Reading) -> tuple[Field, Reading]:
    """The largest field inside the grown one whose frame is the game's, when the grown one's is not:
    a border drawn like an opened cell (ace-minesweeper's green, its opened zeros' ground) grows
    the field by a column on each side and a row below. Trimmed by at most TRIM cells a side."""
    for rows, cols in sorted(((r, c) for r in range(TRIM + 1) for c in range(TRIM + 1) if r or c),
                             key=lambda rc: rc[0] + 2 * rc[1]):
        inner = replace(field, left=field.left + cols * field.pitch, rows=field.rows - rows, cols=field.cols - 2 * cols)
        if min(inner.rows, inner.cols) < MIN_SIDE:
            continue
        try:
            found = read(image, inner, skin)
        except VisionError:
            continue
        if found.framed:
            return inner, found
    return field, reading


def still_matches(image: np.ndarray, cal: Calibration, skin: Skin) -> bool:
    """A saved profile is reused only if the face and nearly every cell still read where it says."""
    field = cal.with_pitch(skin)
    try:
        reading = read(image, field, skin)
    except VisionError:
        return False
    if skin.look is not None and not reading.framed:
        return False  # (a described look's field not seen whole there: placed a pixel or two off)
    if skin.look is None and skin.faceless and not _ends_there(image, field, skin):
        # (a described look's frame, seen whole, ends it: beyond it, a background its opened 0s'
        # shade reads as 0s, as KMines' grey round its field)
        return False
    return reading.face is not None and reading.unknown.mean() <= 0.1


def _ends_there(image: np.ndarray, field: Field, skin: Skin) -> bool:
    """A field with no face to anchor it is whole only where its cells stop at its edges: a row or
    column more on any side reads as no cell (an 8 x 8 profile reused on a 16 x 16 board of the
    same look read every cell of a corner of it)."""
    p, left, top = field.pitch, field.left, field.top
    for x, y, rows, cols in ((left, top - p, 1, field.cols), (left, top + field.height, 1, field.cols),
                             (left - p, top, field.rows, 1), (left + field.width, top, field.rows, 1)):
        beyond = Field(x, y, p, rows, cols)  # (one pitch: near enough to tell cells from no cells)
        try:
            _, known, _ = read_cells(image, beyond, skin)
        except VisionError:
            continue  # (off the image: nothing there)
        if known.mean() > 0.5:
            return False
    return True


def save_profile(path: Path, cal: Calibration) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(cal.to_json())


def load_profile(path: Path) -> Calibration | None:
    """The saved profile, or None when there is none or it cannot be used (a corrupt or hand-edited
    file only costs a fresh calibration, which then overwrites it)."""
    try:
        return Calibration.from_json(path.read_text())
    except (OSError, UnicodeDecodeError, VisionError):
        return None


def second_board(image: np.ndarray, skins: list[Skin], cal: Calibration, skin: Skin) -> Calibration | None:
    """Another board in the image than the one found (two games side by side): the first one's
    field, and its header up to four cells above (the face and counters), blanked, and the rest
    searched again. None where there is none."""
    field = cal.with_pitch(skin)
    pad = field.pitch
    header = pad if skin.faceless else 4 * pad  # (no face above a faceless field: a part of it may be)
    x0, y0 = max(0, int(field.left - pad)), max(0, int(field.top - header))
    x1, y1 = int(field.left + field.width + pad) + 1, int(field.top + field.height + pad) + 1
    rest = image.copy()
    rest[y0:y1, x0:x1] = 0
    try:
        other, _ = calibrate(rest, skins)
    except VisionError:
        return None
    return other


def parts_of_one(cal: Calibration, other: Calibration, skin: Skin) -> bool:
    """Whether two boards found are the parts of one field either side of something laid across
    it (KMines' box at a game's end over its middle rows): of one skin and pitch, on one lattice,
    one above or beside the other with their columns (rows) overlapping (the box may hide a cell
    of a part's side too), at most SPLIT_GAP cells apart."""
    a, b = cal.with_pitch(skin), other.with_pitch(skin)
    if cal.skin != other.skin or abs(a.pitch - b.pitch) > 0.02 * a.pitch:
        return False
    dx, dy = (b.left - a.left) / a.pitch, (b.top - a.top) / a.pitch
    if abs(dx - round(dx)) >= 0.2 or abs(dy - round(dy)) >= 0.2:
        return False  # (not on one lattice)
    i, j = round(dx), round(dy)  # (b's first column and row on a's lattice)
    if -b.cols < i < a.cols:  # their columns overlap: one above the other, the rows between hidden
        between = abs(j) - (a.rows if j > 0 else b.rows)
    elif -b.rows < j < a.rows:  # their rows overlap: side by side
        between = abs(i) - (a.cols if i > 0 else b.cols)
    else:
        return False
    return 0 <= between <= SPLIT_GAP


def locate(image: np.ndarray, skins: list[Skin], profile: Path | None,
           within: tuple[int, int, int, int] | None = None) -> tuple[Calibration, Skin, bool]:
    """Reuse the saved profile when it still fits the image, else calibrate afresh and save.
    `within` (left, top, width, height in the image): the game's window, where the board is looked
    for first (faster, and never a board-like picture elsewhere); then the whole image.

    Returns the calibration, its skin, and whether it was found afresh (not reused).
    """
    by_name = {skin.name: skin for skin in skins}
    saved = load_profile(profile) if profile is not None else None
    if saved is not None and saved.skin in by_name and still_matches(image, saved, by_name[saved.skin]):
        return saved, by_name[saved.skin], False
    found = _within(image, skins, within) if within is not None else None
    cal, skin = found if found is not None else calibrate(image, skins)
    if skin.look is not None and (other := second_board(image, skins, cal, skin)) and parts_of_one(cal, other, skin):
        # (a described look's field split by a box over it, each part framed by it: neither is
        # the game, nor a profile to keep)
        raise VisionError(f"something lies across the game's field: parts of it in sight at ({cal.left:.0f}, "
                          f"{cal.top:.0f}) and ({other.left:.0f}, {other.top:.0f})")
    if profile is not None:
        save_profile(profile, cal)
    return cal, skin, True
