"""Mouse actions on the game, and the guard that keeps them inside it.

Every click is checked against the calibrated field (or the face) before the mouse moves: a
coordinate anywhere else is refused with an error, whatever asked for it. pyautogui's fail-safe
stays on (the user throws the mouse into a screen corner to stop the bot), so the bot itself
never moves there. Its default 0.1 s pause after every call is cut to almost nothing.
"""

from __future__ import annotations

import contextlib
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.errors import BotError
from bot.screen.failsafe import failsafe_points
from bot.screen.failsafe import monitor_boxes as _monitors

PAUSE = 0.0  # WineMine queues events; the loop waits for the frame to settle after each batch


class ActuatorError(BotError):
    """A click the guard refused, or the user's fail-safe."""


class TargetMoved(ActuatorError):
    """The game's window moved, closed or was covered just before a click: the click was not made."""


@dataclass(frozen=True)
class Target:
    """Where the game is on the screen: field, its pitch, and the face, in screen pixels."""

    left: float
    top: float
    pitch: float
    rows: int
    cols: int
    face: tuple[float, float, float, float]  # left, top, width, height
    new_game_key: str | None = None  # a game without a face starts a new game by this key
    #: Where the pointer rests after each action, off the cells, in a game that lights up the cell
    #: under the pointer (GNOME Mines): a lit cell reads as no known look.
    park: tuple[float, float] | None = None
    #: A field stretched to its window: each column's and row's start from (left, top) (bot.vision.reader.Field).
    xs: tuple[float, ...] | None = None
    ys: tuple[float, ...] | None = None
    #: Seconds the pointer stays where it pressed before it moves on (bot.vision.skin.Skin.click_dwell).
    dwell: float = 0.0

    def cell_centre(self, cell: tuple[int, int]) -> tuple[int, int]:
        r, c = cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ActuatorError(f"cell {cell} is not on the {self.rows}x{self.cols} board")
        x = self.xs[c] if self.xs else c * self.pitch
        y = self.ys[r] if self.ys else r * self.pitch
        return round(self.left + x + 0.5 * self.pitch), round(self.top + y + 0.5 * self.pitch)

    def face_centre(self) -> tuple[int, int]:
        x, y, w, h = self.face
        return round(x + w / 2), round(y + h / 2)

    def allows(self, x: int, y: int) -> bool:
        width = self.xs[-1] + self.pitch if self.xs else self.cols * self.pitch
        height = self.ys[-1] + self.pitch if self.ys else self.rows * self.pitch
        in_field = self.left + 1 <= x <= self.left + width - 2 and self.top + 1 <= y <= self.top + height - 2
        fx, fy, fw, fh = self.face
        in_face = fx + 2 <= x <= fx + fw - 3 and fy + 2 <= y <= fy + fh - 3
        return in_field or in_face


class Actuator:
    """Clicks through bot.screen.xmouse on X11, else pyautogui (or any object with their click API, for tests)."""

    def __init__(self, target: Target, backend: Any = None) -> None:
        if backend is None:  # on X11, clicks that check the game's window in the same server grab
            from bot.screen.xmouse import for_target

            try:
                backend = for_target(target.cell_centre((target.rows // 2, target.cols // 2)))
            except BotError as err:  # (an X display with no mouse to be had: a stop, no unchecked clicks)
                raise ActuatorError(str(err)) from err
        if backend is None:
            # Imported late: it binds to the display on import. python-xlib prints its Xauthority
            # warnings on stdout, which belongs to our output (--json): send them to stderr.
            with contextlib.redirect_stdout(sys.stderr):
                import pyautogui as backend

            backend.FAILSAFE = True
            backend.FAILSAFE_POINTS = sorted({*backend.FAILSAFE_POINTS, *failsafe_points(_monitors())})
            backend.PAUSE = PAUSE
        self.gui = backend
        self.target = target
        self.clicks = 0
        self._park()  # (where the user left the pointer may light a cell up)

    def _press(self, x: int, y: int, button: str) -> None:
        self._guard(x, y)
        try:
            self.gui.click(x, y, button=button)  # moves there first, then presses and releases
        except Exception as err:
            _translate(err)
            raise
        self.clicks += 1
        self._let_go()

    def _let_go(self) -> None:
        """After a press: the pointer held where it pressed for the target's dwell (a game that reads
        the pointer on its own frame clock takes the press where the pointer is then), then rested."""
        if self.target.dwell > 0:
            time.sleep(self.target.dwell)
        self._park()

    def _park(self) -> None:
        if self.target.park is not None:
            self.move(*self.target.park)

    def stir(self) -> None:
        """The pointer moved a pixel off its resting point and back, where it has one: a window
        that closes under it leaves the game believing the pointer still over whatever lay beneath
        the window (KMines: its "You have won" box, which stays while pointed at, stayed for good
        after its scores window closed), and a move tells the game where the pointer is."""
        if self.target.park is not None:
            x, y = self.target.park
            self.move(x + 1, y)
            self.move(x, y)

    def move(self, x: float, y: float) -> None:
        """The pointer to a point, nothing pressed (no guard: nothing is clicked)."""
        try:
            self.gui.moveTo(round(x), round(y))
        except Exception as err:
            _translate(err)
            raise

    def _guard(self, x: int, y: int) -> None:
        if not self.target.allows(x, y):
            raise ActuatorError(f"refused a click at ({x}, {y}): outside the board and the face")

    def click(self, x: int, y: int, button: str = "left") -> None:
        """A click at a screen point (learning works in points, not cells); guarded like the rest."""
        self._press(x, y, button)

    def hold(self, x: int, y: int) -> None:
        """Left button down and kept down: the game shows its "pressed" face meanwhile."""
        self._guard(x, y)
        try:
            self.gui.mouseDown(x, y, button="left")
        except Exception as err:
            _translate(err)
            raise

    def release(self, x: int, y: int) -> None:
        self._guard(x, y)
        try:
            self.gui.mouseUp(x, y, button="left")
        except Exception as err:
            _translate(err)
            raise
        self.clicks += 1
        self._let_go()

    def key(self, x: int, y: int, combo: str) -> None:
        """Keys pressed together ("f2", "ctrl+r") with the pointer on a point of the game (guarded as
        a click there is): a game without a face starts a new one by a key."""
        self._guard(x, y)
        try:
            if hasattr(self.gui, "key"):  # bot.screen.xmouse: checked and focused in one server grab
                self.gui.key(x, y, combo)
            else:
                self.gui.moveTo(x, y)
                self.gui.hotkey(*combo.split("+"))
        except Exception as err:
            _translate(err)
            raise
        self._park()

    def game_gone(self) -> bool:
        """True where the mouse can tell that the game's window was closed (bot.screen.xmouse);
        False where it cannot tell."""
        gone = getattr(self.gui, "gone", None)
        return bool(gone()) if callable(gone) and not isinstance(self.gui, types.ModuleType) else False

    def answer_dialog(self, key: str = "Return") -> bool:
        """Press `key` in the game's own dialog over it (Return: a best-time name entry, the best
        times), as a player would: whether one was there. On X11 the mouse finds it (the game's
        process or transient for its window) and presses in one server grab; elsewhere the
        system's owner chain from a point of the game (bot.screen.platform)."""
        return bool(self._dialog_asked("answer_dialog", lambda system, point: system.answer_owned_dialog(
            point, key.lower()), key))

    def dialog_open(self) -> bool:
        """Whether the game has a dialog of its own open, wherever it is on the screen (a game that
        shows its end only so: the Java Windows 7 clone's "You lose!", centred on the screen, the
        board left as it was). False where the mouse cannot tell."""
        return bool(self._dialog_asked("dialog_open", lambda system, point: system.owned_dialog(point)))

    def dialog_title(self) -> str | None:
        """The title of the game's dialog open now, or of the last one answered; None where the
        mouse cannot tell."""
        title = self._dialog_asked("dialog_title", lambda system, point: system.owned_dialog_title(point))
        return title if isinstance(title, str) else None

    def open_dialog_title(self) -> str | None:
        """The title of the game's dialog open now (never the last one answered); None where none
        is open or the mouse cannot tell."""
        return self.dialog_title() if self.dialog_open() else None

    def _dialog_asked(self, mouse_has: str, system_does: Callable[[Any, tuple[int, int]], Any], *args: Any) -> Any:
        """The mouse's own answer where it has a way (bot.screen.xmouse; `args` its own), else the
        system's from the field's middle (pyautogui: bot.screen.platform); None where neither can tell."""
        own = getattr(self.gui, mouse_has, None)
        if callable(own) and not isinstance(self.gui, types.ModuleType):
            return own(*args)
        if isinstance(self.gui, types.ModuleType):  # pyautogui: the system's own windows
            from bot.screen import platform

            centre = self.target.cell_centre((self.target.rows // 2, self.target.cols // 2))
            return system_does(platform.current(), centre)
        return None

    def carry_over(self, earlier: Actuator) -> None:
        """What the run's actuator before this one knew (the game found again since): its clicks,
        counted on, and which of the game's windows were beside it before any click of ours (a
        window of the game's opened since is its dialog, wherever this mouse first saw it)."""
        self.clicks = earlier.clicks
        since = getattr(self.gui, "known_since", None)
        if callable(since) and type(earlier.gui) is type(self.gui) and not isinstance(self.gui, types.ModuleType):
            since(earlier.gui)

    def close(self) -> None:
        """Let go of the mouse's own connection, if it has one (pyautogui has none to close)."""
        close = getattr(self.gui, "close", None)
        if callable(close) and not isinstance(self.gui, types.ModuleType):  # pyautogui is a module
            close()

    def open(self, cell: tuple[int, int]) -> None:
        self._press(*self.target.cell_centre(cell), "left")

    def flag(self, cell: tuple[int, int]) -> None:
        self._press(*self.target.cell_centre(cell), "right")

    def chord(self, cell: tuple[int, int]) -> None:
        self._press(*self.target.cell_centre(cell), "middle")

    def restart(self) -> None:
        if self.target.new_game_key is not None:  # (the pointer on the field: the key is the game's)
            self.key(*self.target.cell_centre((self.target.rows // 2, self.target.cols // 2)), self.target.new_game_key)
            return
        self._press(*self.target.face_centre(), "left")


def _translate(err: Exception) -> None:
    """The backends' own stops as ours (pyautogui's fail-safe, bot.screen.xmouse's checks)."""
    kind = type(err).__name__
    if kind in ("FailSafeException", "FailSafe"):
        raise ActuatorError("stopped: the mouse was thrown into a screen corner (fail-safe)") from err
    if kind == "WindowMoved":
        raise TargetMoved(str(err)) from err
