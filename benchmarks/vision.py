"""Vision speed: a full board read given its calibration, and calibration from a full-screen grab.

Prints the median and the 95th percentile over every fixture of the given level, at each scaling.

    python3 -m benchmarks.vision [--repeat 50]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the bot does: small matrices, one thread

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import load_skins

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winemine"


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    skins = load_skins()
    print(f"{'what':34s} {'scale':>5s} {'median ms':>10s} {'p95 ms':>8s} {'n':>5s}")
    for scale in (1.0, 1.25, 1.5, 2.0):
        reads, cals, lost_cals = [], [], []
        for meta_path in sorted(FIXTURES.glob("*.json")):
            meta = json.loads(meta_path.read_text())
            image = cv2.imread(str(meta_path.with_suffix(".png")))
            if scale != 1.0:
                image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            cal, skin = calibrate(image, skins)
            field = cal.with_pitch(skin)
            if (meta["field"]["rows"], meta["field"]["cols"]) == (16, 30) and meta["mines"] == 99:
                reads += timed(lambda image=image, field=field, skin=skin: read(image, field, skin), args.repeat)
            runs = timed(lambda image=image: calibrate(image, skins), max(1, args.repeat // 10))
            (lost_cals if meta["face"] == "lost" else cals).extend(runs)
        for label, values in (
            ("Expert board read (calibrated)", reads),
            ("calibration, full screen", cals),
            ("calibration, full screen, lost face", lost_cals),
        ):
            size = "1280x1024" if scale == 1.0 else f"{round(1280 * scale)}x{round(1024 * scale)}"
            print(f"{label:34s} {scale:5.2f} {np.median(values):10.2f} {np.percentile(values, 95):8.2f} "
                  f"{len(values):5d}  ({size})")


if __name__ == "__main__":
    main()
