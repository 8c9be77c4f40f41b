"""The click guard, the fail-safe, and the platform seam, with fakes: no screen needed."""

from __future__ import annotations

import ctypes
import time
from pathlib import Path
from time import sleep as time_sleep

import pytest

from bot.screen.actuator import Actuator, ActuatorError, Target
from bot.screen.capture import Region
from bot.screen.platform import X11, Windows

TARGET = Target(left=100, top=200, pitch=16, rows=9, cols=9, face=(160, 160, 24, 24))


class FakeGui:
    def __init__(self, fail_at: int | None = None) -> None:
        self.events: list[tuple] = []
        self.fail_at = fail_at

    def click(self, x, y, button="left"):
        if self.fail_at is not None and len(self.events) >= self.fail_at:
            raise type("FailSafeException", (Exception,), {})("corner")
        self.events.append((button, x, y))


def test_clicks_land_on_cell_centres_and_the_face():
    gui = FakeGui()
    act = Actuator(TARGET, gui)
    act.open((0, 0))
    act.flag((8, 8))
    act.chord((4, 2))
    act.restart()
    assert gui.events == [
        ("left", 108, 208), ("right", 236, 336), ("middle", 140, 272), ("left", 172, 172)
    ]
    assert act.clicks == 4


@pytest.mark.parametrize("cell", [(-1, 0), (0, 9), (9, 0), (100, 100)])
def test_cells_off_the_board_are_refused(cell):
    gui = FakeGui()
    with pytest.raises(ActuatorError):
        Actuator(TARGET, gui).open(cell)
    assert gui.events == []  # the mouse never moved


def test_guard_allows_only_field_and_face():
    assert TARGET.allows(108, 208) and TARGET.allows(172, 172)
    for x, y in [(0, 0), (99, 208), (245, 208), (108, 345), (150, 150), (1279, 1023)]:
        assert not TARGET.allows(x, y)


class MovingGui(FakeGui):
    def moveTo(self, x, y):  # (pyautogui's name)
        self.events.append(("move", x, y))


def test_the_pointer_is_stirred_off_its_resting_point_and_back_only_where_it_rests():
    """KMines keeps its "You have won" box while the pointer is over it; a scores window that
    closed over the box left KMines believing so for good (4 games in 50 stopped): a move a
    pixel off the resting point and back tells the game where the pointer is. Where the pointer
    has no resting point (the user's), it is never moved."""
    from dataclasses import replace

    gui = MovingGui()
    resting = Actuator(replace(TARGET, park=(172.0, 196.0)), gui)
    gui.events.clear()
    resting.stir()
    assert gui.events == [("move", 173, 196), ("move", 172, 196)]
    gui = MovingGui()
    Actuator(TARGET, gui).stir()
    assert gui.events == []


class TimedGui(MovingGui):
    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def click(self, x, y, button="left"):
        super().click(x, y, button)
        self.times.append(time.monotonic())

    def moveTo(self, x, y):
        super().moveTo(x, y)
        self.times.append(time.monotonic())


def test_the_pointer_stays_on_a_clicked_cell_for_the_skin_s_dwell_before_it_rests(monkeypatch):
    """The genuine Windows 7 Minesweeper takes a click where the pointer is at its next frame:
    parked off the field at once, clicks opened nothing (under Wine, 5 Beginner games of 5 stopped).
    With the skin's dwell the pointer leaves the cell only that long after the press; the
    actuator's first rest, with no press before it, waits for nothing."""
    from dataclasses import replace

    from bot.vision.skin import load_skins

    dwell = {s.name: s.click_dwell for s in load_skins()}
    assert dwell["win7"] >= 0.03 and dwell["win7-green"] == dwell["win7"] and dwell["classic"] == 0.0
    import bot.screen.actuator as actuator

    slept: list[float] = []
    monkeypatch.setattr(actuator.time, "sleep", lambda s: (slept.append(s), time_sleep(s)))
    gui = TimedGui()
    act = Actuator(replace(TARGET, park=(172.0, 196.0), dwell=dwell["win7"]), gui)
    assert slept == []
    gui.events.clear()
    gui.times.clear()
    act.open((0, 0))
    assert [e[0] for e in gui.events] == ["left", "move"]
    assert gui.times[1] - gui.times[0] >= dwell["win7"] and slept == [dwell["win7"]]

def test_fail_safe_stops_with_a_clear_error():
    with pytest.raises(ActuatorError, match="fail-safe"):
        Actuator(TARGET, FakeGui(fail_at=0)).open((1, 1))


class FakeUser32:
    def __init__(self, hwnd: int) -> None:
        self.hwnd = hwnd
        self.aware = False

    def FindWindowW(self, cls, title):
        return self.hwnd if title == "Minesweeper" else 0

    def GetWindowRect(self, hwnd, rect_ref):
        rect = ctypes.cast(rect_ref, ctypes.POINTER(ctypes.c_long * 4)).contents
        rect[0], rect[1], rect[2], rect[3] = 10, 20, 210, 320
        return 1

    def SetProcessDPIAware(self):
        self.aware = True

    def GetWindowTextW(self, hwnd, buffer, size):  # (an untitled window)
        return 0


class FakeShcoreMissing:
    def SetProcessDpiAwareness(self, level):
        raise OSError("shcore.dll missing (Windows 7)")


class FakeWindll:
    def __init__(self) -> None:
        self.user32 = FakeUser32(hwnd=42)
        self.shcore = FakeShcoreMissing()


def test_windows_seam_with_a_fake_windll():
    windll = FakeWindll()
    win = Windows(windll)
    win.prepare()
    assert windll.user32.aware  # fell back to the Vista call
    assert win.find_window("Minesweeper") == Region(10, 20, 200, 300)
    assert win.find_window("Notepad") is None


def test_x11_seam_with_a_fake_xdotool(tmp_path: Path):
    class Done:
        stdout = "WINDOW=123\nX=40\nY=50\nWIDTH=154\nHEIGHT=201\nSCREEN=0\n"

    calls = []
    x11 = X11(home=tmp_path, run=lambda args, **kw: calls.append(args) or Done())
    x11.prepare()
    assert (tmp_path / ".Xauthority").exists()
    assert x11.find_window("WineMine") == Region(40, 50, 154, 201)
    assert calls[0][:3] == ["xdotool", "search", "--name"]


def test_a_scaled_display_without_dpi_awareness_is_refused():
    """The mouse's virtual screen (GetSystemMetrics) against the grab's: on a 150 % display a
    process that is not DPI-aware clicks over 1707x960 while it grabs 2560x1440: every click would
    land off by the scale, so `play` refuses with the reason instead."""
    windll = FakeWindll()
    sizes = {78: 1707, 79: 960}
    windll.user32.GetSystemMetrics = lambda index: sizes[index]
    win = Windows(windll)
    problem = win.pixel_problem(lambda: (2560, 1440))
    assert problem and "2560x1440" in problem and "1707x960" in problem
    sizes.update({78: 2560, 79: 1440})
    assert win.pixel_problem(lambda: (2560, 1440)) is None
    # where nothing is scaled behind the process's back (X11), the screen is not even opened for it
    assert X11(home=Path("/nonexistent")).pixel_problem(lambda: pytest.fail("grab size asked")) is None


def test_the_game_window_is_restored_and_raised_on_windows():
    """`play` on Windows first restores (if minimised) and raises the game's window, found by its
    title; with no known title open it leaves the screen as it is."""
    calls = []
    windll = FakeWindll()
    windll.user32.FindWindowW = lambda cls, title: 7 if title == "WineMine" else 0
    windll.user32.IsIconic = lambda hwnd: True
    windll.user32.ShowWindow = lambda hwnd, how: calls.append(("show", hwnd, how))
    windll.user32.SetForegroundWindow = lambda hwnd: calls.append(("front", hwnd))
    assert Windows(windll).bring_game_forward() == "WineMine"
    assert calls == [("show", 7, 9), ("front", 7)]
    windll.user32.FindWindowW = lambda cls, title: 0
    assert Windows(windll).bring_game_forward() is None


def test_the_fail_safe_works_in_every_monitor_s_corners(monkeypatch):
    """pyautogui's own fail-safe points are the main screen's corners: a user on a second monitor
    who throws the mouse into its corner must stop the bot too (issue 14)."""
    import sys
    import types

    from bot.screen import actuator, xmouse

    two = [(0, 0, 1920, 1080), (1920, -200, 1280, 1024)]
    assert actuator.failsafe_points(two) == sorted(
        [(0, 0), (1919, 0), (0, 1079), (1919, 1079), (1920, -200), (3199, -200), (1920, 823), (3199, 823)])
    fake = types.ModuleType("pyautogui")
    fake.FAILSAFE_POINTS = [(0, 0)]
    monkeypatch.setitem(sys.modules, "pyautogui", fake)
    monkeypatch.setattr(xmouse, "for_target", lambda point: None)  # (no X11 mouse: pyautogui's path)
    monkeypatch.setattr(actuator, "_monitors", lambda: two)
    Actuator(Target(100, 100, 16, 9, 9, (150, 50, 24, 24)))
    assert fake.FAILSAFE and fake.PAUSE == actuator.PAUSE
    assert {(3199, 823), (1920, -200), (0, 0)} <= set(fake.FAILSAFE_POINTS)


def test_the_game_window_is_found_by_its_class_first():
    """winmine.exe's class is "Minesweeper" in every language (XP's Japanese title is マインスイーパ):
    the window is found by class, then by a known title; a tiny window of that name is not it."""

    class ByClass(FakeUser32):
        def FindWindowW(self, cls, title):
            return self.hwnd if cls == "Minesweeper" else 0

    windll = FakeWindll()
    windll.user32 = ByClass(hwnd=7)
    assert Windows(windll).game_window() == Region(10, 20, 200, 300)
    windll.user32 = FakeUser32(hwnd=0)
    assert Windows(windll).game_window() is None

    class Tiny:
        stdout = "WINDOW=1\nX=0\nY=0\nWIDTH=1\nHEIGHT=1\n"

    assert X11(run=lambda args, **kw: Tiny()).game_window() is None


def test_a_look_is_learnt_only_in_a_window_titled_as_a_minesweeper():
    """Every probe of the learner is a click: `play` learns only in a window that is a Minesweeper
    by its title (any language, any case), or that the user named (--learn-in); the topmost wins."""
    from bot.screen.platform import Platform, names_a_minesweeper

    for title in ("Minesweeper", "Démineur", "Buscaminas", "扫雷", "Сапёр", "Mines", "xdémineur", "WineMine",
                  "Minesweeper Arbiter", "MINESWEEPER X", "Campo minato", "마인", "지뢰 찾기"):
        assert names_a_minesweeper(title) == (title != "마인"), title
    for title in ("Calculator", "Untitled - Notepad", "tk", "meadow toy", "Spreadsheet", "Gimp"):
        assert not names_a_minesweeper(title), title

    class Desk(Platform):
        def __init__(self, windows):
            self.windows = windows

        def titled_windows(self):
            return self.windows

    grid, game = Region(0, 0, 400, 400), Region(500, 0, 200, 250)
    assert Desk([("Buttons", grid), ("Démineur", game)]).minesweeper_window() == ("Démineur", game)
    assert Desk([("Buttons", grid)]).minesweeper_window() is None
    assert Desk([("Buttons", grid)]).minesweeper_window("butt") == ("Buttons", grid)  # the user's name
    assert Desk([("Buttons", grid), ("Démineur", game)]).minesweeper_window("nothing") is None

    class Titled(FakeUser32):  # Windows: the game by its class, a localised title exactly
        def FindWindowW(self, cls, title):
            return self.hwnd if title == "Buscaminas" else 0

    windll = FakeWindll()
    windll.user32 = Titled(hwnd=7)
    assert Windows(windll).minesweeper_window() == ("Buscaminas", Region(10, 20, 200, 300))
    windll.user32 = FakeUser32(hwnd=0)
    assert Windows(windll).minesweeper_window() is None


def test_the_game_s_own_dialog_is_answered_through_its_owner_on_windows():
    """Windows: the dialog is the enabled popup of the game's root window (the game is disabled
    while its modal dialog is up); it is brought forward and gets Return. No popup: nothing pressed."""
    calls = []
    windll = FakeWindll()
    windll.user32.WindowFromPoint = lambda point: 11
    windll.user32.GetAncestor = lambda hwnd, how: 7 if (hwnd, how) == (11, 3) else 0
    windll.user32.GetWindow = lambda hwnd, how: 9 if (hwnd, how) == (7, 6) else 0
    windll.user32.SetForegroundWindow = lambda hwnd: calls.append(("front", hwnd)) or 1
    windll.user32.keybd_event = lambda code, scan, flags, extra: calls.append(("key", code, flags))
    assert Windows(windll).answer_owned_dialog((150, 250)) is True
    assert calls == [("front", 9), ("key", 0x0D, 0), ("key", 0x0D, 2)]
    calls.clear()
    windll.user32.GetWindow = lambda hwnd, how: 7  # (the game itself: no dialog of its own)
    assert Windows(windll).answer_owned_dialog((150, 250)) is False and calls == []


def test_a_dialog_of_the_game_s_is_seen_anywhere_without_a_key_on_windows():
    """The game's modal popup, wherever it lies (the Java clone's centred "You lose!"), is seen
    without pressing anything; the game's own window is no dialog."""
    calls = []
    windll = FakeWindll()
    windll.user32.WindowFromPoint = lambda point: 11
    windll.user32.GetAncestor = lambda hwnd, how: 7 if (hwnd, how) == (11, 3) else 0
    windll.user32.GetWindow = lambda hwnd, how: 9 if (hwnd, how) == (7, 6) else 0
    windll.user32.keybd_event = lambda *args: calls.append(args)
    windll.user32.GetWindowTextW = lambda hwnd, buffer, size: (setattr(buffer, "value", "Info"), 4)[1]
    desk = Windows(windll)
    assert desk.owned_dialog((150, 250)) is True and desk.owned_dialog_title((150, 250)) == "Info" and calls == []
    windll.user32.GetWindow = lambda hwnd, how: 7
    assert desk.owned_dialog((150, 250)) is False and desk.owned_dialog_title((150, 250)) is None


def test_the_title_of_the_dialog_answered_is_kept_on_windows():
    """A game that says its end only by a dialog: once Return took it away, its title still tells a
    last guess won from one lost (bot.play.loop._ended_by_window)."""
    windll = FakeWindll()
    windll.user32.WindowFromPoint = lambda point: 11
    windll.user32.GetAncestor = lambda hwnd, how: 7
    windll.user32.GetWindow = lambda hwnd, how: 9 if (hwnd, how) == (7, 6) else 0
    windll.user32.SetForegroundWindow = lambda hwnd: 1
    windll.user32.keybd_event = lambda *args: None
    windll.user32.GetWindowTextW = lambda hwnd, buffer, size: (setattr(buffer, "value", "Congratulation!"), 15)[1]
    desk = Windows(windll)
    assert desk.answer_owned_dialog((150, 250)) is True
    windll.user32.GetWindow = lambda hwnd, how: 7  # (gone: the game's own window only)
    assert desk.owned_dialog_title((150, 250)) == "Congratulation!"


def test_a_window_of_the_game_s_that_return_does_not_close_is_closed_on_windows():
    """Arbiter's Local High Scores, over the board after a record, takes no key: after CLOSE_AFTER
    presses it is sent WM_CLOSE, as its close button would, instead of Return on and on."""
    from bot.screen.platform import CLOSE_AFTER, WM_CLOSE

    calls = []
    windll = FakeWindll()
    windll.user32.WindowFromPoint = lambda point: 11
    windll.user32.GetAncestor = lambda hwnd, how: 7
    windll.user32.GetWindow = lambda hwnd, how: 9 if (hwnd, how) == (7, 6) else 0
    windll.user32.SetForegroundWindow = lambda hwnd: 1
    windll.user32.keybd_event = lambda code, scan, flags, extra: calls.append(("key", code, flags))
    windll.user32.PostMessageW = lambda hwnd, message, wparam, lparam: calls.append(("post", hwnd, message)) or 1
    desk = Windows(windll)
    assert all(desk.answer_owned_dialog((150, 250)) for _ in range(CLOSE_AFTER + 1))
    assert calls[-1] == ("post", 9, WM_CLOSE) and sum(c[0] == "key" for c in calls) == 2 * CLOSE_AFTER


def test_the_actuator_answers_through_the_mouse_that_finds_the_dialog():
    class Mouse(FakeGui):
        def answer_dialog(self, combo="Return"):
            self.events.append(("answer",))
            return True

    gui = Mouse()
    assert Actuator(TARGET, gui).answer_dialog() is True and gui.events == [("answer",)]
    assert Actuator(TARGET, FakeGui()).answer_dialog() is False  # (a mouse that cannot: nothing pressed)


def test_a_mouse_made_when_the_game_is_found_again_keeps_what_the_one_before_knew():
    """The clicks counted on, and the game's windows beside it before any click of ours, handed to
    the new mouse (bot.screen.xmouse: a dialog opened since stays a dialog)."""
    class Mouse(FakeGui):
        def known_since(self, earlier) -> None:
            self.earlier = earlier

    first, again = Actuator(TARGET, Mouse()), Actuator(TARGET, Mouse())
    first.open((0, 0))
    again.carry_over(first)
    assert again.clicks == 1 and again.gui.earlier is first.gui
    plain = Actuator(TARGET, FakeGui())
    plain.carry_over(first)  # (a mouse with no such knowledge: the count alone)
    assert plain.clicks == 1


def test_no_mouse_on_an_x_display_is_an_error_never_unchecked_clicks(monkeypatch):
    """Where the checked mouse cannot be made on X11 (a connection refused), the actuator stops
    with the reason; pyautogui, whose clicks check nothing, is not put in its place."""
    import sys
    import types

    from bot.screen import actuator, xmouse

    monkeypatch.setattr(sys, "platform", "linux")

    def refused(inside: tuple[int, int]) -> None:
        raise ConnectionRefusedError("no more clients")

    unchecked = types.ModuleType("pyautogui")
    monkeypatch.setitem(sys.modules, "pyautogui", unchecked)
    monkeypatch.setattr(xmouse, "X11Mouse", refused)
    with pytest.raises(actuator.ActuatorError, match=r"no mouse on this X display.*no more clients"):
        actuator.Actuator(actuator.Target(100, 100, 16, 9, 9, (150, 50, 24, 24)))

