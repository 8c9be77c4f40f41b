"""How the shipped skins read the real screenshots of the modern Windows games: each labelled one
in ../shared/real-windows-modern at its own size and resized, the skin found, the cells wrong
(must be 0) and unknown, whether the field counts as whole, the counter read against the truth,
and the time to find and read it. With --false-counters, also how many wrong counts the panel
confirms when the board is made to expect them (the level's total moved by each of OFFSETS). With
--jpeg Q, each picture is saved as a JPEG of quality Q first (as screenshots are often shared).

    python3 -m benchmarks.modern [--scales 0.8,1,1.25,1.5,2] [--folder DIR] [--false-counters] [--jpeg Q]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from bot.board import CHAR_TO_CODE, FLAG
from bot.errors import VisionError
from bot.vision.calibrate import calibrate
from bot.vision.panel import read_panel_counter
from bot.vision.reader import read, with_panel_counter
from bot.vision.skin import load_skins

ROOT = Path(__file__).resolve().parents[1]
#: The wrong totals asked for with --false-counters: the true one moved by these.
OFFSETS = (-11, -10, -5, -2, -1, 1, 2, 3, 5, 10, 20, 50, 100)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scales", default="0.8,1,1.25,1.5,2")
    parser.add_argument("--folder", default=str(ROOT.parent / "shared" / "real-windows-modern"))
    parser.add_argument("--false-counters", action="store_true", help="count wrong counts confirmed")
    parser.add_argument("--jpeg", type=int, metavar="QUALITY", help="each picture saved as JPEG at this quality first")
    args = parser.parse_args()
    folder = Path(args.folder)
    skins = load_skins()
    print(f"{'screenshot':40} {'scale':>5} {'skin':6} {'size':>6} {'wrong':>5} {'unknown':>7} whole "
          f"{'counter':>9} {'s':>5}" + (" false" if args.false_counters else ""))
    asked = confirmed = 0
    for meta_path in sorted(folder.glob("*.json")):
        meta = json.loads(meta_path.read_text())
        if meta.get("game") not in ("win7", "win10-app", "arbiter"):
            continue
        truth = np.array([[CHAR_TO_CODE[c] for c in row] for row in meta["grid"]], np.int8)
        shot = cv2.imread(str(meta_path.with_suffix(".png")))
        for scale in (float(s) for s in args.scales.split(",")):
            image = shot if scale == 1 else cv2.resize(shot, None, fx=scale, fy=scale,
                                                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
            if args.jpeg is not None:
                image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, args.jpeg])[1],
                                     cv2.IMREAD_COLOR)
            start = time.perf_counter()
            try:
                cal, skin = calibrate(image, skins)
                field = cal.with_pitch(skin)
                reading = with_panel_counter(image, field, skin, read(image, field, skin))
            except VisionError as err:
                print(f"{meta_path.stem:40} {scale:5g} no board: {err}")
                continue
            seconds = time.perf_counter() - start
            size = f"{reading.codes.shape[1]}x{reading.codes.shape[0]}"
            if reading.codes.shape != truth.shape:  # (a wrong board only where it passes as whole)
                print(f"{meta_path.stem:40} {scale:5g} {skin.name:6} {size:>6} wrong size, "
                      f"{'taken as whole' if reading.framed else 'not whole: refused'}")
                continue
            wrong = int(((reading.codes != truth) & ~reading.unknown).sum())
            counter = f"{reading.counter}/{meta.get('counter')}"
            false = ""
            total = skin.mines.get(reading.codes.shape)
            if args.false_counters and skin.look is not None and total is not None:
                box = (field.left, field.top, field.left + field.width, field.top + field.height)
                shown, flags = meta.get("counter"), int((truth == FLAG).sum())
                wrongs = [total + o for o in OFFSETS if 0 <= total + o - flags != shown]  # (a count shown)
                hits = sum(read_panel_counter(image, box, field.pitch, truth, t) is not None for t in wrongs)
                asked, confirmed, false = asked + len(wrongs), confirmed + hits, f" {hits}/{len(wrongs)}"
            print(f"{meta_path.stem:40} {scale:5g} {skin.name:6} {size:>6} {wrong:5d} {int(reading.unknown.sum()):7d} "
                  f"{'yes' if reading.framed else 'no ':5} {counter:>9} {seconds:5.2f}{false}")
    if args.false_counters:
        print(f"wrong counts confirmed: {confirmed} of {asked} asked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
