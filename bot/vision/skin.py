"""A skin: the sprites of one Minesweeper look, at 1x, and where the face and counter sit.

A skin is a folder `templates/<name>/` holding one PNG per sprite (`cell_<what>.png`,
`face_<state>.png`, `digit_<d>.png`) and a `skin.json` with the cell size and the face and counter
offsets from the field. Folders are data, so a new look (drawn, captured or learnt) needs no code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, WRONG_FLAG
from bot.errors import VisionError
from bot.imagefile import read_image
from bot.places import SHIPPED, learnt_root
from bot.vision.look import Look

TEMPLATES = SHIPPED  # the shipped skins (bot.places)
CELL_CODES = {
    "unopened": UNOPENED,
    "flag": FLAG,
    "question": QUESTION,
    "mine": MINE,
    "exploded": EXPLODED,
    "wrong_flag": WRONG_FLAG,
    **{str(d): d for d in range(9)},
}
FACES = ("playing", "pressed", "won", "lost")


@dataclass(frozen=True, eq=False)
class Skin:
    name: str
    cell: int
    cell_codes: np.ndarray  # (K,) board code of each cell sprite
    cell_sprites: np.ndarray  # (K, cell, cell, 3) uint8
    face_names: tuple[str, ...]
    face_sprites: np.ndarray  # (F, h, w, 3)
    face_offset: tuple[int, int]  # face top-left from (field centre x, field top), 1x pixels
    digit_names: tuple[str, ...]
    digit_sprites: np.ndarray  # (D, h, w, 3)
    digits: int
    counter_offset: tuple[int, int]  # first counter digit from (field left or right, field top), 1x px
    counter_anchor: str = "right"  # which side of the field counter_offset is measured from
    disc_bgr: tuple[int, int, int] | None = None  # colour of the face's disc, a fast way to find the face
    #: A drawn skin stands for a family of looks (its sprites are our drawing, the game's differ by
    #: stroke weight or a pixel of placement): what no sprite matches closely is compared loosely.
    family: bool = False
    #: Colour of the game's frame just outside each side of the field (top, bottom, left, right),
    #: from one pixel out to frame_depth pixels: a board counts as whole only where all four are seen.
    frame: dict[str, tuple[int, int, int]] | None = None
    frame_depth: int = 3
    frame_skip: int = 1  # pixels next to the field left out of the frame band
    timer_offset: tuple[int, int] | None = None  # the timer's first digit, measured as counter_offset is
    timer_anchor: str = "right"
    folder: Path | None = None  # where it was loaded from (a learnt skin grows there: bot.learn.unseen)
    #: A game without a face (GNOME Mines) starts a new game by this key ("ctrl+r"); its state is
    #: then read off the board alone (bot.vision.reader.board_face).
    new_game_key: str | None = None
    #: The game lights up the covered cell under the pointer: the pointer must rest off the cells.
    hover: bool = False
    #: Mines in a game of each size (rows, cols), where learnt: the total for a game whose counter
    #: the skin cannot read (or that has none).
    mines: dict[tuple[int, int], int] = field(default_factory=dict)
    #: A look described by colours, not sprites (bot.vision.described): shaded, glossy tiles of any
    #: size with gaps between them (Windows 7, the Microsoft app). Its cells are judged one by one
    #: and it has no cell sprites.
    look: Look | None = None
    #: The dialogs the game opens when a game ends (window title: "won" or "lost"), and the key that
    #: answers them by starting a new game (Windows 7: "Game Lost", "Game Won", Return: Play again).
    end_dialogs: dict[str, str] = field(default_factory=dict)
    dialog_key: str = "return"
    #: Seconds the pointer stays on a clicked cell before it moves on: the genuine Windows 7 game
    #: takes a click where the pointer is at its next frame (under Wine, with the pointer parked
    #: off the field at once, clicks opened nothing: 5 Beginner games of 5 stopped; 50 ms: 20 of 20 won).
    click_dwell: float = 0.0

    @property
    def faceless(self) -> bool:
        return not self.face_names

    @cached_property
    def cell_rows(self) -> np.ndarray:
        """The cell sprites as float64 rows, one per sprite: calibration compares tens of thousands
        of tiles with them (flattening them each time was a third of a cut board's refusal)."""
        return self.cell_sprites.reshape(len(self.cell_sprites), -1).astype(np.float64)

    @cached_property
    def cell_row_squares(self) -> np.ndarray:
        """Each cell sprite's sum of squares, for distances by dot products."""
        return (self.cell_rows**2).sum(axis=1)

    @cached_property
    def least_cell_spread(self) -> float:
        """The smallest standard deviation of any cell sprite: a patch flatter than half of it is
        background, not a cell (every cell sprite has edges)."""
        return float(self.cell_rows.std(axis=1).min())


def _read(path: Path) -> np.ndarray:
    img = read_image(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise VisionError(f"cannot read sprite {path}")
    return img


def _meta(folder: Path, seen: tuple[str, ...] = ()) -> dict:
    """A skin's skin.json; one that names another skin (`"extends": "win7"`: beside it, else a
    shipped one) is that skin's description with its own keys laid over it, dict by dict (a tint
    of a look gives its tiles' colours alone)."""
    try:
        meta = json.loads((folder / "skin.json").read_text())
    except (OSError, ValueError) as err:
        raise VisionError(f"skin {folder.name}: bad or missing skin.json ({err})") from err
    base = meta.pop("extends", None)
    if base is None:
        return meta
    if not isinstance(base, str) or base in seen or base == folder.name:
        raise VisionError(f"skin {folder.name}: bad \"extends\" in skin.json ({base!r})")
    beside = folder.parent / base
    return _laid_over(_meta(beside if (beside / "skin.json").exists() else SHIPPED / base, (*seen, folder.name)), meta)


def _laid_over(base: dict, own: dict) -> dict:
    out = dict(base)
    for key, value in own.items():
        nested = isinstance(value, dict) and isinstance(base.get(key), dict)
        out[key] = _laid_over(base[key], value) if nested else value
    return out


def load_skin(folder: Path) -> Skin:
    meta = _meta(folder)
    cells = [(code, _read(folder / f"cell_{name}.png")) for name, code in CELL_CODES.items()
             if (folder / f"cell_{name}.png").exists()]
    look = None
    if meta.get("look"):
        try:
            look = Look.from_json(meta["look"])
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise VisionError(f"skin {folder.name}: bad look in skin.json ({err})") from err
        cell = int(meta["cell"])
        cells = cells or [(UNOPENED, np.zeros((cell, cell, 3), np.uint8))]  # (no sprite is ever compared)
    if not cells:
        raise VisionError(f"skin {folder.name} has no cell sprites")
    faces = [(name, _read(folder / f"face_{name}.png")) for name in FACES if (folder / f"face_{name}.png").exists()]
    digits = [(p.stem.removeprefix("digit_"), _read(p)) for p in sorted(folder.glob("digit_*.png"))
              if int(meta["counter"]["digits"])]  # (no counter: stray digit files mean nothing)
    face = meta.get("face") or {}  # (null: a game without a face)
    if not face:
        faces = []
    return Skin(
        name=meta.get("name", folder.name),
        cell=int(meta["cell"]),
        cell_codes=np.array([c for c, _ in cells], dtype=np.int8),
        cell_sprites=np.stack([s for _, s in cells]),
        face_names=tuple(n for n, _ in faces),
        face_sprites=np.stack([s for _, s in faces]) if faces else np.zeros((0, 1, 1, 3), np.uint8),
        face_offset=tuple(face.get("from_field_centre_top", (0, 0))),
        digit_names=tuple(n for n, _ in digits),
        digit_sprites=np.stack([s for _, s in digits]) if digits else np.zeros((0, 1, 1, 3), np.uint8),
        digits=int(meta["counter"]["digits"]),
        counter_offset=tuple(meta["counter"].get("from_field_right_top") or meta["counter"].get("from_field_left_top")
                             or (0, 0)),  # (no counter: no place)
        counter_anchor="right" if "from_field_right_top" in meta["counter"] else "left",
        disc_bgr=tuple(face["disc_bgr"]) if "disc_bgr" in face else None,
        family=bool(meta.get("family", False)),
        frame_depth=int(meta.get("frame_depth", 3)),
        frame_skip=int(meta.get("frame_skip", 1)),
        timer_offset=_led_offset(meta.get("timer")),
        timer_anchor="left" if "from_field_left_top" in meta.get("timer", {}) else "right",
        frame={side: tuple(int(v) for v in bgr) for side, bgr in meta.get("frame_bgr", {}).items()} or None,
        folder=folder,
        new_game_key=(meta.get("new_game") or {}).get("key"),
        hover=bool(meta.get("hover", False)),
        mines=_mines(meta.get("mines")),
        look=look,
        end_dialogs={str(t): str(r) for t, r in (meta.get("end_dialogs") or {}).items() if r in ("won", "lost")},
        dialog_key=str(meta.get("dialog_key", "return")),
        click_dwell=float(meta.get("click_dwell", 0.0)),
    )


def _mines(meta: dict | None) -> dict[tuple[int, int], int]:
    """skin.json's {"16x16": 40}; a size that does not parse is left out (data written by hand)."""
    out = {}
    for size, total in (meta or {}).items():
        rows, _, cols = str(size).partition("x")
        if rows.isdigit() and cols.isdigit() and isinstance(total, int):
            out[(int(rows), int(cols))] = total
    return out


def _led_offset(meta: dict | None) -> tuple[int, int] | None:
    if not meta:
        return None
    return tuple(meta.get("from_field_right_top") or meta["from_field_left_top"])


def load_skins(root: Path | None = None, names: list[str] | None = None) -> list[Skin]:
    """The skins under root; by default the shipped ones and the ones learnt (bot.places)."""
    roots = [root] if root is not None else list(dict.fromkeys([SHIPPED, learnt_root()]))
    folders = sorted(p.parent for r in roots for p in r.glob("*/skin.json"))
    if not folders:
        raise VisionError(f"no skins under {' or '.join(str(r) for r in roots)}")
    if names:
        missing = sorted(set(names) - {f.name for f in folders})
        if missing:
            known = ", ".join(sorted({f.name for f in folders}))
            raise VisionError(f"no skin named {', '.join(missing)} (the skins: {known})")
        folders = [f for f in folders if f.name in names]
    return [load_skin(f) for f in folders]
