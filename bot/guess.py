"""Which covered cell to open when none is proven safe.

Safety first, then what the click is likely to teach: a guess that survives but opens
nothing new only postpones the next guess.
"""

from __future__ import annotations

import numpy as np

from bot.board import Board, Cell, neighbours
from bot.rules import Problem


def first_click(shape: tuple[int, int], rule: str) -> Cell:
    """A corner opens an area most often when only the clicked cell is kept free; near
    (3,3) is best when its neighbours are kept free too (published solver results)."""
    rows, cols = shape
    if rule == "zero":
        return (min(2, rows - 1), min(2, cols - 1))
    return (0, 0)


def choose_guess(board: Board, problem: Problem, grid: np.ndarray, mines: frozenset[Cell]) -> Cell | None:
    covered = [c for c in problem.covered if c not in mines]
    if not covered:
        return None
    best = max(1.0 - grid[c] for c in covered)
    near = [c for c in covered if 1.0 - grid[c] >= best - 1e-9]
    return max(near, key=lambda c: _openness(board, c))


def _openness(board: Board, cell: Cell) -> tuple[float, int, int]:
    """Tie-break: fewer covered neighbours means a number there is more often decisive."""
    around = neighbours(board.shape, cell)
    covered = sum(1 for n in around if board.cells[n] < 0)
    return (-covered, -cell[0], -cell[1])
