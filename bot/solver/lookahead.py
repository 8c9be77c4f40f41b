"""How good a guess is beyond its own safety: the look-ahead that scores a candidate cell.

Two moves: for each number the cell could show, the board with that number is counted exactly:
how likely that number is, and how safe the best click after it would be. The score is the chance
to survive the click times the expected safety of the next one. A cell whose every possible
number leaves nothing learnt scores low by itself (a dead cell).
"""

from __future__ import annotations

import math

from bot.board import Cell, neighbours
from bot.errors import InconsistentBoardError
from bot.solver.deadline import NO_LIMIT, Deadline
from bot.solver.probability import Probabilities, by_need, probabilities
from bot.solver.rules import Problem, reveal


def two_moves(problem: Problem, cell: Cell, safety: float, deadline: Deadline = NO_LIMIT) -> float:
    """P(this click survives) x E[safety of the best next click | the number it shows]."""
    return look(problem, cell, safety, deadline)[0]


def look(problem: Problem, cell: Cell, safety: float, deadline: Deadline = NO_LIMIT) -> tuple[float, int]:
    """The two-move score, and how many numbers the cell could show (1: a dead cell)."""
    found = outcomes(problem, cell, deadline)
    if not found:
        return safety, 0
    weights = _weights([probs.log_layouts for _, probs in found])
    score = safety * sum(w * _next_worth(probs) for w, (_, probs) in zip(weights, found))
    return score, len(found)


def _next_worth(probs: Probabilities) -> float:
    """The worth of the click after the number: the safest cell's safety, 1 when a cell is proven
    safe (or nothing is left covered: won)."""
    p_min = probs.smallest
    return 1.0 if p_min is None or p_min < 1e-12 else 1.0 - p_min


def outcomes(problem: Problem, cell: Cell, deadline: Deadline = NO_LIMIT) -> list[tuple[int, Probabilities]]:
    """Each number the cell could show that some layout allows, with the odds after it: counted
    for all numbers at once where the counter can (by_need), else number by number."""
    covered = set(problem.covered)
    room = sum(1 for n in neighbours(problem.shape, cell) if n in covered)
    if room:
        try:
            shown = reveal(problem, cell, 0)  # (the new rule, last, is the one left free)
        except InconsistentBoardError:
            return []
        each = by_need(shown, len(shown.rules) - 1, room, deadline)
        if each is not None:
            return [(need, probs) for need, probs in enumerate(each) if probs is not None]
    found = []
    for need in range(room + 1):
        try:
            found.append((need, probabilities(reveal(problem, cell, need), deadline)))
        except InconsistentBoardError:
            continue
    return found


def _weights(logs: list[float]) -> list[float]:
    """Each number's chance, from the log of its layouts."""
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    return [w / total for w in weights]
