"""Start, configure, find, move and close a Windows Minesweeper under Wine on an X display.

This is how the bot meets real Windows games on Linux: WineMine (Wine's clone), and the genuine
winmine.exe builds (Windows XP's, and the older NT 4 one) when the user has them. The demo, the
end-to-end tests, the benchmarks and the fixture recorder all go through here. Settings are written
before launch, because the games read them only at start-up: WineMine and XP's winmine read the
registry key below, the NT 4 build reads entpack.ini in the Windows folder; both are written, so one
configure suits all three. The bot itself never needs this module: it finds the board on the
screen like any other window.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.errors import BotError, CaptureError
from bot.games.simulator import LEVELS, Level
from bot.screen.xdisplay import stop_process
from bot.waiting import wait_for

KEY = r"HKCU\Software\Microsoft\WinMine"  # WineMine's and XP winmine's key (registry names ignore case)
_LINE = re.compile(r'(0x[0-9a-f]+) (?:"(.*)"|\(has no name\)): \("([^"]*)" "[^"]*"\)\s+'
                   r'(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+)')
PRESETS = {LEVELS[name]: index for index, name in enumerate(("beginner", "intermediate", "expert"))}


@dataclass(frozen=True)
class Program:
    """One Minesweeper program: what `wine` runs, how X names its windows, and how much bigger
    than the field its window is (the size proves the level was taken from the settings)."""

    command: str
    wm_class: str
    border: tuple[int, int]  # window width and height minus the field's
    menu: int  # menu bar height inside the X window, above the client area
    field: tuple[int, int]  # the field's top-left corner in the X window
    face_above: int  # the face's centre above the field's top edge (centred on the window, +-2 px)
    beginner: tuple[int, int, int] = LEVELS["beginner"]  # the NT 4 build's Beginner is 8x8

    def window_size(self, level: Level) -> tuple[int, int]:
        return level.cols * 16 + self.border[0], level.rows * 16 + self.border[1]

    def preset(self, name: str) -> Level:
        return Level(*(self.beginner if name == "beginner" else LEVELS[name]))


WINEMINE = Program("winemine", "winemine.exe", (10, 57), 19, (5, 52), 16)


def genuine(exe: Path) -> Program:
    """A genuine winmine.exe. The NT 4 build (40 KB, 1996) has an 8x8 Beginner; XP's has 9x9."""
    beginner = (8, 8, 10) if exe.stat().st_size < 64_000 else LEVELS["beginner"]
    return Program(str(exe), exe.name.lower(), (20, 82), 20, (12, 74), 27, beginner)


@dataclass(frozen=True)
class Window:
    """An X window: its id and where its client area (below the menu bar) is on the screen."""

    wid: int
    left: int
    top: int
    width: int
    height: int
    menu: int = WINEMINE.menu

    @property
    def client(self) -> tuple[int, int]:
        return self.left, self.top + self.menu


def move_window(find: Callable[[], Window | None], x: int, y: int) -> Window:
    """Move the window `find` finds (no window manager here: X puts it where asked), and wait
    until X has it there.

    The move is asked for again each second: a move asked once was seen not to arrive within 5 s
    on a loaded machine, and a game laying out a new board moves its window to where it last
    recorded it (WineMine's new game does), which can undo a move made meanwhile.
    """
    deadline = time.monotonic() + 20
    asked = 0.0
    window = find()
    if window is None:
        raise CaptureError("the game's window is gone")
    while time.monotonic() < deadline:
        if (window.left, window.top) == (x, y):
            return window
        if time.monotonic() - asked > 1:
            _run(["xdotool", "windowmove", str(window.wid), str(x), str(y)])
            asked = time.monotonic()
        time.sleep(0.05)
        window = find() or window  # a slow xwininfo on a loaded machine is not a closed window
    raise CaptureError(f"the game's window did not move to {x},{y}: it is at {window.left},{window.top}")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("WINEDEBUG", "-all")
    env.setdefault("WINEDLLOVERRIDES", "mscoree,mshtml=")  # no Mono/Gecko prompts on a new prefix
    return env


def _run(args: list[str], timeout: float = 60) -> str:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=_env(), check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise BotError(f"{args[0]} failed: {err}") from err
    if done.returncode != 0:
        hint = ""
        if "c0000135" in done.stderr:  # the 32-bit loader in a prefix whose syswow64 is empty
            prefix = _prefix()
            hint = (f" (the Wine prefix {prefix} was made before wine32 was installed: "
                    f"rm {prefix}/.update-timestamp; wine64 wineboot -u)")
        raise BotError(f"{' '.join(args[:3])} failed (exit {done.returncode}): {done.stderr.strip()[:200]}{hint}")
    return done.stdout


def _prefix() -> Path:
    return Path(os.environ.get("WINEPREFIX") or Path.home() / ".wine")


def _windows_folder(prefix: Path | None = None) -> Path:
    return (prefix or _prefix()) / "drive_c" / "windows"


def add_32bit_side(prefix: Path) -> bool:
    """A 64-bit prefix made while Wine had no 32-bit loader has an empty syswow64; once wine32 is
    installed, plain `wine` picks the 32-bit loader and dies there (c0000135). wineboot fills the
    32-bit side in once the prefix's update stamp is gone. True when it had to."""
    wow = _windows_folder(prefix) / "syswow64"
    wine64 = shutil.which("wine64") or "/usr/lib/wine/wine64"
    if not (Path("/usr/lib/wine/wine").exists() and Path(wine64).exists() and wow.is_dir()) \
            or (wow / "kernel32.dll").exists():
        return False
    (prefix / ".update-timestamp").unlink(missing_ok=True)
    env = {**_env(), "WINEPREFIX": str(prefix)}
    try:
        for args in ([wine64, "wineboot", "-u"], [shutil.which("wineserver") or "/usr/lib/wine/wineserver", "-w"]):
            subprocess.run(args, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise BotError(f"could not add the 32-bit side to the Wine prefix {prefix}: {err}") from err
    if not (wow / "kernel32.dll").exists():
        raise BotError(f"could not add the 32-bit side to the Wine prefix {prefix}: remove it and run again")
    return True


def configure(level: Level, marks: bool = True, x: int = 40, y: int = 40, best_time: int = 0) -> None:
    """Write the level, question marks, window position and best times: 0 (the default) means a
    win never opens the name dialog (a time is a record only if it beats the best one)."""
    difficulty = PRESETS.get((level.rows, level.cols, level.mines), 3)
    if (level.rows, level.cols, level.mines) == (8, 8, 10):
        difficulty = 0  # the NT 4 build's own Beginner
    values = {
        "Difficulty": difficulty,
        "Height": level.rows,
        "Width": level.cols,
        "Mines": level.mines,
        "Mark": int(marks),
        "Xpos": x,
        "Ypos": y,
        "Time1": best_time,
        "Time2": best_time,
        "Time3": best_time,
        "AlreadyPlayed": 1,  # XP's winmine writes its defaults over all of these on a first run
    }
    args = ["wine", "cmd", "/c", " & ".join(f"reg add {KEY} /v {k} /t REG_DWORD /d {v} /f" for k, v in values.items())]
    for attempt in range(3):  # idempotent; seen failing once, silently, right after a killed game
        try:
            _run(args, timeout=120)
            break
        except BotError:
            if attempt == 2:
                raise
            time.sleep(1.0)
    folder = _windows_folder()
    if folder.is_dir():
        ini = "[Minesweeper]\r\n" + "".join(f"{k}={v}\r\n" for k, v in values.items())
        (folder / "entpack.ini").write_text(ini)


class WineGame:
    """A running Minesweeper under Wine: `with WineGame(level) as game:` starts it and always
    closes it. WineMine unless another Program is given."""

    def __init__(self, level: Level, marks: bool = True, x: int = 40, y: int = 40,
                 program: Program = WINEMINE, best_time: int = 0) -> None:
        if shutil.which("wine") is None:
            raise BotError("Wine is not installed: run ./scripts/setup")
        if not os.environ.get("DISPLAY"):
            raise CaptureError("no DISPLAY: start a VirtualDisplay first")
        self.level = level
        self.program = program
        self.settings = (marks, x, y, best_time)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60, attempts: int = 3) -> Window:
        """Configure and launch; the settings are shared by every game of the user, and one
        closing writes its own back, so a window of the wrong size is started again."""
        size = self.program.window_size(self.level)
        for _ in range(attempts):
            configure(self.level, *self.settings)
            self.proc = subprocess.Popen(
                ["wine", self.program.command], env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            deadline = time.monotonic() + timeout
            window = None
            while time.monotonic() < deadline and (window is None or window.width <= 100):
                if self.proc.poll() is not None:
                    raise CaptureError(f"{self.program.command} exited at once (a 64-bit-only Wine for a "
                                       f"32-bit program? apt-get install wine32:i386)")
                time.sleep(0.2)
                window = self.window()
            if window is None:
                break
            if (window.width, window.height) != size:
                time.sleep(0.5)  # let it finish sizing itself before judging
                window = self.window() or window
            if (window.width, window.height) == size:
                return window
            self.close()
        self.close()
        raise CaptureError(f"{self.program.command} did not open a {self.level.rows}x{self.level.cols} window")

    def _windows(self) -> list[tuple[Window, str | None]]:
        """The program's top-level windows with their titles (None: untitled, like its dialogs)."""
        try:
            tree = _run(["xwininfo", "-root", "-tree"], timeout=10)
        except BotError:
            return []
        found = []
        for line in tree.splitlines():
            match = _LINE.search(line)
            if match and match.group(3).lower() == self.program.wm_class:
                wid, title, _, w, h, _, _, x, y = match.groups()
                found.append((Window(int(wid, 16), int(x), int(y), int(w), int(h), self.program.menu), title))
        return found

    def window(self) -> Window | None:
        """The game's main window as X sees it now, or None if it is not (or no longer) there: the
        first titled window it made (its dialogs come later, some titled too)."""
        titled = [w for w, title in self._windows() if title not in (None, "Default IME") and w.width > 1]
        return min(titled, key=lambda w: w.wid, default=None)

    def dialogs(self) -> list[Window]:
        """Windows the game shows besides its own (a best-time name entry, the best times)."""
        main = self.window()
        return [w for w, title in self._windows()
                if title != "Default IME" and w.width > 20 and (main is None or w.wid != main.wid)]

    def answer_dialogs(self, timeout: float = 10) -> int:
        """Press Enter in each dialog as a player would (a best-time name is kept as the game
        proposes it; the best times that follow are closed), until none is left; returns how
        many were answered."""
        answered = 0
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.dialogs()
            if not shown:
                return answered
            dialog = shown[0]
            try:
                _run(["xdotool", "windowfocus", "--sync", str(dialog.wid), "key", "--clearmodifiers", "Return"])
            except BotError:  # listed before it can take the focus (X's BadMatch), or gone already
                time.sleep(0.1)
                continue
            while any(d.wid == dialog.wid for d in self.dialogs()) and time.monotonic() < deadline:
                time.sleep(0.05)
            answered += 1
        raise CaptureError("the game's dialogs did not close")

    def drawn(self, timeout: float = 60) -> Window:
        """Wait until the window is up and its field painted and still (two grabs alike, not the
        one plain colour of an unpainted window): a window mapped is not yet a window drawn."""
        import mss
        import numpy as np

        deadline = time.monotonic() + timeout
        last = None
        with mss.MSS() as grabber:
            while time.monotonic() < deadline:
                window = self.window()
                origin = self.field_origin(window) if window is not None else None
                if origin is not None:
                    box = {"left": origin[0], "top": origin[1], "width": 16 * self.level.cols,
                           "height": 16 * self.level.rows}
                    try:
                        now = np.array(grabber.grab(box))
                    except Exception:
                        now = None
                    if now is not None and last is not None and np.array_equal(now, last) and now[..., :3].std() > 5:
                        return window
                    last = now
                time.sleep(0.05)
        raise CaptureError(f"{self.program.command}'s window was not drawn within {timeout:.0f} s")

    def field_origin(self, window: Window | None = None) -> tuple[int, int] | None:
        """The field's top-left corner on the screen, from X's window geometry alone."""
        window = window or self.window()
        if window is None:
            return None
        return window.left + self.program.field[0], window.top + self.program.field[1]

    def on_target(self, x: int, y: int, window: Window | None = None) -> bool:
        """Is the point on the field or on the face's button, by X's geometry (never the bot's
        calibration): how the benchmarks and tests judge every click the bot makes."""
        window = window or self.window()
        origin = self.field_origin(window)
        if window is None or origin is None:
            return False
        left, top = origin
        in_field = left <= x < left + 16 * self.level.cols and top <= y < top + 16 * self.level.rows
        in_face = abs(x - (window.left + window.width / 2)) <= 14 and abs(y - (top - self.program.face_above)) <= 14
        return in_field or in_face

    def move(self, x: int, y: int) -> Window:
        """Move the window (no window manager here, so X moves it where asked)."""
        return move_window(self.window, x, y)

    def close(self) -> None:
        """Close this game only. Never `wineserver -k`: that would kill every Wine program of
        the user, other games (and other test runs) included."""
        if self.proc is not None:
            stop_process(self.proc)
        self.proc = None
        wait_for(lambda: self.window() is None, 5.0)

    def __enter__(self) -> WineGame:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
