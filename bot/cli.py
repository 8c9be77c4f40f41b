"""Command line: parse arguments, call the library, map errors to exit codes.

Everything a command does is a library call; this module only translates.  A user's
mistake (bad grid, unknown level, unreadable image) is one line on stderr and exit 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING

from bot.errors import BotError, VisionError

if TYPE_CHECKING:
    from bot.games.simulator import Level
    from bot.play.options import Options

#: The first-click rules (bot.games.simulator.RULES; not imported from there, which would load OpenCV at start).
RULES = ("safe", "winxp", "zero", "none", "open")


class Exit(IntEnum):
    OK = 0
    FAILED = 1  # the job ran but did not succeed (e.g. a game loop stopped safely)
    BAD_INPUT = 2  # the user's input cannot be used
    INTERRUPTED = 130


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
                      help="how long a game hidden after it was seen (a best-time dialog to answer, a window "
                           "over it) is waited for before a safe stop")
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


def _templates(args: argparse.Namespace) -> Path | None:
    """--templates: the one folder skins are read from and learnt ones written to; None: the shipped
    skins and the user's learnt ones (bot.places)."""
    return Path(args.templates) if getattr(args, "templates", None) else None


def _learnt_root(args: argparse.Namespace) -> Path:
    """Where a look learnt now is written: --templates, else the user's learnt skins."""
    from bot.places import learnt_root

    return _templates(args) or learnt_root()


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


def cmd_solve(args: argparse.Namespace) -> Exit:
    from bot import solve
    from bot.board import parse_grid
    from bot.report import advice_text, to_json

    text = _read_text(args.file)
    if args.json:
        print(to_json(solve(text, args.mines, args.rules, args.deadline or None)))
    else:
        from bot.solver.advice import advise

        board = parse_grid(text, args.mines)
        print(advice_text(board, advise(board, args.rules, deadline=args.deadline or None)))
    return Exit.OK


def cmd_bench(args: argparse.Namespace) -> Exit:
    from bot.games import bench
    from bot.games.engines import DaskCluster, Processes
    from bot.games.simulator import parse_level
    from bot.report import to_json

    level = parse_level(args.level)
    if args.games < 1 or args.jobs < 1:
        raise BotError(f"--games and --jobs must be at least 1, got {args.games!r} and {args.jobs!r}")
    if args.cluster is None:
        engine = Processes(args.jobs)
    else:
        engine = DaskCluster(None if args.cluster == "local" else args.cluster, workers=args.jobs)
    result = bench.run(level, args.rules, args.games, args.seed, progress=bench.progress_bar, engine=engine,
                       results=args.results)
    if args.json:
        print(to_json(result))
    else:
        print(
            f"{level.name} ({level.rows}x{level.cols}, {level.mines} mines), rule {args.rules}, "
            f"{result['games']} games, seed {args.seed}\n"
            f"win rate      {result['win_rate']:.2%}  (95% CI {result['ci_low']:.2%} .. {result['ci_high']:.2%})\n"
            f"speed         {result['games_per_s']:.1f} games/s per process\n"
            f"decision      p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, "
            f"max {result['max_ms']:.1f} ms\n"
            f"per game      {result['guesses_per_game']:.2f} guesses, mean 3BV {result['mean_3bv']:.1f}"
        )
    return Exit.OK


def _field_dict(field) -> dict:
    def num(v: float) -> float | int:
        return int(v) if float(v).is_integer() else round(float(v), 2)

    return {
        "left": num(field.left),
        "top": num(field.top),
        "cell_w": num(field.pitch),
        "cell_h": num(field.pitch),
        "rows": field.rows,
        "cols": field.cols,
    }


def cmd_replay(args: argparse.Namespace) -> Exit:
    import cv2

    from bot.errors import InconsistentBoardError
    from bot.report import advice_dict, advice_text, to_json
    from bot.solver.advice import advise
    from bot.solver.deadline import DEFAULT_SECONDS
    from bot.vision.calibrate import calibrate, second_board
    from bot.vision.reader import read, with_panel_counter
    from bot.vision.skin import load_skins

    with contextlib.suppress(AttributeError):  # a truncated PNG is our error message, not OpenCV's warning
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    image, lossy = _load_image(args.image)
    if args.out and Path(args.out).is_dir():
        raise BotError(f"--out {args.out!r} is a folder: name the PNG file to write")
    skins = load_skins(names=args.skin)
    if lossy:
        from bot.vision.lossy import soften_skin

        skins = [soften_skin(s) for s in skins]
    cal, skin = calibrate(image, skins)
    other = second_board(image, skins, cal, skin)
    if other is not None:
        raise VisionError(f"two boards in the picture ({cal.rows}x{cal.cols} at ({cal.left:.0f}, {cal.top:.0f}) and "
                          f"{other.rows}x{other.cols} at ({other.left:.0f}, {other.top:.0f})): crop it to one")
    field = cal.with_pitch(skin)
    reading = with_panel_counter(image, field, skin, read(image, field, skin))
    if reading.face is None:
        raise VisionError("the face could not be read: the board is covered or only half drawn")
    if reading.counter is None and reading.counted:
        raise VisionError("the mine counter could not be read: the board is covered or only half drawn")
    board = reading.game_board()  # refuses when any cell is unknown
    advice, note = None, None
    if reading.face == "playing":
        try:
            advice = advise(board, deadline=DEFAULT_SECONDS)
        except InconsistentBoardError as err:
            note = f"no advice: {err}"
    if args.out:
        from bot.imagefile import write_image
        from bot.play.annotate import annotate

        try:
            written = write_image(args.out, annotate(image, field, advice))
        except cv2.error:  # e.g. a name with no image extension
            written = False
        if not written:
            raise BotError(f"cannot write {args.out!r}: give a writable path ending in .png, .jpg or .bmp")
    grid = reading.grid().splitlines()
    if args.json:
        obj = {"grid": grid, "face": reading.face, "counter": reading.counter, "field": _field_dict(field)}
        obj["skin"] = skin.name
        obj["advice"] = advice_dict(board, advice) if advice else None
        print(to_json(obj))
        return Exit.OK
    f = _field_dict(field)
    print(f"skin {skin.name}, scale {cal.scale:g}, field {f['cols']}x{f['rows']} cells at ({f['left']}, {f['top']}), "
          f"cell {f['cell_w']} px")
    timer = "" if reading.timer is None else f", timer {reading.timer}"
    print(f"face {reading.face}, counter {reading.counter}{timer}")
    print("\n".join(grid))
    if advice is not None:
        print()
        print(advice_text(board, advice))
    elif note:
        print(note)
    return Exit.OK


def cmd_calibrate(args: argparse.Namespace) -> Exit:
    from pathlib import Path

    from bot.report import to_json
    from bot.screen.capture import Screen
    from bot.vision.calibrate import locate
    from bot.vision.skin import load_skins

    if args.pictures is not None and not args.learn:
        raise BotError("--from DIR goes with --learn: calibrate --learn --from DIR")
    if args.learn and args.pictures is not None:
        return _learn_pictures(args)
    if args.learn:
        return _learn(args)
    with Screen() as screen:
        monitor = screen.monitors()[0]
        image = screen.grab()
    skins = load_skins(_templates(args), names=args.skin)
    cal, skin, fresh = locate(image, skins, Path(args.profile))
    field = cal.with_pitch(skin)
    found = {"skin": skin.name, "scale": cal.scale, "field": _field_dict(field), "profile": args.profile,
             "reused": not fresh, "screen_origin": [monitor.left, monitor.top]}
    if args.json:
        print(to_json(found))
    else:
        f = found["field"]
        print(f"{'reused' if not fresh else 'found'} {skin.name} board, {f['rows']} rows x {f['cols']} cols, "
              f"scale {cal.scale:g}, field at ({f['left']}, {f['top']}) cell {f['cell_w']} px; profile {args.profile}")
    return Exit.OK


def _learn(args: argparse.Namespace) -> Exit:
    from pathlib import Path

    from bot.learn.described import DescribedLearnt, write_described
    from bot.learn.first_sight import learn_look
    from bot.learn.live import write_skin
    from bot.screen.platform import current
    from bot.vision.calibrate import Calibration, save_profile
    from bot.vision.skin import load_skin

    names, say = _learn_target(args)
    current().prepare()
    folder = _learnt_root(args) / names[0]
    known = load_skin(folder) if (folder / "skin.json").exists() else None  # learn on from an earlier run
    learnt = learn_look(say, games=args.games, known=known)
    if isinstance(learnt, DescribedLearnt):
        write_described(learnt, folder, names[0])
        _report_described(args.json, names[0], folder, learnt)
        return Exit.OK
    write_skin(learnt, folder, names[0])
    lat = learnt.lattice
    save_profile(Path(args.profile),
                 Calibration(names[0], 1.0, lat.left, lat.top, lat.rows, lat.cols, None, *lat.offsets))
    found = {"skin": names[0], "folder": str(folder), "profile": args.profile, "games": learnt.games,
             "learnt": sorted(learnt.cells) + [f"face {f}" for f in sorted(learnt.faces)]}
    _report_learnt(args.json, found, learnt,
                   f"wrote skin {names[0]!r} to {folder} after {learnt.games} game(s); profile {args.profile}")
    return Exit.OK


def _learn_pictures(args: argparse.Namespace) -> Exit:
    """calibrate --learn --from DIR: a skin from saved screenshots alone (bot.learn.pictures)."""
    from pathlib import Path

    from bot.errors import VisionError
    from bot.learn.described import DescribedError, learn_described, write_described
    from bot.learn.live import write_skin
    from bot.learn.pictures import PicturesError, learn_pictures
    from bot.vision.skin import load_skins

    names, say = _learn_target(args)
    where = Path(args.pictures)
    if not where.is_dir():
        raise BotError(f"--from {args.pictures!r}: not a folder of screenshots")
    paths = sorted(p for p in where.iterdir() if p.suffix.lower() in PICTURE_SUFFIXES)
    named, lossless = [], []
    for path in paths:
        if path.suffix.lower() == ".gif":  # a recorded game: some of its frames, palette noise and all
            named += _gif_frames(path, say)
            continue
        try:
            image, lossy = _load_image(str(path))
        except BotError as err:
            say(f"{path.name}: skipped ({err})")
            continue
        named.append((path.name, image))
        if not lossy:  # compression noise would split one look of cells by pixels into many, or join two
            lossless.append((path.name, image))
    if not named:
        raise BotError(f"no screenshots in {args.pictures!r}")
    folder = _learnt_root(args) / names[0]
    try:  # the skins known, for where the field is (never the one being written)
        skins = [s for s in load_skins() if s.folder is None or s.folder.resolve() != folder.resolve()]
    except VisionError:
        skins = []
    try:
        if not lossless:
            raise PicturesError("no PNG or BMP screenshots to learn cells by their pixels")
        learnt = learn_pictures(lossless, skins, say)
    except (PicturesError, VisionError) as by_pixels:
        say(f"cells by their pixels: {by_pixels}; now by their colours and shapes")
        try:
            described = learn_described(named, say)
        except (DescribedError, VisionError) as by_colours:
            raise PicturesError(f"{by_pixels} (by pixels); {by_colours} (by colours and shapes)") from by_colours
        write_described(described, folder, names[0])
        _report_described(args.json, names[0], folder, described)
        return Exit.OK
    if len(lossless) < len(named):
        say(f"{len(named) - len(lossless)} lossy picture(s) left out (learn from PNG or BMP screenshots)")
    write_skin(learnt, folder, names[0])
    found = {"skin": names[0], "folder": str(folder), "pictures": learnt.games,
             "learnt": sorted(learnt.cells) + [f"face {f}" for f in sorted(learnt.faces)]
             + [f"digit {d}" for d in sorted(learnt.digits)]}
    _report_learnt(args.json, found, learnt, f"wrote skin {names[0]!r} to {folder} from {learnt.games} picture(s)")
    return Exit.OK


def _report_described(as_json: bool, name: str, folder, described) -> None:
    """What the described learner (bot.learn.described) wrote, as JSON or text."""
    from bot.report import to_json

    found = {"skin": name, "folder": str(folder), "pictures": described.pictures,
             "learnt": described.names, "missing": described.missing, "by_shape": described.by_shape,
             "unnamed": [],
             "field": {"cell_w": round(described.pitch, 2), "cell_h": round(described.pitch, 2),
                       "rows": described.rows, "cols": described.cols},
             "unread": described.unread}
    if as_json:
        print(to_json(found))
        return
    print(f"wrote skin {name!r} to {folder} from {described.pictures} picture(s): a look described by its "
          "colours and digit shapes")
    print("missing: " + (", ".join(described.missing) or "nothing"))
    if described.by_shape:
        print(f"digits never shown, read by their shape alone: {', '.join(described.by_shape)}")


def _learn_target(args: argparse.Namespace):
    """The one skin name --learn writes, and where its progress goes (nowhere with --json)."""
    names = args.skin or ["learnt"]
    if len(names) != 1:
        raise BotError("--learn takes one --skin NAME: the skin to write")
    return names, (lambda _: None) if args.json else (lambda line: print(line, flush=True))


def _report_learnt(as_json: bool, found: dict, learnt, headline: str) -> None:
    """What a learner wrote, as JSON (`found` plus what is missing, unnamed, and the field) or text."""
    from bot.report import to_json

    lat = learnt.lattice
    found = {**found, "missing": learnt.missing, "unnamed": learnt.unnamed,
             "field": {"left": lat.left, "top": lat.top, "cell_w": lat.pitch, "cell_h": lat.pitch,
                       "rows": lat.rows, "cols": lat.cols}}
    if as_json:
        print(to_json(found))
        return
    print(headline)
    print("missing: " + (", ".join(learnt.missing) or "nothing"))
    for could in learnt.unnamed:  # seen, but the game never showed which number it is
        print("a number look seen but not named for sure: it could be " + " or ".join(map(str, could)))


#: What `--from DIR` reads (lossy formats, a GIF's frames among them, go to the described learner only).
PICTURE_SUFFIXES = (".png", ".bmp", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".gif")
#: Frames taken from a GIF, evenly spread, its last among them (a recorded game ends lost or won).
GIF_FRAMES = 6


def _gif_frames(path, say) -> list:
    """Some frames of an animated GIF as (name, BGR image); none, said, where it cannot be read."""
    from PIL import Image

    from bot.imagefile import gif_frames

    try:
        frames = gif_frames(path)
    except (OSError, ValueError, Image.DecompressionBombError) as err:
        say(f"{path.name}: skipped ({err})")
        return []
    picks = sorted({round(k * (len(frames) - 1) / max(1, GIF_FRAMES - 1)) for k in range(GIF_FRAMES)})
    return [(f"{path.name}#{k}", frames[k]) for k in picks]


def _play_options(args: argparse.Namespace):
    from pathlib import Path

    from bot.errors import VisionError
    from bot.play.options import Options
    from bot.vision.skin import load_skins

    if args.games < 1:
        raise BotError(f"--games must be at least 1, got {args.games}")
    try:
        skins = load_skins(_templates(args), names=args.skin)
    except VisionError:
        if not args.learn or args.dry_run:
            raise
        skins = []  # none kept yet: the look on the screen is learnt first
    return Options(
        games=args.games,
        flags=args.flags,
        dry_run=args.dry_run,
        rule=args.rules,
        profile=Path(args.profile),
        record=Path(args.record) if args.record else None,
        annotated=Path(args.annotated),
        max_frames=args.frames,
        overlay=args.overlay,
        patience=args.patience,
        fresh_layouts=args.new_layouts,
        skins=skins,
    )


def cmd_play(args: argparse.Namespace) -> Exit:
    from dataclasses import replace

    from bot.play.game_view import NotFound, Stop, UserStop
    from bot.play.interrupt import SafeInterrupt
    from bot.play.loop import play, summary
    from bot.screen.platform import current
    from bot.screen.stopkey import StopKey

    platform = current()
    platform.prepare()
    _check_pixels(platform)
    title = platform.bring_game_forward()
    if title:
        print(f"brought the {title} window to the front", file=sys.stderr)
    options = _play_options(args)
    box = platform.game_window()
    if box is not None:
        options = replace(options, window=(box.left, box.top, box.width, box.height))
    if args.level:
        level = _check_level(args.level, options)
        options = replace(options, mines=level.mines, shape=(level.rows, level.cols))
    if options.dry_run:
        where = f"over the game (and saved to {options.annotated})" if options.overlay else f"on {options.annotated}"
        print(f"dry run: the advice is drawn {where} as you play; Ctrl-C ends it", file=sys.stderr)
    logs: list = []
    key = StopKey(args.stop_key) if args.stop_key.lower() != "none" and not options.dry_run else None
    say = lambda line: print(line, file=sys.stderr)  # noqa: E731
    ctrl_c = SafeInterrupt()
    options.stopped = ctrl_c.check
    try:  # (the key taken inside: a Ctrl-C while it is being taken still gets the summary)
        if key is not None:
            problem = key.start()
            if problem:
                print(problem, file=sys.stderr)
            else:
                options.stopped = lambda: ctrl_c.check() or key.pressed
                print(f"press {args.stop_key} to stop (the key is the bot's while it plays)", file=sys.stderr)
        try:
            play(options, say=say, logs=logs)
        except NotFound:
            if not args.learn or options.dry_run:
                raise
            title, box = _window_to_learn(platform, args.learn_in)
            say(f"no look the bot knows is on the screen: learning this one, in the window {title!r}, "
                "from the game (safe moves only)")
            options.skins = [*options.skins, _learn_on_sight(args, options, say, box)]
            play(options, say=say, logs=logs)
    except UserStop as err:  # the user's own choice: no error
        print(str(err), file=sys.stderr)
    except Stop as err:
        print(f"error: {err}", file=sys.stderr)
        return Exit.FAILED
    finally:  # on every way out (a stop, the stop key, Ctrl-C, the fail-safe): what was played
        ctrl_c.close()
        if key is not None:
            key.close()
        if logs or not options.dry_run:
            print(summary(logs))
    if options.dry_run:
        print(f"dry run: advice drawn on {options.annotated}")
    return Exit.OK


def _check_pixels(platform) -> None:
    """Refuse to click where the mouse's pixels are not the screen's (a scaled display)."""
    from bot.screen.capture import Screen

    def grab_size() -> tuple[int, int]:
        with Screen() as screen:
            whole = screen.monitors()[0]
        return whole.width, whole.height

    problem = platform.pixel_problem(grab_size)
    if problem:
        raise BotError(problem)


def _window_to_learn(platform, named: str | None):
    """The window a look no skin knows may be learnt in, by evidence that needs no click (every
    probe of the learner is one): its title names a Minesweeper, or holds what the user named
    with --learn-in. Else a Stop that says so, before any click."""
    from bot.play.game_view import Stop

    found = platform.minesweeper_window(named)
    if found is not None:
        return found
    if named:
        raise Stop(f"no look the bot knows is on the screen, and no window on view is titled {named!r}: "
                   "nothing was clicked")
    raise Stop("no look the bot knows is on the screen, and no window on view is titled as a Minesweeper to "
               "learn one in: nothing was clicked (name the game's window: play --learn-in TITLE; or learn "
               "its look: calibrate --learn)")


def _learn_on_sight(args: argparse.Namespace, options, say, region):
    from bot.learn.first_sight import learn_on_sight

    return learn_on_sight(_learnt_root(args), options.profile, say, region)


def _check_level(level_name: str, options: Options) -> Level:
    """--level names what the game must show; the bot reads it off the screen and refuses a mismatch.
    The level is returned: its mine total is the total for a game whose counter the bot cannot read,
    and every game is checked against its size."""
    from bot.games.simulator import parse_level
    from bot.screen.capture import Screen
    from bot.vision.calibrate import locate

    level = parse_level(level_name)
    with Screen() as screen:
        cal, _, _ = locate(screen.grab(), options.skins, options.profile)
    if (cal.rows, cal.cols) != (level.rows, level.cols):
        raise BotError(f"the game shows {cal.rows}x{cal.cols} cells, not {level.name}: change the level in the game")
    return level


def cmd_demo(args: argparse.Namespace) -> Exit:
    from bot.demo import run_demo

    return Exit.OK if run_demo(args.games, args.levels.split(","), args.screenshot) else Exit.FAILED




def _load_image(path: str):
    """The screenshot at path as BGR, and whether its format is lossy (bot.vision.lossy)."""
    from bot.imagefile import load_screenshot
    from bot.vision.lossy import LOSSY_FORMATS

    image, fmt = load_screenshot(path)
    return image, fmt in LOSSY_FORMATS


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read().removeprefix("\ufeff")
    try:
        with open(path, encoding="utf-8-sig") as handle:  # a byte-order mark (Windows Notepad) is not a cell
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise BotError(f"cannot read grid file {path!r}: {err}") from err


COMMANDS = {
    "solve": cmd_solve,
    "bench": cmd_bench,
    "replay": cmd_replay,
    "calibrate": cmd_calibrate,
    "play": cmd_play,
    "demo": cmd_demo,
}
