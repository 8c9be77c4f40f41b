"""Pockets: enclosed frontier groups of a fixed mine count, played first by exact search."""

from __future__ import annotations

import numpy as np

from bot.board import UNOPENED, Board, around_count
from bot.solver import pockets
from bot.solver.chains import unavoidable_pairs
from bot.solver.rules import build_problem


def shown(mines: list[str], covered: list[str]) -> Board:
    """A board from a layout ('*' a mine) and the cells still covered ('#'), its mine count unknown
    (as if many more mines lay elsewhere: the count cannot tell a pocket's layouts apart)."""
    mine = np.array([[ch == "*" for ch in row] for row in mines])
    hidden = np.array([[ch == "#" for ch in row] for row in covered])
    cells = np.where(hidden, UNOPENED, around_count(mine)).astype(np.int8)
    return Board(cells, None)


# A column of four covered cells from edge to edge, the middle one open: two pairs chained through
# the numbers beside that open cell; two layouts, two mines in each (as in an Expert game played).
CHAIN_MINES = ["...", ".*.", "...", "...", ".*."]
CHAIN_COVERED = [".#.", ".#.", "...", ".#.", ".#."]


def test_a_chain_of_two_pairs_is_a_pocket_the_pair_rule_misses() -> None:
    problem = build_problem(shown(CHAIN_MINES, CHAIN_COVERED))
    assert unavoidable_pairs(problem, frozenset()) == []
    found = pockets.pockets(problem, frozenset())
    assert len(found) == 1
    assert set(found[0].frontier) == {(0, 1), (1, 1), (3, 1), (4, 1)} and found[0].mines_left == 2
    assert pockets.pocket_guess(problem, frozenset()) in found[0].frontier


def test_a_group_a_covered_cell_outside_can_still_inform_is_no_pocket() -> None:
    # The right-hand column covered: (0, 2) touches the chain, and no number touches it yet.
    problem = build_problem(shown(CHAIN_MINES, [row[:2] + "#" for row in CHAIN_COVERED]))
    assert (0, 2) in problem.interior
    assert pockets.pockets(problem, frozenset()) == []
