"""Board -> rules: "these covered cells hold exactly k mines".

The solver never sees a grid, only rules (the vocabulary of minesweepr), so it can be
tested with tiny hand-written cases and reused by vision checks and skin learning.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from bot.board import COVERED, KNOWN_MINE, Board, Cell, around_count, neighbours
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

    @cached_property
    def frontier_set(self) -> frozenset[Cell]:
        return frozenset(self.frontier)

    @cached_property
    def interior_set(self) -> frozenset[Cell]:
        return frozenset(self.interior)


def where(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def build_problem(board: Board) -> Problem:
    """Turn what is shown into rules; contradictions a single number shows are reported here."""
    covered = board.covered()
    known = board.known_mines()
    shape = board.shape
    # Only numbers with a covered neighbour make rules; find them without a Python loop.
    near_covered = around_count(covered) > 0
    rules: list[Rule] = []
    touched = np.zeros(shape, dtype=bool)
    cells = board.cells
    for r, c in zip(*np.nonzero((cells >= 0) & (near_covered | (cells > 0)))):
        cell = (int(r), int(c))
        value = int(cells[r, c])
        around = neighbours(shape, cell)
        unknown = tuple(n for n in around if covered[n])
        flagged = sum(1 for n in around if known[n])
        need = value - flagged
        if need < 0:
            raise InconsistentBoardError(f"{where(cell)}: shows {value} but {flagged} flagged or shown mines touch it")
        if need > len(unknown):
            raise InconsistentBoardError(
                f"{where(cell)}: shows {value} but only {len(unknown) + flagged} neighbours can hold a mine"
            )
        if unknown:
            rules.append(Rule(unknown, need, cell))
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
    return Problem(shape, frontier, interior, tuple(rules), mines_left)


def reveal(problem: Problem, cell: Cell, need: int) -> Problem:
    """The problem after `cell` opens showing `need` mines among its covered neighbours.

    The guesser asks this for every number a candidate could show; editing the rules is far
    cheaper than rebuilding them from a board. Cells keep their order (the frontier's, then the
    interior's row by row), so the counts of untouched components are found in the memo.
    """
    rules = []
    for rule in problem.rules:
        if cell in rule.cells:
            rest = tuple(c for c in rule.cells if c != cell)
            if not rest:
                if rule.count:
                    raise InconsistentBoardError(f"{where(rule.source)}: no room left for its mines")
                continue
            rule = Rule(rest, rule.count, rule.source)
        rules.append(rule)
    interior = problem.interior_set
    around = tuple(n for n in neighbours(problem.shape, cell) if n in interior or n in problem.frontier_set)
    if need < 0 or need > len(around):
        raise InconsistentBoardError(f"{where(cell)}: cannot show that number")
    if around:
        rules.append(Rule(around, need, cell))
    # Every frontier cell but this one is still touched (a rule only loses this cell); the
    # interior cells around it are touched now.
    joining = sorted(n for n in around if n in interior)
    frontier = tuple(c for c in problem.frontier if c != cell) + tuple(joining)
    leaving = {*joining, cell} & interior
    kept = tuple(c for c in problem.interior if c not in leaving) if leaving else problem.interior
    return Problem(problem.shape, frontier, kept, tuple(rules), problem.mines_left)


def fix(problem: Problem, mines: frozenset[Cell], safe: frozenset[Cell]) -> Problem:
    """The problem with some covered cells settled: `mines` hold one, `safe` none. What is left
    counts the layouts that agree with them (the long-term risk asks how often a 50/50 could
    form). Raises InconsistentBoardError where no layout can agree."""
    settled = mines | safe
    rules = []
    for rule in problem.rules:
        if settled.isdisjoint(rule.cells):
            rules.append(rule)
            continue
        rest = tuple(c for c in rule.cells if c not in settled)
        count = rule.count - sum(1 for c in rule.cells if c in mines)
        if not 0 <= count <= len(rest):
            raise InconsistentBoardError(f"{where(rule.source)}: the settled cells do not fit it")
        if rest:
            rules.append(Rule(rest, count, rule.source))
    left = None if problem.mines_left is None else problem.mines_left - len(mines)
    frontier = tuple(c for c in problem.frontier if c not in settled)
    interior = tuple(c for c in problem.interior if c not in settled)
    if left is not None and not 0 <= left <= len(frontier) + len(interior):
        raise InconsistentBoardError("the settled cells do not fit the mine count")
    # (Every unsettled frontier cell is still touched: its rules lost settled cells only.)
    return Problem(problem.shape, frontier, interior, tuple(rules), left)


# Codes re-exported for callers that only need to know what counts as covered or a mine.
__all__ = ["COVERED", "KNOWN_MINE", "Problem", "Rule", "build_problem", "fix", "reveal", "where"]
