"""The one place that knows which operating system it runs on.

Windows needs the process made DPI-aware before the first grab (else grabs and clicks disagree
on a scaled display) and can find a window by its title; X11 needs ~/.Xauthority to exist for
pyautogui. Everything else in the bot is the same everywhere. The Windows half is only a few
calls through ctypes, tested with a fake `windll`.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class WindowBox:
    left: int
    top: int
    width: int
    height: int


class Platform:
    name = "other"

    def prepare(self) -> None:
        """Make grabs and clicks use the same pixels."""

    def find_window(self, title: str) -> WindowBox | None:
        return None


class Windows(Platform):
    name = "windows"

    def __init__(self, windll: Any = None) -> None:
        if windll is None:
            import ctypes

            windll = ctypes.windll  # type: ignore[attr-defined]
        self.windll = windll

    def prepare(self) -> None:
        try:
            self.windll.shcore.SetProcessDpiAwareness(2)  # per-monitor aware (Windows 8.1+)
        except (AttributeError, OSError):
            self.windll.user32.SetProcessDPIAware()  # system aware (Vista+)

    def find_window(self, title: str) -> WindowBox | None:
        import ctypes.wintypes

        hwnd = self.windll.user32.FindWindowW(None, title)
        if not hwnd:
            return None
        rect = ctypes.wintypes.RECT()
        if not self.windll.user32.GetWindowRect(hwnd, ctypes.byref(rect)):
            return None
        return WindowBox(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top)


class X11(Platform):
    name = "x11"

    def __init__(self, home: Path | None = None, run: Any = subprocess.run) -> None:
        self.home = home or Path.home()
        self.run = run

    def prepare(self) -> None:
        (self.home / ".Xauthority").touch()  # pyautogui's X backend refuses to start without it

    def find_window(self, title: str) -> WindowBox | None:
        try:
            found = self.run(["xdotool", "search", "--name", f"^{title}$", "getwindowgeometry", "--shell"],
                             capture_output=True, text=True, timeout=5, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        values = dict(line.split("=", 1) for line in found.stdout.splitlines() if "=" in line)
        try:
            return WindowBox(int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"]))
        except (KeyError, ValueError):
            return None


def current() -> Platform:
    if sys.platform == "win32":
        return Windows()
    if sys.platform.startswith("linux"):
        return X11()
    return Platform()
