#!/usr/bin/env python3
"""Live WineMine benchmark: N games per preset on the real game in a private Xvfb.

Prints, per level: win rate with its 95 % Wilson interval, safe stops (a click the guard refuses
ends the run as a stop, so 0 stops means no refused click) and crashes, and the median wall time
of won games. Every game starts in a new
clock second, so WineMine never replays a layout.

    python3 scripts/bench_live.py --games 200
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.bench import wilson
from bot.capture import Screen
from bot.play import Options, Stop, play
from bot.simulator import LEVELS, Level
from bot.skin import load_skins
from bot.winemine import WineMine
from bot.xdisplay import VirtualDisplay


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--levels", default="beginner,intermediate,expert")
    parser.add_argument("--stops", default=".", help="where screenshots of safe stops go")
    args = parser.parse_args()
    skins = load_skins()
    with VirtualDisplay(), tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("WINEPREFIX", str(Path(tmp) / "wine"))  # never the user's ~/.wine
        for name in args.levels.split(","):
            level = Level(*LEVELS[name])
            logs, stops, crashes = [], 0, 0
            start = time.time()
            with WineMine(level, x=100, y=100) as game, Screen() as screen:
                time.sleep(1.0)
                while len(logs) < args.games and stops + crashes < 10:
                    options = Options(games=min(10, args.games - len(logs)), skins=skins,
                                      profile=Path(tmp) / f"{name}.json", stop_dir=Path(args.stops), fresh_layouts=True)
                    batch: list = []
                    try:
                        play(options, screen, logs=batch)
                    except Stop as err:
                        stops += 1
                        print("stop:", err, flush=True)
                    except Exception:
                        crashes += 1
                        traceback.print_exc()
                    logs += batch  # the games a stop ended early count too
                    print(f"\r{name}: {len(logs)}/{args.games}", end="", file=sys.stderr, flush=True)
                game.close()
            won = [g for g in logs if g.result == "won"]
            logs = [g for g in logs if g.result != "abandoned"]  # none expected: nobody else touches the game
            low, high = wilson(len(won), len(logs))
            median = np.median([g.seconds for g in won]) if won else float("nan")
            print(f"\n{name:12s} games {len(logs):4d}  won {len(won) / max(len(logs), 1):6.1%} "
                  f"(95% CI {low:.1%}..{high:.1%})  stops {stops}  crashes {crashes}  "
                  f"median won game {median:.2f} s  wall {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
