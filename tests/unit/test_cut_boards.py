"""A board cut by the screen's edge or partly hidden by another window is never read as a smaller
complete board: every fixture cut by half a row, one row or two rows at any side is refused or
read as its true board. (Before the frame check, 152 of 188 bottom cuts gave a wrong board.)"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import parse_grid
from bot.cli import main
from bot.errors import VisionError
from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import load_skins

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "winemine"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))
SKINS = load_skins()
COVER = (200, 120, 40)  # another window's colour


def cut(image: np.ndarray, field: dict, side: str, rows: float, how: str) -> np.ndarray:
    """The image with the field losing `rows` rows (or columns) at one side: cropped (the screen's
    edge) or painted over (a window on top)."""
    p, left, top = field["cell_w"], field["left"], field["top"]
    k = int(rows * p)
    at = {"top": top + k, "bottom": top + field["rows"] * p - k, "left": left + k,
          "right": left + field["cols"] * p - k}[side]
    keep = {"top": np.s_[at:], "bottom": np.s_[:at], "left": np.s_[:, at:], "right": np.s_[:, :at]}[side]
    lose = {"top": np.s_[:at], "bottom": np.s_[at:], "left": np.s_[:, :at], "right": np.s_[:, at:]}[side]
    if how == "crop":
        return image[keep]
    out = image.copy()
    out[lose] = COVER
    return out


def board_or_none(image: np.ndarray) -> np.ndarray | None:
    try:
        cal, skin = calibrate(image, SKINS)
        return read(image, cal.with_pitch(skin), skin).board().cells
    except VisionError:
        return None


#: In the quick suite: a lost game (Beginner: an Expert fixture takes 13 s of failed searches,
#: each cut; one under way and one won take 15 s more); every fixture with --full.
QUICK = {"beginner1-lost"}
CASES = [n if n in QUICK else pytest.param(n, marks=pytest.mark.full) for n in NAMES]


@pytest.mark.parametrize("name", CASES)
def test_a_cut_board_is_refused_or_read_true(name):
    meta = json.loads((FIXTURES / f"{name}.json").read_text())
    image = cv2.imread(str(FIXTURES / f"{name}.png"))
    truth = parse_grid((FIXTURES / f"{name}.txt").read_text()).cells
    wrong = []
    for side in ("top", "bottom", "left", "right"):
        for rows in (0.5, 1, 2):
            for how in ("crop", "cover"):
                got = board_or_none(cut(image, meta["field"], side, rows, how))
                if got is not None and not np.array_equal(got, truth):
                    wrong.append((side, rows, how, got.shape))
    assert not wrong


def test_replay_refuses_a_board_whose_last_row_is_hidden(tmp_path, capsys):
    meta = json.loads((FIXTURES / "expert2-middle.json").read_text())
    image = cut(cv2.imread(str(FIXTURES / "expert2-middle.png")), meta["field"], "bottom", 1, "cover")
    cv2.imwrite(str(tmp_path / "hidden.png"), image)
    assert main(["replay", str(tmp_path / "hidden.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
