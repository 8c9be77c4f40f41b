"""A digit a described look (bot.vision.described) has no colour for, named from the board it
appears on: bot.learn.unseen's way for looks described by their colours.

A look learnt in a few games often lacks the rare digits (KMines' red 5, seen first in play), and
a bold font's shape is not always plain enough to read alone. Such a cell reads as unknown and the
play loop would stop. Here the unknown cells that are plainly an opened tile bearing a glyph
(the opened ground, ink darker than it, of a digit's size, not a mine's grey) are grouped by
their ink's colour, and each group is given a digit the look lacks, distinct, where every
assignment that makes the board a possible game gives it the same one (bot.learn.described's
consistency check, the other unknown cells free). The colour is then added to the look, in memory
and in the skin's folder. A group not named yet is an opened cell of unknown number for now
(board.UNREAD, bot.learn.unseen.unread): the game goes on with what the rest of the board says.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from itertools import permutations

import numpy as np

from bot.learn.described import consistent
from bot.learn.look_file import look_json
from bot.places import writable_skin
from bot.vision.described import MIN_DIGIT, NEAR_COLOUR, RAISED_SHARE, boxes, cell_look, frames, mine_sized, pitch_of
from bot.vision.look import hsv_of, luma
from bot.vision.reader import Field, Reading, tile_of
from bot.vision.skin import Skin

#: Ink groups named at once (the permutations of the missing digits stay few).
MAX_GROUPS = 3


@dataclass(frozen=True)
class UnseenInk:
    cells: list[tuple[int, int]]
    ink: np.ndarray  # BGR, the group's mean
    number: int | None  # the digit the board gives it, or None while it allows several


def unseen_digits(image: np.ndarray, field: Field, skin: Skin, reading: Reading) -> list[UnseenInk] | None:
    """The unknown cells of a described look that are digits it has no colour for, grouped by ink
    and named where the board allows one digit only; None where some unknown cell is not plainly
    such a digit (covered, half drawn, a window over it; a 0 doubted beside a cell read as covered,
    a frame mid-flood or a misread, which no mine layout explains), or too many inks are new."""
    look = skin.look
    if look is None or not reading.unknown.any():
        return None
    xs, ys = field.centres()
    found = np.argwhere(reading.unknown)
    cut = boxes(image, xs, ys, tile_of(field))
    around = frames(image, xs, ys, pitch_of(xs, tile_of(field)))  # (as read_described measures relief)
    inks, digits = [], []
    for r, c in found:
        box = cut[int(r) * len(xs) + int(c)]
        if box is None:
            return None
        cell = cell_look(box, around[int(r) * len(xs) + int(c)])
        if look.raised is not None and cell.relief >= RAISED_SHARE * look.raised:
            return None  # (a mark on a raised covered tile: a flag the look has not learnt, KMines' at Hard)
        ground = hsv_of(cell.ground)
        if cell.ink_colour is None or not look.opened.holds(ground) or cell.share < MIN_DIGIT \
                or luma(cell.ink_colour) >= luma(cell.ground):
            return None
        ink = hsv_of(cell.ink_colour)
        if look.mine_ink is not None and look.mine_ink.holds(ink) and mine_sized(cell, look.shapes):
            return None  # (a mine shown: the game is over, not a digit unseen)
        inks.append(cell.ink_colour)
        digits.append((int(r), int(c)))
    groups: list[list[int]] = []
    for i, ink in enumerate(inks):
        home = next((g for g in groups if np.linalg.norm(inks[g[0]] - ink) <= NEAR_COLOUR), None)
        if home is None:
            groups.append([i])
        else:
            home.append(i)
    missing = [d for d in range(1, 9) if d not in look.digits]
    if not groups or len(groups) > min(MAX_GROUPS, len(missing)):
        return None
    cells = [[digits[i] for i in g] for g in groups]
    fits = []
    for numbers in permutations(missing, len(groups)):
        codes, unknown = reading.codes.copy(), reading.unknown.copy()
        for group, number in zip(cells, numbers, strict=True):
            for cell in group:
                codes[cell], unknown[cell] = number, False
        if consistent(codes, unknown):
            fits.append(numbers)
    if not fits:
        return None  # (no digit the look lacks explains them: not digits, or misread)
    out = []
    for k, group in enumerate(cells):
        named = {numbers[k] for numbers in fits}
        ink = np.mean([inks[i] for i in groups[k]], axis=0).astype(np.float32)
        out.append(UnseenInk(group, ink, named.pop() if len(named) == 1 else None))
    return out


def with_digit(skin: Skin, number: int, ink: np.ndarray) -> Skin:
    """The skin whose look knows one more digit's colour; written into its skin.json too (for a
    skin kept in a folder), so it is known next time."""
    look = dataclasses.replace(skin.look, digits={**skin.look.digits, number: ink.reshape(1, 3)})
    meta_path = skin.folder / "skin.json" if writable_skin(skin.folder) else None
    if meta_path is not None and meta_path.is_file():
        try:
            meta = json.loads(meta_path.read_text())
            meta["look"] = look_json(look)
            meta_path.write_text(json.dumps(meta, indent=1) + "\n")
        except (OSError, ValueError):
            pass  # (kept in memory for this run all the same)
    return dataclasses.replace(skin, look=look)

