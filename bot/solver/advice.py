"""What to do with a board: the forced cells, the probabilities, and the move.

This is the one entry point the CLI, the play loop and the benchmarks call; it joins
the SAT core (logic) with exact counting (odds) and the guess policy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.board import FLAG, UNOPENED, Board, Cell
from bot.errors import InconsistentBoardError
from bot.solver.approximate import approximate
from bot.solver.deadline import NO_LIMIT, Deadline, OutOfTime
from bot.solver.guess import choose_guess, first_click
from bot.solver.policy import PLAY, Policy
from bot.solver.probability import probabilities
from bot.solver.rules import build_problem, fix
from bot.solver.sat import SatCore, explain_inconsistency

#: The share of a deadline the exact work may take: the rest is for the approximation after it.
EXACT_SHARE = 0.85


@dataclass(frozen=True)
class Advice:
    safe: frozenset[Cell]
    mines: frozenset[Cell]
    probability: np.ndarray | None  # rows x cols, NaN where nothing is covered
    guess: Cell | None
    guess_safety: float | None
    #: Flags the numbers prove wrong: the cell is safe (never in `safe`: a flagged cell does not
    #: open until the flag is taken off).
    wrong_flags: frozenset[Cell] = frozenset()
    #: True when the deadline passed first: the odds are an approximation (bot.solver.approximate) and
    #: the forced cells may not be all of them (each one listed is still proven).
    approximate: bool = False
    #: True when the flags on the board cannot all be mines (two flags on a 1): some are wrong,
    #: though the numbers may not say which (those they do are in `wrong_flags`).
    flags_conflict: bool = False


def advise(
    board: Board,
    rule: str = "safe",
    *,
    odds: bool = True,
    trusted: frozenset[Cell] = frozenset(),
    deadline: float | None = None,
    policy: Policy = PLAY,
) -> Advice:
    """Forced cells always; probabilities and a guess when asked for or when nothing is forced.

    `odds=False` is the fast path of the play loop: when some cell is proven safe, the
    odds of the others do not change the move, so they are not counted.

    Flags are the player's claims, not facts: they are solved as covered cells, so a wrong flag
    never turns a mine into a "safe" cell or the other way round (one wrong flag on a real
    fixture once did both). A flag the numbers prove wrong is reported; flagged cells are never
    advised, listed as mines or guessed, since clicking them does nothing. `trusted` names flags
    that are facts: the bot's own, put on cells the numbers had proven mines.

    `deadline`: seconds the whole decision may take (None: no limit). Past it the advice is what
    was proven by then, with approximate odds, and says so (`approximate`). `policy`: how a guess
    is chosen (bot.solver.policy; the bot's own by default).
    """
    limit = Deadline.after(None if deadline is None else deadline * EXACT_SHARE)
    flagged = board.cells == FLAG
    for cell in trusted:
        flagged[cell] = False
    if not flagged.any():
        return _advise(board, rule, odds, frozenset(), limit, policy)
    flags = frozenset((int(r), int(c)) for r, c in np.argwhere(flagged))
    claims_free = Board(np.where(flagged, UNOPENED, board.cells).astype(board.cells.dtype), board.mines)
    advice = _advise(claims_free, rule, odds, flags, limit, policy)
    guess, safety = advice.guess, advice.guess_safety
    if guess in flags:  # (a 50/50, an endgame or a first-click pick can be one): the safest clickable cell
        grid = advice.probability
        covered = ((int(r), int(c)) for r, c in np.argwhere(claims_free.covered()))
        guess = _safest([c for c in covered if c not in flags | advice.mines], grid)
        safety = None if guess is None else 1.0 - float(grid[guess])
    return Advice(advice.safe - flags, advice.mines - flags, advice.probability, guess, safety, advice.safe & flags,
                  advice.approximate, not _flags_fit(board, limit))


def _flags_fit(board: Board, deadline: Deadline) -> bool:
    """Could every flag be a mine? (True where the solver ran out of time to say.)"""
    try:
        problem = build_problem(board)
    except InconsistentBoardError:  # a number with more flags round it than it counts
        return False
    with SatCore(problem, deadline) as core:
        return core.consistent() is not False


def _advise(board: Board, rule: str, odds: bool, flags: frozenset[Cell], deadline: Deadline = NO_LIMIT,
            policy: Policy = PLAY) -> Advice:
    untouched = not (board.cells >= 0).any() and not board.known_mines().any()
    certain = board.mines is not None and board.mines in (0, int(board.covered().sum()))
    if untouched and not certain:  # (a count of 0, or of every cell, decides everything: below)
        start = first_click(board.shape, rule)
        return Advice(frozenset(), frozenset(), _uniform(board), start, 1.0)
    problem = build_problem(board)
    with SatCore(problem, deadline) as core:
        if core.consistent() is False:
            raise InconsistentBoardError(explain_inconsistency(problem, deadline))
        safe, mines = core.forced()
        complete = core.complete
    if safe - flags and not odds:
        return Advice(safe, mines, None, None, None, approximate=not complete)
    # Counted with the proven cells settled: the same layouts, but a proven mine taken off its
    # numbers cuts the links through it. A 100 x 100 board opened by random clicks has one
    # frontier component of ~4 500 cells, too wide to count; settled, ~150 components of at most
    # ~110 cells, counted exactly in 0.1 s (docs/results.md).
    settled = fix(problem, mines, safe)
    try:
        probs = probabilities(settled, deadline)
        cells, log_layouts = probs.cells, probs.log_layouts
    except OutOfTime:
        complete = False
        cells, _ = approximate(problem, safe, mines)
        log_layouts = None
    grid = np.full(board.shape, np.nan)
    for cell, p in cells.items():
        grid[cell] = p
    for cell in safe:
        grid[cell] = 0.0
    for cell in mines:
        grid[cell] = 1.0
    if safe - flags:
        return Advice(safe, mines, grid, None, None, approximate=not complete)
    if complete:
        guess = choose_guess(board, settled, grid, mines | flags, log_layouts, deadline, policy)
    else:  # no time to look ahead: the safest cell by the approximate odds
        guess = _safest([c for c in settled.covered if c not in flags], grid)
    return Advice(safe, mines, grid, guess, None if guess is None else 1.0 - float(grid[guess]),
                  approximate=not complete)


def _safest(cells: list[Cell], grid: np.ndarray) -> Cell | None:
    return min(cells, key=lambda c: (grid[c], c)) if cells else None


def _uniform(board: Board) -> np.ndarray:
    grid = np.full(board.shape, np.nan)
    covered = board.covered()
    if board.mines is not None:
        grid[covered] = board.mines / max(int(covered.sum()), 1)
    else:
        grid[covered] = 0.5
    return grid
