"""The toy game (tests/toy_game.py) as a real X window: a Tk window showing its drawing, played
with the real mouse. For tests that need a game the bot has never seen on a live screen.

    python3 -m tests.toy_window --level 9x9x10 [--scale 1.25] [--seed 0] [--at 150,120]
"""

from __future__ import annotations

import argparse
import tkinter as tk

import cv2
from PIL import Image, ImageTk

from bot.games.simulator import parse_level
from tests.support.toy_game import ToyGame


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="9x9x10")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--at", default="150,120")
    args = parser.parse_args()
    level = parse_level(args.level)
    width, height = level.cols * 16 + 24, level.rows * 16 + 67
    # The window is the toy's whole "screen": the game drawn at its top-left corner.
    game = ToyGame(level, scale=args.scale, at=(0, 0), seed=args.seed, screen=(width, height))
    root = tk.Tk()
    root.title("Toy Minesweeper")  # a Minesweeper by its title: `play` may learn its look on sight
    root.overrideredirect(True)  # no decorations (there is no window manager in Xvfb anyway)
    x, y = (int(v) for v in args.at.split(","))
    shown = tk.Label(root, borderwidth=0, highlightthickness=0)
    shown.pack()

    pending = []

    def draw() -> None:
        pending.clear()
        rgb = cv2.cvtColor(game.grab(), cv2.COLOR_BGR2RGB)
        shown.image = ImageTk.PhotoImage(Image.fromarray(rgb))
        shown.configure(image=shown.image)

    def redraw() -> None:  # once for a burst of clicks, like a game that paints when idle
        if not pending:
            pending.append(root.after_idle(draw))

    def press(event: tk.Event) -> None:
        game.hold(event.x, event.y)
        redraw()

    def release(event: tk.Event) -> None:
        if game.held is not None:
            game.release(event.x, event.y)
        else:
            game.click(event.x, event.y)  # the face, or a release off the field
        redraw()

    def right(event: tk.Event) -> None:
        game.click(event.x, event.y, "right")
        redraw()

    shown.bind("<ButtonPress-1>", press)
    shown.bind("<ButtonRelease-1>", release)
    shown.bind("<ButtonPress-3>", right)
    draw()
    root.geometry(f"+{x}+{y}")
    root.mainloop()


if __name__ == "__main__":
    main()
