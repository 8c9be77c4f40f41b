"""The mouse pointer laid over a drawn modern field (the app's and Windows 7's kind of look) at
every place over its first rows and columns, a step of a pitch's fraction apart: how often it is
found (bot.vision.pointer), how many cells are then read wrong (never wanted) and how many are
left unread beyond those the plain picture leaves.

    python3 -m benchmarks.pointer [--step 0.125]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from bot.vision.calibrate import calibrate
from bot.vision.pointer import pointer_mask
from bot.vision.reader import read
from bot.vision.skin import load_skins
from tests.support.modern_look import draw_modern, draw_pointer
from tests.unit.test_pointer import BOARD

#: (look, pitch in px, the pointer's scale): Windows 7's at 100 % and 80 %, with a pointer of a
#: 200 % display; the app's at two sizes.
CASES = [("win7", 18.0, 1.0), ("win7", 14.4, 1.0), ("win7", 18.0, 2.0), ("app", 24.0, 1.0), ("app", 37.24, 1.5)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--step", type=float, default=0.125, help="places this share of a pitch apart")
    args = parser.parse_args()
    skins = load_skins()
    print("look  pitch  pointer  places  found  cells wrong  cells unread (beyond the plain picture's)")
    for style, pitch, scale in CASES:
        image, (x0, y0) = draw_modern(BOARD, style, pitch)
        calibration, skin = calibrate(image, skins)
        field = calibration.with_pitch(skin)
        plain = int(read(image, field, skin).unknown.sum())
        places = found = wrong = unread = 0
        step = args.step * pitch
        for dy in np.arange(0, 4 * pitch, step):
            for dx in np.arange(0, 6 * pitch, step):
                shown = image.copy()
                draw_pointer(shown, x0 + dx, y0 + dy, scale)
                reading = read(shown, field, skin)
                places += 1
                found += pointer_mask(shown) is not None
                wrong += int(((reading.codes != BOARD) & ~reading.unknown).sum())
                unread += int(reading.unknown.sum()) - plain
        print(f"{style:5} {pitch:5.1f}  {scale:4.2f}x  {places:6d}  {found:5d}  {wrong:11d}  {unread:5d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
