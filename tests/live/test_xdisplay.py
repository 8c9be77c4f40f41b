"""The private virtual display: two runs at once never share one screen.

CI once ran a test suite while another was running: both picked the same free display number,
the second Xvfb exited, and its run drew its game windows on the first one's screen (the learner
then saw a 1 x 4 "grid" of someone else's pixels)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.screen import xdisplay
from bot.screen.xdisplay import VirtualDisplay


@pytest.fixture
def xvfb() -> None:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed: ./scripts/setup installs it")


def _holder(name: str) -> int:
    return int(Path(f"/tmp/.X{name[1:]}-lock").read_text().strip())


def test_a_display_number_taken_in_the_meantime_is_left_to_its_owner(xvfb, monkeypatch):
    with VirtualDisplay() as first:
        taken = int(first[1:])
        real = xdisplay._free_display
        calls: list[int] = []

        def raced(start: int = 90) -> int:
            """The first look saw `taken` free: another run started its server just after."""
            calls.append(start)
            return taken if len(calls) == 1 else real(start)

        monkeypatch.setattr(xdisplay, "_free_display", raced)
        second = VirtualDisplay()
        name = second.start()
        try:
            assert name != first and os.environ["DISPLAY"] == name
            assert second._proc is not None and _holder(name) == second._proc.pid
        finally:
            second.stop()
        assert os.environ["DISPLAY"] == first  # (the first run's display, as it was)
        assert _holder(first) != 0 and Path(f"/tmp/.X11-unix/X{taken}").exists()


def test_a_display_is_ready_once_its_socket_listens(tmp_path):
    """The server's socket file exists from its bind, before it listens: a client connecting then
    is refused. The display is taken as started only once a connection is accepted."""
    import socket

    path = tmp_path / "X0"
    assert not xdisplay._listening(path)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        assert not xdisplay._listening(path)  # (bound, not yet listening)
        server.listen(1)
        assert xdisplay._listening(path)


@pytest.mark.parametrize("desktop", [False, True])
def test_a_mouse_made_where_no_game_is_refuses_every_press(xvfb, desktop: bool):
    """The game moved off the point, or closed, between the grab and the making of its mouse: no
    window is there, or only a desktop (a window under every other one, covering the screen: the
    live tests' canary), which a mouse taking it for the game would click wherever the game had
    been. Every press is refused (the loop then looks for the game again), never handed to
    pyautogui's clicks, which check nothing."""
    from bot.screen.xmouse import WindowMoved, for_target
    from tests.support.catcher import Catcher

    with VirtualDisplay():
        under = Catcher(below=True) if desktop else None  # (else a bare server: no window anywhere)
        mouse = for_target((50, 50))
        assert mouse is not None
        try:
            with pytest.raises(WindowMoved):
                mouse.click(50, 50)
        finally:
            mouse.close()
            if under is not None:
                under.close()
        assert under is None or under.clicks == []


def test_a_click_through_part_of_the_game_s_window_is_refused(xvfb):
    """A window whose input region has a hole at the point (a click-through part: the game's top
    window as its geometry has it, yet the press goes to the window under it). The server's own
    pointer window is checked in the same grab: the press is refused and reaches nothing (without
    that check it reached the canary under the game)."""
    from bot.screen.xmouse import WindowMoved, for_target
    from tests.support.catcher import Catcher
    from tests.support.waiting import wait_for

    with VirtualDisplay(), Catcher(below=True) as canary, Catcher((100, 100, 200, 150)) as game:
        mouse = for_target((200, 175))
        assert mouse is not None and mouse.window is not None and mouse.window[1:3] == (100, 100)
        try:
            mouse.click(200, 175)  # (the whole window takes clicks: the press is made)
            game.shape_input([(0, 0, 200, 40)])
            mouse.click(150, 120)  # (the top 40 rows still take clicks)
            with pytest.raises(WindowMoved):
                mouse.click(150, 200)  # (the hole)
        finally:
            mouse.close()
        wait_for(lambda: len(game.clicks) >= 2)
    assert game.clicks == [(200, 175), (150, 120)] and canary.clicks == []


def _own_window(d, box: tuple[int, int, int, int]):
    """A mapped window of this process (_NET_WM_PID), as a game's own windows are."""
    from Xlib import X, Xatom

    s = d.screen()
    w = s.root.create_window(*box, 0, s.root_depth, X.InputOutput, X.CopyFromParent,
                             background_pixel=s.white_pixel, override_redirect=True)
    w.change_property(d.intern_atom("_NET_WM_PID"), Xatom.CARDINAL, 32, [os.getpid()])
    w.map()
    d.sync()
    return w


def test_a_dialog_open_when_the_game_is_found_again_is_still_its_dialog(xvfb):
    """A window of the game's beside it from the start (Arbiter's Counters) is no dialog; one that
    opened since, clear of the game, is, also for the mouse made when the game is found again
    while it is open (CI, the Java clone: its "Congratulation!" open as the repainted board was
    found again, never seen, and the win logged abandoned)."""
    from Xlib import display

    from bot.screen.xmouse import for_target

    with VirtualDisplay():
        d = display.Display()
        _own_window(d, (100, 100, 200, 150))
        _own_window(d, (320, 100, 100, 60))  # (beside it from the start)
        first = for_target((200, 175))
        assert first is not None and not first.dialog_open()
        _own_window(d, (500, 400, 120, 80))  # (the dialog, clear of the game)
        again, alone = for_target((200, 175)), for_target((200, 175))
        assert again is not None and alone is not None
        again.known_since(first)
        try:
            assert first.dialog_open() and again.dialog_open() and not alone.dialog_open()
        finally:
            for mouse in (first, again, alone):
                mouse.close()
            d.close()


#: A game in another process: a window taking clicks, its id printed once it is on view.
_GAME = """
import contextlib, io, time
from Xlib import X, display
with contextlib.redirect_stdout(io.StringIO()):  # (python-xlib's Xauthority warning)
    d = display.Display()
s = d.screen()
w = s.root.create_window(100, 100, 200, 150, 0, s.root_depth, X.InputOutput, X.CopyFromParent,
                         background_pixel=s.white_pixel, event_mask=X.ButtonPressMask, override_redirect=True)
w.map()
d.sync()
print(w.id, flush=True)
while True:
    time.sleep(0.05)
    while d.pending_events():
        d.next_event()
"""


def test_a_game_killed_between_the_check_and_the_press_takes_it_to_no_other_window(xvfb):
    """The game's process dies after the pointer check, inside the grab: the server drops a client
    that hung up whenever it waits for requests, grab or not, and the game's window goes. The
    press reaches no other window (without the net under the game's window it reached the
    canary beneath, 2 of 2)."""
    from bot.screen.xmouse import X11Mouse
    from tests.support.catcher import Catcher
    from tests.support.waiting import wait_for

    with VirtualDisplay(), Catcher(below=True) as canary:
        game = subprocess.Popen([sys.executable, "-c", _GAME], stdout=subprocess.PIPE, text=True)
        try:
            wid = int(game.stdout.readline())

            class Dying(X11Mouse):
                def _pointer_on_game(self, x: int, y: int) -> bool:
                    on_game = super()._pointer_on_game(x, y)
                    game.kill()
                    game.wait(30)

                    def gone() -> bool:  # (each look a request: the server waits between them, so drops the game)
                        try:
                            self.display.create_resource_object("window", wid).get_geometry()
                        except Exception:
                            return True
                        return False

                    assert wait_for(gone, timeout=30)
                    return on_game

            mouse = Dying((200, 175))
            assert mouse.window is not None and mouse.window[0] == wid
            try:
                mouse.click(200, 175)  # (the check passed: the press is made, on the net)
            finally:
                mouse.close()
            # A press of the user's that reaches only the canary: once it is heard, so was the bot's.
            subprocess.run(["xdotool", "mousemove", "3", "1000", "click", "1"], check=True, timeout=30)
            assert wait_for(lambda: bool(canary.clicks))
        finally:
            game.kill()
            game.wait(30)
    assert canary.clicks == [(3, 1000)]
