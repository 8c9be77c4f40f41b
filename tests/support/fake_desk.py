"""A fake desktop for the play loop: one classic Minesweeper window drawn over a desktop, its game
played by bot.games.simulator, and a mouse whose clicks reach the game only where its window is now.

It stands in for both of the loop's I/O edges (the Screen and pyautogui), so faults can be made
to happen at exact moments: the window moved after the n-th grab, the game restarted by the
user, the level changed. Every click that misses the window's field and face is kept in
`misses`: a canary under the game. A fault set in `on_grab` happens just before a grab, so the
grab that a check before a click makes is always the first to see it (a fault between that check
and the click itself is a race no program can win; the real loop keeps it to a millisecond).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bot.board import FLAG
from bot.games.simulator import Game, Level
from bot.screen.capture import Region
from bot.vision.skin import TEMPLATES
from tests.support.classic_window import draw_window

SIZE = (1024, 768)


class FakeDesk:
    def __init__(self, level: Level, seed: int = 0, at: tuple[int, int] = (100, 80),
                 game: type[Game] = Game) -> None:
        self.level, self.seed, self.at, self.kind = level, seed, at, game
        self.game = game(level, "safe", seed)
        self.games = 1
        self.grabs = 0
        self.misses: list[tuple[int, int]] = []
        self.clicks: list[tuple[int, int, str]] = []  # (row, col, button) that reached the field
        self.on_grab: Callable[[FakeDesk], None] | None = None  # a fault, before every grab
        self.cover: tuple[int, int, int, int] | None = None  # another window over the desk: x, y, w, h
        self._frame: np.ndarray | None = None

    # -- what the game shows ---------------------------------------------------
    def face(self) -> str:
        return self.game.status

    def cells(self) -> np.ndarray:
        """The cells the game draws now."""
        return self.game.board().cells

    def image(self) -> tuple[np.ndarray, tuple[int, int]]:
        board = self.cells()
        counter = self.level.mines - int((board == FLAG).sum())
        return draw_window(board, counter, self.face(), TEMPLATES / "classic", screen=SIZE, at=self.at)

    def restart(self, level: Level | None = None) -> None:
        self.level = level or self.level
        self.games += 1
        self.game = self.kind(self.level, "safe", self.seed * 1000 + self.games)
        self._frame = None

    def move(self, at: tuple[int, int]) -> None:
        self.at = at
        self._frame = None

    # -- the Screen interface ----------------------------------------------------
    def monitors(self) -> list[Region]:
        return [Region(0, 0, *SIZE), Region(0, 0, *SIZE)]

    def grab(self, region: Region | None = None, monitor: int = 0) -> np.ndarray:
        self.grabs += 1
        if self.on_grab is not None:
            self.on_grab(self)  # a fault happens, and this grab is the first to see it
        if self._frame is None:
            self._frame = self.image()[0]
        frame = self._frame
        if self.cover is not None:
            x, y, w, h = self.cover
            frame = frame.copy()
            frame[y : y + h, x : x + w] = (60, 60, 60)
        if region is None:
            return frame.copy()
        return frame[region.top : region.top + region.height, region.left : region.left + region.width].copy()

    def grab_stable(self, region: Region | None = None, monitor: int = 0, timeout: float = 1.0,
                    interval: float = 0.01) -> np.ndarray:
        return self.grab(region, monitor)

    def close(self) -> None:
        pass

    # -- the mouse (pyautogui's interface, as the Actuator uses it) ----------------
    def click(self, x: int, y: int, button: str = "left") -> None:
        if self.cover is not None:
            cx, cy, cw, ch = self.cover
            if cx <= x < cx + cw and cy <= y < cy + ch:
                self.misses.append((x, y))  # the window on top took it
                return
        _, (fx, fy) = self.image()
        r, c = (y - fy) // 16, (x - fx) // 16
        face_x, face_y = fx + self.level.cols * 8 - 12, fy - 39
        if 0 <= r < self.level.rows and 0 <= c < self.level.cols:
            self.clicks.append((r, c, button))
            if self.game.status == "playing":
                (self.game.open if button == "left" else self.game.flag)((r, c))
        elif face_x <= x < face_x + 24 and face_y <= y < face_y + 24 and button == "left":
            self.restart()
        else:
            self.misses.append((x, y))
        self._frame = None

    def mouseDown(self, x: int, y: int, button: str = "left") -> None:
        pass

    def moveTo(self, x: int, y: int) -> None:  # (nothing pressed: the game sees nothing)
        pass

    def mouseUp(self, x: int, y: int, button: str = "left") -> None:
        self.click(x, y, button)
