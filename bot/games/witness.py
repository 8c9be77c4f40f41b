"""Every click the bot makes, judged by X's own window geometry: for benchmarks and tests.

The bot's guard refuses clicks outside the field it calibrated; a wrong calibration would pass
its own guard. A Witness wraps the mouse the bot really uses (bot.screen.xmouse on X11) and judges each
click against where the game's window is as X places it (bot.games.wine_game), never the bot's view.
"""

from __future__ import annotations

from typing import Any

from bot.games.native_game import NativeGame
from bot.games.wine_game import Window, WineGame
from bot.screen.actuator import Actuator, Target


class Witness:
    """`play(..., actuator_factory=witness.factory)`; then clicks, outside and points."""

    def __init__(self, game: WineGame | NativeGame) -> None:
        self.game = game
        self.window: Window | None = None
        self.points: list[tuple[int, int, bool]] = []  # every click: x, y, on the field or the face
        self.dialogs = 0  # the game's own dialogs the bot answered (Return)

    @property
    def clicks(self) -> int:
        return len(self.points)

    @property
    def outside(self) -> int:
        return sum(not ok for _, _, ok in self.points)

    def factory(self, target: Target) -> Actuator:
        from bot.screen.xmouse import for_target

        self.window = self.game.window()  # the window as X has it when the bot (re)calibrates
        mouse = for_target(target.cell_centre((target.rows // 2, target.cols // 2)))
        if mouse is None:
            raise RuntimeError("a Witness needs an X11 display with XTEST")
        return Actuator(target, backend=_Recorder(mouse, self))

    def judge(self, x: int, y: int) -> None:
        self.points.append((x, y, self.window is not None and self.game.on_target(x, y, self.window)))


class _Recorder:
    """The mouse's interface (pyautogui's names), passing every call on and judging it."""

    def __init__(self, mouse: Any, witness: Witness) -> None:
        self.mouse, self.witness = mouse, witness

    def click(self, x: int, y: int, button: str = "left") -> None:
        self.mouse.click(x, y, button=button)
        self.witness.judge(x, y)

    def mouseDown(self, x: int, y: int, button: str = "left") -> None:
        self.mouse.mouseDown(x, y, button=button)

    def mouseUp(self, x: int, y: int, button: str = "left") -> None:
        self.mouse.mouseUp(x, y, button=button)
        self.witness.judge(x, y)

    def key(self, x: int, y: int, combo: str) -> None:
        """Keys, judged by where the pointer is as they are pressed (they go to the window there)."""
        self.mouse.key(x, y, combo)
        self.witness.judge(x, y)

    def answer_dialog(self, combo: str = "Return") -> bool:
        """A key in the game's own dialog (no point: the mouse finds the dialog), counted."""
        answered = bool(self.mouse.answer_dialog(combo))
        self.witness.dialogs += answered
        return answered

    def dialog_open(self) -> bool:
        return bool(self.mouse.dialog_open())

    def dialog_title(self) -> str | None:
        return self.mouse.dialog_title()

    def known_since(self, earlier: _Recorder) -> None:
        self.mouse.known_since(earlier.mouse)

    def moveTo(self, x: int, y: int) -> None:  # (nothing pressed: not judged)
        self.mouse.moveTo(x, y)

    def close(self) -> None:
        close = getattr(self.mouse, "close", None)
        if callable(close):
            close()
