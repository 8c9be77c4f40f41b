"""A number the skin has no sprite for, named from the board it appears on.

A skin learnt from a few games often lacks the rare numbers (6, 7, 8). When one shows up, its
cells read as unknown and the play loop would stop. Here such cells get a name, only when
nothing else is possible:
- each cell looks like an opened cell: its rim (the two outer pixels, where an opened cell's grid
  line and plain ground are) matches the rim of one of the skin's opened cells strictly, and the
  whole tile is near none of its sprites (a new glyph is drawn inside), but for a number's the
  board rules out there; a covered cell, a half-drawn one or another window's corner fails this;
- the new looks (a few at once) get numbers the skin lacks, distinct, and a look is named when
  every assignment that makes the board a possible game gives it the same number (the SAT core
  decides, as when learning).
The look is then added to the skin, in memory and (for a skin kept in a folder) as its PNG, and the
board is read again with it. A new number look the board cannot name yet is told apart from
anything else: its cells are opened cells whose number is not known (board.UNREAD), and the game
goes on with what the rest of the board says, until enough of it shows to name the look.
Anything else leaves the cells unknown: the loop stops safely, as before.

A face the skin has never seen is named the same way, by the board under it: "won" when nothing
is covered but flags and every number counts exactly its flagged neighbours (a game won only with
every mine flagged shows its won face only then, and a learner rarely gets there), "lost" when a
mine has exploded. Any other unknown face stays unknown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Protocol

import numpy as np

from bot.board import EXPLODED, FLAG, UNREAD, neighbour_table
from bot.imagefile import write_image
from bot.learn.labels import COVERED_CLASS, FLAGGED_CLASS, fits
from bot.places import writable_skin
from bot.vision.reader import Field, Reading, face_box, field_tiles
from bot.vision.skin import Skin
from bot.vision.sprites import MAX_DISTANCE, resample, ring_mask

NEW = 100  # class id of the first new look in the frame handed to the SAT check
MAX_LOOKS = 3  # new looks named at once (permutations of the missing numbers stay few)
RIM = 2  # px: an opened cell's grid line and plain ground, as vision's loose read checks a frame
NUMBERS = {v: v for v in range(9)}  # each number's class in a frame handed to the SAT check: itself


def _rms(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(((a.astype(np.float32) - b.astype(np.float32)) ** 2).mean()))


@dataclass(frozen=True)
class Unseen:
    """One new number look among the unknown cells: its tile at 1x, and its name if the board
    allows only one (None: a number, but which one the board does not say yet)."""

    tile: np.ndarray
    number: int | None
    cells: tuple[tuple[int, int], ...] = ()


def unseen_numbers(image: np.ndarray, field: Field, skin: Skin, reading: Reading) -> list[Unseen] | None:
    """The new number looks the unknown cells show (a 5 and a 6 may appear at once), or None
    when the unknown cells are anything else."""
    missing = [v for v in range(1, 9) if v not in set(skin.cell_codes.tolist())]
    opened = skin.cell_sprites[skin.cell_codes >= 0]
    if not missing or not len(opened) or not reading.unknown.any() or not reading.framed:
        return None
    n = skin.cell
    tiles = field_tiles(image, field, n).reshape(field.rows, field.cols, n, n, 3)
    rim = ring_mask(n, n, RIM)
    cells = [tuple(c) for c in np.argwhere(reading.unknown)]
    if any(min(_rms(tiles[c][rim], o[rim]) for o in opened) > MAX_DISTANCE for c in cells) \
            and not _grounds_of_their_own(skin, [tiles[c] for c in cells], rim):
        return None  # not the rim of an opened cell
    frame = np.where(reading.codes >= 0, reading.codes, COVERED_CLASS).astype(np.int64)
    frame[reading.codes == FLAG] = FLAGGED_CLASS
    frame[reading.unknown] = FLAGGED_CLASS  # (free, for the check below)
    near_enough = _near_enough(skin)
    for c in cells:
        near = [int(code) for code, o, limit in zip(skin.cell_codes, skin.cell_sprites, near_enough, strict=True)
                if _rms(tiles[c], o) <= limit]
        if any(not _ruled_out(frame, c, code) for code in near):
            return None  # close to a sprite the skin has, which the board allows here: a doubtful read of it
    looks: list[np.ndarray] = []
    which: dict[tuple[int, int], int] = {}
    for c in cells:
        k = next((i for i, t in enumerate(looks) if _rms(tiles[c], t) <= MAX_DISTANCE), None)
        if k is None:
            k = len(looks)
            looks.append(tiles[c])
        which[c] = k
    if len(looks) > len(missing) or len(looks) > MAX_LOOKS:
        return None
    for c, k in which.items():
        frame[c] = NEW + k
    fitting = [names for names in permutations(missing, len(looks))
               if fits([frame], {**NUMBERS, **{NEW + k: v for k, v in enumerate(names)}})]
    if not fitting:
        return None  # no numbers fit: not numbers after all
    return [Unseen(np.ascontiguousarray(look), names.pop() if len(names := {f[k] for f in fitting}) == 1 else None,
                   tuple((int(r), int(c)) for (r, c), j in which.items() if j == k))
            for k, look in enumerate(looks)]


def _near_enough(skin: Skin) -> list[float]:
    """How close a tile must be to each sprite to be a doubtful read of it: MAX_DISTANCE, or half
    the way to the sprite's nearest other where the skin's sprites lie closer together. XBomb's
    thin digits on 50 px tiles lie 17-27 apart, and its 5, never seen, lay 14-25 from four of them:
    near all, named none, and its game stopped."""
    sprites = skin.cell_sprites
    nearest = [min((_rms(a, b) for j, b in enumerate(sprites) if j != i), default=2 * MAX_DISTANCE)
               for i, a in enumerate(sprites)]
    return [min(MAX_DISTANCE, 0.5 * d) for d in nearest]


def _ruled_out(frame: np.ndarray, cell: tuple[int, int], code: int) -> bool:
    """Whether the board rules out that `cell` shows the number `code` (the frame's other unknown
    cells free): GNOME Mines' 6 lies 24.9 from its 5 on the grounds their shades share, within
    MAX_DISTANCE, where the 6's flagged neighbours allow no 5. Anything but a number is not ruled out."""
    if not 0 <= code <= 8:
        return False
    with_it = frame.copy()
    with_it[cell] = code
    return not fits([with_it], NUMBERS)


def _grounds_of_their_own(skin: Skin, tiles: list[np.ndarray], rim: np.ndarray) -> bool:
    """A look whose numbers each sit on a ground of their own colour (GNOME Mines: a 5 on pink,
    seen first in play): the skin's opened cells' rims differ among themselves, and each tile's rim
    is far from every rim a covered, flagged or marked cell has. Whether the tiles are then a number
    is for the board to say (unseen_numbers' fit), as for any other new look."""
    opened = [o[rim] for o in skin.cell_sprites[skin.cell_codes >= 0]]
    closed = [o[rim] for o in skin.cell_sprites[skin.cell_codes < 0]]
    spread = max((_rms(a, b) for i, a in enumerate(opened) for b in opened[i + 1:]), default=0.0)
    return bool(closed) and spread > MAX_DISTANCE and all(
        min(_rms(t[rim], c) for c in closed) > MAX_DISTANCE for t in tiles)


class Named(Protocol):
    """A new look's cells and the number the board gives it (None: not yet): Unseen, and the
    described looks' ink groups (bot.learn.unseen_digits.UnseenInk)."""

    @property
    def number(self) -> int | None: ...
    @property
    def cells(self) -> Sequence[tuple[int, int]]: ...


def unread(reading: Reading, found: Sequence[Named]) -> Reading:
    """The reading with the cells of looks not named yet taken as opened cells of unknown number."""
    cells = [c for look in found if look.number is None for c in look.cells]
    codes, unknown = reading.codes.copy(), reading.unknown.copy()
    for c in cells:
        codes[c], unknown[c] = UNREAD, False
    return dataclasses.replace(reading, codes=codes, unknown=unknown)


def _keep(skin: Skin, name: str, tile: np.ndarray) -> None:
    """Write a new sprite into the skin's folder (for a skin kept in one), so it is there next time."""
    if writable_skin(skin.folder) and not (skin.folder / f"{name}.png").exists():
        write_image(str(skin.folder / f"{name}.png"), tile)


def with_number(skin: Skin, number: int, tile: np.ndarray) -> Skin:
    """The skin with one more number sprite; written into its folder too, so it is kept."""
    _keep(skin, f"cell_{number}", tile)
    return dataclasses.replace(
        skin,
        cell_codes=np.append(skin.cell_codes, np.int8(number)),
        cell_sprites=np.concatenate([skin.cell_sprites, tile[None]]),
    )


def ended_as(codes: np.ndarray) -> str | None:
    """What the board alone says of the game: "lost" (a mine exploded), "won" (nothing covered but
    flags, each number counting exactly its flags), or None (still on, or not sure)."""
    if (codes == EXPLODED).any():
        return "lost"
    if ((codes < 0) & (codes != FLAG)).any() or not (codes >= 0).any():
        return None
    flat, rows, cols = codes.ravel(), *codes.shape
    flagged = [sum(flat[r * cols + c] == FLAG for r, c in around) for around in neighbour_table(rows, cols)]
    return "won" if all(v == n for v, n in zip(flat.tolist(), flagged) if v >= 0) else None


def unseen_face(image: np.ndarray, field: Field, skin: Skin, reading: Reading) -> tuple[str, np.ndarray] | None:
    """(name, sprite at 1x) of a face the skin lacks, named by the board under it; None when the
    board does not say, or the skin has that face already (then it is a misread, not a new face)."""
    if reading.face is not None or not reading.framed or reading.unknown.any():
        return None
    name = ended_as(reading.codes)
    if name is None or name in skin.face_names:
        return None
    h, w = skin.face_sprites.shape[1:3]
    left, top, width, height = face_box(field, skin)
    if left < 0 or top < 0 or left + width > image.shape[1] or top + height > image.shape[0]:
        return None
    return name, np.ascontiguousarray(resample(image, left, top, width, height, (w, h)))


def with_face(skin: Skin, name: str, tile: np.ndarray) -> Skin:
    """The skin with one more face sprite; written into its folder too, so it is kept."""
    _keep(skin, f"face_{name}", tile)
    return dataclasses.replace(
        skin,
        face_names=(*skin.face_names, name),
        face_sprites=np.concatenate([skin.face_sprites, tile[None]]),
    )
