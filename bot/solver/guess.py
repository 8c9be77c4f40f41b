"""Which covered cell to open when none is proven safe.

Safety first, but not only: among the nearly-safest cells, the one whose number most often
makes the *next* move safe wins ("secondary safety", as the strongest published solvers do):
each candidate is scored by looking two moves ahead (bot.solver.lookahead); optionally, where that
cannot tell the best few apart, three (DEEP_MARGIN, off: docs/experiments.md). Before that, the moves no
look-ahead could improve: an unavoidable 50/50 is taken at once, and with few layouts left the
exact search decides.
"""

from __future__ import annotations

import math

import numpy as np

from bot.board import Board, Cell, around_count
from bot.solver import chains, long_term, lookahead, pockets, space
from bot.solver.deadline import NO_LIMIT, Deadline, OutOfTime
from bot.solver.endgame import MAX_LAYOUTS, best_guess
from bot.solver.rules import Problem

#: Candidates may be this much less safe than the safest cell and still win on what they teach
#: (when CUTOFF is None).
SLACK = 0.03
#: Candidates are the cells at least this share of the safest cell's safety (DavidNHill's hard
#: cut-off, 0.9), looked at up to 20 deep. Paired Expert runs of 20 000 boards, with it and with
#: SLACK: +23, +47, +28 wins on three sets (978 / 880 discordant together, p = 0.023). It once
#: cost the p99 target; with the look-ahead's numbers counted together (by_need) it costs about
#: 3 ms of decision p99 (docs/experiments.md). None: SLACK.
CUTOFF: float | None = 0.9
#: Interior cells (no number next to them) are candidates only when at least this share of the
#: safest cell's safety (DavidNHill's off-edge threshold, 0.95), so that a far corner's chance of a
#: 0 does not buy much risk against a safer frontier cell. Off: +12 and -5 on two sets of 20 000
#: paired Expert games (40 / 33 discordant together, p = 0.41; docs/experiments.md). None: CUTOFF alone.
INTERIOR_CUTOFF: float | None = None
#: At most this many candidates are looked at two moves deep (the rest by safety alone).
DEPTH_CANDIDATES = 20
#: Interior cells are alike for safety: this many of them (the most open) are looked at deeper.
INTERIOR_CANDIDATES = 2
#: When fewer interior cells than this remain, every one of them is a candidate (DavidNHill's solver
#: looks at all its off-edge cells below 30); 0: never.
INTERIOR_ALL_BELOW = 0
#: Dead cells (one number possible: opening one teaches nothing, and it can wait for a later
#: number to decide it) are opened only when every candidate is dead, as DavidNHill's solver does.
AVOID_DEAD = False
#: Long-term risk (bot.solver.long_term): a cell a 50/50 may form on is worth more than its safety, and a
#: cell that is safe or in a 50/50 is guessed at once (DavidNHill's idea). On: 8 243 vs 8 187 of
#: 20 000 paired Expert games (p = 0.05), and +48 on 20 000 more with an earlier version (docs/experiments.md).
LONG_TERM = True
#: Pockets (bot.solver.pockets: enclosed frontier groups of a fixed mine count) are played first, by the
#: exact search over the pocket alone.
POCKETS = False
#: Candidates in a small closed-off area (bot.solver.space) wait while any candidate lies in a large one
#: (DavidNHill's deferral).
DEFER_SMALL = False
#: Besides the most open interior cells, look at the most open of those two steps straight from a
#: number that touches a covered cell (DavidNHill's off-edge candidates: their number reaches the
#: frontier), as many again.
OFF_EDGE = False
#: Unavoidable 50/50s of any length (bot.solver.chains), not only lone pairs, are guessed first, by
#: the cell of the chain with the best two-move score (DavidNHill's chained 50/50s). On: 8 129 vs
#: 8 030 of 20 000 paired Expert games (p = 0.0004, docs/experiments.md).
CHAINS = True
#: Chains joined by a pseudo link (bot.solver.chains.pseudo_links: DavidNHill's pseudo-50/50) are
#: guessed first too, by the pseudo link's cell with the best two-move score. Off: 8 201 vs 8 197 of
#: 20 000 paired Expert games (22 / 18 discordant, p = 0.53; docs/experiments.md): most come where the exact
#: endgame search decides anyway.
PSEUDO_LINKS = False


#: Three moves deep (bot.solver.lookahead.three_moves) for the candidates whose two-move scores lie
#: within this share of the best, at most DEEP_CANDIDATES of them, spending at most DEEP_BUDGET
#: two-move looks a decision (past it the two-move choice stands). Off: with 0.02, paired Expert
#: runs of 20 000 boards gave +52, +12, +22 (p = 0.04 together), but the 50 000 boards of seed 2027
#: 57 fewer wins than without (40.35 % vs 40.46 %), and it costs about 12 ms of decision p99
#: (docs/experiments.md). None: two moves only.
DEEP_MARGIN: float | None = None
DEEP_CANDIDATES = 2
DEEP_BUDGET = 24


#: Among cells alike (score and openness), which is taken: "top" (the top row first) or "bottom"
#: (the bottom row first, as DavidNHill's solver takes the corners after the first click); then
#: the left column.
TIES = "top"


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
) -> Cell | None:
    """The cell to click when none is proven safe. Past the deadline the look-ahead stops and the
    best cell scored so far (or the safest) is taken."""
    covered = [c for c in problem.covered if c not in mines]
    if not covered:
        return None
    shut = around_count(board.cells < 0)
    first = _taken_first(problem, grid, mines, shut, log_layouts, deadline)
    if first is not None:
        return first
    best = max(1.0 - grid[c] for c in covered)
    floor = best * CUTOFF if CUTOFF is not None else best - SLACK
    near = [c for c in covered if 1.0 - grid[c] >= floor]
    if INTERIOR_CUTOFF is not None:
        inner = best * INTERIOR_CUTOFF
        near = [c for c in near if c not in problem.interior_set or 1.0 - grid[c] >= inner]
    near = _representatives(shut, problem, near, _off_edge(board, problem, shut) if OFF_EDGE else None)
    factor = dict.fromkeys(near, 1.0)
    if LONG_TERM and problem.mines_left is not None and log_layouts is not None:
        try:
            risk = long_term.LongTermRisk(board, problem, grid, log_layouts, deadline)
            pseudo = _pick_pseudo(problem, grid, shut, [c for c in risk.pseudo() if c not in mines], deadline)
            if pseudo is not None:  # safe, or in a 50/50 that must be guessed some time: now
                return pseudo
            # Cells a 50/50 may form on are worth more than their safety.
            near += [c for c, share in risk.candidates().items()
                     if c not in mines and c not in near and 1.0 - grid[c] + share >= floor]
            factor = {c: 1.0 + (long_term.WEIGHT * risk.influence(c) / (1.0 - grid[c]) if grid[c] < 1.0 else 0.0)
                      for c in near}
        except OutOfTime:  # (the look-ahead below stops at once too: the safest cell)
            factor = dict.fromkeys(near, 1.0)
    if DEFER_SMALL:
        near = _defer_small(board, mines, near)
    near.sort(key=lambda c: (-(1.0 - grid[c]) * factor[c], _openness(shut, c)))
    near = near[:DEPTH_CANDIDATES]
    if len(near) == 1:
        return near[0]
    return _best_scored(problem, grid, shut, near, factor, deadline)


def _taken_first(problem: Problem, grid: np.ndarray, mines: frozenset[Cell], shut: np.ndarray,
                 log_layouts: float | None, deadline: Deadline) -> Cell | None:
    """The moves no look-ahead could improve, in this order: an unavoidable 50/50 (a pair, then a
    chain), the exact search when few layouts are left, then the optional pockets and pseudo links;
    None when none applies."""
    pairs = chains.unavoidable_pairs(problem, mines)
    if pairs:  # it must be guessed some time, and nothing will make it better: now
        return min(pairs[0])
    if CHAINS:
        found = chains.unavoidable_chains(problem, mines)
        if found:  # the same, and its cell whose number teaches most
            cells = sorted(found[0][0] | found[0][1])
            pick = _pick_pseudo(problem, grid, shut, cells, deadline)
            return cells[0] if pick is None else pick
    if problem.mines_left is not None and log_layouts is not None and log_layouts <= math.log(MAX_LAYOUTS) + 1e-9:
        end = best_guess(problem, deadline=deadline)  # few layouts left: the exact chance to win decides
        if end is not None:
            return end[0]
    if POCKETS:
        try:
            pocket = pockets.pocket_guess(problem, mines, deadline)
        except OutOfTime:
            pocket = None
        if pocket is not None:
            return pocket
    if PSEUDO_LINKS:
        joined = sorted({cell for pair, _, _ in chains.pseudo_links(problem, mines) for cell in pair})
        pick = _pick_pseudo(problem, grid, shut, joined, deadline) if joined else None
        if pick is not None:  # its chance is the same now as later, and its number may teach
            return pick
    return None


def _best_scored(problem: Problem, grid: np.ndarray, shut: np.ndarray, near: list[Cell],
                 factor: dict[Cell, float], deadline: Deadline) -> Cell:
    """The candidate (`near`, best bound first) with the best two-move score times its 50/50
    factor; the first when the deadline leaves none scored."""
    best_key = dead_key = None
    scored = []
    for cell in near:  # best bound first; a cell's score never exceeds its bound (its safety, times
        safety = 1.0 - float(grid[cell])  # its 50/50 factor), so stop when no later cell can beat
        if best_key is not None and safety * (1.0 + lookahead.PROGRESS * safety) * factor[cell] < best_key[0]:
            break  # the best score found (exact pruning)
        try:
            floor = best_key[0] / factor[cell] if best_key is not None else None  # (the living look's pruning)
            score, outcomes = lookahead.look(problem, cell, safety, deadline, floor=floor)
        except OutOfTime:
            break
        key = (_rounded(score * factor[cell]), _openness(shut, cell), cell)
        if AVOID_DEAD and outcomes <= 1:
            dead_key = key if dead_key is None or key > dead_key else dead_key
        else:
            scored.append(key)
            best_key = key if best_key is None or key > best_key else best_key
    if DEEP_MARGIN is not None and len(scored) > 1:
        deeper = _three_moves_pick(problem, grid, scored, factor, deadline)
        best_key = deeper or best_key
    best_key = best_key or dead_key
    return near[0] if best_key is None else best_key[2]


def _three_moves_pick(problem: Problem, grid: np.ndarray, scored: list[tuple], factor: dict[Cell, float],
                      deadline: Deadline) -> tuple | None:
    """The best, looked at three moves deep, of the candidates whose two-move scores (`scored`:
    keys as choose_guess makes them) lie within DEEP_MARGIN of the best; None when fewer than two
    do, or the budget or the deadline runs out first (the two-move choice stands)."""
    assert DEEP_MARGIN is not None
    scored = sorted(scored, reverse=True)
    close = [key for key in scored if key[0] >= scored[0][0] * (1.0 - DEEP_MARGIN)][:DEEP_CANDIDATES]
    if len(close) < 2:
        return None
    budget = lookahead.Budget(DEEP_BUDGET)
    best = None
    for two, openness, cell in close:
        if best is not None and two < best[0]:  # three moves never score above two (exact pruning)
            break
        try:
            value = lookahead.three_moves(problem, cell, 1.0 - float(grid[cell]), budget, deadline)
        except OutOfTime:
            return None
        if value is None:
            return None
        key = (_rounded(value * factor[cell]), openness, cell)
        best = key if best is None or key > best else best
    return best


def _pick_pseudo(problem: Problem, grid: np.ndarray, shut: np.ndarray, cells: list[Cell],
                 deadline: Deadline) -> Cell | None:
    """The best of the cells that are safe or in a 50/50 by two-move score; None where there are
    none, or each can show only one number (a dead cell teaches nothing: better guessed last)."""
    best_key = None
    for cell in cells:
        safety = 1.0 - float(grid[cell])
        try:
            score, outcomes = lookahead.look(problem, cell, safety, deadline)
        except OutOfTime:
            break
        key = (_rounded(score), _openness(shut, cell), cell)
        if outcomes > 1 and (best_key is None or key > best_key):
            best_key = key
    return None if best_key is None else best_key[2]


def _defer_small(board: Board, mines: frozenset[Cell], cells: list[Cell]) -> list[Cell]:
    """The cells in a large area, or all of them when none is."""
    unknown, opened = space.unknown_cells(board.cells, mines), space.opened_cells(board.cells)
    large = [c for c in cells if space.in_large_area(unknown, opened, c)]
    return large or cells


def _representatives(shut: np.ndarray, problem: Problem, cells: list[Cell],
                     also: frozenset[Cell] | None = None) -> list[Cell]:
    """Interior cells are interchangeable for safety: keep the few most likely to open an area
    (`shut`: as _openness reads it), and as many of `also` when given."""
    interior = problem.interior_set
    inner = [c for c in cells if c in interior]
    if len(inner) <= INTERIOR_CANDIDATES or len(interior) < INTERIOR_ALL_BELOW:
        return cells
    inner.sort(key=lambda c: _openness(shut, c), reverse=True)
    keep = inner[:INTERIOR_CANDIDATES]
    if also:
        keep += [c for c in inner[INTERIOR_CANDIDATES:] if c in also][:INTERIOR_CANDIDATES]
    return [c for c in cells if c not in interior] + keep


def _off_edge(board: Board, problem: Problem, shut: np.ndarray) -> frozenset[Cell]:
    """The interior cells two steps straight from a number with a covered neighbour (OFF_EDGE;
    `shut`: as _openness reads it)."""
    witness = (board.cells >= 0) & (shut > 0)
    rows, cols = board.shape
    padded = np.pad(witness, 2)
    reach = np.zeros_like(witness)
    for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
        reach |= padded[2 + dr : 2 + dr + rows, 2 + dc : 2 + dc + cols]
    return frozenset(c for c in problem.interior if reach[c])


def _rounded(score: float) -> float:
    """Scores equal but for rounding are a tie (for the openness to break): mirror-image cells'
    counts are summed in other orders, and differ in the last bits."""
    return round(score, 12)


def _openness(shut: np.ndarray, cell: Cell) -> tuple[int, int, int]:
    """Tie-break: fewer covered neighbours means a number there is more often decisive. `shut`:
    each cell's count of unopened neighbours (bot.board.around_count of the unopened cells). Then
    the top row first (TIES "top") or the bottom one ("bottom"), then the left column."""
    return (-int(shut[cell]), cell[0] if TIES == "bottom" else -cell[0], -cell[1])
