"""How good a guess is beyond its own safety: the look-ahead that scores a candidate cell.

Two moves: for each number the cell could show, the board with that number is counted exactly:
how likely that number is, and how safe the best click after it would be. The score is the chance
to survive the click times the expected safety of the next one. A cell whose every possible
number leaves nothing learnt scores low by itself (a dead cell).

Three moves, for candidates the two-move score cannot tell apart: after each number, the next
click is itself scored two moves deep instead of by its safety alone. A number that proves some
cell safe still counts as a free next click (worth 1), as in two moves; only the numbers that
leave a guess to make are looked at further.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from bot.board import Cell, neighbours
from bot.errors import InconsistentBoardError
from bot.solver.chains import unavoidable_pairs
from bot.solver.deadline import NO_LIMIT, Deadline
from bot.solver.probability import Probabilities, by_need, probabilities
from bot.solver.rules import Problem, reveal

#: Weight of progress: the chance that the number shown proves some other cell safe.
PROGRESS = 0.0
#: The next click's worth blends the safest cell with the next safest, this much of the latter
#: (DavidNHill's 0.2: one good guess left is worth less than two). Off: 8 121 vs 8 127 of 20 000
#: paired Expert games with 0.2 (docs/experiments.md).
BLEND = 0.0
#: The same blend where the number proves a cell safe (BLEND leaves such a number worth 1), safe
#: cells counted only while living, as in his blended safety: one living safe cell is worth 1 and
#: the next safest cell this share; safe cells all dead count for nothing (opening them teaches
#: nothing). A cell whose numbers each prove one other cell safe is otherwise valued at its own
#: safety and taken over cells a few points safer. Off: with 0.2, +12 and -1 over two sets of
#: 20 000 paired Expert games (266 / 255 discordant together, p = 0.63; docs/experiments.md).
FREE_SHARE = 0.0
#: A number that leaves an unavoidable 50/50 behind (unavoidable_pairs) halves what the rest of the
#: game is worth: each number's next click weighed by 1/2 per pair it forms (DavidNHill's idea).
#: Off: one number of 4 871 formed such a pair in 150 Expert games (docs/experiments.md).
FIFTY_PENALTY = False
#: The next click's worth is the safest *living* cell's, as DavidNHill's blended safety counts
#: living cells only: a dead cell (one number possible once the guess's number is shown) teaches
#: nothing, so the guess after it is still to make. Judged after each number (DeadCells).
LIVING_NEXT = False
#: The safest boxes looked through for a living cell (past them: the safest cell, dead or not).
LIVING_SCAN = 4
#: After a number that leaves a guess, this many of the safest next clicks (one cell a box, one of
#: the interior) are scored two moves deep, safest first (three_moves).
DEEP_NEXT = 2


@dataclass
class Budget:
    """Two-move looks a decision may still spend on looking deeper. A count, not a time, so that a
    board is played the same way on any machine and under any load (paired runs rely on it)."""

    looks: int

    def spend(self) -> bool:
        """One look, if any is left."""
        if self.looks <= 0:
            return False
        self.looks -= 1
        return True


def two_moves(problem: Problem, cell: Cell, safety: float, deadline: Deadline = NO_LIMIT) -> float:
    """P(this click survives) x E[safety of the best next click | the number it shows]."""
    return look(problem, cell, safety, deadline)[0]


class DeadCells:
    """Which frontier cells are dead once `cell` shows `need`, each judged when first asked: dead
    when every layout with it safe gives it the same number. `probs`: the odds after that number.
    (An interior cell, with covered cells all round it that no number touches, is taken as living.)"""

    #: A frontier cell next to an interior cell, with another interior cell not next to it, is
    #: taken as living without counting when every layout leaves the interior neither empty nor
    #: full of mines (its number then changes as a mine moves between the two): the mines left
    #: exceed what the frontier can hold and fall short of the interior's size.
    SHORTCUT = True

    def __init__(self, problem: Problem, cell: Cell, need: int, probs: Probabilities,
                 deadline: Deadline = NO_LIMIT) -> None:
        self.parent, self.cell, self.need, self.probs, self.deadline = problem, cell, need, probs, deadline
        self.known: dict[Cell, bool] = {}

    @cached_property
    def shown(self) -> Problem:
        return reveal(self.parent, self.cell, self.need)

    @cached_property
    def interior(self) -> frozenset[Cell]:
        return frozenset(self.probs.interior_cells)

    @cached_property
    def open_interior(self) -> bool:
        left = self.parent.mines_left
        most = min(len(self.parent.frontier) + 8, sum(rule.count for rule in self.parent.rules) + self.need)
        return left is not None and most < left < len(self.probs.interior_cells)

    def __call__(self, cell: Cell) -> bool:
        if cell not in self.known:
            counted = not self._interior_decides(cell)
            self.known[cell] = counted and len(outcomes(self.shown, cell, self.deadline)) <= 1
        return self.known[cell]

    def _interior_decides(self, cell: Cell) -> bool:
        if not (self.SHORTCUT and self.open_interior):
            return False
        near = sum(1 for n in neighbours(self.parent.shape, cell) if n in self.interior)
        return 0 < near < len(self.interior)


def look(problem: Problem, cell: Cell, safety: float, deadline: Deadline = NO_LIMIT,
         floor: float | None = None) -> tuple[float, int]:
    """The two-move score, and how many numbers the cell could show (1: a dead cell). With
    LIVING_NEXT, the next click is the safest living one, unless the score counting dead cells too
    (never below it) is already under `floor`: then that score (the caller's best beats both)."""
    found = outcomes(problem, cell, deadline)
    if not found:
        return safety, 0
    weights = _weights([probs.log_layouts for _, probs in found])
    nexts = [_next_worth(problem, cell, need, probs, None, deadline) for need, probs in found]
    score = safety * sum(w * n for w, n in zip(weights, nexts))
    if LIVING_NEXT and (floor is None or score * (1.0 + PROGRESS * safety) >= floor):  # (progress at most 1)
        nexts = [n if n >= 1.0 else
                 _next_worth(problem, cell, need, probs, DeadCells(problem, cell, need, probs, deadline))
                 for n, (need, probs) in zip(nexts, found)]
        score = safety * sum(w * n for w, n in zip(weights, nexts))
    if PROGRESS:  # cells proven safe whatever the number are not progress: the click alone gives them
        safes = [frozenset(c for c, p in probs.cells.items() if p < 1e-12) for _, probs in found]
        common = frozenset.intersection(*safes)
        progress = sum(w for w, safe in zip(weights, safes) if safe - common)
        score *= 1.0 + PROGRESS * safety * progress
    return score, len(found)


def _next_worth(problem: Problem, cell: Cell, need: int, probs: Probabilities, dead: DeadCells | None,
                deadline: Deadline = NO_LIMIT) -> float:
    """The worth of the click after `cell` shows `need`: the safest cell's safety (the safest
    living one's, given `dead`), 1 when a cell is safe, and the options above."""
    p_min = probs.smallest
    free = p_min is not None and p_min < 1e-12
    worth = 1.0 if p_min is None or free else 1.0 - p_min  # (None: nothing covered, won)
    if dead is not None and worth < 1.0:
        worth = _safest_living(probs, dead, worth)
    if free and FREE_SHARE:
        worth = _free_worth(probs, DeadCells(problem, cell, need, probs, deadline))
    lows = probs.two_smallest() if BLEND and not free and worth < 1.0 else None
    if lows is not None:  # (never above the safest alone: the bound the guess prunes by holds)
        worth = _blend(lows, BLEND)
    if FIFTY_PENALTY:
        worth = after_pairs(reveal(problem, cell, need), probs.cells, worth)
    return worth


def three_moves(problem: Problem, cell: Cell, safety: float, budget: Budget,
                deadline: Deadline = NO_LIMIT) -> float | None:
    """P(this click survives) x E[worth of the next click | the number it shows], the next click's
    worth being 1 where the number proves a cell safe, else the best two-move score among the
    DEEP_NEXT safest cells. Never above the two-move score (a two-move score never exceeds its
    safety). None when the budget runs out first."""
    if not budget.spend():
        return None
    logs, worth = [], []
    for need, probs in outcomes(problem, cell, deadline):
        logs.append(probs.log_layouts)
        p_min = probs.smallest
        if p_min is None or p_min < 1e-12:
            worth.append(1.0)
            continue
        shown = reveal(problem, cell, need)
        best = 0.0
        for p, nxt in _safest(probs, DEEP_NEXT):
            if 1.0 - p <= best:  # (no later cell can beat it: safest first)
                break
            if not budget.spend():
                return None
            best = max(best, two_moves(shown, nxt, 1.0 - p, deadline))
        worth.append(best)
    if not logs:
        return safety
    return safety * sum(w * v for w, v in zip(_weights(logs), worth))


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


def after_pairs(problem: Problem, odds: dict[Cell, float], best_next: float) -> float:
    """The next click's worth once the unavoidable 50/50s a number formed are paid for: each halves
    the game; when the safest next click is one of them, it is the coin itself, paid once."""
    mines = frozenset(c for c, p in odds.items() if p > 1.0 - 1e-12)
    formed = len(unavoidable_pairs(problem, mines))
    if not formed:
        return best_next
    return 0.5**formed * (1.0 if best_next <= 0.5 + 1e-9 else best_next)


def _weights(logs: list[float]) -> list[float]:
    """Each number's chance, from the log of its layouts."""
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    total = sum(weights)
    return [w / total for w in weights]


def _free_worth(probs: Probabilities, dead: DeadCells) -> float:
    """The next click's worth where a number proves cells safe (FREE_SHARE): 1 with two living safe
    cells; with one, blended with the safest cell that may be a mine; with none, the blend of the
    two safest such cells."""
    living, rest = 0, []
    for p, cells, inner in _may_be_safe(probs):
        if p >= 1e-12:
            rest += [p] * min(2, len(cells))  # (a box's two cells: as two_smallest counts them)
            continue
        living += sum(1 for c in cells if inner or not dead(c))
        if living >= 2:
            return 1.0
    if not rest:
        return 1.0
    lows = [0.0] * living + sorted(rest)
    return _blend((lows[0], lows[min(1, len(lows) - 1)]), FREE_SHARE)


def _blend(lows: tuple[float, float], share: float) -> float:
    """The safety of the safest cell with `share` of it the next safest's (`lows`: their odds of a
    mine), as DavidNHill's blended safety."""
    return (1.0 - share) * (1.0 - lows[0]) + share * (1.0 - lows[1])


def _safest_living(probs: Probabilities, dead: DeadCells, safest: float) -> float:
    """The safety of the safest living cell among the LIVING_SCAN safest boxes (and the interior);
    `safest` (the safest cell's, dead or not) when all of them are dead."""
    found = _may_be_safe(probs)
    found.sort(key=lambda pc: round(pc[0], 12))
    for p, cells, inner in found[:LIVING_SCAN]:
        if inner or any(not dead(c) for c in cells):
            return 1.0 - p
    return safest


def _safest(probs: Probabilities, count: int) -> list[tuple[float, Cell]]:
    """The `count` safest covered cells that may be safe, one per box (a box's cells share their
    odds) and one of the interior, safest first."""
    found = [(p, cells[0]) for p, cells, _ in _may_be_safe(probs)]
    found.sort(key=lambda pc: (round(pc[0], 12), pc[1]))  # (equal odds summed in other orders: a tie)
    return found[:count]


def _may_be_safe(probs: Probabilities) -> list[tuple[float, tuple[Cell, ...], bool]]:
    """Each box that may be safe, and the interior: its probability, its cells, whether it is the
    interior (unsorted)."""
    found = [(float(p), box.cells, False) for boxes, odds in zip(probs.boxes, probs.box_odds)
             for box, p in zip(boxes, odds.tolist()) if p < 1.0 - 1e-12]
    if probs.interior is not None and probs.interior_cells and probs.interior < 1.0 - 1e-12:
        found.append((probs.interior, probs.interior_cells, True))
    return found
