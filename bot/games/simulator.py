"""Headless games with the five first-click rules, seeded and reproducible: `safe` (the first
click is never a mine: the mines are placed after it, elsewhere), `zero` (nor its neighbours),
`winxp` (placed before; a mine under the first click moves to the top-left free cell), `none`
(placed before and never moved: the first click can lose, as in ace-minesweeper) and `open` (no
first click: the game opens the area of a random 0 itself, as xdemineur does).

The simulator shows the player exactly what the real game shows (a Board), so the
play loop, the solver and the benchmarks can run against it without a screen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import EXPLODED, FLAG, MINE, QUESTION, UNOPENED, WRONG_FLAG, Board, Cell, around_count, neighbours
from bot.errors import BotError

RULES = ("safe", "winxp", "zero", "none", "open")
LEVELS = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
_EIGHT = np.ones((3, 3), dtype=np.uint8)


def _grown(mask: np.ndarray) -> np.ndarray:
    """mask and its eight neighbours."""
    return cv2.dilate(mask.astype(np.uint8), _EIGHT) > 0


@dataclass(frozen=True)
class Level:
    rows: int
    cols: int
    mines: int

    @property
    def name(self) -> str:
        for name, dims in LEVELS.items():
            if dims == (self.rows, self.cols, self.mines):
                return name
        return f"{self.rows}x{self.cols}x{self.mines}"


#: The largest board the simulator plays (a 1000 x 1000 board; bigger ones would take memory and
#: hours, not give a figure).
MAX_CELLS = 1_000_000


def parse_level(text: str) -> Level:
    """`beginner`, `intermediate`, `expert`, or `RxCxM` (rows, columns, mines)."""
    if text.lower() in LEVELS:
        return Level(*LEVELS[text.lower()])
    match = re.fullmatch(r"(\d+)x(\d+)x(\d+)", text.lower())
    if not match:
        raise BotError(f"unknown level {text!r}: use beginner, intermediate, expert or RxCxM")
    rows, cols, mines = map(int, match.groups())
    if rows < 2 or cols < 2 or not 1 <= mines <= rows * cols - 1:
        raise BotError(f"level {text!r} is not a playable board")
    if rows * cols > MAX_CELLS:
        raise BotError(f"level {text!r} has {rows * cols} cells; the simulator plays at most {MAX_CELLS}")
    return Level(rows, cols, mines)


class Game:
    """One game: hidden mines, what is shown, and the moves a player can make."""

    def __init__(self, level: Level, rule: str = "safe", seed: int | np.random.SeedSequence | None = None) -> None:
        if rule not in RULES:
            raise BotError(f"unknown rule {rule!r}: use one of {', '.join(RULES)}")
        self.level = level
        self.rule = rule
        self.rng = np.random.default_rng(seed)
        self.shape = (level.rows, level.cols)
        self.mine = np.zeros(self.shape, dtype=bool)
        self.shown = np.full(self.shape, UNOPENED, dtype=np.int8)
        self.status = "playing"
        self.clicks = 0
        self.placed = False
        self.fixed = False
        if rule in ("winxp", "none", "open"):
            self._place(self.rng.choice(self.mine.size, level.mines, replace=False))
        if rule == "open":  # the game's own start: the area of a random 0 (else of a random safe cell)
            zeros = np.argwhere((self.counts == 0) & ~self.mine)
            free = zeros if len(zeros) else np.argwhere(~self.mine)
            if len(free):
                self._reveal([tuple(int(v) for v in free[self.rng.integers(len(free))])])

    @classmethod
    def from_layout(cls, mines: np.ndarray, rule: str = "safe") -> Game:
        """A game on a given layout (tests, scripted windows): the first click moves nothing."""
        game = cls(Level(mines.shape[0], mines.shape[1], int(mines.sum())), rule)
        game.mine[:] = False
        game._place(np.flatnonzero(mines))
        game.fixed = True
        return game

    # -- mine layout -------------------------------------------------------
    def _place(self, flat: np.ndarray) -> None:
        self.mine.flat[flat] = True
        self.placed = True
        self.counts = around_count(self.mine).astype(np.int8)
        zeros = ((self.counts == 0) & ~self.mine).astype(np.uint8)
        _, self.zero_labels = cv2.connectedComponents(zeros, connectivity=8)

    def _first_click(self, cell: Cell) -> None:
        if self.rule in ("none", "open"):
            return
        if self.rule == "winxp":
            if self.mine[cell]:
                free = np.flatnonzero(~self.mine)[0]  # top-left, or the first free cell to its right
                self.mine[cell] = False
                self._place(np.array([free]))
            return
        keep = {cell}
        if self.rule == "zero" and self.mine.size - 9 >= self.level.mines:
            keep.update(neighbours(self.shape, cell))
        allowed = np.array([i for i in range(self.mine.size) if divmod(i, self.shape[1]) not in keep])
        self._place(self.rng.choice(allowed, self.level.mines, replace=False))

    # -- moves -------------------------------------------------------------
    def open(self, cell: Cell) -> None:
        """Left click: opens a covered cell; a mine loses, a zero opens its whole area."""
        if self.status != "playing" or self.shown[cell] not in (UNOPENED, QUESTION):
            return
        self.clicks += 1
        if self._untouched() and not self.fixed:
            self._first_click(cell)
        self._reveal([cell])

    def _untouched(self) -> bool:
        return not (self.shown >= 0).any()

    def flag(self, cell: Cell) -> None:
        """Right click: toggles a flag on a covered cell (question marks are off, as with Mark=0)."""
        if self.status != "playing":
            return
        if self.shown[cell] in (UNOPENED, QUESTION):
            self.shown[cell] = FLAG
        elif self.shown[cell] == FLAG:
            self.shown[cell] = UNOPENED
        else:
            return
        self.clicks += 1

    def chord(self, cell: Cell) -> None:
        """Opens every unflagged neighbour of a number whose flags are complete."""
        if self.status != "playing" or self.shown[cell] <= 0:
            return
        around = neighbours(self.shape, cell)
        if sum(self.shown[n] == FLAG for n in around) != self.shown[cell]:
            return
        self.clicks += 1
        self._reveal([n for n in around if self.shown[n] in (UNOPENED, QUESTION)])

    def _reveal(self, cells: list[Cell]) -> None:
        boom = [c for c in cells if self.mine[c]]
        if boom:
            self._lose(boom)
            return
        for cell in cells:
            if self.shown[cell] >= 0:
                continue
            label = self.zero_labels[cell]
            if label:
                area = _grown(self.zero_labels == label)
                area &= self.shown < 0
                area &= self.shown != FLAG
                self.shown[area] = self.counts[area]
            else:
                self.shown[cell] = self.counts[cell]
        if int((self.shown >= 0).sum()) == self.mine.size - self.level.mines:
            self.status = "won"
            self.shown[self.mine] = FLAG

    def _lose(self, boom: list[Cell]) -> None:
        self.status = "lost"
        self.shown[self.mine & (self.shown != FLAG)] = MINE
        self.shown[(self.shown == FLAG) & ~self.mine] = WRONG_FLAG
        for cell in boom:
            self.shown[cell] = EXPLODED

    # -- what the player sees ---------------------------------------------
    def board(self) -> Board:
        return Board(self.shown.copy(), self.level.mines)

    def three_bv(self) -> int:
        """Clicks a perfect player needs: one per zero area plus every number no area reaches."""
        if not self.placed:
            raise BotError("3BV is defined once the mines are placed")
        areas = int(self.zero_labels.max())
        reached = _grown(self.zero_labels > 0)
        return areas + int((~reached & ~self.mine).sum())


def opened_at_random(level: Level, seed: int, share: float) -> Game:
    """A game (rule `none`) whose random safe cells were opened until `share` of its cells show, as
    a player clicking all over a big board leaves it: the solver's hardest frontiers (thousands of
    cells in one component, most of them proven). Benchmarks and tests of exact counting use it."""
    game = Game(level, "none", seed)
    rng = np.random.default_rng(seed)
    while (game.shown >= 0).mean() < share:
        free = np.argwhere(~game.mine & (game.shown < 0))
        game.open(tuple(int(v) for v in free[rng.integers(len(free))]))
    return game
