"""The live learner's hands on a field of separate tiles: clicks on cells' centres and keys, and
what the screen shows once the field has answered them, the game's windows over it answered and
their titles noted with the picture after them (bot.learn.described_live plays through these)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from bot.learn.hands import Hands
from bot.vision.described import boxes, cell_look, read_described
from bot.vision.look import Look, hsv_of
from bot.vision.tiles import Tiles

#: Seconds the game may take to show what a click or a key did.
SETTLE = 3.0
#: Seconds a game may take to open a window of its own once the field has changed (KMines' score
#: table after a win came after the won board was grabbed, and its pixels were taken for tiles).
WINDOW_WAIT = 0.3
#: The largest change of a field pixel's channel that is no answer of the game's (noise, a cursor).
CHANGED = 40


class Field:
    """Where the cells are: their centres, in image pixels, and the tile's size without its gap."""

    def __init__(self, tiles: Tiles) -> None:
        self.rows, self.cols, self.tile = tiles.rows, tiles.cols, tiles.tile
        self.xs, self.ys = tiles.field.centres()

    def centre(self, cell: tuple[int, int]) -> tuple[int, int]:
        return round(float(self.xs[cell[1]])), round(float(self.ys[cell[0]]))

    def read(self, image: np.ndarray, look: Look) -> tuple[np.ndarray, np.ndarray]:
        return read_described(image, self.xs, self.ys, self.tile, look)

    def covered_share(self, image: np.ndarray, look: Look) -> float:
        """The share of the tiles whose ground is the covered tile's."""
        found = [box is not None and look.covered.holds(hsv_of(cell_look(box).ground))
                 for box in boxes(image, self.xs, self.ys, self.tile)]
        return float(np.mean(found))

    def cells(self, image: np.ndarray) -> np.ndarray:
        """The field's pixels: what changes when the game answers a click."""
        y0, y1 = int(self.ys[0] - self.tile / 2), int(self.ys[-1] + self.tile / 2)
        x0, x1 = int(self.xs[0] - self.tile / 2), int(self.xs[-1] + self.tile / 2)
        return image[max(0, y0) : y1, max(0, x0) : x1]


class FieldHands:
    """Clicks and keys on the field, each followed by the screen it leaves. `titled` keeps the
    titles of the game's windows answered, in turn; `lost_window`, the title of the window a mine
    clicked on purpose opened."""

    def __init__(self, grab: Callable[[], np.ndarray], field: Field, hands: Hands) -> None:
        self.grab, self.field, self.hands = grab, field, hands
        self.titled: list[str] = []
        self.lost_window: str | None = None

    def after(self, before: np.ndarray, act: Callable[[], None], key: str = "Return",
              losing: bool = False) -> np.ndarray | None:
        """What the screen shows once the field has changed after `act`, settled, the game's windows
        over it answered with `key` (their title noted); None if it did not change.
        With `losing` (a mine clicked on purpose), that title is the game's lost window."""
        old = self.field.cells(before)
        act()
        deadline = time.monotonic() + SETTLE
        while time.monotonic() < deadline:
            image = self.grab()
            now = self.field.cells(image)
            if now.shape == old.shape and np.abs(now.astype(np.int16) - old).max() > CHANGED:
                # Once more, a window of the game's over the field answered first (a win's score
                # table: its pixels were taken for tiles); a game that animates its tiles has
                # settled by then.
                title = None
                if self.answers():
                    time.sleep(WINDOW_WAIT)
                    title = self.answer_windows(key)
                    if losing and self.lost_window is None:
                        self.lost_window = title
                if title is not None:
                    self.titled.append(title)
                return self.grab()
            time.sleep(0.05)
        return None

    def click(self, image: np.ndarray, cells: list[tuple[int, int]], key: str = "Escape", losing: bool = False,
              button: str = "left") -> np.ndarray | None:
        """The screen after clicking the cells; the game's windows declined with Escape by default:
        a lost game's question of a new one answered Return began one before the lost board was
        seen (KMines Hard: no learning game's loss was ever kept)."""
        def act() -> None:
            for cell in cells:
                self.hands.click(*self.field.centre(cell), button)
        return self.after(image, act, key, losing)

    def key(self, image: np.ndarray, combo: str) -> np.ndarray | None:
        """The screen after pressing `combo` over the field, a window it opens answered Return."""
        return self.after(image, lambda: self.hands.key(*self.field.centre((0, 0)), combo))

    def decline_open_window(self) -> np.ndarray | None:
        """The screen once a window of the game's open now is declined with Escape (its title noted);
        None where none is open."""
        title = self.open_window()
        if title is None:
            return None
        self.answer_windows("Escape")
        self.titled.append(title)
        return self.grab()

    def answers(self) -> bool:
        """Whether the hands can answer the game's windows (the live hands can; a toy's need not)."""
        return hasattr(self.hands, "answer_game_windows")

    def open_window(self) -> str | None:
        """The title of the game's window open over it now, where the hands can tell and answer it."""
        if not self.answers():
            return None
        return getattr(self.hands, "window_title", lambda: None)()

    def answer_windows(self, key: str) -> str | None:
        """The game's windows over it answered with `key`, where the hands can: the title of the one
        open before, or None."""
        title = self.open_window()
        if self.answers():
            self.hands.answer_game_windows(key)  # type: ignore[attr-defined]
        return title
