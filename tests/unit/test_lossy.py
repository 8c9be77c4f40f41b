"""JPEG screenshots: read exactly as their PNG originals, or refused; never a wrong board.

JPEG smears colour (a red flag reads 38 RMS from its sprite at quality 95); bot.vision.lossy softens the
sprites the same way. Each case below encodes a screenshot the project can read as PNG and asks
for the same cells, face and counter from the JPEG.
"""

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
from bot.vision.lossy import soften_skin
from bot.vision.reader import read
from bot.vision.skin import load_skins
from tests.unit.test_cut_boards import cut
from tests.unit.test_real_windows import NAMES as REAL_NAMES
from tests.unit.test_real_windows import REAL, shot, truth

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "winemine"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))
SOFT = [soften_skin(s) for s in load_skins()]


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def reading_or_none(image: np.ndarray):
    try:
        cal, skin = calibrate(image, SOFT)
        reading = read(image, cal.with_pitch(skin), skin)
        return reading.board().cells, reading.face, reading.counter
    except VisionError:
        return None


@pytest.mark.parametrize("quality, half", [(95, 0), pytest.param(95, 1, marks=pytest.mark.full),
                                           pytest.param(75, None, marks=pytest.mark.full)])
def test_every_fixture_as_jpeg_reads_as_its_truth(quality, half):
    """`half`: every other fixture, from the first (0) or the second (1); None: all of them."""
    names = NAMES if half is None else NAMES[half::2]
    read_right, refused, wrong = [], [], []
    for name in names:
        meta = json.loads((FIXTURES / f"{name}.json").read_text())
        got = reading_or_none(jpeg(cv2.imread(str(FIXTURES / f"{name}.png")), quality))
        if got is None:
            refused.append(name)
            continue
        cells, face, counter = got
        true_cells = parse_grid((FIXTURES / f"{name}.txt").read_text()).cells
        ok = np.array_equal(cells, true_cells) and face == meta["face"] and counter == meta["counter"]
        (read_right if ok else wrong).append(name)
    assert not wrong
    # Only the frames with a held button are refused (as their PNGs are: the pressed cell is unread).
    assert refused == [n for n in names if "pressed" in n]
    assert len(read_right) >= len(names) - len(refused) and len(read_right) >= 20


@pytest.mark.full
def test_a_cut_jpeg_board_is_refused_or_read_true():
    wrong = []
    for name in NAMES[::3]:
        meta = json.loads((FIXTURES / f"{name}.json").read_text())
        image = cv2.imread(str(FIXTURES / f"{name}.png"))
        true_cells = parse_grid((FIXTURES / f"{name}.txt").read_text()).cells
        for side in ("top", "bottom", "left", "right"):
            for rows in (0.5, 1):
                got = reading_or_none(jpeg(cut(image, meta["field"], side, rows, "cover"), 85))
                if got is not None and not np.array_equal(got[0], true_cells):
                    wrong.append((name, side, rows))
    assert not wrong


def test_replay_reads_a_jpeg_file_as_its_png(tmp_path, capsys):
    image = cv2.imread(str(FIXTURES / "expert2-middle.png"))
    cv2.imwrite(str(tmp_path / "shot.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert main(["replay", "--json", str(FIXTURES / "expert2-middle.png")]) == 0
    from_png = json.loads(capsys.readouterr().out)
    assert main(["replay", "--json", str(tmp_path / "shot.jpg")]) == 0
    from_jpeg = json.loads(capsys.readouterr().out)
    assert from_jpeg == from_png


@pytest.mark.skipif(not REAL_NAMES, reason=f"no real Windows screenshots at {REAL} (the shared folder is absent)")
@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_the_real_windows_screenshots_as_jpeg_read_right(scale):
    wrong = []
    for name in REAL_NAMES:
        got = reading_or_none(jpeg(shot(name, scale), 90))
        if got is None or not np.array_equal(got[0], truth(name)[0]) or got[1:] != truth(name)[1:]:
            wrong.append((name, None if got is None else got[1:]))
    assert not wrong
