"""What learning a look yields, and the skin folder it is written as: the shipped skins' format,
so that a learnt look is loaded, found and read like any other (bot.vision.skin)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bot.board import UNOPENED
from bot.imagefile import write_image
from bot.learn.sight import Meanings
from bot.vision.lattice import Lattice
from bot.vision.reader import Field, frame_of
from bot.vision.skin import CELL_CODES, Skin

Box = tuple[int, int, int, int]  # left, top, width, height, image pixels
#: A counter: each digit's box, left to right, and the digits' sprites by name.
CounterLook = tuple[list[Box], dict[str, np.ndarray]]

#: Mine totals of the standard boards, (rows, cols): the counter's start where nothing else tells
#: it (8 x 8 with 10: GNOME Mines' and xdemineur's small board, Windows 3.1's Beginner).
STANDARD_MINES = {(8, 8): 10, (9, 9): 10, (16, 16): 40, (16, 30): 99}
NUMBERS = tuple(range(9))
SPECIAL = ("flag", "question", "mine", "exploded", "wrong_flag")
FACES = ("playing", "pressed", "won", "lost")
#: The frame learnt: the third pixel out from the field. A learnt skin is in the display's pixels,
#: whatever its scaling, and on a scaled display the two pixels next to the field blend with the
#: cells' edges; one pixel of frame is enough to refuse a cut board.
LEARNT_FRAME_DEPTH, LEARNT_FRAME_SKIP = 3, 2


def learnt_frame(image: np.ndarray, field: Field) -> dict[str, tuple[int, int, int]] | None:
    """The frame's colour on each side of the field, as a learnt skin keeps it (bot.vision.reader.frame_of
    at the depth and skip above); None where a side is not one plain colour."""
    return frame_of(image, field, depth=LEARNT_FRAME_DEPTH, skip=LEARNT_FRAME_SKIP)


@dataclass
class Learnt:
    lattice: Lattice
    cells: dict[str, np.ndarray] = field(default_factory=dict)  # sprite name -> tile
    faces: dict[str, np.ndarray] = field(default_factory=dict)
    face_box: tuple[int, int, int, int] | None = None  # left, top, width, height, screen pixels
    games: int = 0
    unnamed: list[list[int]] = field(default_factory=list)  # per number look never named: what it could be
    digits: dict[str, np.ndarray] = field(default_factory=dict)  # counter digit -> sprite
    counter_boxes: list[tuple[int, int, int, int]] = field(default_factory=list)  # each digit, left to right
    frame: dict[str, tuple[int, int, int]] | None = None  # the frame's colour round the field, per side
    new_game_key: str | None = None  # what starts a new game where there is no face ("ctrl+r")
    hover: bool = False  # a covered cell lights up under the pointer
    #: Mines in a game of each size (rows, cols) seen end: a game with no counter to read (GNOME
    #: Mines shows its total beside the field as text) is still played knowing its total.
    mines: dict[tuple[int, int], int] = field(default_factory=dict)

    @property
    def missing(self) -> list[str]:
        want = [str(n) for n in NUMBERS] + ["unopened", *SPECIAL]
        faces = FACES if self.face_box is not None else ()  # (a game without a face misses none)
        return ([w for w in want if w not in self.cells] + [f"face {f}" for f in faces if f not in self.faces]
                + ([f"digit {d}" for d in range(10) if str(d) not in self.digits] if self.digits
                   else ["counter digits"]))


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def adopt(skin: Skin, lat: Lattice, meanings: Meanings) -> tuple[dict[str, np.ndarray], CounterLook | None]:
    """A skin learnt before (another run, another level) as the start: its cell sprites become
    looks of known meaning, and its faces and counter are returned, placed on this field. Only
    what it lacks is then learnt. (Its cells must be this game's size: the caller checks.)"""
    role_of = {code: name for name, code in CELL_CODES.items()}
    for code, sprite in zip(skin.cell_codes, skin.cell_sprites):
        code = int(code)
        if code == UNOPENED:
            continue
        k = meanings.looks.add(sprite)
        if code >= 0:
            meanings.role[k], meanings.names[k] = "number", code
        else:
            meanings.role[k] = role_of[code]
    counter = None
    if len(skin.digit_sprites):
        h, w = skin.digit_sprites.shape[1:3]
        dx, dy = skin.counter_offset
        side = lat.left + (lat.width if skin.counter_anchor == "right" else 0)
        boxes = [(int(side + dx + k * w), int(lat.top + dy), w, h) for k in range(skin.digits)]
        counter = (boxes, dict(zip(skin.digit_names, skin.digit_sprites)))
    return dict(zip(skin.face_names, skin.face_sprites)), counter


def skin_folder(folder: Path) -> None:
    """The folder a learnt skin is written to, made, with the sprites of an earlier skin there taken
    out: what it knew and the new one does not (an adopted skin's are in the new one already)."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in [*folder.glob("cell_*.png"), *folder.glob("face_*.png"), *folder.glob("digit_*.png")]:
        stale.unlink()


def write_skin(learnt: Learnt, folder: Path, name: str) -> None:
    """The learnt look as a skin folder, in the shipped skins' format."""
    lat = learnt.lattice
    skin_folder(folder)
    for what, tile in learnt.cells.items():
        write_image(str(folder / f"cell_{what}.png"), tile)
    for what, face in learnt.faces.items():
        write_image(str(folder / f"face_{what}.png"), face)
    for what, digit in learnt.digits.items():
        write_image(str(folder / f"digit_{what}.png"), digit)
    counter: dict = {"digit": [0, 0], "digits": 0, "from_field_left_top": [0, 0]}
    if learnt.counter_boxes:
        cx, cy, cw, ch = learnt.counter_boxes[0]
        right = cx > lat.left + lat.width / 2  # measured from the nearer side, as boards grow from the left
        side = lat.left + lat.width if right else lat.left
        counter = {"digit": [cw, ch], "digits": len(learnt.counter_boxes),
                   "from_field_right_top" if right else "from_field_left_top": [cx - side, cy - lat.top]}
    face = None  # (a game without one: GNOME Mines)
    if learnt.face_box is not None:
        x, y, w, h = learnt.face_box
        face = {"size": [w, h], "from_field_centre_top": [_num(x - (lat.left + lat.width / 2)), y - lat.top]}
    meta = {
        "name": name,
        "about": f"Learnt by `calibrate --learn` on {time.strftime('%Y-%m-%d')} from a live game.",
        "cell": lat.pitch,
        "face": face,
        "counter": counter,
    }
    if learnt.new_game_key is not None:
        meta["new_game"] = {"key": learnt.new_game_key}
    if learnt.hover:
        meta["hover"] = True
    if learnt.mines:
        meta["mines"] = {f"{rows}x{cols}": total for (rows, cols), total in sorted(learnt.mines.items())}
    if learnt.frame is not None:
        meta["frame_bgr"] = {side: list(bgr) for side, bgr in learnt.frame.items()}
        meta["frame_depth"], meta["frame_skip"] = LEARNT_FRAME_DEPTH, LEARNT_FRAME_SKIP
    (folder / "skin.json").write_text(json.dumps(meta, indent=1) + "\n")
