"""Learn one game's look from no skin, again and again, each run in a fresh Xvfb with the game just
started: how often `calibrate --learn` gets through, how long it takes, and why it stopped when it
did not. A learner that fails one run in ten passes a single test most days and fails CI on
others; this counts it.

    python3 -m benchmarks.learn_again --game gnome-mines --runs 12
    python3 -m benchmarks.learn_again --game ace-minesweeper --runs 10 --load 2

--load N runs N busy processes beside it (a loaded 2-core machine, as CI's).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
from pathlib import Path

from benchmarks.games import learn
from bot.games.native_game import PROGRAMS, NativeGame
from bot.screen.xdisplay import VirtualDisplay


def _busy() -> None:
    while True:
        pass


def learn_once(game: str, games: int) -> tuple[bool, float, str]:
    """(learnt, seconds, the last line the learner printed)."""
    with VirtualDisplay(), NativeGame(PROGRAMS[game], x=60, y=40), tempfile.TemporaryDirectory() as tmp:
        seconds, code, last = learn(Path(tmp) / "skins", Path(tmp) / "p.json", games, quiet=True)
        return code == 0, seconds, last


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(PROGRAMS), default="gnome-mines")
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--games", type=int, default=12, help="games the learner plays per run")
    parser.add_argument("--load", type=int, default=0, help="busy processes beside it")
    args = parser.parse_args()
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for hog in hogs:
        hog.start()
    results = []
    try:
        for run in range(args.runs):
            ok, seconds, last = learn_once(args.game, args.games)
            results.append((ok, seconds))
            print(f"run {run + 1}: {'learnt' if ok else 'FAILED'} in {seconds:.1f} s; {last}", flush=True)
    finally:
        for hog in hogs:
            hog.terminate()
    times = sorted(s for ok, s in results if ok)
    median = f"{times[len(times) // 2]:.1f} s" if times else "-"
    print(f"{args.game}: learnt {len(times)} of {len(results)} runs (load {args.load}); median {median}")
    return 0 if len(times) == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
