"""The fault suite, live: WineMine Expert in our own Xvfb and Wine prefix, over a canary window
that notes every click missing the game, with the bot playing through the mouse it really uses
(bot.screen.xmouse). Each test does to the game what a user or the desktop might, mid-game: cover it
and leave the cover, hide its bottom row, kill it, restart it, change its level, throw the mouse
into a corner. Never a click on the canary or on a cover; a clean stop or play going on each
time; the games played kept on every way out (the summary's source). The window moved ten times,
covered for a second, the stop key and SIGINT are in test_live.py.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from bot.games.simulator import Level
from bot.games.wine_game import WineGame
from bot.play.game_log import GameLog
from bot.play.loop import Options, Stop, play
from bot.screen.capture import Screen
from bot.screen.xdisplay import VirtualDisplay
from bot.vision.skin import load_skins
from tests.support.catcher import Catcher

pytestmark = [pytest.mark.usefixtures("wineprefix"), pytest.mark.full]
EXPERT = Level(16, 30, 99)


@dataclass
class Run:
    """The bot playing in a thread, and what came of it."""

    game: WineGame
    logs: list[GameLog] = field(default_factory=list)
    outcome: dict = field(default_factory=dict)
    enough: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def field_box(self) -> tuple[int, int, int, int]:
        left, top = self.game.field_origin()
        return left, top, 16 * self.game.level.cols, 16 * self.game.level.rows

    def wait_for(self, done: Callable[[], bool], timeout: float = 120) -> bool:
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline and self.thread.is_alive():
            time.sleep(0.05)
        return done()

    def finish(self, timeout: float = 180) -> None:
        """Wait for the run to end: stopped by the fault, or by the stop key a test pressed (set
        `enough` first where play is meant to go on: otherwise this waits the whole `timeout`)."""
        self.thread.join(timeout)
        if self.thread.is_alive():  # not stopped by the fault: the user's stop key, then wait again
            self.enough.set()
            self.thread.join(timeout)


@pytest.fixture
def canary(display) -> Iterator[Catcher]:
    with Catcher(below=True) as catcher:
        subprocess.run(["xdotool", "mousemove", "3", "1000", "click", "1", "mousemove", "640", "512"], check=True,
                       timeout=30)
        deadline = time.monotonic() + 20
        while not catcher.clicks and time.monotonic() < deadline:
            time.sleep(0.02)
        assert catcher.clicks == [(3, 1000)]  # it hears a click that misses everything
        catcher.clicks.clear()
        yield catcher


def _start(game: WineGame, tmp_path: Path, screen: Screen, patience: float = 0.0) -> Run:
    """The bot started on a game just drawn, returned once it is playing (a game logged, or the
    field no longer the fresh one)."""
    game.drawn()
    run = Run(game)
    fresh = _field_pixels(run)
    options = Options(games=1000, skins=load_skins(names=["winemine"]), profile=tmp_path / "p.json",
                      stop_dir=tmp_path, fresh_layouts=True, stopped=run.enough.is_set, patience=patience)

    def body() -> None:
        try:
            play(options, screen, logs=run.logs)
        except Stop as err:
            run.outcome["stop"] = str(err)
        except Exception as err:  # a crash is what the tests look for
            run.outcome["crash"] = repr(err)

    run.thread = threading.Thread(target=body)
    run.thread.start()
    assert run.wait_for(lambda: bool(run.logs) or not np.array_equal(_field_pixels(run), fresh), 60), run.outcome
    return run


def _field_pixels(run: Run) -> np.ndarray:
    import mss

    left, top, width, height = run.field_box()
    with mss.MSS() as grabber:
        return np.array(grabber.grab({"left": left, "top": top, "width": width, "height": height}))


def _clean(run: Run, canary: Catcher) -> None:
    assert "crash" not in run.outcome, run.outcome
    assert not run.thread.is_alive()
    assert canary.clicks == [], canary.clicks
    assert all(g.clicks >= 0 and g.result in ("won", "lost", "abandoned", "stopped") for g in run.logs), run.logs


@pytest.mark.parametrize("where", ["middle", "bottom_row"])
def test_covered_and_left_stops_safely_with_no_click_on_the_cover(canary, tmp_path: Path, where: str):
    """A window over the field, left there (over the middle, or over the bottom row only, like a
    taskbar): the bot stops safely, without one click on the cover or beside the game."""
    with WineGame(EXPERT, x=60, y=60) as game, Screen() as screen:
        run = _start(game, tmp_path, screen)
        left, top, width, height = run.field_box()
        box = (left + 120, top + 60, 200, 120) if where == "middle" else (left - 20, top + height - 16, width + 40, 60)
        with Catcher(box) as cover:
            run.finish()
    _clean(run, canary)
    assert cover.clicks == [], cover.clicks
    assert "stopped safely" in run.outcome.get("stop", ""), run.outcome


def test_covered_for_a_second_then_resumes(canary, tmp_path: Path):
    """A window over the field for a second, then gone: no click reaches it (each click is checked
    in the same X server grab that makes it), and the bot plays on once the game shows again."""
    with WineGame(EXPERT, x=60, y=60) as game, Screen() as screen:
        run = _start(game, tmp_path, screen)
        left, top, _, _ = run.field_box()
        with Catcher((left + 100, top + 40, 200, 150)) as cover:
            time.sleep(1.0)  # (the fault itself: how long the cover stays)
        played = len(run.logs)
        assert run.wait_for(lambda: len(run.logs) >= played + 2, 180), run.outcome
        run.enough.set()
        run.finish()
    _clean(run, canary)
    assert cover.clicks == [], cover.clicks


def test_killed_game_stops_safely(canary, tmp_path: Path):
    """The game killed mid-run, with a minute's patience for a hidden game: the bot sees that its
    window is gone and stops at once, saying so, rather than waiting for it."""
    with WineGame(EXPERT, x=60, y=60) as game, Screen() as screen:
        run = _start(game, tmp_path, screen, patience=60.0)
        game.close()
        run.finish()
    _clean(run, canary)
    assert "window was closed" in run.outcome.get("stop", ""), run.outcome


def test_user_restart_is_followed(canary, tmp_path: Path):
    """The user clicks the face mid-run: the bot follows the new game and plays on."""
    with WineGame(EXPERT, x=60, y=60) as game, Screen() as screen:
        run = _start(game, tmp_path, screen)
        window = game.window()
        _, top = game.field_origin(window)
        face = (window.left + window.width // 2, top - game.program.face_above)
        subprocess.run(["xdotool", "mousemove", str(face[0]), str(face[1]), "click", "1"], check=True, timeout=30)
        at_restart = len(run.logs)
        assert run.wait_for(lambda: len(run.logs) >= at_restart + 2), (run.logs, run.outcome)
        run.enough.set()
        run.finish()
    _clean(run, canary)
    assert "stop key" in run.outcome.get("stop", ""), run.outcome  # it played on until told to stop


def test_level_changed_is_recalibrated(canary, tmp_path: Path):
    """The user starts the game again at another level in another place: with patience the bot
    waits for it, finds it and plays on there."""
    with Screen() as screen:
        with WineGame(EXPERT, x=60, y=60) as game:
            run = _start(game, tmp_path, screen, patience=60.0)
        at_change = len(run.logs)
        with WineGame(Level(16, 16, 40), x=300, y=200) as game:
            run.game = game
            assert run.wait_for(lambda: len(run.logs) >= at_change + 2), (run.logs, run.outcome)
            run.enough.set()
            run.finish()
    _clean(run, canary)
    assert "stop key" in run.outcome.get("stop", ""), run.outcome


def test_fail_safe_corner_stops(canary, tmp_path: Path):
    """The user throws the mouse into the top-left corner and holds it there: the next click is
    not made, the run stops with the fail-safe's message."""
    with WineGame(EXPERT, x=60, y=60) as game, Screen() as screen:
        run = _start(game, tmp_path, screen)
        deadline = time.monotonic() + 60
        try:
            while run.thread.is_alive() and time.monotonic() < deadline:
                subprocess.run(["xdotool", "mousemove", "0", "0"], check=True, timeout=30)
                time.sleep(0.05)
            run.finish()
        finally:  # the display is shared by the whole run: the next test's bot must not start in the corner
            subprocess.run(["xdotool", "mousemove", "640", "512"], check=True, timeout=30)
    _clean(run, canary)
    assert "fail-safe" in run.outcome.get("stop", ""), run.outcome


def test_best_time_dialogs_are_answered_and_every_win_counted(canary, tmp_path: Path):
    """Best times of 999 s: a win opens WineMine's name entry over the board ("Please enter your
    name", no title bar without a window manager), then its best times. Nobody is at the
    keyboard and no patience is given: the bot answers both with Return (the name proposed
    kept), counts the win and plays on. It once waited, stopped and logged the won game as
    stopped. Never a click on the canary, no dialog left open."""
    said: list[str] = []
    logs: list[GameLog] = []
    with WineGame(Level(9, 9, 10), x=60, y=60, best_time=999) as game, Screen() as screen:
        game.drawn()
        options = Options(games=4, skins=load_skins(names=["winemine"]), profile=tmp_path / "p.json",
                          stop_dir=tmp_path, fresh_layouts=True)
        play(options, screen, logs=logs, say=said.append)
        left_open = game.dialogs()
    assert len(logs) == 4 and all(g.result in ("won", "lost") for g in logs), logs
    assert any(g.result == "won" for g in logs), logs
    answered = [line for line in said if "answered with Return" in line]
    assert len(answered) >= 2, said  # the name entry, then the best times
    assert left_open == [], left_open
    assert canary.clicks == [], canary.clicks


@contextlib.contextmanager
def openbox() -> Iterator[None]:
    """Openbox managing the display, once it has taken it (its check window on the root). One that
    exits before that is started again (three times), and a failure says what it printed."""
    wm: subprocess.Popen[bytes] | None = None
    with tempfile.TemporaryFile() as said:
        try:
            for _ in range(3):
                wm = subprocess.Popen(["openbox", "--sm-disable"], stdout=subprocess.DEVNULL, stderr=said)
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and wm.poll() is None:
                    found = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], capture_output=True,
                                           text=True, timeout=30, check=False)
                    if "window id" in found.stdout:
                        break
                    time.sleep(0.1)
                else:
                    if wm.poll() is None:
                        wm.terminate()
                        wm.wait(timeout=30)
                    continue
                break
            else:
                said.seek(0)
                printed = said.read().decode(errors="replace").strip()[-2000:]
                code = wm.poll() if wm else None
                pytest.fail(f"openbox did not take the display in 3 starts (last exit {code}): {printed!r}")
            yield
        finally:
            if wm is not None and wm.poll() is None:
                wm.terminate()
                wm.wait(timeout=30)


@pytest.mark.skipif(shutil.which("openbox") is None or shutil.which("xprop") is None,
                    reason="openbox (and xprop) not installed: ./scripts/setup --full installs them")
def test_best_time_dialogs_under_a_window_manager(tmp_path: Path):
    """The same under openbox, on a display of its own: the game's windows are framed, so the game's
    dialog is found through the frames (the client window, by its process). WineMine's first win
    once opened "Congratulations" and "Fastest Times" there, and the won game was logged lost."""
    said: list[str] = []
    logs: list[GameLog] = []
    with (VirtualDisplay(), openbox(), WineGame(Level(9, 9, 10), x=60, y=60, best_time=999) as game,
          Screen() as screen):
        game.drawn()
        options = Options(games=3, skins=load_skins(names=["winemine"]), profile=tmp_path / "p.json",
                          stop_dir=tmp_path, fresh_layouts=True)
        play(options, screen, logs=logs, say=said.append)
    assert len(logs) == 3 and all(g.result in ("won", "lost") for g in logs), logs
    assert any(g.result == "won" for g in logs), logs
    assert sum("answered with Return" in line for line in said) >= 2, said
