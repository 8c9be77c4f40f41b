"""The genuine look: real screenshots of Windows XP's Minesweeper and Minesweeper X, taken by other
people on real Windows machines, read with nothing but the shipped skins, at 100-200 % scaling:
every cell, the face and both counters.

The screenshots are third-party pixels: they are read from ../shared/real-windows (or the folder
named by MINESWEEPER_REAL_WINDOWS) and never copied into the project. Their truth (grid and face)
was established without this code; the mine counter's truth is the level's mine count less the
flags on the board (0 once the game is won, when the game has flagged every mine).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import parse_grid
from bot.cli import main
from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import load_skins

REAL = Path(os.environ.get("MINESWEEPER_REAL_WINDOWS", Path(__file__).resolve().parents[3] / "shared" / "real-windows"))
NAMES = sorted(p.stem for p in REAL.glob("*.json")) if REAL.is_dir() else []
SCALES = (0.8, 1.0, 1.25, 1.5, 2.0)  # (80 %: a screenshot shrunk after it was taken)
MINES = {(8, 8): 10, (9, 9): 10, (16, 16): 40, (16, 30): 99}  # Minesweeper X's Beginner is 8 x 8
#: The timer each screenshot shows, read by eye from the pictures (not by this code).
TIMERS = {"msx_yang_beg_fresh": 0, "msx_yang_exp_fresh": 0, "msx_yang_int_fresh": 0, "xp_sorearu_3f95880_won": 27,
          "xp_sorearu_608308d_playing": 7, "xp_sorearu_740e7d0_playing": 8, "xp_sorearu_8970f9f_won": 12,
          "xp_sorearu_90b2a93_lost": 1, "xp_sorearu_b6e42ae_lost": 13, "xp_sorearu_c44f8ad_lost": 13,
          "xp_sorearu_e47ecd2_playing": 13, "xp_sorearu_e77fb12_playing": 17}
SKINS = load_skins()

if not NAMES:
    pytestmark = pytest.mark.skip(reason=f"no real Windows screenshots at {REAL} (the shared folder is absent)")


def truth(name: str) -> tuple[np.ndarray, str, int]:
    meta = json.loads((REAL / f"{name}.json").read_text())
    cells = parse_grid("\n".join(meta["grid"])).cells
    flags = sum(row.count("F") + row.count("W") for row in meta["grid"])
    counter = 0 if meta["face"] == "won" else MINES[cells.shape] - flags
    return cells, meta["face"], counter


def shot(name: str, scale: float) -> np.ndarray:
    image = cv2.imread(str(REAL / f"{name}.png"))
    if scale != 1.0:  # a scaled display, as smooth interpolation draws it
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    return image


def test_the_shared_screenshots_are_all_there():
    assert len(NAMES) == 12
    assert {truth(n)[1] for n in NAMES} == {"playing", "won", "lost"}


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("name", NAMES)
def test_real_screenshot_is_found_and_read_exactly(name, scale):
    cells, face, counter = truth(name)
    image = shot(name, scale)
    cal, skin = calibrate(image, SKINS)
    assert (skin.name, cal.scale, (cal.rows, cal.cols)) == ("classic", scale, cells.shape)
    reading = read(image, cal.with_pitch(skin), skin)
    wrong = (reading.codes != cells) & ~reading.unknown
    assert not wrong.any(), np.argwhere(wrong)
    assert not reading.unknown.any(), np.argwhere(reading.unknown)
    assert (reading.face, reading.counter, reading.timer) == (face, counter, TIMERS[name])


def test_replay_prints_the_true_board(capsys):
    name = next(n for n in NAMES if "playing" in n and "xp" in n)
    cells, face, counter = truth(name)
    assert main(["replay", str(REAL / f"{name}.png"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert np.array_equal(parse_grid("\n".join(out["grid"])).cells, cells)
    assert (out["face"], out["counter"], out["skin"]) == (face, counter, "classic")
    assert out["advice"]  # a playing board gets advice


@pytest.mark.parametrize("scale", (1.0, 1.5))
def test_a_real_board_shifted_by_part_of_a_cell_is_never_read_wrong(scale):
    """The loose match of a family skin still needs the cell's frame in place: a field misplaced
    by a few pixels reads as unknown cells, never as other cells."""
    image = shot(next(n for n in NAMES if "lost" in n), scale)
    cal, skin = calibrate(image, SKINS)
    field = cal.with_pitch(skin)
    for dx, dy in ((3, 0), (0, 5), (8, 8), (-4, 2)):
        moved = type(field)(field.left + dx * scale, field.top + dy * scale, field.pitch, field.rows, field.cols)
        reading = read(image, moved, skin)
        assert reading.unknown.any()
