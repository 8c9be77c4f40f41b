"""The one place that knows which operating system it runs on.

Windows needs the process made DPI-aware before the first grab (else grabs and clicks disagree
on a scaled display) and can find a window by its title; X11 needs ~/.Xauthority to exist for
pyautogui. The dry run's overlay is a plain Tk window everywhere, but making it see-through and
click-through is per system: a colour key and extended styles on Windows, the SHAPE extension on
X11. Everything else in the bot is the same everywhere. The Windows half is only a few calls
through ctypes, tested with a fake `windll`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from bot.errors import BotError
from bot.screen.capture import Region

Box = tuple[int, int, int, int]  # x, y, width, height in the window's own pixels

#: The overlay's ground: never drawn with, so Windows can key it out.
KEY_COLOUR = "#ff00fe"


class OverlayError(BotError):
    """No see-through, click-through window can be shown here (the dry run draws a PNG instead)."""


class Platform:
    name = "other"

    def prepare(self) -> None:
        """Make grabs and clicks use the same pixels."""

    def pixel_problem(self, grab_size: Callable[[], tuple[int, int]]) -> str | None:
        """Why clicks would not land where a grab of the size `grab_size()` gives (asked only
        where there is something to check) says, or None when they would."""
        return None

    def find_window(self, title: str) -> Region | None:
        return None

    def answer_dialog(self, title: str, key: str) -> bool:
        """Press `key` ("return") in the window of exactly this title, focused first: a game's own
        end-of-game dialog, answered as a user would. Whether one was there to answer."""
        return False

    def answer_owned_dialog(self, point: tuple[int, int], key: str = "return") -> bool:
        """Press `key` in the dialog the game's window (the one at `point`) has open over it, as a
        player would (a best-time name entry: the name it proposes kept). Whether one was there.
        On X11 the mouse does this itself (bot.screen.xmouse), in one server grab."""
        return False

    def owned_dialog(self, point: tuple[int, int]) -> bool:
        """Whether the game's window (the one at `point`) has a modal dialog of its own open,
        wherever that is on the screen."""
        return False

    def owned_dialog_title(self, point: tuple[int, int]) -> str | None:
        """The title of that dialog, else of the last one answered (answer_owned_dialog), else None."""
        return None

    def open_title(self, titles: list[str]) -> str | None:
        """The first of these window titles that a window open now has exactly, or None."""
        return next((t for t in titles if self.find_window(t) is not None), None)

    def game_window(self) -> Region | None:
        """The rectangle of the first known game window open (by its title), where the board is
        looked for first; None when no known one is open (then the whole screen is searched)."""
        for title in GAME_TITLES:
            box = self.find_window(title)
            if box is not None and box.width > 20 and box.height > 20:
                return box
        return None

    def bring_game_forward(self) -> str | None:
        """Restore and raise the game's window if one of the known titles is open; its title, or
        None (then the screen is searched as it is)."""
        return None

    def titled_windows(self) -> list[tuple[str, Region]]:
        """The windows on view with their titles, topmost first (where the system can list them)."""
        return []

    def minesweeper_window(self, named: str | None = None) -> tuple[str, Region] | None:
        """The topmost window on view whose title holds `named` (any case), or, without a name,
        whose title names a Minesweeper (MINESWEEPER_NAMES): its title and rectangle; else None."""
        for title, box in self.titled_windows():
            if (named.casefold() in title.casefold()) if named else names_a_minesweeper(title):
                return title, box
        return None

    def prepare_overlay(self, window: Any) -> None:
        """Make a Tk toplevel topmost and let clicks through to the game beneath it."""
        raise OverlayError(f"no overlay window on {sys.platform}")

    def shape_overlay(self, window: Any, boxes: list[Box]) -> None:
        """Show only `boxes` of the window: the rest of the game stays in sight."""
        raise OverlayError(f"no overlay window on {sys.platform}")


GWL_EXSTYLE = -20
WS_EX_TOPMOST, WS_EX_TRANSPARENT, WS_EX_TOOLWINDOW = 0x8, 0x20, 0x80
WS_EX_LAYERED, WS_EX_NOACTIVATE = 0x80000, 0x8000000
WDA_EXCLUDEFROMCAPTURE = 0x11  # Windows 10 2004+: our own grabs do not see the overlay
SM_CXVIRTUALSCREEN, SM_CYVIRTUALSCREEN = 78, 79
SW_RESTORE = 9
GA_ROOTOWNER, GW_ENABLEDPOPUP = 3, 6
#: Keys a game's dialog may be answered with, as Windows' virtual-key codes; keybd_event's key-up flag.
VIRTUAL_KEYS = {"return": 0x0D, "escape": 0x1B, "space": 0x20}
KEYEVENTF_KEYUP = 0x0002
WM_CLOSE = 0x0010
#: Presses of a key in one window of the game's over it before it is closed instead, as its close
#: button would (here and in bot.screen.xmouse): WineMine's dialogs close at the first or second
#: press (one may come before the focus); Arbiter's Local High Scores takes no key.
CLOSE_AFTER = 3
#: The same keys as X names them (xdotool).
X_KEYS = {"return": "Return", "escape": "Escape", "space": "space"}
#: Window titles of the Minesweepers the bot plays: Windows' own (English, and XP's Japanese),
#: Minesweeper X, Wine's clone.
GAME_TITLES = ("Minesweeper", "マインスイーパ", "Minesweeper X", "WineMine")
#: Their window classes on Windows: winmine.exe's (every language, XP's and NT 4's) and Wine's clone's.
GAME_CLASSES = ("Minesweeper", "WineMine")
#: What Minesweepers' windows are titled, in the languages Windows and the desktops ship them in:
#: a window whose title holds one of these (any case) is a Minesweeper by evidence that needs no
#: click, where a look no skin knows may be learnt (every probe of the learner is a click).
MINESWEEPER_NAMES = (
    "minesweeper", "mines", "winmine", "winemine", "mineur", "minegauler",  # English, GNOME, the clones
    "buscaminas", "campo minato", "campo minado", "caça-minas", "mijnenveger", "minesveiper", "minestryger",
    "röj", "miinaharava", "saper", "hledání min", "hľadanie mín", "aknakereső", "mayın tarlası", "minolovec",  # noqa: RUF001 (Turkish)
    "сапёр", "сапер", "ναρκαλιευτής", "שולה המוקשים", "كاسحة الألغام", "扫雷", "踩地雷", "マインスイーパ",
    "지뢰찾기", "지뢰 찾기",
)


def names_a_minesweeper(title: str) -> bool:
    folded = title.casefold()
    return any(name in folded for name in MINESWEEPER_NAMES)


class Windows(Platform):
    name = "windows"

    def __init__(self, windll: Any = None) -> None:
        if windll is None:
            import ctypes

            windll = ctypes.windll  # type: ignore[attr-defined]
        self.windll = windll
        self._answered: dict[int, int] = {}  # dialog window: how many times a key was pressed in it
        self.answered_title: str | None = None  # the title of the last dialog a key was pressed in

    def prepare(self) -> None:
        # E_ACCESSDENIED only says the awareness was set already (mss sets it when it starts, a
        # manifest may): whether it took is checked by pixel_problem, in the pixels themselves.
        try:
            self.windll.shcore.SetProcessDpiAwareness(2)  # per-monitor aware (Windows 8.1+)
        except (AttributeError, OSError):
            self.windll.user32.SetProcessDPIAware()  # system aware (Vista+)

    def pixel_problem(self, grab_size: Callable[[], tuple[int, int]]) -> str | None:
        """The virtual screen as the mouse sees it (GetSystemMetrics) against the grab's size: a
        scaled display with a process that is not DPI-aware sees fewer pixels to click than to
        grab, and every click would land off by the scale."""
        screen_width, screen_height = grab_size()
        metrics = self.windll.user32.GetSystemMetrics
        width, height = metrics(SM_CXVIRTUALSCREEN), metrics(SM_CYVIRTUALSCREEN)
        if (width, height) == (screen_width, screen_height):
            return None
        return (f"the screen grabs {screen_width}x{screen_height} pixels but the mouse moves over {width}x{height}: "
                "display scaling without DPI awareness (run the bot from a plain python.exe, not a "
                "launcher that forces scaling, or set the display to 100 %)")

    def find_window(self, title: str | None, cls: str | None = None) -> Region | None:
        import ctypes.wintypes

        hwnd = self.windll.user32.FindWindowW(cls, title)
        if not hwnd:
            return None
        rect = ctypes.wintypes.RECT()
        if not self.windll.user32.GetWindowRect(hwnd, ctypes.byref(rect)):
            return None
        return Region(rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top)

    def answer_dialog(self, title: str, key: str) -> bool:
        user32 = self.windll.user32
        hwnd = user32.FindWindowW(None, title)
        if not hwnd or not user32.SetForegroundWindow(hwnd):
            return False
        code = VIRTUAL_KEYS.get(key.lower())
        if code is None:
            return False
        user32.keybd_event(code, 0, 0, 0)
        user32.keybd_event(code, 0, KEYEVENTF_KEYUP, 0)
        return True

    def _enabled_popup(self, point: tuple[int, int]) -> int:
        """The game's top-level window is the root of the window at the point; a modal dialog it
        owns is its enabled popup (GetWindow GW_ENABLEDPOPUP: the game itself is disabled
        meanwhile), wherever it lies on the screen. 0 where there is none."""
        import ctypes.wintypes

        user32 = self.windll.user32
        root = user32.GetAncestor(user32.WindowFromPoint(ctypes.wintypes.POINT(*point)), GA_ROOTOWNER)
        popup = user32.GetWindow(root, GW_ENABLEDPOPUP) if root else 0
        return 0 if popup == root else popup

    def owned_dialog(self, point: tuple[int, int]) -> bool:
        return bool(self._enabled_popup(point))

    def owned_dialog_title(self, point: tuple[int, int]) -> str | None:
        popup = self._enabled_popup(point)
        return self._window_text(popup) if popup else self.answered_title

    def _window_text(self, hwnd: int) -> str | None:
        import ctypes

        buffer = ctypes.create_unicode_buffer(256)
        return buffer.value if self.windll.user32.GetWindowTextW(hwnd, buffer, 256) else None

    def answer_owned_dialog(self, point: tuple[int, int], key: str = "return") -> bool:
        user32 = self.windll.user32
        popup = self._enabled_popup(point)
        code = VIRTUAL_KEYS.get(key.lower())
        if not popup or code is None:
            self._answered.clear()  # (as bot.screen.xmouse: a dialog shown again is answered afresh)
            return False
        self._answered[popup] = self._answered.get(popup, 0) + 1
        self.answered_title = self._window_text(popup)
        if self._answered[popup] > CLOSE_AFTER:  # a window the key does not close: as its close button would
            return bool(user32.PostMessageW(popup, WM_CLOSE, 0, 0))
        if not user32.SetForegroundWindow(popup):
            return False
        user32.keybd_event(code, 0, 0, 0)
        user32.keybd_event(code, 0, KEYEVENTF_KEYUP, 0)
        return True

    def game_window(self) -> Region | None:
        """By window class first (a title can be translated, or be another program's), then by title."""
        for cls in GAME_CLASSES:
            box = self.find_window(None, cls)
            if box is not None:
                return box
        return super().game_window()

    def bring_game_forward(self) -> str | None:
        # A game minimised or behind the terminal is what a user starting `play` most often has.
        user32 = self.windll.user32
        wanted = [(cls, None) for cls in GAME_CLASSES] + [(None, title) for title in GAME_TITLES]
        for cls, title in wanted:  # by class first, then by title
            hwnd = user32.FindWindowW(cls, title)
            if hwnd:
                if user32.IsIconic(hwnd):
                    user32.ShowWindow(hwnd, SW_RESTORE)
                user32.SetForegroundWindow(hwnd)
                return cls or title
        return None

    def titled_windows(self) -> list[tuple[str, Region]]:
        """Windows' own Minesweepers by their class, then any window titled exactly as one of the
        names (Windows titles its games by the name alone, in the system's language)."""
        found = [(cls, box) for cls in GAME_CLASSES if (box := self.find_window(None, cls)) is not None]
        for name in (*GAME_TITLES, *MINESWEEPER_NAMES):
            for title in dict.fromkeys((name, name.title(), name.capitalize())):
                box = self.find_window(title)
                if box is not None:
                    found.append((title, box))
        return found

    def prepare_overlay(self, window: Any) -> None:
        # The key colour is see-through; WS_EX_TRANSPARENT sends every click to the window below.
        window.attributes("-transparentcolor", KEY_COLOUR)
        window.attributes("-topmost", True)
        window.winfo_id()  # makes Tk create the native window now, withdrawn as it is
        window.update_idletasks()
        hwnd = int(window.wm_frame(), 16)
        user32 = self.windll.user32
        style = user32.GetWindowLongW(hwnd, GWL_EXSTYLE)
        extra = WS_EX_LAYERED | WS_EX_TRANSPARENT | WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE | WS_EX_TOPMOST
        user32.SetWindowLongW(hwnd, GWL_EXSTYLE, style | extra)
        user32.SetWindowDisplayAffinity(hwnd, WDA_EXCLUDEFROMCAPTURE)  # fails quietly before 2004

    def shape_overlay(self, window: Any, boxes: list[Box]) -> None:
        """Nothing to do: what is not drawn is the key colour, already see-through."""


class X11(Platform):
    name = "x11"

    def __init__(self, home: Path | None = None, run: Any = subprocess.run) -> None:
        self.home = home or Path.home()
        self.run = run
        self._x: Any = None  # python-xlib connection, opened for the overlay only

    def prepare(self) -> None:
        (self.home / ".Xauthority").touch()  # pyautogui's X backend refuses to start without it

    def find_window(self, title: str) -> Region | None:
        try:
            found = self.run(["xdotool", "search", "--name", f"^{title}$", "getwindowgeometry", "--shell"],
                             capture_output=True, text=True, timeout=5, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        values = dict(line.split("=", 1) for line in found.stdout.splitlines() if "=" in line)
        try:
            return Region(int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"]))
        except (KeyError, ValueError):
            return None

    def titled_windows(self) -> list[tuple[str, Region]]:
        """Every top-level window on view, topmost first, titled by its own name or, under a window
        manager, its client's (the frame holds the client window, which holds the title)."""
        try:
            from Xlib import X

            from bot.screen.xdisplay import connect

            display = connect()
        except Exception:  # no X connection: nothing to list
            return []
        try:
            out = []
            atoms = display.intern_atom("_NET_WM_NAME"), display.intern_atom("UTF8_STRING")
            for child in reversed(display.screen().root.query_tree().children):
                try:
                    if child.get_attributes().map_state != X.IsViewable:
                        continue
                    g = child.get_geometry()
                    title = _title_of(child, atoms)
                except Exception:  # gone meanwhile
                    continue
                if title:
                    out.append((title, Region(g.x, g.y, g.width, g.height)))
            return out
        finally:
            display.close()

    def open_title(self, titles: list[str]) -> str | None:
        """One search for them all (xdotool's name pattern is a regular expression): a look at the
        game costs one call, not one a title."""
        if not titles:
            return None
        pattern = "^(" + "|".join(re.escape(t) for t in titles) + ")$"
        try:
            found = self.run(["xdotool", "search", "--name", pattern, "getwindowname", "%@"], capture_output=True,
                             text=True, timeout=5, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
        names = set(found.stdout.splitlines())
        return next((t for t in titles if t in names), None)

    def answer_dialog(self, title: str, key: str) -> bool:
        try:
            found = self.run(["xdotool", "search", "--name", f"^{re.escape(title)}$"], capture_output=True,
                             text=True, timeout=5, check=False)
            windows = found.stdout.split()
            if not windows:
                return False
            done = self.run(["xdotool", "windowfocus", "--sync", windows[-1], "key", "--clearmodifiers",
                             X_KEYS.get(key.lower(), key)], capture_output=True, text=True, timeout=5, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0

    def prepare_overlay(self, window: Any) -> None:
        """Override-redirect windows are above every managed one: topmost already."""
        try:
            from Xlib.error import DisplayError

            from bot.screen.xdisplay import connect

            self._x = connect()
        except (ImportError, DisplayError) as err:
            raise OverlayError(f"no X connection for the overlay: {err}") from err
        if not self._x.has_extension("SHAPE"):
            raise OverlayError("the X server has no SHAPE extension: the overlay would hide the game")

    def shape_overlay(self, window: Any, boxes: list[Box]) -> None:
        """Bounding shape: only the marks are drawn. Input shape: empty, so clicks go to the game."""
        from Xlib.ext import shape

        inner = self._x.create_resource_object("window", window.winfo_id())
        tree = inner.query_tree()
        top = inner if tree.parent.id == tree.root.id else tree.parent  # Tk's wrapper window
        top.shape_rectangles(shape.ShapeBounding, shape.ShapeSet, 0, 0, 0, boxes)
        _set_input_shape(self._x, top.id, [])
        self._x.sync()


#: SHAPE 1.1's input region, which python-xlib's request does not accept.
SHAPE_INPUT = 2


@cache
def _input_shape_request() -> Any:
    """python-xlib's ShapeRectangles request, with the region kind a plain byte (built once)."""
    from Xlib.protocol import rq, structs

    class InputShape(rq.Request):
        _request = rq.Struct(
            rq.Card8("opcode"), rq.Opcode(1), rq.RequestLength(), rq.Card8("operation"), rq.Card8("region"),
            rq.Card8("ordering"), rq.Pad(1), rq.Window("window"), rq.Int16("x"), rq.Int16("y"),
            rq.List("rectangles", structs.Rectangle),
        )

    return InputShape


def _set_input_shape(x: Any, window: int, boxes: list[Box]) -> None:
    from Xlib.ext import shape

    _input_shape_request()(display=x.display, opcode=x.display.get_extension_major(shape.extname),
                           operation=shape.ShapeSet, region=SHAPE_INPUT, ordering=0, window=window, x=0, y=0,
                           rectangles=boxes)


@cache
def current() -> Platform:
    """The platform's one instance: it keeps which of the game's dialogs were answered and how often
    (a fresh one for each call never came to close a window that Return does not)."""
    if sys.platform == "win32":
        return Windows()
    if sys.platform.startswith("linux"):
        return X11()
    return Platform()


def _title_of(window: Any, atoms: tuple[int, int], depth: int = 2) -> str | None:
    """A window's title (_NET_WM_NAME, else WM_NAME), or its first titled child's, `depth` levels
    down; `atoms`: _NET_WM_NAME and UTF8_STRING, looked up once for all windows."""
    prop = window.get_full_property(*atoms)
    if prop is not None and prop.value:
        value = prop.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    name = window.get_wm_name()
    if name:
        return name.decode("latin-1") if isinstance(name, bytes) else str(name)
    if depth:
        for child in window.query_tree().children:
            title = _title_of(child, atoms, depth - 1)
            if title:
                return title
    return None
