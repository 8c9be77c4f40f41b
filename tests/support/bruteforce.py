"""Reference answers by enumerating layouts: slow, obviously right, for small boards only.

Only the cells that touch a number are enumerated one by one; the rest of the covered cells are
interchangeable, so each frontier layout stands for ``comb(free, mines_left - k)`` full layouts.
Nothing here groups cells into boxes or splits components, so it checks that code independently.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

from bot.board import Board, Cell
from bot.solver.rules import build_problem

MAX_FRONTIER = 18


def brute_probabilities(board: Board) -> dict[Cell, float]:
    problem = build_problem(board)
    frontier = sorted({c for rule in problem.rules for c in rule.cells})
    if len(frontier) > MAX_FRONTIER:
        raise ValueError(f"frontier of {len(frontier)} cells is too large to enumerate")
    free = [c for c in problem.covered if c not in set(frontier)]
    index = {c: i for i, c in enumerate(frontier)}
    n = len(frontier)
    rows = (np.arange(2**n, dtype=np.int64)[:, None] >> np.arange(n)) & 1  # every 0/1 layout, one a row
    ok = np.ones(len(rows), dtype=bool)
    for rule in problem.rules:
        ok &= rows[:, [index[c] for c in rule.cells]].sum(axis=1) == rule.count
    rows = rows[ok]
    k = rows.sum(axis=1)
    if problem.mines_left is None:
        weight = [1] * len(rows)  # each free cell is independently mine or not: a constant factor
        free_share = [0.5] * len(rows)
    else:
        left = problem.mines_left - k
        weight = [comb(len(free), int(m)) if m >= 0 else 0 for m in left]
        free_share = [int(m) / len(free) if free else 0.0 for m in left]
    total = sum(weight)
    if total == 0:
        return {}
    out = {}
    exact = np.array(weight, dtype=object)  # (Python integers: exact however large)
    for c, i in index.items():
        out[c] = float(exact[rows[:, i] == 1].sum() / total)
    if free:
        p = sum(w * s for w, s in zip(weight, free_share)) / total
        for c in free:
            out[c] = float(p)
    return out


def all_layouts(board: Board) -> tuple[list[Cell], np.ndarray]:
    """Every layout of the covered cells that fits the numbers and the mine count, as rows of 0/1
    over the covered cells listed: for boards of a few covered cells only."""
    problem = build_problem(board)
    cells = list(problem.covered)
    if len(cells) > 22 or problem.mines_left is None:
        raise ValueError("too many covered cells, or no mine count, to list every layout")
    index = {c: i for i, c in enumerate(cells)}
    rows = np.zeros((comb(len(cells), problem.mines_left), len(cells)), dtype=np.int8)
    for n, chosen in enumerate(combinations(range(len(cells)), problem.mines_left)):
        rows[n, list(chosen)] = 1
    ok = np.ones(len(rows), dtype=bool)
    for rule in problem.rules:
        ok &= rows[:, [index[c] for c in rule.cells]].sum(axis=1) == rule.count
    return cells, rows[ok]
