"""A shaded, gapped game (tests/modern_look.py's drawing) as screen, mouse and keyboard in one, for
learning such a look live without a display: grab() shows it, click() and key() play it. No
face: a key starts a new game, as in Windows 7's and the Microsoft app's Minesweeper.

    python3 -m tests.modern_toy --style meadow --level 9x9x10 --pitch 30 --at 150,120

runs it as a real Tk window (for tests on a live X display): the window is the whole drawing.
"""

from __future__ import annotations

import argparse

import numpy as np

from bot.games.simulator import Game, Level, parse_level
from tests.support.modern_look import ModernCanvas


class ModernToy:
    def __init__(self, level: Level, style: str = "meadow", pitch: float = 30.0, at: tuple[int, int] = (40, 40),
                 seed: int = 0, new_game_key: str = "f2", rule: str = "safe") -> None:
        self.level, self.style, self.pitch, self.at = level, style, pitch, at
        self.seed, self.new_game_key, self.rule = seed, new_game_key, rule
        self.screen = (int(level.cols * pitch + 2 * at[0] + 3 * pitch), int(level.rows * pitch + 2 * at[1] + 4 * pitch))
        self.games, self.results, self.outside = 0, [], []
        self.keys: list[str] = []
        self.canvas = ModernCanvas((level.rows, level.cols), style, pitch, at, self.screen)
        self.corner = self.canvas.corner
        self._shown: np.ndarray | None = None
        self._image: np.ndarray | None = None
        self.new_game()

    def new_game(self) -> None:
        if self.games:
            self.results.append(self.game.status)
        self.game = Game(self.level, self.rule, seed=self.seed + self.games)
        self.games += 1

    def grab(self) -> np.ndarray:
        """The screen; only the cells changed since the last grab are drawn again."""
        shown = self.game.board().cells
        if self._shown is None or not np.array_equal(self._shown, shown):
            for r, c in np.argwhere(self._changed(shown)):
                self.canvas.cell(int(r), int(c), int(shown[r, c]))
            self._shown, self._image = shown.copy(), self.canvas.image()
        return self._image.copy()

    def _changed(self, shown: np.ndarray) -> np.ndarray:
        return np.ones(shown.shape, bool) if self._shown is None else shown != self._shown

    def _cell(self, x: int, y: int) -> tuple[int, int] | None:
        fx, fy = self.corner
        r, c = int((y - fy) // self.pitch), int((x - fx) // self.pitch)
        return (r, c) if 0 <= r < self.level.rows and 0 <= c < self.level.cols else None

    def click(self, x: int, y: int, button: str = "left") -> None:
        cell = self._cell(x, y)
        if cell is None:
            self.outside.append((x, y, button))
            return
        if self.game.status != "playing":
            return
        if button == "left":
            self.game.open(cell)
        elif button == "right":
            self.game.flag(cell)

    def key(self, x: int, y: int, combo: str) -> None:
        self.keys.append(combo)
        if combo == self.new_game_key:
            self.new_game()

    def hold(self, x: int, y: int) -> None:
        pass

    def release(self, x: int, y: int) -> None:
        self.click(x, y)

    def move(self, x: int, y: int) -> None:
        pass


def main() -> None:
    import tkinter as tk

    import cv2
    from PIL import Image, ImageTk

    parser = argparse.ArgumentParser()
    parser.add_argument("--style", default="meadow")
    parser.add_argument("--level", default="9x9x10")
    parser.add_argument("--pitch", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--at", default="150,120")
    args = parser.parse_args()
    toy = ModernToy(parse_level(args.level), args.style, args.pitch, seed=args.seed)
    root = tk.Tk()
    root.title(f"{args.style} toy")
    root.overrideredirect(True)
    x, y = (int(v) for v in args.at.split(","))
    shown = tk.Label(root, borderwidth=0, highlightthickness=0)
    shown.pack()

    def draw() -> None:
        shown.image = ImageTk.PhotoImage(Image.fromarray(cv2.cvtColor(toy.grab(), cv2.COLOR_BGR2RGB)))
        shown.configure(image=shown.image)

    def act(event: tk.Event, button: str) -> None:
        toy.click(event.x, event.y, button)
        root.after_idle(draw)

    def key(event: tk.Event) -> None:
        toy.key(0, 0, event.keysym.lower())
        root.after_idle(draw)

    shown.bind("<ButtonRelease-1>", lambda e: act(e, "left"))
    shown.bind("<ButtonRelease-3>", lambda e: act(e, "right"))
    root.bind("<Key>", key)
    draw()
    root.geometry(f"+{x}+{y}")
    root.focus_force()
    root.mainloop()


if __name__ == "__main__":
    main()
