"""Long-term risk: where a 50/50 may form later, and which guesses pay for it now.

A pair of covered cells side by side is a 50/50 for good once every cell that touches one and
not the other (the three beyond each end) is a mine or off the board: no number can ever tell
the two apart. Such a pair has to be guessed some time; a guess on one of its cells *now* risks
nothing more than that later coin, and if the cell is safe its number may settle the pair. So a
cell that may end up in such a pair is worth more as a guess than its safety says: by the share
of layouts in which it is the mine of a pair about to form. The same for a 2 x 2 square with its
mines on a diagonal, once its four outer corners are mines. The idea, the shapes, the limits and
the weights are DavidNHill's (his Java solver's and JSMinesweeper's long-term risk, read from their
source); the counts are ours (bot.solver.probability).

A cell whose every layout with a mine on it is such a pattern is either safe or in a 50/50: it is
guessed at once (a "pseudo-50/50").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from bot.board import UNREAD, Board, Cell
from bot.errors import InconsistentBoardError
from bot.solver.deadline import NO_LIMIT, Deadline
from bot.solver.probability import log_count
from bot.solver.rules import Problem, fix

#: A cell's worth as a guess: safety + WEIGHT x its 50/50 share (DavidNHill's 0.9).
WEIGHT = 0.9
#: Patterns at least this likely make their cells (and enablers) candidates of their own.
THRESHOLD = 0.025
#: At most this many covered, not proven, cells beyond a pattern (the ones that must be mines
#: for it to form): the board scan's and the score's (looser) limits, as DavidNHill's Java solver
#: (the one that wins 41 %; his JavaScript one scans squares with two).
SCAN_MISSING = {"across": 1, "down": 1, "square": 1}
SCORE_MISSING = {"across": 3, "down": 3, "square": 3}

_SIDE = (-1, 0, 1)
#: Each pattern's cells and the cells beyond it, as (row, column) offsets from its anchor.
_OFFSETS = {
    "across": (((0, 0), (0, 1)), tuple((d, -1) for d in _SIDE) + tuple((d, 2) for d in _SIDE)),
    "down": (((0, 0), (1, 0)), tuple((-1, d) for d in _SIDE) + tuple((2, d) for d in _SIDE)),
    "square": (((0, 0), (0, 1), (1, 0), (1, 1)), ((-1, -1), (-1, 2), (2, -1), (2, 2))),
}


@dataclass(frozen=True)
class Pattern:
    """A 50/50 that may form: `cells` the pair or square, `share` of the layouts in which it forms
    with a mine on its first cell (as often as with one on the other: nothing tells them apart),
    `enablers` the covered cells beyond it that must be mines for it to form."""

    cells: tuple[Cell, ...]
    share: float
    enablers: tuple[Cell, ...]


@dataclass
class LongTermRisk:
    """The 50/50 shares of one guessing position. `odds`: each covered cell's probability
    (proven mines at 1); `log_total`: the natural log of the position's number of layouts."""

    board: Board
    problem: Problem
    odds: np.ndarray
    log_total: float
    deadline: Deadline = NO_LIMIT
    _patterns: dict[tuple[str, Cell], Pattern | None] = field(default_factory=dict)
    _scan: dict[Cell, float] | None = None
    _enabling: dict[Cell, float] = field(default_factory=dict)
    _pseudo: list[Cell] = field(default_factory=list)

    def __post_init__(self) -> None:
        cells = self.board.cells
        self._open = (cells >= 0) | (cells == UNREAD)
        self._hidden = np.zeros(cells.shape, dtype=bool)
        for cell in self.problem.covered:
            self._hidden[cell] = not self.odds[cell] >= 1.0 - 1e-12
        # (padded by two with "neither": the whole-board masks of _anchors read off-board as that)
        self._padded = np.pad(self._hidden, 2), np.pad(self._open, 2)

    def influence(self, cell: Cell) -> float:
        """The share of layouts in which `cell` is the mine of a 50/50 about to form (the likeliest
        pattern of each kind through it, and what it enables), at most its chance of being a mine
        and of being safe."""
        self.scan()
        r, c = cell
        through = {"across": ((r, c), (r, c - 1)), "down": ((r, c), (r - 1, c)),
                   "square": ((r, c), (r, c - 1), (r - 1, c), (r - 1, c - 1))}
        share = 0.0  # the likeliest pattern of each kind through the cell (they exclude each other)
        for kind, anchors in through.items():
            found = (self.pattern(kind, at, SCORE_MISSING[kind]) for at in anchors)
            share += max((p.share for p in found if p), default=0.0)
        share += self._enabling.get(cell, 0.0)
        p_mine = float(self.odds[cell])
        return max(0.0, min(share, p_mine, 1.0 - p_mine))

    def candidates(self) -> dict[Cell, float]:
        """Cells in or enabling a likely pattern (share past THRESHOLD), with their share."""
        return dict(self.scan())

    def pseudo(self) -> list[Cell]:
        """Cells that are safe or in a 50/50 in every layout: a mine there always forms one."""
        self.scan()
        return list(self._pseudo)

    def scan(self) -> dict[Cell, float]:
        """Every pattern on the board within SCAN_MISSING, once."""
        if self._scan is not None:
            return self._scan
        found: dict[Cell, float] = {}
        for kind, limit in SCAN_MISSING.items():
            for anchor in self._anchors(kind, limit):
                pattern = self.pattern(kind, anchor, limit)
                if pattern is None:
                    continue
                always = [c for c in pattern.cells if math.isclose(pattern.share, self.odds[c], rel_tol=1e-9)]
                self._pseudo += [c for c in always if c not in self._pseudo]
                if pattern.share <= THRESHOLD:
                    continue
                for cell in pattern.cells + pattern.enablers:
                    found[cell] = found.get(cell, 0.0) + pattern.share
                for cell in pattern.enablers:
                    self._enabling[cell] = self._enabling.get(cell, 0.0) + pattern.share
        self._scan = found
        return found

    def _anchors(self, kind: str, most_missing: int) -> list[Cell]:
        """Where a pattern of `kind` could stand, found for the whole board at once: its cells
        covered and not proven, nothing open beyond it, at most `most_missing` unproven beyond."""
        rows, cols = self.board.shape
        hidden, opened = self._padded

        def at(grid: np.ndarray, dr: int, dc: int) -> np.ndarray:
            return grid[2 + dr : 2 + dr + rows, 2 + dc : 2 + dc + cols]

        inside, beyond = _OFFSETS[kind]
        ok = np.logical_and.reduce([at(hidden, dr, dc) for dr, dc in inside])
        ok &= ~np.logical_or.reduce([at(opened, dr, dc) for dr, dc in beyond])
        ok &= np.add.reduce([at(hidden, dr, dc).astype(int) for dr, dc in beyond]) <= most_missing
        return [(int(r), int(c)) for r, c in np.argwhere(ok)]

    def pattern(self, kind: str, anchor: Cell, most_missing: int) -> Pattern | None:
        """The pattern of `kind` ("across", "down": a pair; "square") from `anchor` (its top left),
        None where it cannot form or has more than `most_missing` enablers."""
        shape = _shape(kind, anchor, self.board.shape)
        if shape is None:
            return None
        cells, beyond = shape
        if not all(self._hidden[cell] for cell in cells) or any(self._open[cell] for cell in beyond):
            return None
        enablers = tuple(cell for cell in beyond if self._hidden[cell])
        if len(enablers) > most_missing:
            return None
        key = (kind, anchor)
        if key not in self._patterns:
            self._patterns[key] = self._count(cells, enablers)
        return self._patterns[key]

    def _count(self, cells: tuple[Cell, ...], enablers: tuple[Cell, ...]) -> Pattern | None:
        # A mine on the first cell (and on the last: a square's diagonal), the rest of it safe.
        mines = frozenset(enablers) | {cells[0], cells[-1] if len(cells) == 4 else cells[0]}
        safe = frozenset(cells) - mines
        if self.problem.mines_left is not None and len(mines) > self.problem.mines_left:
            return None
        try:
            log_layouts = log_count(fix(self.problem, mines, safe), self.deadline)
        except InconsistentBoardError:
            return None
        share = math.exp(log_layouts - self.log_total) if np.isfinite(log_layouts) else 0.0
        return Pattern(cells, share, enablers) if share > 0.0 else None


def _shape(kind: str, anchor: Cell, size: tuple[int, int]) -> tuple[tuple[Cell, ...], tuple[Cell, ...]] | None:
    """The pattern's cells (first and last the mines of one of its layouts) and the board cells
    beyond it that touch some of its cells but not all: None where it leaves the board."""
    rows, cols = size
    r, c = anchor
    inside, beyond = _OFFSETS[kind]
    cells = tuple((r + dr, c + dc) for dr, dc in inside)
    if not all(0 <= y < rows and 0 <= x < cols for y, x in cells):
        return None
    return cells, tuple((r + dr, c + dc) for dr, dc in beyond if 0 <= r + dr < rows and 0 <= c + dc < cols)
