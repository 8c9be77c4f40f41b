"""Command line: parse arguments, hand them to the command (bot.commands), map errors to exit codes.

A user's mistake (bad grid, unknown level, unreadable image) is one line on stderr and exit 2,
never a traceback; a bug is one line too, its traceback saved to a file to report.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.commands.common import Exit
from bot.errors import BotError

#: The first-click rules (bot.games.simulator.RULES; not imported from there, which would load OpenCV at start).
RULES = ("safe", "winxp", "zero", "none", "open")


def build_parser() -> argparse.ArgumentParser:
    from bot import __version__
    from bot.places import default_profile

    parser = argparse.ArgumentParser(
        prog="minesweeper-bot",
        description="Minesweeper bot: solve, benchmark, see, play. "
        "Cells are (row, col): 1-based in text, 0-based in JSON; sizes rows x cols.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    shown = argparse.ArgumentDefaultsHelpFormatter  # every option's default in its help

    solve = sub.add_parser("solve", formatter_class=shown,
                           help="forced cells, probabilities and the best move for a text grid")
    solve.add_argument("file", help="text grid file, or - for standard input")
    solve.add_argument("--mines", type=int, default=None, help="total mines on the board (none: not assumed)")
    solve.add_argument("--rules", choices=RULES, default="safe", help="first-click rule")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--deadline", type=float, default=5.0, metavar="SECONDS",
                       help="past this, answer with what is proven and approximate odds, labelled so (0: no limit)")

    bench = sub.add_parser("bench", formatter_class=shown,
                           help="play simulated games and print win rate and speed")
    bench.add_argument("--level", default="beginner", help="beginner, intermediate, expert or RxCxM")
    bench.add_argument("--rules", choices=RULES, default="safe",
                       help="first-click rule: safe (no mine), winxp (mine moved to the corner), zero (opens an area)")
    bench.add_argument("--games", type=int, default=1000, help="games to play")
    bench.add_argument("--seed", type=int, default=0, help="seed of the layouts (same seed, same games)")
    bench.add_argument("--jobs", type=int, default=1, help="processes to play in (with --cluster alone: its workers)")
    bench.add_argument("--cluster", nargs="?", const="local", default=None, metavar="ADDRESS",
                       help="play on a Dask cluster: its scheduler's address, or none for a local one "
                            "(pip install 'minesweeper-bot[cluster]')")
    bench.add_argument("--results", type=Path, default=None, metavar="FILE",
                       help="stream each game to this JSON-lines file; a file of the same run resumes it")
    bench.add_argument("--json", action="store_true", help="print one JSON object")

    replay = sub.add_parser("replay", formatter_class=shown,
                            help="find and read the board in a saved screenshot, and advise")
    replay.add_argument("image", help="screenshot file (PNG, BMP, JPEG)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--out", help="write the screenshot annotated with the advice here")
    replay.add_argument("--skin", action="append", help="only try this skin (repeatable)")

    play = sub.add_parser("play", formatter_class=shown,
                          help="play the Minesweeper game on the screen (or only show advice)")
    play.add_argument("--games", type=int, default=1, help="games to play")
    play.add_argument("--level", help="the level the game must show (beginner, intermediate, expert, RxCxM); "
                      "its mines are the total where the game shows no counter the bot reads")
    play.add_argument("--flags", action=argparse.BooleanOptionalAction, default=False, help="flag proven mines")
    play.add_argument("--dry-run", action="store_true", help="never click: draw the advice instead")
    play.add_argument("--stop-key", default="Escape", metavar="KEY",
                      help="a key that stops the bot while the game has the focus (none: no key)")
    play.add_argument("--patience", type=float, default=20.0, metavar="SECONDS",
                      help="how long a game hidden after it was seen (a dialog the user answers, a window "
                           "over it) is waited for before a safe stop")
    play.add_argument("--leave-dialogs", action="store_true",
                      help="leave the game's own dialog after a win (a best-time name entry) to you: the bot "
                           "waits for it (--patience) instead of pressing Return in it")
    play.add_argument("--new-layouts", action=argparse.BooleanOptionalAction, default=True,
                      help="start each game in a new second of the clock: WineMine seeds its mines from it, so "
                           "games started in one second are one game played again")
    play.add_argument("--rules", choices=RULES, default="safe", help="the game's first-click rule")
    play.add_argument("--record", help="save every frame acted on (PNG + text grid) in this folder")
    play.add_argument("--profile", default=str(default_profile()), help="the saved calibration, reused and kept")
    play.add_argument("--annotated", default="dry-run.png", help="dry run: where the annotated screenshot goes")
    play.add_argument("--overlay", action=argparse.BooleanOptionalAction, default=True,
                      help="dry run: draw the advice over the game (--no-overlay: only the PNG)")
    play.add_argument("--skin", action="append", help="only try this skin (repeatable)")
    play.add_argument("--learn", action=argparse.BooleanOptionalAction, default=True,
                      help="a look no skin knows is learnt on the spot (safe moves only), then played")
    play.add_argument("--learn-in", metavar="TITLE",
                      help="learn only in the window whose title holds this (without it: a window titled as a "
                           "Minesweeper, in any language; no such window, no click)")
    play.add_argument("--templates", default=None, help="where skins are read from and learnt ones written")
    play.add_argument("--frames", type=int, help=argparse.SUPPRESS)  # dry run: stop after N redraws (tests)

    demo = sub.add_parser("demo", formatter_class=shown,
                          help="start WineMine in a virtual display and play a few games per level")
    demo.add_argument("--games", type=int, default=3, help="games per level")
    demo.add_argument("--levels", default="beginner,intermediate,expert", help="levels to play, comma-separated")
    demo.add_argument("--screenshot", default="demo-last-board.png", help="where the last board is saved")

    calibrate = sub.add_parser("calibrate", formatter_class=shown,
                               help="find the board on the live screen and save the profile")
    calibrate.add_argument("--profile", default=str(default_profile()), help="where the profile is kept")
    calibrate.add_argument("--skin", action="append", help="only try this skin (repeatable)")
    calibrate.add_argument("--json", action="store_true", help="print one JSON object")
    calibrate.add_argument("--learn", action="store_true",
                           help="learn the look of the game on the screen (a fresh game) as a new skin; "
                                "with --from DIR, from screenshots instead")
    calibrate.add_argument("--from", dest="pictures", metavar="DIR", default=None,
                           help="with --learn: learn from the screenshots in DIR (PNG/BMP, one game, several "
                                "states: a lost game names the most) instead of the live screen; no clicks")
    calibrate.add_argument("--games", type=int, default=12, help="with --learn: at most this many games")
    calibrate.add_argument("--templates", default=None, help="where skins are read from and learnt ones written")
    return parser


def run() -> None:
    """The `minesweeper-bot` command."""
    sys.exit(main())






def _one_blas_thread() -> None:
    """The matrices here are small (a board against a few sprites): one BLAS thread is faster than
    a pool, and leaves the other cores to the game and the screen grabs. Set for the command's own
    process, before numpy is first imported (a program importing `bot` keeps its own setting)."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def main(argv: Sequence[str] | None = None) -> int:
    _one_blas_thread()
    args = build_parser().parse_args(argv)
    try:
        return int(COMMANDS[args.command](args))
    except BotError as err:
        print(f"error: {err}", file=sys.stderr)
        return Exit.BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return Exit.INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head`): not an error worth a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's flush at exit would fail again
        return Exit.FAILED
    except Exception as err:  # a bug met on some input: one line here, the traceback in a file to report
        if os.environ.get("MINESWEEPER_BOT_TRACEBACK"):
            raise
        print(f"error: an internal error ({type(err).__name__}: {err}); this is a bug: "
              f"please report it with {_save_traceback()}", file=sys.stderr)
        return Exit.FAILED


def _save_traceback() -> str:
    """The traceback of the exception being handled, in a file of its own (the path, or where it
    could not be written, the traceback's last line)."""
    import tempfile
    import time
    import traceback

    text = traceback.format_exc()
    try:
        with tempfile.NamedTemporaryFile("w", prefix=f"minesweeper-bot-error-{time.strftime('%Y%m%d-%H%M%S')}-",
                                         suffix=".txt", delete=False) as out:
            out.write(f"minesweeper-bot {' '.join(sys.argv)}\n{text}")
            return out.name
    except OSError:
        return text.strip().splitlines()[-1]














































def _command(name: str) -> Callable[[argparse.Namespace], int]:
    """bot.commands.NAME's cmd_NAME, imported when the command runs (a command's imports load
    OpenCV or numpy: `solve --help` need not)."""

    def run(args: argparse.Namespace) -> int:
        return getattr(importlib.import_module(f"bot.commands.{name}"), f"cmd_{name}")(args)

    return run


COMMANDS = {name: _command(name) for name in ("solve", "bench", "replay", "calibrate", "play", "demo")}
