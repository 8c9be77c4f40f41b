"""A private virtual X display (Xvfb), so tests, the demo and recordings never need a real screen.

Each user gets a display number nobody else holds, and the server is always stopped, even when
the code inside the `with` block fails.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from bot.errors import CaptureError


def connect() -> Any:
    """A python-xlib connection to $DISPLAY. python-xlib prints an Xauthority warning on stdout,
    which is the bot's output (--json, the summary), whenever the display needs no cookie (as
    Xvfb's does not): the connection either works or raises, so the warning is dropped."""
    from Xlib import display

    with contextlib.redirect_stdout(io.StringIO()):
        return display.Display()


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """Terminate, give it five seconds, then kill."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()


def _listening(path: Path) -> bool:
    """Whether a server takes connections on the socket: the file is made before the server listens
    on it, and a client connecting between the two is refused (seen once in the quick suite)."""
    if not path.exists():
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


#: Display numbers tried when another run takes the free one first.
ATTEMPTS = 20


def _free_display(start: int = 90) -> int:
    for number in range(start, start + 200):
        if not Path(f"/tmp/.X{number}-lock").exists() and not Path(f"/tmp/.X11-unix/X{number}").exists():
            return number
    raise CaptureError("no free X display number")


class VirtualDisplay:
    """`with VirtualDisplay() as name:` runs Xvfb and points DISPLAY at it for the block."""

    def __init__(self, width: int = 1280, height: int = 1024, depth: int = 24) -> None:
        self.size = (width, height, depth)
        self.name = ""
        self._proc: subprocess.Popen[bytes] | None = None
        self._saved: str | None = None

    def start(self) -> str:
        if shutil.which("Xvfb") is None:
            raise CaptureError("Xvfb is not installed: run ./scripts/setup")
        number = _free_display()
        for _ in range(ATTEMPTS):
            if self._serve(number):
                break
            number = _free_display(number + 1)
        else:
            raise CaptureError(f"Xvfb did not start (tried {ATTEMPTS} display numbers up to :{number})")
        self.name = f":{number}"
        self._saved = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = self.name
        Path.home().joinpath(".Xauthority").touch()  # pyautogui's X11 backend insists on it
        return self.name

    def _serve(self, number: int) -> bool:
        """Xvfb on :number, once its lock file names it. Two runs at once (a test suite and the
        demo, two suites) can pick the same free number: the second server exits, and the socket
        it waited for is the first one's, so its windows would share one screen."""
        width, height, depth = self.size
        self._proc = proc = subprocess.Popen(
            ["Xvfb", f":{number}", "-screen", "0", f"{width}x{height}x{depth}", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        lock, listener = Path(f"/tmp/.X{number}-lock"), Path(f"/tmp/.X11-unix/X{number}")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                ours = int(lock.read_text().strip() or 0) == proc.pid
            except (OSError, ValueError):
                ours = False
            if ours and _listening(listener):
                return True
            time.sleep(0.02)
        stop_process(proc)
        self._proc = None
        return False

    def stop(self) -> None:
        if self._proc is not None:
            stop_process(self._proc)
            self._proc = None
        if self._saved is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = self._saved

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
