"""Which covered cell to open when none is proven safe.

Safety first, but not only: among the nearly-safest cells, the one whose number most often
makes the *next* move safe wins ("secondary safety", as the strongest published solvers do):
each candidate is scored by looking two moves ahead (bot.solver.lookahead). Before that, the moves
no look-ahead could improve: an unavoidable 50/50 is taken at once, and with few layouts left the
exact search decides. The settings are a Policy (bot.solver.policy), passed in.
"""

from __future__ import annotations

import math

import numpy as np

from bot.board import Board, Cell, around_count
from bot.solver import chains, long_term, lookahead
from bot.solver.deadline import NO_LIMIT, Deadline, OutOfTime
from bot.solver.endgame import best_guess
from bot.solver.policy import PLAY, Policy
from bot.solver.rules import Problem

#: Where the first click wins most often when its neighbours are kept free too (`zero`), from
#: b1f6c1c4's per-cell tables (10^8 games a cell, 1-based there): [3,3] on 9x9 and 16x16, [4,4] on
#: Expert (52.79 % against 52.43 % at [3,3]), where DavidNHill's "open start at (3,3)" (0-based)
#: starts too. Other sizes: (2, 2).
ZERO_STARTS: dict[tuple[int, int], Cell] = {(16, 30): (3, 3), (30, 16): (3, 3)}


def first_click(shape: tuple[int, int], rule: str) -> Cell:
    """A corner opens an area most often when only the clicked cell is kept free (`safe`,
    `winxp`); a cell a little in from it when its neighbours are kept free too (`zero`)."""
    rows, cols = shape
    if rule == "zero":
        return ZERO_STARTS.get(shape, (min(2, rows - 1), min(2, cols - 1)))
    return (0, 0)


def choose_guess(
    board: Board,
    problem: Problem,
    grid: np.ndarray,
    mines: frozenset[Cell],
    log_layouts: float | None = None,
    deadline: Deadline = NO_LIMIT,
    policy: Policy = PLAY,
) -> Cell | None:
    """The cell to click when none is proven safe. Past the deadline the look-ahead stops and the
    best cell scored so far (or the safest) is taken."""
    covered = [c for c in problem.covered if c not in mines]
    if not covered:
        return None
    shut = around_count(board.cells < 0)
    first = _taken_first(problem, grid, mines, shut, log_layouts, deadline, policy)
    if first is not None:
        return first
    best = max(1.0 - grid[c] for c in covered)
    floor = best * policy.cutoff if policy.cutoff is not None else best - policy.slack
    near = [c for c in covered if 1.0 - grid[c] >= floor]
    near = _representatives(shut, problem, near, policy)
    factor = dict.fromkeys(near, 1.0)
    if policy.long_term and problem.mines_left is not None and log_layouts is not None:
        try:
            risk = long_term.LongTermRisk(board, problem, grid, log_layouts, deadline)
            pseudo = _pick_pseudo(problem, grid, shut, [c for c in risk.pseudo() if c not in mines], deadline, policy)
            if pseudo is not None:  # safe, or in a 50/50 that must be guessed some time: now
                return pseudo
            # Cells a 50/50 may form on are worth more than their safety.
            near += [c for c, share in risk.candidates().items()
                     if c not in mines and c not in near and 1.0 - grid[c] + share >= floor]
            weight = policy.long_term_weight
            factor = {c: 1.0 + (weight * risk.influence(c) / (1.0 - grid[c]) if grid[c] < 1.0 else 0.0)
                      for c in near}
        except OutOfTime:  # (the look-ahead below stops at once too: the safest cell)
            factor = dict.fromkeys(near, 1.0)
    near.sort(key=lambda c: (-(1.0 - grid[c]) * factor[c], _openness(shut, c, policy)))
    near = near[: policy.depth]
    if len(near) == 1:
        return near[0]
    return _best_scored(problem, grid, shut, near, factor, deadline, policy)


def _taken_first(problem: Problem, grid: np.ndarray, mines: frozenset[Cell], shut: np.ndarray,
                 log_layouts: float | None, deadline: Deadline, policy: Policy) -> Cell | None:
    """The moves no look-ahead could improve, in this order: an unavoidable 50/50 (a pair, then a
    chain), then the exact search when few layouts are left; None when none applies."""
    pairs = chains.unavoidable_pairs(problem, mines) if policy.pairs else []
    if pairs:  # it must be guessed some time, and nothing will make it better: now
        return min(pairs[0])
    if policy.chains:
        found = chains.unavoidable_chains(problem, mines)
        if found:  # the same, and its cell whose number teaches most
            cells = sorted(found[0][0] | found[0][1])
            pick = _pick_pseudo(problem, grid, shut, cells, deadline, policy)
            return cells[0] if pick is None else pick
    few = policy.max_layouts > 0 and log_layouts is not None and log_layouts <= math.log(policy.max_layouts) + 1e-9
    if problem.mines_left is not None and few:
        end = best_guess(problem, deadline=deadline, limit=policy.max_layouts, nodes_limit=policy.nodes)
        if end is not None:  # few layouts left: the exact chance to win decided
            return end[0]
    return None


def _best_scored(problem: Problem, grid: np.ndarray, shut: np.ndarray, near: list[Cell],
                 factor: dict[Cell, float], deadline: Deadline, policy: Policy) -> Cell:
    """The candidate (`near`, best bound first) with the best two-move score times its 50/50
    factor; the first when the deadline leaves none scored."""
    best_key = None
    for cell in near:  # best bound first; a cell's score never exceeds its bound (its safety, times
        safety = 1.0 - float(grid[cell])  # its 50/50 factor), so stop when no later cell can beat
        if best_key is not None and safety * factor[cell] < best_key[0]:
            break  # the best score found (exact pruning)
        try:
            score, _ = lookahead.look(problem, cell, safety, deadline)
        except OutOfTime:
            break
        key = (_rounded(score * factor[cell]), _openness(shut, cell, policy), cell)
        best_key = key if best_key is None or key > best_key else best_key
    return near[0] if best_key is None else best_key[2]


def _pick_pseudo(problem: Problem, grid: np.ndarray, shut: np.ndarray, cells: list[Cell],
                 deadline: Deadline, policy: Policy) -> Cell | None:
    """The best of the cells that are safe or in a 50/50 by two-move score; None where there are
    none, or each can show only one number (a dead cell teaches nothing: better guessed last)."""
    best_key = None
    for cell in cells:
        safety = 1.0 - float(grid[cell])
        try:
            score, outcomes = lookahead.look(problem, cell, safety, deadline)
        except OutOfTime:
            break
        key = (_rounded(score), _openness(shut, cell, policy), cell)
        if outcomes > 1 and (best_key is None or key > best_key):
            best_key = key
    return None if best_key is None else best_key[2]


def _representatives(shut: np.ndarray, problem: Problem, cells: list[Cell], policy: Policy) -> list[Cell]:
    """Interior cells are interchangeable for safety: keep the few most likely to open an area
    (`shut`: as _openness reads it)."""
    interior = problem.interior_set
    inner = [c for c in cells if c in interior]
    if len(inner) <= policy.interior:
        return cells
    inner.sort(key=lambda c: _openness(shut, c, policy), reverse=True)
    return [c for c in cells if c not in interior] + inner[: policy.interior]


def _rounded(score: float) -> float:
    """Scores equal but for rounding are a tie (for the openness to break): mirror-image cells'
    counts are summed in other orders, and differ in the last bits."""
    return round(score, 12)


def _openness(shut: np.ndarray, cell: Cell, policy: Policy = PLAY) -> tuple[int, int, int]:
    """Tie-break: fewer covered neighbours means a number there is more often decisive. `shut`:
    each cell's count of unopened neighbours (bot.board.around_count of the unopened cells). Then
    the top row first (ties "top") or the bottom one ("bottom"), then the left column."""
    return (-int(shut[cell]), cell[0] if policy.ties == "bottom" else -cell[0], -cell[1])
