"""A look learnt from a few frames of a recorded game, read on all the others: the Windows 7 GIF
in ../shared/real-windows-modern by default. Learns with `calibrate --learn --from` (a folder of
the chosen frames, as a user would), then finds and reads every frame with that skin alone and
prints, per frame: the cells unknown, whether the board is one some mine layout explains, and,
for the labelled frames, the cells wrong against the truth (must be 0). Every frame's numbers are
checked against the last labelled frame too (an opened number stays as it is to the game's end).

    python3 -m benchmarks.learn_described [--gif PATH] [--learn 30,60,90,120,150] [--labels DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from bot.board import CHAR_TO_CODE, EXPLODED, MINE
from bot.errors import BotError
from bot.imagefile import gif_frames
from bot.learn.described import consistent
from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import load_skins

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "real-windows-modern"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gif", default=str(SHARED / "win7_p1387h_de_30x16_anim.gif"))
    parser.add_argument("--learn", default="30,60,90,120,150", help="the frames learnt from (0-based)")
    parser.add_argument("--labels", default=str(SHARED), help="NAME_fNNN.json truths of some frames")
    args = parser.parse_args()
    gif = Path(args.gif)
    if not gif.exists():
        print(f"no {gif}: nothing to measure")
        return 1
    frames = gif_frames(gif)
    chosen = [int(k) for k in args.learn.split(",")]
    stem = gif.stem.split("_de_")[0] if "_de_" in gif.stem else gif.stem
    truths = {int(p.stem.rsplit("_f", 1)[1]): json.loads(p.read_text())["grid"]
              for p in Path(args.labels).glob(f"{stem}_f*.json")}
    with tempfile.TemporaryDirectory() as tmp:
        shots, templates = Path(tmp) / "frames", Path(tmp) / "templates"
        shots.mkdir()
        for k in chosen:
            cv2.imwrite(str(shots / f"f{k:03d}.png"), frames[k])
        done = subprocess.run([sys.executable, "-m", "bot", "calibrate", "--learn", "--from", str(shots),
                               "--skin", "learnt", "--templates", str(templates)],
                              cwd=ROOT, capture_output=True, text=True)
        print(done.stdout.strip())
        if done.returncode != 0:
            print(done.stderr.strip())
            return 1
        skins = load_skins(root=templates)
        read_all = unknown = impossible = missed = wrong = later = 0
        last = np.array([[CHAR_TO_CODE[c] for c in row] for row in truths[max(truths)]], np.int8) if truths else None
        rows = []
        for k, image in enumerate(frames):
            try:
                cal, skin = calibrate(image, skins)
                reading = read(image, cal.with_pitch(skin), skin)
            except BotError:
                missed += 1
                rows.append(f"f{k:03d} no board")
                continue
            n = int(reading.unknown.sum())
            unknown += n
            read_all += n == 0
            ok = consistent(reading.codes, reading.unknown)
            impossible += not ok
            line = f"f{k:03d} {'learnt ' if k in chosen else '       '}unknown {n:3d} {'' if ok else 'IMPOSSIBLE'}"
            if last is not None and k <= max(truths) and reading.codes.shape == last.shape:
                numbers = (reading.codes >= 1) & (reading.codes <= 8) & ~reading.unknown
                off = int((numbers & (reading.codes != last)).sum())
                later += off
                line += f" numbers unlike the last labelled frame's {off}" if off else ""
            if k in truths:
                truth = np.array([[CHAR_TO_CODE[c] for c in row] for row in truths[k]], np.int8)
                codes = np.where(truth == EXPLODED, np.where(reading.codes == MINE, EXPLODED, reading.codes),
                                 reading.codes) if reading.codes.shape == truth.shape else None
                bad = -1 if codes is None else int(((codes != truth) & ~reading.unknown).sum())
                wrong += max(bad, 0)
                line += f" labelled: wrong {bad}"
            rows.append(line)
        print("\n".join(r for r in rows if "unknown   0 " not in r or "labelled" in r or "learnt" in r
                        or "numbers" in r))
        print(f"frames {len(frames)}, learnt from {len(chosen)}: board found in {len(frames) - missed}, "
              f"every cell read in {read_all}, cells unknown {unknown}, boards no layout explains {impossible}, "
              f"labelled cells wrong {wrong} ({len(truths)} labelled frames), "
              f"numbers unlike the last labelled frame's {later}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
