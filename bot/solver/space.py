"""Whether a covered cell lies in a large area of unknown cells or in a small closed-off one.

A guess in a small area closed off by open numbers and known mines opens little, and nothing
the rest of the board learns will ever help there: such a guess can wait until the guesses that
open the board are taken, when the mine count may settle the small area too. DavidNHill's
solver (the one that wins 41 % of Expert games) defers guesses in areas of fewer than 8 cells
this way; the flood below is his: through unknown cells, and across an open cell to the
unknown cells around it (a number joins the cells it touches).
"""

from __future__ import annotations

import numpy as np

from bot.board import COVERED, UNREAD, Cell, neighbours

#: An area of at least this many unknown cells is large (DavidNHill's 8).
LARGE = 8


def unknown_cells(cells: np.ndarray, mines: frozenset[Cell]) -> np.ndarray:
    """Covered cells that are not known mines (flagged, or proven): the cells an area is made of."""
    unknown = np.isin(cells, COVERED)
    for cell in mines:
        unknown[cell] = False
    return unknown


def opened_cells(cells: np.ndarray) -> np.ndarray:
    """Open cells, a number read or not (an unread one joins its neighbours all the same)."""
    return (cells >= 0) | (cells == UNREAD)


def in_large_area(unknown: np.ndarray, opened: np.ndarray, cell: Cell, size: int = LARGE) -> bool:
    """True when at least `size` unknown cells can be reached from `cell`: step to an unknown
    neighbour, or across an open neighbour to the unknown cells around it."""
    shape = unknown.shape
    seen = {cell}
    todo = [cell]
    while todo:
        here = todo.pop()
        for near in neighbours(shape, here):
            if unknown[near]:
                reached = (near,)
            elif opened[near]:
                reached = tuple(n for n in neighbours(shape, near) if unknown[n])
            else:
                continue
            for n in reached:
                if n not in seen:
                    seen.add(n)
                    if len(seen) >= size:
                        return True
                    todo.append(n)
    return False
