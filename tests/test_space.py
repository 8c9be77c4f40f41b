"""Small closed-off areas (bot.solver.space), and the guess that defers them (guess.DEFER_SMALL)."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import FLAG, parse_grid
from bot.solver import guess, space

# A corner pocket of two unknown cells behind numbers and a flag, and a large covered field
# that no number joins to it.
GRID = """
????1.1??
????1.1F1
????1.111
????1....
"""


def areas(grid: str, mines: frozenset = frozenset()) -> tuple[np.ndarray, np.ndarray]:
    cells = parse_grid(grid).cells
    return space.unknown_cells(cells, mines), space.opened_cells(cells)


def test_a_pocket_behind_numbers_and_a_flag_is_small_and_the_field_large() -> None:
    unknown, opened = areas(GRID)
    assert not unknown[1, 7]  # (a flag is no unknown cell)
    assert not space.in_large_area(unknown, opened, (0, 7))
    assert not space.in_large_area(unknown, opened, (0, 8))
    assert space.in_large_area(unknown, opened, (0, 0))
    assert space.in_large_area(unknown, opened, (3, 3))


def test_an_open_cell_joins_the_unknown_cells_around_it() -> None:
    # Two single covered cells, each alone, but both touching the open 1 between them: one area
    # of two (small at 8, large at 2).
    grid = "?1?\n111"
    unknown, opened = areas(grid)
    assert not space.in_large_area(unknown, opened, (0, 0))
    assert space.in_large_area(unknown, opened, (0, 0), size=2)
    assert not space.in_large_area(unknown, opened, (0, 0), size=3)


def test_proven_mines_wall_an_area_off_like_flags() -> None:
    flagged = GRID.replace("F", "?")
    unknown, opened = areas(flagged)
    assert unknown[1, 7]
    assert space.in_large_area(unknown, opened, (0, 7), size=3)
    unknown, opened = areas(flagged, frozenset({(1, 7)}))
    assert not space.in_large_area(unknown, opened, (0, 7), size=3)


@pytest.mark.parametrize("cells", [[(0, 7), (0, 0)], [(0, 8)]])
def test_the_guess_defers_small_areas_only_while_a_large_one_is_left(cells: list) -> None:
    board = parse_grid(GRID)
    assert board.cells[1, 7] == FLAG
    kept = guess._defer_small(board, frozenset(), cells)
    assert kept == ([(0, 0)] if len(cells) == 2 else cells)
