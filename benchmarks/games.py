"""Another Minesweeper, learnt and played live: a game no shipped skin knows, in a private Xvfb.

The game is started (bot.games.native_game), its look learnt from scratch as a user would
(`python -m bot calibrate --learn`, timed), then N games are played on each level asked for (a
level whose look no skin reads, as GNOME Mines' smaller cells at a bigger level, is learnt on
sight as `play` does), every click judged by X's own geometry of the game's window (a click
outside it is counted). Each level's live win rate is printed beside the simulator's for the
game's first-click rule on the same level.

    python3 -m benchmarks.games --game ace-minesweeper --games 50
    python3 -m benchmarks.games --game ace-minesweeper --levels default,3 --games 50 --sim-games 5000
    python3 -m benchmarks.games --game win7-qt --levels beginner,advanced --games 50 --shipped
    python3 -m benchmarks.games --toy meadow --levels beginner,expert --games 50
    python3 -m benchmarks.games --toy app --pitch 42 --screen 1920x1200 --levels beginner,expert --games 50 --shipped
    python3 -m benchmarks.games --game arbiter --levels beginner,expert --games 50 --shipped
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.live import bench_level, report
from bot.games import bench
from bot.games.native_game import PROGRAMS, NativeGame, NativeProgram
from bot.games.simulator import Level
from bot.places import SHIPPED
from bot.screen.xdisplay import VirtualDisplay
from bot.vision.skin import load_skins

ROOT = Path(__file__).resolve().parents[1]


def learn(templates: Path, profile: Path, games: int, quiet: bool = False) -> tuple[float, int, str]:
    """`calibrate --learn` as a user runs it: (seconds, exit code, the last line it printed when
    `quiet`, which keeps its output instead of showing it)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "bot", "calibrate", "--learn", "--templates", str(templates),
                           "--profile", str(profile), "--games", str(games)], cwd=ROOT, check=False,
                          capture_output=quiet, text=True)
    lines = ((done.stdout or "") + (done.stderr or "")).strip().splitlines() or ["(nothing printed)"]
    return time.monotonic() - start, done.returncode, lines[-1]


def toy(style: str, pitch: float) -> NativeProgram:
    """The project's own drawing of a shaded, gapped, faceless look (tests/modern_toy.py) in a Tk
    window: a game no skin describes (\"meadow\"), new games by F2, mines placed after the first click."""
    levels = {"beginner": Level(9, 9, 10), "intermediate": Level(16, 16, 40), "expert": Level(16, 30, 99)}
    return NativeProgram(
        f"{style}-toy", (sys.executable, "-m", "tests.support.modern_toy", "--style", style, "--pitch", str(pitch)),
        f"{style} toy", "safe", {name: (level, ()) for name, level in levels.items()}, default="beginner",
        options={name: ("--level", f"{v.rows}x{v.cols}x{v.mines}") for name, v in levels.items()},
        env={"PYTHONPATH": str(ROOT)})


def screen_size(text: str) -> tuple[int, int]:
    """WxH, both whole and positive (argparse's type: a bad value is a one-line usage error)."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WxH, such as 1920x1200") from None
    if width <= 0 or height <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: both sides must be positive")
    return width, height


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(PROGRAMS), default="ace-minesweeper")
    parser.add_argument("--toy", default=None, help="our own drawn look in a window instead (meadow, app, win7)")
    parser.add_argument("--pitch", type=float, default=29.3, help="the --toy's tile pitch, px")
    parser.add_argument("--levels", default=None, help="comma-separated level names (default: the game's default)")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--learn-games", type=int, default=12)
    parser.add_argument("--sim-games", type=int, default=5000, help="simulator games per level for the comparison")
    parser.add_argument("--stops", default=".", help="where screenshots of safe stops go")
    parser.add_argument("--work", default=None, help="keep the learnt skin and profile in this folder")
    parser.add_argument("--screen", type=screen_size, default=(1280, 1024),
                        help="the virtual screen's size, WxH (a --toy's Expert field at a large --pitch needs more "
                        "than the default)")
    parser.add_argument("--shipped", action="store_true",
                        help="play with the shipped skins, learning nothing (the Windows 7 stand-ins)")
    args = parser.parse_args()
    program = toy(args.toy, args.pitch) if args.toy else PROGRAMS[args.game]
    levels = (args.levels or program.default).split(",")
    lines = []
    width, height = args.screen
    with VirtualDisplay(width, height), tempfile.TemporaryDirectory() as tmp:
        work = Path(args.work or tmp).resolve()  # (the learner runs from the repository: cwd=ROOT)
        templates, profile = work / "skins", work / "profile.json"
        if program.command[0] == "wine":  # a Windows program (Arbiter): a Wine prefix of its own, never ~/.wine
            os.environ["WINEPREFIX"] = str(Path(tmp) / "wine")
            subprocess.run(["wineboot", "--init"], env={**os.environ, **program.env}, capture_output=True,
                           timeout=600, check=False)
        for index, name in enumerate(levels):
            level = program.level(name)
            with NativeGame(program, name, x=100, y=100) as game:
                if index == 0 and not args.shipped and not any(templates.glob("*/skin.json")):  # (--work: reuse it)
                    seconds, code, _ = learn(templates, profile, args.learn_games)
                    lines.append(f"{program.name}: learnt from no skin in {seconds:.1f} s (exit {code})")
                    print(lines[-1], flush=True)
                    if code != 0:
                        break
                start = time.time()
                skins = load_skins(SHIPPED) if args.shipped else load_skins(templates)
                tally = bench_level(game, args.games, skins, profile, program.rule, Path(args.stops),
                                    f"{program.name} {name}", learn_into=None if args.shipped else templates)
                lines.append(report(f"{name} {level.rows}x{level.cols}/{level.mines}", tally, time.time() - start))
                print("\n" + lines[-1], flush=True)
            sim = bench.summarise(list(bench.play_many(level, program.rule, args.sim_games, seed=1,
                                                       jobs=os.cpu_count() or 1)))
            lines.append(f"  simulator, rule {program.rule}, {sim['games']} games: {sim['win_rate']:.1%} "
                         f"(95% CI {sim['ci_low']:.1%}..{sim['ci_high']:.1%})")
            print(lines[-1], flush=True)
    print("\n".join(["", *lines]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
