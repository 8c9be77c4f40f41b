"""A look learnt from pictures (bot.learn.described) as plain data, and as the skin folder it is kept
in: a skin.json with a "look" and no sprites. Shared by the learners and by play, which writes a
digit named from the board back into the look (bot.learn.unseen_digits)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.learn.learnt import STANDARD_MINES, skin_folder
from bot.vision.look import Ground, Look


@dataclass
class DescribedLearnt:
    look: Look
    pitch: float
    rows: int
    cols: int
    pictures: int
    names: list[str]  # what was learnt: "unopened", "0", "1", ..., "flag", "mine", "exploded"
    unread: list[int]  # cells each picture leaves unknown under the learnt look
    new_game_key: str | None = None  # what started a new game, where it was learnt live
    #: The window the game opened when it was lost (its title), where one did: its end, declined
    #: with Escape (KMines' "Reset?": Return replays the same field).
    lost_window: str | None = None

    @property
    def missing(self) -> list[str]:
        """What the pictures never showed, digits aside: those are read by their shape alone."""
        return [w for w in ("unopened", "0", "flag", "mine") if w not in self.names]

    @property
    def by_shape(self) -> list[str]:
        """The digits the pictures never showed: read where their shape is plain, in a colour of their own."""
        return [str(n) for n in range(1, 9) if str(n) not in self.names]



def hex_colour(bgr: np.ndarray) -> str:
    b, g, r = (round(float(v)) for v in bgr)
    return f"#{r:02x}{g:02x}{b:02x}"


def _ground_json(ground: Ground | None) -> dict | None:
    if ground is None:
        return None
    return {"hue": [round(v, 1) for v in ground.hue], "saturation": [round(v, 3) for v in ground.saturation],
            "value": [round(v, 3) for v in ground.value]}


def look_json(look: Look) -> dict:
    out = {"covered": _ground_json(look.covered), "opened": _ground_json(look.opened),
           "digits": {str(d): hex_colour(c[0]) if len(c) == 1 else [hex_colour(x) for x in c]
                      for d, c in sorted(look.digits.items())}}
    for key in ("flag_tile", "flag_ink", "mine_ink", "exploded", "covered_ink"):
        if getattr(look, key) is not None:
            out[key] = _ground_json(getattr(look, key))
    if look.unseen_by_shape:
        out["unseen_digits"] = "shape"
    if not look.zero_outlined:
        out["zero_outlined"] = False
    if look.raised is not None:
        out["raised"] = round(look.raised, 1)
    if look.shapes:
        out["digit_shapes"] = list(look.shapes)
    return out


def write_described(learnt: DescribedLearnt, folder: Path, name: str) -> None:
    """The learnt look as a skin folder (a skin.json with a "look", no sprites). A faceless game's
    new game is the key found live, else F2 as on the Windows games (edit "new_game" for another)."""
    skin_folder(folder)
    meta = {
        "name": name,
        "about": f"Learnt by `calibrate --learn` on {time.strftime('%Y-%m-%d')} from "
                 f"{learnt.pictures} picture(s): a look described by its colours.",
        "cell": max(1, round(learnt.pitch)),
        "face": None,
        "counter": {"digits": 0},
        "new_game": {"key": learnt.new_game_key or "f2"},
        "mines": {f"{r}x{c}": m for (r, c), m in STANDARD_MINES.items()},
        "look": look_json(learnt.look),
    }
    if learnt.lost_window:
        meta["end_dialogs"], meta["dialog_key"] = {learnt.lost_window: "lost"}, "escape"
    (folder / "skin.json").write_text(json.dumps(meta, indent=1) + "\n")
