"""Learn WineMine's look with no templates (`calibrate --learn`) in a private Xvfb, then measure
the learnt skin on every recorded fixture: cells, faces and counters read right, and boards found.

    python3 -m benchmarks.learn [--runs 9x9x10:12,9x9x64:40] [--skin-dir DIR]

Each run starts WineMine at that level and lets `python -m bot calibrate --learn` play that many
games, carrying on from the previous run's skin (7s and 8s need a crowded board).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from bot.board import parse_grid
from bot.games.simulator import Level
from bot.games.wine_game import WineGame
from bot.screen.xdisplay import VirtualDisplay
from bot.vision.calibrate import calibrate
from bot.vision.reader import read
from bot.vision.skin import load_skin

ROOT = Path(__file__).resolve().parents[1]


def learn(runs: list[tuple[Level, int]], folder: Path) -> None:
    for level, games in runs:
        with WineGame(level, x=200, y=120):
            time.sleep(1.0)
            start = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "bot", "calibrate", "--learn", "--skin", folder.name, "--templates",
                 str(folder.parent), "--profile", str(folder / "profile.json"), "--games", str(games), "--json"],
                cwd=ROOT, env=os.environ, capture_output=True, text=True,
            )
            took = time.monotonic() - start
        if done.returncode:
            sys.exit(f"learning failed: {done.stderr.strip()}")
        found = json.loads(done.stdout)
        print(f"{level.rows}x{level.cols}, {level.mines} mines: {found['games']} games in {took:.1f} s; "
              f"missing afterwards: {', '.join(found['missing']) or 'nothing'}")


def measure(folder: Path, scale: float = 1.0) -> None:
    skin = load_skin(folder)
    cells = wrong = unknown = faces = counters = found = total = 0
    for meta_path in sorted((ROOT / "fixtures" / "winemine").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        image = cv2.imread(str(meta_path.with_suffix(".png")))
        truth = parse_grid(meta_path.with_suffix(".txt").read_text()).cells
        cal, _ = calibrate(image, [skin])
        f = meta["field"]
        total += 1
        found += (cal.left, cal.top, cal.rows, cal.cols) == (f["left"], f["top"], f["rows"], f["cols"])
        reading = read(image, cal.with_pitch(skin), skin)
        if reading.codes.shape != truth.shape:
            continue
        held = meta["face"] == "pressed"
        cells += truth.size
        wrong += int(((reading.codes != truth) & ~reading.unknown).sum())
        unknown += 0 if held else int(reading.unknown.sum())
        faces += reading.face == meta["face"]
        counters += reading.counter == meta["counter"]
    print(f"fixtures: {total}; boards found {found}/{total}; cells {cells}, wrong {wrong}, "
          f"unknown {unknown} (held-button fixtures aside); faces {faces}/{total}; counters {counters}/{total}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", default="9x9x10:12,9x9x64:40")
    parser.add_argument("--skin-dir", default=None, help="keep the learnt skin here (default: a temporary folder)")
    args = parser.parse_args()
    runs = []
    for part in args.runs.split(","):
        size, games = part.split(":")
        runs.append((Level(*map(int, size.split("x"))), int(games)))
    folder = Path(args.skin_dir or tempfile.mkdtemp()) / "learnt"
    with VirtualDisplay():
        learn(runs, folder)
    measure(folder)


if __name__ == "__main__":
    main()
