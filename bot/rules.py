"""Board -> rules: "these covered cells hold exactly k mines".

The solver never sees a grid, only rules (the vocabulary of minesweepr), so it can be
tested with tiny hand-written cases and reused by vision checks and skin learning.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.board import COVERED, KNOWN_MINE, Board, Cell, neighbours
from bot.errors import InconsistentBoardError


@dataclass(frozen=True)
class Rule:
    """`count` mines among `cells`; `source` is the number that says so (for messages)."""

    cells: tuple[Cell, ...]
    count: int
    source: Cell


@dataclass(frozen=True)
class Problem:
    """Everything the solver needs: rules over the frontier, and the cells no number touches."""

    shape: tuple[int, int]
    frontier: tuple[Cell, ...]
    interior: tuple[Cell, ...]
    rules: tuple[Rule, ...]
    mines_left: int | None

    @property
    def covered(self) -> tuple[Cell, ...]:
        return self.frontier + self.interior


def where(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def build_problem(board: Board) -> Problem:
    """Turn what is shown into rules; contradictions a single number shows are reported here."""
    covered = board.covered()
    known = board.known_mines()
    rules: list[Rule] = []
    touched = np.zeros(board.shape, dtype=bool)
    for r, c in zip(*np.nonzero(board.cells >= 0)):
        value = int(board.cells[r, c])
        around = neighbours(board.shape, (int(r), int(c)))
        unknown = tuple(n for n in around if covered[n])
        flagged = sum(1 for n in around if known[n])
        need = value - flagged
        if need < 0:
            raise InconsistentBoardError(
                f"{where((r, c))}: shows {value} but {flagged} flagged or shown mines touch it"
            )
        if need > len(unknown):
            raise InconsistentBoardError(
                f"{where((r, c))}: shows {value} but only {len(unknown) + flagged} neighbours can hold a mine"
            )
        if unknown:
            rules.append(Rule(unknown, need, (int(r), int(c))))
            for n in unknown:
                touched[n] = True
    frontier = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(covered & touched)))
    interior = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(covered & ~touched)))
    mines_left = None
    if board.mines is not None:
        mines_left = board.mines - int(known.sum())
        if mines_left < 0:
            raise InconsistentBoardError(
                f"{int(known.sum())} cells are flagged or shown as mines but the board has {board.mines}"
            )
        if mines_left > len(frontier) + len(interior):
            raise InconsistentBoardError(
                f"{mines_left} mines are left but only {len(frontier) + len(interior)} cells are covered"
            )
    return Problem(board.shape, frontier, interior, tuple(rules), mines_left)


# Codes re-exported for callers that only need to know what counts as covered or a mine.
__all__ = ["COVERED", "KNOWN_MINE", "Problem", "Rule", "build_problem", "where"]
