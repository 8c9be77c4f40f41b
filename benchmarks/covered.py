"""A drawn modern field (the app's and Windows 7's kind of look, Expert) with a window laid over
one side at a random depth: how often what stays in sight is taken for a whole, smaller board
(never wanted), and how near a boundary between cells the window's edge lies in those cases
(in pitches: 0 where it runs along one, 0.5 through the middle of a row).

    python3 -m benchmarks.covered [--placements 6] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from bot.errors import BotError
from bot.games.simulator import Level
from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import load_skins
from tests.support.modern_look import draw_modern
from tests.unit.test_modern_looks import midgame


def covered(image: np.ndarray, side: str, edge: float) -> np.ndarray:
    """The picture with a light window (a dark 3 px border) over everything beyond `edge` on `side`."""
    out, at = image.copy(), int(edge)
    window = {"bottom": np.s_[at:, :], "top": np.s_[:at, :], "left": np.s_[:, :at], "right": np.s_[:, at:]}[side]
    border = {"bottom": np.s_[at : at + 3, :], "top": np.s_[at - 3 : at, :], "left": np.s_[:, at - 3 : at],
              "right": np.s_[:, at : at + 3]}[side]
    out[window] = 240
    out[border] = 90
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--placements", type=int, default=6, help="random depths per style, pitch and side")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    skins, level = load_skins(), Level(16, 30, 99)
    tried, whole, refused = 0, [], 0
    for style in ("app", "win7"):
        for pitch in (20.0, 24.0, 31.3, 40.0):
            image, (fx, fy) = draw_modern(midgame(level, 5), style, pitch, at=(60, 50),
                                          screen=(int(30 * pitch + 300), int(16 * pitch + 250)))
            for side in ("bottom", "top", "left", "right"):
                for depth in rng.uniform(0.5, 5, args.placements):  # cells covered, counted from the side
                    cells = 16 if side in ("top", "bottom") else 30
                    start = fy if side in ("top", "bottom") else fx
                    edge = start + (depth if side in ("top", "left") else cells - depth) * pitch
                    picture = covered(image, side, edge)
                    tried += 1
                    try:
                        cal, skin = calibrate(picture, skins)
                    except BotError:
                        refused += 1
                        continue
                    reading = read(picture, cal.with_pitch(skin), skin)
                    if reading.framed and not reading.unknown.any():
                        whole.append((style, pitch, side, round(min(depth % 1, 1 - depth % 1), 2), reading.codes.shape))
    for case in whole:
        print("taken whole:", *case)
    shares = [case[3] for case in whole]
    print(f"\n{tried} placements: {len(whole)} taken for a whole board, {refused} with no board found"
          + (f"; their window's edge from the nearest boundary between cells: {min(shares):.2f}.."
             f"{max(shares):.2f} pitch (median {np.median(shares):.2f})" if whole else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
