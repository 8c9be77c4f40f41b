"""Start, find, move and close a Minesweeper that runs natively on X (not under Wine): the games
the learner is measured on (issue 13). Like bot.games.wine_game, for benchmarks and tests only: the bot
itself finds any game on the screen by its look.

What each game needs to be started at a level is written down here (its command, how to tell its
main window, the keys that pick a level), and what it is known to do (its first-click rule, from
its source), so a benchmark can compare its live win rate with the simulator's for that rule.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.errors import BotError, CaptureError
from bot.games.gl_mirror import GlMirror
from bot.games.simulator import Level
from bot.games.wine_game import Window, _prefix, _run, move_window
from bot.screen.xdisplay import stop_process
from bot.waiting import wait_for

_LINE = re.compile(r'(0x[0-9a-f]+) "(.*)": \(.*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+)')


@dataclass(frozen=True)
class NativeProgram:
    name: str
    command: tuple[str, ...]
    title: str  # the main window's title holds this
    rule: str  # first-click rule (bot.games.simulator.RULES), from the game's source or its behaviour
    levels: dict[str, tuple[Level, tuple[str, ...]]] = field(default_factory=dict)  # name: level, keys for it
    default: str = "default"
    note: str = ""
    #: Command-line options that start it at a level (the level's keys are then pressed as well).
    options: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Written before each start: the game's own settings for the level (a game that takes none on
    #: its command line), given the level's name and the game's own working folder.
    prepare: Callable[[str, Path], None] | None = None
    #: More environment for the game's process ("{workdir}" stands for its working folder).
    env: dict[str, str] = field(default_factory=dict)
    #: What the command runs under (a D-Bus session of its own for a GNOME game).
    launcher: tuple[str, ...] = ()
    #: The window's size at a level (width, height), where the game stretches its cells to it.
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: The dialogs it opens after a game (their window's title) and the key that answers each.
    dialogs: dict[str, str] = field(default_factory=dict)
    #: Where a user clicks to pick a level in a game that opens on a chooser of sizes (GNOME Mines
    #: given no size): the point as fractions of the window's width and height.
    picks: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: A file the game needs that no package installs (a stand-in built by hand).
    needs: Path | None = None
    #: The field's top-left corner in the window and the face's centre above the field's top edge
    #: (centred on the window), 16 px cells: clicks are then judged on the field and the face, not
    #: on the whole window (where a game draws them in one place at every level).
    field: tuple[int, int] | None = None
    face_above: int = 0
    #: The game puts its window where its settings say (written by `prepare`) and back there when
    #: it lays out a board: the harness leaves it there instead of moving it.
    places_itself: bool = False
    #: A window titled so opens at start, on which the level's keys are pressed (Windows 7's
    #: first-run chooser of levels) rather than on the main window.
    chooser: str | None = None
    #: Its field is Direct3D in a child window, which Wine 8 on Xvfb leaves offscreen: the harness
    #: copies it onto the window as a compositor would (bot.games.gl_mirror).
    mirror: bool = False

    def level(self, name: str | None = None) -> Level:
        return self.levels[name or self.default][0]


#: DJ Delorie's ace-minesweeper (Debian ace-of-penguins): mines placed before the first click and
#: never moved (`start_again` in games/minesweeper.c); a win needs every mine flagged
#: (`check_for_win`: untagged == 0); keys 1-4 pick the level, whose cells are 48, 36, 24 and 12 px
#: in a window of one size: the cells scale, the face and counter do not.
ACE = NativeProgram(
    "ace-minesweeper", ("/usr/games/ace-minesweeper",), "ace-minesweeper", "none",
    {"1": (Level(8, 8, 6), ("1",)), "2": (Level(11, 11, 20), ("2",)), "3": (Level(16, 16, 45), ("3",)),
     "default": (Level(32, 32, 200), ())},
    note="a win needs every mine flagged; the first click can lose",
)

#: Marc Baudoin's xdemineur (Debian): every new game opens a start area by itself (the area of a
#: 0 it picks: the `open` rule, as observed; its source is not on Debian's mirror); the level is
#: set at start-up (`-geometry COLSxROWS -m MINES`); its clock runs from the first frame.
XDEMINEUR = NativeProgram(
    "xdemineur", ("/usr/games/xdemineur",), "mineur", "open",
    {"default": (Level(16, 30, 100), ()), "intermediate": (Level(16, 16, 40), ()), "large": (Level(24, 40, 190), ())},
    note="opens a start area itself; a 4-digit counter",
    options={"intermediate": ("-geometry", "16x16", "-m", "40"), "large": ("-geometry", "40x24", "-m", "190")},
)

#: Where `scripts/setup --games` installs Minegauler (PyPI, PyQt6) in a virtual environment of its
#: own; MINESWEEPER_MINEGAULER_PYTHON names another interpreter that has it.
MINEGAULER_PYTHON = os.environ.get(
    "MINESWEEPER_MINEGAULER_PYTHON", str(Path.home() / ".cache" / "minesweeper-bot" / "minegauler" / "bin" / "python"))

#: What the game is told before it starts (runs in its own interpreter): its settings file, with the
#: level and cell size, and a best score for every level that no game can beat, so that a win never
#: opens its Highscores window (which kills the game under PyQt6 6.11: `QSize(width, height / 1.61)`
#: with a float), and is never posted to its author's server (post_remote=False).
_MINEGAULER_PREPARE = """
import json, sys
from minegauler.app import highscores, paths
from minegauler.app.highscores.base import HighscoreStruct
rows, cols, mines, size = json.loads(sys.argv[1])
settings = {"x_size": cols, "y_size": rows, "mines": mines, "first_success": True, "per_cell": 1, "reach": 8,
            "lives": 1, "mode": "REGULAR", "btn_size": size, "drag_select": False, "name": "",
            "styles": {"BUTTONS": "Standard", "NUMBERS": "Standard", "MARKERS": "Standard"}}
paths.SETTINGS_FILE.write_text(json.dumps(settings))
best = highscores.get_highscores(settings=None, name="")
if not any(h.elapsed <= 0.001 for h in best):
    for level in "BIEM":
        highscores.insert_highscore(HighscoreStruct("regular", level, 1, 8, False, "", 0, 0.001, 1, 1e9, 0.0),
                                    post_remote=False)
"""

#: Cell size (px) of each Minegauler level written here: its "button size" option.
_MINEGAULER_CELLS = {"default": 16, "intermediate": 16, "expert": 16, "intermediate-24": 24}


def _prepare_minegauler(level: str, workdir: Path) -> None:
    board = MINEGAULER.level(level)
    subprocess.run([MINEGAULER_PYTHON, "-c", _MINEGAULER_PREPARE,
                    json.dumps([board.rows, board.cols, board.mines, _MINEGAULER_CELLS[level]])],
                   check=True, capture_output=True, timeout=120, env={**os.environ, **MINEGAULER.env})


#: Lewis Gaul's Minegauler (PyPI, Qt): the first click always opens an area where the board allows
#: (`first_success`: the cell and its neighbours are kept free, `_populate_minefield` in
#: core/regular/game.py: the `zero` rule); on a win it flags the mines itself and often keeps its
#: playing face (the release of the winning click repaints it), so only the board tells the win; the
#: counter is text; its settings (level, cell size) live in a file beside its code. It posts every
#: win to its author's server: its proxy is pointed at a closed port on this machine.
MINEGAULER = NativeProgram(
    "minegauler", (MINEGAULER_PYTHON, "-m", "minegauler.app"), "Minegauler", "zero",
    {"default": (Level(8, 8, 10), ()), "intermediate": (Level(16, 16, 40), ()), "expert": (Level(16, 30, 99), ()),
     "intermediate-24": (Level(16, 16, 40), ())},
    note="a win shown on the board alone; a text counter",
    prepare=_prepare_minegauler,
    env={"http_proxy": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
         "HTTPS_PROXY": "http://127.0.0.1:9", "no_proxy": "", "NO_PROXY": "", "QT_QPA_PLATFORM": "xcb"},
)

def _prepare_gnome_mines(level: str, workdir: Path) -> None:
    """Ten best times of 0 s for every level (libgnome-games-support's "score time user" lines in
    $XDG_DATA_HOME/gnome-mines/scores/COLS-ROWS-MINES): no win is then among the ten best, so no
    scores dialog (modal, over the board) opens after a win."""
    scores = workdir / "data" / "gnome-mines" / "scores"
    scores.mkdir(parents=True, exist_ok=True)
    for board, _ in GNOME_MINES.levels.values():
        (scores / f"{board.cols}-{board.rows}-{board.mines}").write_text("0 0 unbeatable\n" * 10)


#: GNOME Mines 40 (Debian gnome-mines): no face, its cells stretched to the window (a homogeneous
#: GTK grid: 48 or 49 px at its default size), a new game by Ctrl+R ("start over"), the level by its
#: command line (--small, --medium, --big); mines kept off the first cell and its neighbours
#: (`place_mines` in src/minefield.vala: the `zero` rule); on a win it flags the mines itself. Its
#: settings live in memory only (GSETTINGS_BACKEND), in a D-Bus session of its own.
GNOME_MINES = NativeProgram(
    "gnome-mines", ("/usr/games/gnome-mines",), "Mines", "zero",
    {"default": (Level(8, 8, 10), ()), "medium": (Level(16, 16, 40), ()), "big": (Level(16, 30, 99), ()),
     "stretched": (Level(8, 8, 10), ()), "chosen": (Level(8, 8, 10), ()), "chosen-medium": (Level(16, 16, 40), ()),
     "chosen-resized": (Level(8, 8, 10), ())},
    note="no face; stretched cells; a hover highlight",
    options={"default": ("--small",), "medium": ("--medium",), "big": ("--big",), "stretched": ("--small",)},
    prepare=_prepare_gnome_mines,
    env={"GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1", "HOME": "{workdir}", "XDG_DATA_HOME": "{workdir}/data",
         "XDG_CONFIG_HOME": "{workdir}/config", "XDG_CACHE_HOME": "{workdir}/cache"},
    launcher=("dbus-run-session", "--"),
    # Its cells fill its window: 46 px at its first size (600 x 400) at 8 x 8, and in these windows
    # 46 px at 16 x 16 (23 px in the first one) and 53 or 54 px, stretched, at 8 x 8. It draws its
    # cells anew at each level and size: a skin learnt at one reads another only in part.
    sizes={"medium": (970, 828), "stretched": (660, 520), "chosen-resized": (900, 700)},
    # Given no size it opens on its chooser (four buttons: 8 x 8, 16 x 16, 30 x 16, custom), as a
    # user starts it from the desktop: the level is the button clicked, the board then stretched
    # to the window the chooser had.
    picks={"chosen": (0.33, 0.33), "chosen-medium": (0.67, 0.33), "chosen-resized": (0.33, 0.33)},
)

def _prepare_kmines(level: str, workdir: Path) -> None:
    """Its settings (kminesrc under XDG_CONFIG_HOME): the level, as libkdegames' KgDifficulty keeps it."""
    conf = workdir / "config"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "kminesrc").write_text(f"[KgDifficulty]\nLevel={KMINES_LEVELS[level]}\n")


KMINES_LEVELS = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}

#: KDE's KMines 22.12 (Debian `kmines`): drawn from an SVG theme scaled to its window (shaded
#: raised tiles; whole pixels a cell, `resizeToFitInRect`), a border of the theme's own round the
#: field, no face (Ctrl+N starts a new game; mines and time in its status bar); mines kept off the
#: first cell and its neighbours (`generateField` in src/minefielditem.cpp: the `zero` rule); a
#: win in the ten best opens its name entry. Never looked at while the bot was built: the held-out
#: desktop game of its kind, tried as a new user would.
KMINES = NativeProgram(
    "kmines", ("/usr/games/kmines",), "KMines", "zero",
    {"easy": (Level(9, 9, 10), ()), "medium": (Level(16, 16, 40), ()), "hard": (Level(16, 30, 99), ())},
    default="easy", note="no face; a shaded SVG theme scaled to its window",
    prepare=_prepare_kmines,
    env={"HOME": "{workdir}", "XDG_DATA_HOME": "{workdir}/data", "XDG_CONFIG_HOME": "{workdir}/config",
         "XDG_CACHE_HOME": "{workdir}/cache", "QT_QPA_PLATFORM": "xcb", "NO_AT_BRIDGE": "1"},
    launcher=("dbus-run-session", "--"),
)

#: Simon Tatham's Mines (Debian sgt-puzzles, GTK): flat grey cells, covered ones raised by a bevel,
#: no face, no dialog (the status bar says "COMPLETED!" or "DEAD!"), `n` a new game, the level
#: from its command line (COLSxROWSnMINES), its tiles MINES_TILESIZE px (20 by default). Mines are
#: placed at the first click, off it and its neighbours, and by default re-dealt until its own
#: solver clears the board with no guess (`minegen` in mines.c): the `zero` rule, and a board that
#: never needs a guess, so a perfect reader wins every game. Never looked at while the bot was built.
SGT_MINES = NativeProgram(
    "sgt-mines", ("/usr/games/sgt-mines",), "Mines", "zero",
    {"beginner": (Level(9, 9, 10), ()), "intermediate": (Level(16, 16, 40), ()), "expert": (Level(16, 30, 99), ())},
    default="beginner", note="no face, no dialog; boards that need no guess",
    options={"beginner": ("9x9n10",), "intermediate": ("16x16n40",), "expert": ("30x16n99",)},
)

#: XBomb 2.2b (Debian `xbomb`, Xt/Athena): square, hexagonal or triangular cells (here `-square`),
#: 50 px cells in a black grid, covered ones a 1 px chequer of grey and white, no face (buttons
#: above the field, "UXB" mines left below it), `s` a new game, the level from its command line
#: (-1/-2/-3). Its first click opened an area in 17 of 17 recorded games (a first click only safe
#: gives a 0 about one time in six on Difficult): the `zero` rule. Never looked at while the bot
#: was built.
XBOMB = NativeProgram(
    "xbomb", ("/usr/games/xbomb", "-square"), "XBomb V2.2b", "zero",
    {"easy": (Level(8, 8, 10), ()), "medium": (Level(16, 16, 40), ()), "difficult": (Level(16, 30, 99), ())},
    default="easy", note="no face; a chequered covered tile in a black grid",
    options={"easy": ("-1",), "medium": ("-2",), "difficult": ("-3",)},
)

#: Where the stand-ins for the modern Windows games are built (their sources are third-party, fetched
#: and built by hand as docs/testing.md says, never part of this repository).
STANDINS = Path(os.environ.get("MINESWEEPER_STANDINS", Path.home() / ".cache" / "minesweeper-bot" / "standins"))


def _prepare_win7_qt(level: str, workdir: Path) -> None:
    """Its settings file (QSettings under XDG_CONFIG_HOME): the level, no animations, no sound, and
    Windows 7's "Change Appearance": the tiles' colour (a level "-green") and mines or flowers
    (a level "-flowers")."""
    conf = workdir / "config" / "minesweeper"
    conf.mkdir(parents=True, exist_ok=True)
    difficulty, *style = level.split("-")
    board = "green" if "green" in style else "blue"
    game = "flowers" if "flowers" in style else "mines"
    (conf / "minesweeper.conf").write_text(f"[General]\ndifficulty={difficulty}\nanimations=false\nsounds=false\n"
                                           f"boardStyle={board}\ngameStyle={game}\n")


def _prepare_win7_java(level: str, workdir: Path) -> None:
    """Its settings file in its working folder (mine.ini: rows, columns, mines), and its pictures."""
    board = WIN7_JAVA.level(level)
    (workdir / "mine.ini").write_text(f"row={board.rows}\ncol={board.cols}\nminecount={board.mines}\nlast=0\n")
    (workdir / "img").symlink_to(STANDINS / "win7java" / "img")


#: actuallyaridan/linux-minesweeper (Qt 6, GPL): a remake drawn with Windows 7's own artwork (blue
#: tiles shaded across the board, no face, time and mines in boxes under the field), 18 px cells, F2
#: a new game. Mines are placed at the first click, anywhere but on that cell (`Board::placeMines`:
#: the `safe` rule). A game's end opens "Game Won" / "Game Lost" over the board, as Windows 7 does,
#: whose default (Return) plays again: the bot reads and answers them itself (templates/win7).
WIN7_QT = NativeProgram(
    "win7-qt", (str(STANDINS / "win7qt" / "build" / "MineSweeper"),), "Minesweeper", "safe",
    {f"{name}{style}": (board, ())
     for name, board in (("beginner", Level(9, 9, 10)), ("intermediate", Level(16, 16, 40)),
                         ("advanced", Level(16, 30, 99)))
     for style in ("", "-green", "-flowers", "-green-flowers")},
    default="beginner", note="Windows 7's artwork; no face; a dialog after every game",
    prepare=_prepare_win7_qt, env={"XDG_CONFIG_HOME": "{workdir}/config", "QT_QPA_PLATFORM": "xcb"},
    needs=STANDINS / "win7qt" / "build" / "MineSweeper",  # (its end dialogs: the bot answers them, as Windows 7's)
)

#: qwIvan/JavaWin7MineGame (Java Swing): Windows 7's look redrawn (glossy blue tiles, one picture for
#: every tile), 18 px cells, no face, no new-game key. Its first click always opens a 0 (`changeMine`
#: moves the mines off the cell and its neighbours: the `zero` rule). A game's end opens "Info" (lost)
#: or "Congratulation!" (won), centred on the screen clear of the game, whose default (Return)
#: starts a new game: the bot answers them itself (a loss shows nowhere else: the mine is never drawn).
WIN7_JAVA = NativeProgram(
    "win7-java", ("java", "-cp", str(STANDINS / "win7java" / "build"), "ivan.mine.Main"), "MineGame", "zero",
    {"beginner": (Level(9, 9, 10), ()), "expert": (Level(16, 30, 99), ())},
    default="beginner", note="Windows 7's look redrawn, tiles not shaded; no new-game key; a dialog after every game",
    prepare=_prepare_win7_java,
    needs=STANDINS / "win7java" / "build" / "ivan" / "mine" / "Main.class",
)

#: Where the user's unpacked Minesweeper Arbiter 0.52.3 is (third-party: docs/testing.md says where it
#: comes from; never in the project). Its ms_arbiter.exe is a 32-bit program: wine32:i386.
ARBITER_DIR = Path(os.environ.get("MINESWEEPER_ARBITER", STANDINS / "arbiter"))
_ARBITER_MODES = {"beginner": 0, "intermediate": 1, "expert": 2}


def _prepare_arbiter(level: str, workdir: Path) -> None:
    """Its files copied into the game's own folder, where it keeps its statistics and records (so
    each start has none: a win sets records, and Arbiter then shows its Local High Scores over the
    board), and its settings written for the level, with its Counters window shown beside it."""
    for item in ARBITER_DIR.iterdir():
        if item.is_file():
            shutil.copy2(item, workdir / item.name)
    lines = (workdir / "arbiter.dat").read_bytes().decode("latin-1").splitlines()
    # Its window's client area lands 3 px right of and 22 px below posMain (the frame Wine leaves
    # out without a window manager): the X window at (100, 100); the Counters beside the widest.
    values = {"doStartUpMode": _ARBITER_MODES[level], "doShowCounters": 1, "posMainX": 97, "posMainY": 78,
              "posCountersX": 640, "posCountersY": 100}
    out = []
    for line in lines:
        key = line.split("=", 1)[0]
        out.append(f"{key}={values[key]}" if key in values else line)
    (workdir / "arbiter.dat").write_bytes("\r\n".join(out).encode("latin-1") + b"\r\n")


#: Minesweeper Arbiter 0.52.3 (freeware, Windows, 32-bit), the competitive players' program, under
#: Wine (its main window titled "Minesweeper Arbiter ", a space at the end: "about Minesweeper Arbiter"
#: is another): winmine's cells, its own smiley (sunglasses) and seven-segment font, an 8 x 8 Beginner; a
#: Counters window beside the game; a record (any of its many: time, 3BV/s, IOE...) opens its Local
#: High Scores window over the board, which takes no key (the bot closes it, as a player would).
ARBITER = NativeProgram(
    "arbiter", ("wine", "ms_arbiter.exe"), "Minesweeper Arbiter ", "winxp",
    {"beginner": (Level(8, 8, 10), ()), "intermediate": (Level(16, 16, 40), ()), "expert": (Level(16, 30, 99), ())},
    default="beginner", note="Arbiter's own smiley and LED font; side windows; records shown over the board",
    prepare=_prepare_arbiter, env={"WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="},
    needs=ARBITER_DIR / "ms_arbiter.exe", field=(12, 73), face_above=28, places_itself=True,
)

#: Where the user's genuine Windows 7 Minesweeper (6.1.7600, x64: MineSweeper.exe with its 4 MB
#: MineSweeper.dll and en-US folder) is unpacked (third-party: docs/testing.md says where it comes
#: from; never in the project).
WINDOWS7_DIR = Path(os.environ.get("MINESWEEPER_WINDOWS7", STANDINS / "windows7"))


def _prepare_windows7(level: str, workdir: Path) -> None:
    """Its settings and saved game removed from the Wine prefix, so that it opens on its first-run
    chooser of levels (the level's keys pick one there) and never offers a saved game instead."""
    for user in (_prefix() / "drive_c" / "users").glob("*"):
        for folder in (user / "AppData" / "Local" / "Microsoft Games" / "Minesweeper",
                       user / "Saved Games" / "Microsoft Games" / "Minesweeper"):
            shutil.rmtree(folder, ignore_errors=True)


#: The genuine Windows 7 Minesweeper under 64-bit Wine: its Direct3D 9 field drawn by wined3d on
#: Mesa's llvmpipe and copied onto its window by the harness (`mirror`). Blue tiles shaded across
#: the board, no face, F2 a new game, a dialog after every game (its texts are in the en-US .mui,
#: which Wine 8 does not load: the dialogs show no words, titled by the program's file name). Its
#: first click is never a mine and opens an area where it can (Windows 7's rule: `zero`).
WINDOWS7 = NativeProgram(
    "windows7", ("wine", str(WINDOWS7_DIR / "MineSweeper.exe")), "Minesweeper", "zero",
    {"beginner": (Level(9, 9, 10), ("Return",)), "intermediate": (Level(16, 16, 40), ("Down", "Return")),
     "advanced": (Level(16, 30, 99), ("Down", "Down", "Return"))},
    default="beginner", note="the genuine game; Direct3D field mirrored; a wordless dialog after every game",
    prepare=_prepare_windows7, env={"WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="},
    needs=WINDOWS7_DIR / "MineSweeper.exe", chooser="MineSweeper.exe", mirror=True,
)

#: Seconds a game's end dialog stays before the harness answers it (bot.games.native_game.NativeGame).
DIALOG_READ = 2.0

PROGRAMS = {p.name: p for p in (ACE, XDEMINEUR, MINEGAULER, GNOME_MINES, KMINES, SGT_MINES, XBOMB, WIN7_QT, WIN7_JAVA,
                                  ARBITER, WINDOWS7)}


def _titled_windows() -> list[tuple[str, Window]]:
    """Every titled window wider than 20 px as X has it now (title, geometry), in the tree's order;
    none where xwininfo fails."""
    try:  # (titles may be Latin-1: xdemineur's "xdémineur")
        tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, timeout=10,
                              check=True).stdout.decode("utf-8", errors="replace")
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for match in map(_LINE.search, tree.splitlines()):
        if match and int(match.group(3)) > 20:
            wid, name, w, h, _, _, x, y = match.groups()
            found.append((name, Window(int(wid, 16), int(x), int(y), int(w), int(h), 0)))
    return found


def _stop_group(proc: subprocess.Popen[bytes], timeout: float = 5.0) -> None:
    """The game and whatever it runs under (dbus-run-session leaves GNOME Mines running when it is
    stopped alone: its window stayed over the next level's): its whole process group, asked to
    end, then killed if any of it is still there after `timeout` seconds."""
    def alive() -> bool:
        proc.poll()  # (reaps the leader once it has ended)
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return False
        return True

    if alive():
        os.killpg(proc.pid, signal.SIGTERM)
        wait_for(lambda: not alive(), timeout, 0.05)
        if alive():
            os.killpg(proc.pid, signal.SIGKILL)
    stop_process(proc)


class NativeGame:
    """`with NativeGame(ACE, "3", x=100, y=100) as game:` starts the game on $DISPLAY, moves its
    window there (no window manager: X puts it where asked), picks the level, waits until it is
    drawn, and always closes it."""

    def __init__(self, program: NativeProgram, level: str | None = None, x: int = 100, y: int = 100) -> None:
        if shutil.which(program.command[0]) is None:
            raise BotError(f"{program.name} is not installed ({program.command[0]}): ./scripts/setup --games")
        if program.needs is not None and not program.needs.exists():
            raise BotError(f"{program.name} is not built: no {program.needs} (docs/testing.md: the stand-ins)")
        self.program, self.level_name, self.at = program, level or program.default, (x, y)
        self.level = program.level(self.level_name)
        self.proc: subprocess.Popen[bytes] | None = None
        self.workdir: str | None = None
        self._dialogs: dict[str, float] = {}  # dialog window: when it was first seen
        self._mirror: GlMirror | None = None
        self._wid: int | None = None  # the main window's X id, last seen (the mirror's target)

    def start(self, timeout: float = 60) -> Window:
        command = [*self.program.launcher, *self.program.command, *self.program.options.get(self.level_name, ())]
        self.workdir = tempfile.mkdtemp(prefix=f"{self.program.name}-")  # (Minegauler logs to its working folder)
        if self.program.prepare is not None:
            self.program.prepare(self.level_name, Path(self.workdir))
        env = {key: value.format(workdir=self.workdir) for key, value in self.program.env.items()}
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env={**os.environ, **env}, cwd=self.workdir, start_new_session=True)
        deadline = time.monotonic() + timeout
        window = None
        while window is None and time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise CaptureError(f"{self.program.name} exited at once (code {self.proc.returncode})")
            time.sleep(0.1)
            window = self.window()
        if window is None:
            raise CaptureError(f"{self.program.name} opened no window within {timeout:.0f} s")
        if self.program.mirror:
            self._mirror = GlMirror(lambda: self._wid)
            self._mirror.start()
        if not self.program.places_itself:
            self.move(*self.at)
        if self.level_name in self.program.sizes:
            _run(["xdotool", "windowsize", str(window.wid), *map(str, self.program.sizes[self.level_name])])
        window = self.switch(self.level_name, timeout)
        # The input focus, as a desktop's window manager gives a new window (once it is drawn: X
        # refuses to focus a window not yet shown). Without one, X's focus follows the pointer,
        # and GNOME Mines pauses its game whenever the pointer or a window newly mapped under it
        # takes the focus away (a greyed board; the learner's new-game key then asked "start a
        # new game?": the full suite's flake).
        _run(["xdotool", "windowfocus", str(window.wid)])
        return window

    def switch(self, level: str, timeout: float = 60) -> Window:
        """Pick a level as the player would (its keys), and wait until it is drawn."""
        window = self.window()
        if window is None:
            raise CaptureError(f"{self.program.name}'s window is gone")
        if self.program.chooser is not None:
            self._choose(level, timeout)
        else:
            for key in self.program.levels[level][1]:
                _run(["xdotool", "key", "--window", str(window.wid), key])
        if level in self.program.picks:
            self._pick(level, timeout)
        self.level_name, self.level = level, self.program.level(level)
        return self.drawn(timeout)

    def _choose(self, level: str, timeout: float) -> None:
        """The level's keys pressed on the game's chooser window once it is shown, as a user's
        keyboard presses them (to the focused window: the chooser is modal), and waited for until
        the chooser has gone."""
        def chooser() -> Window | None:
            return next((window for name, window in _titled_windows() if name == self.program.chooser), None)

        before = self.window()
        window = self.drawn(timeout, chooser)
        _run(["xdotool", "windowfocus", "--sync", str(window.wid), "key", "--clearmodifiers",
              *self.program.levels[level][1]])
        if not wait_for(lambda: chooser() is None, timeout, 0.2):
            raise CaptureError(f"{self.program.name}'s {self.program.chooser!r} window stayed after the level's keys")
        if level != self.program.default and before is not None:  # (it opens at its default level's size)
            size = (before.width, before.height)
            if not wait_for(lambda: (w := self.window()) is not None and (w.width, w.height) != size, timeout, 0.1):
                raise CaptureError(f"{self.program.name}'s window did not take the {level} level's size")

    def _pick(self, level: str, timeout: float) -> None:
        """The level's button clicked on the game's chooser once it is drawn, and waited for
        until the window shows something else."""
        import mss
        import numpy as np

        window = self.drawn(timeout)
        fx, fy = self.program.picks[level]
        x, y = window.left + round(fx * window.width), window.top + round(fy * window.height)
        _run(["xdotool", "mousemove", str(x), str(y)])
        window = self.drawn(timeout)  # (its button lit under the pointer)
        box = {"left": window.left, "top": window.top, "width": window.width, "height": window.height}
        with mss.MSS() as grabber:
            chooser = np.array(grabber.grab(box))
            _run(["xdotool", "click", "1"])
            if not wait_for(lambda: not np.array_equal(np.array(grabber.grab(box)), chooser), timeout):
                raise CaptureError(f"{self.program.name} did not leave its chooser within {timeout:.0f} s")
        # Off the board (GNOME lights the cell under the pointer), on the window's title bar: not a
        # screen corner, which is the bot's fail-safe.
        _run(["xdotool", "mousemove", str(window.left + window.width // 2), str(window.top + 8)])

    def window(self) -> Window | None:
        """The game's main window as X sees it now, or None when it is not (or no longer) there."""
        title = self.program.title
        found = [(name, window) for name, window in _titled_windows() if title in name]
        # (its own title first: a dialog of the game's may name it after its own, KMines' "Reset? —
        # KMines", and stand first in the tree when open; or add to it, XBomb's "XBomb V2.2b High
        # Scores", made with the game and above it)
        found.sort(key=lambda item: (item[0] != title, not item[0].startswith(title)))
        if not found:
            return None
        self._wid = found[0][1].wid
        return found[0][1]

    def drawn(self, timeout: float = 60, find: Callable[[], Window | None] | None = None) -> Window:
        """Wait until the window (the main one, or the one `find` finds) shows the same, not plain,
        picture in two grabs."""
        import mss
        import numpy as np

        deadline = time.monotonic() + timeout
        last = None
        with mss.MSS() as grabber:
            while time.monotonic() < deadline:
                window = (find or self.window)()
                if window is not None:
                    box = {"left": window.left, "top": window.top, "width": window.width, "height": window.height}
                    now = np.array(grabber.grab(box))
                    if last is not None and np.array_equal(now, last) and now[..., :3].std() > 5:
                        return window
                    last = now
                time.sleep(0.1)
        raise CaptureError(f"{self.program.name}'s window was not drawn within {timeout:.0f} s")

    def on_target(self, x: int, y: int, window: Window | None = None) -> bool:
        """Is the point inside the game's window (on its field or face, where the program says where
        they are), by X's geometry (never the bot's calibration)?"""
        window = window or self.window()
        if window is None:
            return False
        if self.program.field is None:
            return window.left <= x < window.left + window.width and window.top <= y < window.top + window.height
        left, top = window.left + self.program.field[0], window.top + self.program.field[1]
        in_field = left <= x < left + 16 * self.level.cols and top <= y < top + 16 * self.level.rows
        in_face = abs(x - (window.left + window.width / 2)) <= 12 and abs(y - (top - self.program.face_above)) <= 12
        return in_field or in_face

    def move(self, x: int, y: int) -> Window:
        return move_window(self.window, x, y)

    def answer_dialogs(self) -> int:
        """Answer the dialogs the game opens after a game, as a user would: once it has been up for
        DIALOG_READ seconds (the bot reads the finished board first: answered at once, the new game
        hid how the last one ended), with its default key. How many were answered."""
        if not self.program.dialogs:
            return 0
        answered = 0
        for name, window in _titled_windows():
            if name in self.program.dialogs:
                wid = str(window.wid)
                seen = self._dialogs.setdefault(wid, time.monotonic())
                if time.monotonic() - seen < DIALOG_READ:
                    continue
                _run(["xdotool", "windowfocus", "--sync", wid, "key", "--clearmodifiers", self.program.dialogs[name]])
                self._dialogs.pop(wid, None)
                answered += 1
        return answered

    def windows_over(self) -> list[int]:
        """The other windows now shown over the game's main window (its own: a record's name
        entry, Arbiter's Local High Scores; the harness's X display shows no one else's)."""
        from Xlib import X, display, error

        main = self.window()
        if main is None:
            return []
        screen = display.Display()
        over = []
        try:
            for child in screen.screen().root.query_tree().children:
                try:
                    if child.id == main.wid or child.get_attributes().map_state != X.IsViewable:
                        continue  # (Wine keeps many windows of its own unmapped)
                    box = child.get_geometry()
                except error.XError:  # (gone meanwhile)
                    continue
                if box.width > 20 and box.height > 20 and box.x < main.left + main.width \
                        and main.left < box.x + box.width and box.y < main.top + main.height \
                        and main.top < box.y + box.height:
                    over.append(child.id)
        finally:
            screen.close()
        return over

    def clear_windows_over(self, settle: float = 2.0, timeout: float = 20.0) -> int:
        """What a player does before starting the bot again: the game's windows left over its board
        when the last run ended (a win's record entry and score table, opened a moment after the
        win was read) answered with Return, then asked to close, until none has come for `settle`
        seconds (`timeout` at most). How many presses and requests that took."""
        from Xlib import display, error

        from bot.screen.xmouse import ask_to_close

        acted, quiet_since, deadline = 0, time.monotonic(), time.monotonic() + timeout
        presses: dict[int, int] = {}
        screen = display.Display()
        try:
            while time.monotonic() - quiet_since < settle and time.monotonic() < deadline:
                over = self.windows_over()
                for wid in over:
                    presses[wid] = presses.get(wid, 0) + 1
                    try:
                        if presses[wid] <= 2:
                            _run(["xdotool", "windowfocus", "--sync", str(wid), "key", "--clearmodifiers", "Return"])
                        else:  # (one that takes no key: Arbiter's Local High Scores)
                            ask_to_close(screen, wid)
                    except (BotError, error.XError):  # (closed or unmapped meanwhile)
                        continue
                    acted += 1
                if over:
                    quiet_since = time.monotonic()
                time.sleep(0.5)
        finally:
            screen.close()
        return acted

    def close(self) -> None:
        if self._mirror is not None:
            self._mirror.stop()
        self._mirror = None
        if self.proc is not None:
            _stop_group(self.proc)
        self.proc = None
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
        self.workdir = None

    def __enter__(self) -> NativeGame:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
