"""Start, configure, find, move and close WineMine (Wine's Minesweeper) on an X display.

This is how the bot meets a real Windows Minesweeper on Linux: the demo, the end-to-end tests and
the fixture recorder all go through here. Settings go into WineMine's own registry key before
launch, because it reads them only at start-up. The bot itself never needs this module: it finds
the board on the screen like any other window.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass

from bot.errors import BotError, CaptureError
from bot.simulator import LEVELS, Level
from bot.xdisplay import stop_process

KEY = r"HKCU\Software\Microsoft\WinMine"
TITLE = "WineMine"
MENU_HEIGHT = 19  # Wine draws the menu bar inside the X window, above the client area
_LINE = re.compile(r'(0x[0-9a-f]+) "' + TITLE + r'": .*?(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+)')
PRESETS = {LEVELS[name]: index for index, name in enumerate(("beginner", "intermediate", "expert"))}


@dataclass(frozen=True)
class Window:
    """An X window: its id and where its client area (below the menu bar) is on the screen."""

    wid: int
    left: int
    top: int
    width: int
    height: int

    @property
    def client(self) -> tuple[int, int]:
        return self.left, self.top + MENU_HEIGHT


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
        raise BotError(f"{' '.join(args[:3])} failed: {done.stderr.strip()[:200]}")
    return done.stdout


def configure(level: Level, marks: bool = True, x: int = 40, y: int = 40) -> None:
    """Write the level, question marks and window position; zero best times so a win opens no dialog."""
    difficulty = PRESETS.get((level.rows, level.cols, level.mines), 3)
    values = {
        "Difficulty": difficulty,
        "Height": level.rows,
        "Width": level.cols,
        "Mines": level.mines,
        "Mark": int(marks),
        "Xpos": x,
        "Ypos": y,
        "Time1": 0,
        "Time2": 0,
        "Time3": 0,
    }
    args = ["wine", "cmd", "/c", " & ".join(f"reg add {KEY} /v {k} /t REG_DWORD /d {v} /f" for k, v in values.items())]
    _run(args, timeout=120)


class WineMine:
    """A running WineMine: `with WineMine(level) as game:` starts it and always closes it."""

    def __init__(self, level: Level, marks: bool = True, x: int = 40, y: int = 40) -> None:
        if shutil.which("wine") is None:
            raise BotError("Wine is not installed: run ./scripts/setup")
        if not os.environ.get("DISPLAY"):
            raise CaptureError("no DISPLAY: start a VirtualDisplay first")
        self.level = level
        self.settings = (marks, x, y)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60, attempts: int = 3) -> Window:
        """Configure and launch; the registry is shared by every WineMine of the user, and one
        closing writes its own settings back, so a window of the wrong size is started again."""
        size = (self.level.cols * 16 + 10, self.level.rows * 16 + 38 + MENU_HEIGHT)
        for _ in range(attempts):
            configure(self.level, *self.settings)
            self.proc = subprocess.Popen(
                ["wine", "winemine"], env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            deadline = time.monotonic() + timeout
            window = None
            while time.monotonic() < deadline and (window is None or window.width <= 100):
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
        raise CaptureError(f"WineMine did not open a {self.level.rows}x{self.level.cols} window")

    def window(self) -> Window | None:
        """The game's window as X sees it now, or None if it is not (or no longer) mapped."""
        try:
            tree = _run(["xwininfo", "-root", "-tree"], timeout=10)
        except BotError:
            return None
        for line in tree.splitlines():
            match = _LINE.search(line)
            if match:
                wid, w, h, _, _, x, y = match.groups()
                return Window(int(wid, 16), int(x), int(y), int(w), int(h))
        return None

    def move(self, x: int, y: int) -> Window:
        """Move the window (no window manager here, so X moves it where asked)."""
        window = self.window()
        if window is None:
            raise CaptureError("WineMine window is gone")
        _run(["xdotool", "windowmove", str(window.wid), str(x), str(y)])
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            moved = self.window()
            if moved is not None and (moved.left, moved.top) == (x, y):
                return moved
            time.sleep(0.05)
        raise CaptureError("WineMine window did not move")

    def close(self) -> None:
        """Close this game only. Never `wineserver -k`: that would kill every Wine program of
        the user, other games (and other test runs) included."""
        if self.proc is not None:
            stop_process(self.proc)
        self.proc = None
        deadline = time.monotonic() + 5
        while self.window() is not None and time.monotonic() < deadline:
            time.sleep(0.1)

    def __enter__(self) -> WineMine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
