"""Approximate mine probabilities, for boards whose exact count does not fit the deadline.

Iterative proportional fitting: start every covered cell at the board's mine density, then
repeatedly scale each number's cells so their expected mines equal the number (every cell taking
the geometric mean of what its numbers ask), and the cells no number touches so the expected total
equals the mines left. It is the maximum-entropy guess given the numbers' averages, exact on a
board whose numbers do not overlap, and it costs a few hundred vectorised passes whatever the
board. It is never called exact: the advice carries `approximate`, and cells the SAT core proved
keep their 0 or 1.
"""

from __future__ import annotations

import numpy as np

from bot.board import Cell
from bot.solver.rules import Problem

ROUNDS = 300
EPS = 1e-6


def approximate(problem: Problem, safe: frozenset[Cell] = frozenset(), mines: frozenset[Cell] = frozenset()
                ) -> tuple[dict[Cell, float], float | None]:
    """(probability per covered cell, the shared value of the cells no number touches)."""
    frontier = list(problem.frontier)
    index = {c: i for i, c in enumerate(frontier)}
    n_int = len(problem.interior)
    covered = len(frontier) + n_int
    density = 0.5 if problem.mines_left is None else problem.mines_left / max(covered, 1)
    density = min(max(density, EPS), 1 - EPS)
    p = np.full(len(frontier), density)
    fixed = np.zeros(len(frontier), dtype=bool)
    for cell in safe | mines:
        if cell in index:
            fixed[index[cell]] = True
            p[index[cell]] = 1.0 if cell in mines else 0.0
    rule_of = np.array([k for k, rule in enumerate(problem.rules) for _ in rule.cells], dtype=int)
    cell_of = np.array([index[c] for rule in problem.rules for c in rule.cells], dtype=int)
    want = np.array([rule.count for rule in problem.rules], dtype=float)
    per_cell = np.bincount(cell_of, minlength=len(frontier)).astype(float)
    interior = density if n_int else None
    for _ in range(ROUNDS):
        if len(want):
            have = np.bincount(rule_of, weights=p[cell_of], minlength=len(want))
            with np.errstate(divide="ignore", invalid="ignore"):
                log_factor = np.log(np.where(have > 0, want / have, 1.0) + 1e-300)
            pull = np.bincount(cell_of, weights=log_factor[rule_of], minlength=len(frontier))
            with np.errstate(divide="ignore", invalid="ignore"):
                step = np.exp(np.where(per_cell > 0, pull / np.maximum(per_cell, 1), 0.0))
            p = np.where(fixed, p, np.clip(p * step, EPS, 1 - EPS))
        if problem.mines_left is not None and n_int:
            interior = float(np.clip((problem.mines_left - p.sum()) / n_int, EPS, 1 - EPS))
    cells = {c: float(p[i]) for i, c in enumerate(frontier)}
    if interior is not None:
        cells.update(dict.fromkeys(problem.interior, interior))
    return cells, interior
