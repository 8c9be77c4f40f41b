"""The dry run's overlay: the advice drawn over the live game in a topmost window clicks go through.

Only the marks are part of the window (a ring inside each marked cell, one label under the
field); the rest of the game shows through, and every click reaches the game. The marks are
plain rectangles so that the same list shapes the window, fills it, and tells the watch loop
which screen pixels are ours: it looks for the user's moves outside them, and lifts the overlay
for the one grab it reads the board from. What differs per system (key colour and extended
styles on Windows, the SHAPE extension on X11) is in bot.screen.platform.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot.screen.platform import KEY_COLOUR, Box, OverlayError, Platform
from bot.solver.advice import Advice
from bot.vision.reader import Field

GREEN, RED, BLUE, ORANGE = "#00c800", "#e60000", "#0078ff", "#ff9600"
LABEL_HEIGHT = 16
LABEL_GAP = 4  # between the field and the label under it


@dataclass(frozen=True)
class Drawing:
    """What the overlay shows, in screen pixels: filled rectangles and at most one label."""

    area: Box  # the overlay window
    rects: tuple[tuple[Box, str], ...]
    label: tuple[Box, str] | None

    def boxes(self) -> list[Box]:
        return [box for box, _ in self.rects] + ([self.label[0]] if self.label else [])

    def mask(self, left: int, top: int, width: int, height: int) -> np.ndarray:
        """Which pixels of a grab of that screen box the overlay covers."""
        out = np.zeros((height, width), bool)
        for x, y, w, h in self.boxes():
            out[max(0, y - top) : max(0, y - top + h), max(0, x - left) : max(0, x - left + w)] = True
        return out


def _ring(x0: int, y0: int, size: int, thick: int) -> list[Box]:
    return [(x0, y0, size, thick), (x0, y0 + size - thick, size, thick),
            (x0, y0 + thick, thick, size - 2 * thick), (x0 + size - thick, y0 + thick, thick, size - 2 * thick)]


def _label_width(text: str) -> int:
    """The label's box for its text in Tk's fixed font at 9 points (7 px a character, measured)."""
    return 7 * len(text) + 8


def drawing(field: Field, advice: Advice | None) -> Drawing:
    """Rings inside the marked cells (safe green, mines red, the guess blue) and the guess's odds.

    `field` is in screen pixels. Rings stay one pixel inside their cell so a ring never touches
    a neighbour, and are thick enough to see at any scale.
    """
    left, top = round(field.left), round(field.top)
    width, height = round(field.width), round(field.height)
    area = (left, top, width, height + LABEL_GAP + LABEL_HEIGHT)
    if advice is None:
        return Drawing(area, (), None)
    thick = max(2, round(field.pitch / 8))
    size = round(field.pitch) - 2

    def cell_rects(cell: tuple[int, int], colour: str) -> list[tuple[Box, str]]:
        left, top = field.cell_origin(*cell)
        x0, y0 = round(left) + 1, round(top) + 1
        return [(box, colour) for box in _ring(x0, y0, size, thick)]

    rects: list[tuple[Box, str]] = []
    for cell in sorted(advice.safe):
        rects += cell_rects(cell, GREEN)
    for cell in sorted(advice.mines):
        rects += cell_rects(cell, RED)
    for cell in sorted(advice.wrong_flags):  # the numbers say the flag is wrong
        rects += cell_rects(cell, ORANGE)
    label = None
    if advice.guess is not None and not advice.safe:
        rects += cell_rects(advice.guess, BLUE)
        r, c = advice.guess[0] + 1, advice.guess[1] + 1
        odds = "" if advice.guess_safety is None else f"{advice.guess_safety:.0%}"
        text = f"guess row {r}, col {c}" + (f": {odds} safe" if odds else "")
        if _label_width(text) > width:  # a Beginner field at 16 px is 144 px wide: the short form
            text = f"guess r{r} c{c}" + (f" {odds}" if odds else "")
        label = ((left, top + height + LABEL_GAP, min(width, _label_width(text)), LABEL_HEIGHT), text)
    return Drawing(area, tuple(rects), label)


class Overlay:
    """One Tk toplevel, moved and redrawn as the advice changes. Call from one thread only."""

    def __init__(self, platform: Platform, tk: Any = None) -> None:
        if tk is None:
            try:
                import tkinter as tk
            except ImportError as err:
                raise OverlayError(f"no overlay window: {err}") from err
        self.gone = tk.TclError  # what Tk raises once its display or window is gone
        try:
            self.root = tk.Tk()
        except tk.TclError as err:  # no display: Tk says why in its own words
            raise OverlayError(f"no overlay window: {err}") from err
        self.platform = platform
        self.root.withdraw()
        self.window = tk.Toplevel(self.root)
        self.window.overrideredirect(True)
        self.window.withdraw()
        self.canvas = tk.Canvas(self.window, highlightthickness=0, borderwidth=0, background=KEY_COLOUR)
        self.canvas.pack(fill="both", expand=True)
        self.shown: Drawing | None = None
        self.window.update_idletasks()
        try:
            platform.prepare_overlay(self.window)
        except OverlayError:
            self.root.destroy()
            raise

    def show(self, d: Drawing) -> None:
        x, y, w, h = d.area
        self.window.geometry(f"{w}x{h}+{x}+{y}")
        self.canvas.configure(width=w, height=h)
        self.canvas.delete("all")
        local = []
        for (bx, by, bw, bh), colour in d.rects:
            self.canvas.create_rectangle(bx - x, by - y, bx - x + bw, by - y + bh, fill=colour, outline="")
            local.append((bx - x, by - y, bw, bh))
        if d.label is not None:
            (bx, by, bw, bh), text = d.label
            self.canvas.create_rectangle(bx - x, by - y, bx - x + bw, by - y + bh, fill="white", outline=BLUE)
            self.canvas.create_text(bx - x + 4, by - y + bh // 2, text=text, anchor="w", fill=BLUE,
                                    font=("TkFixedFont", 9))
            local.append((bx - x, by - y, bw, bh))
        self.window.deiconify()
        self.window.update_idletasks()
        self.platform.shape_overlay(self.window, local)
        self.window.lift()
        self.window.update()
        self.shown = d

    def hide(self) -> None:
        if self.shown is not None:
            self.window.withdraw()
            self.window.update()
            self.shown = None

    def pump(self) -> None:
        """Let Tk handle its events (expose, configure) between frames."""
        self.root.update()

    def close(self) -> None:
        with contextlib.suppress(self.gone):  # already gone with the display: nothing left to free
            self.root.destroy()
