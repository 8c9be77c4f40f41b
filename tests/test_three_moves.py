"""The three-move look (bot.solver.lookahead.three_moves) against counting every mine layout by hand."""

from __future__ import annotations

import numpy as np

from bot.board import FLAG, neighbours, parse_grid
from bot.games.simulator import Level
from bot.solver import guess, lookahead
from bot.solver.endgame import TooBig, layouts
from bot.solver.probability import probabilities
from bot.solver.rules import build_problem, reveal
from bot.solver.sat import SatCore
from tests.test_solver import mid_game_positions


def _enumerated(problem):
    """Every layout, as a dict cell -> 0/1 (None past 3 000: too slow to count by hand)."""
    try:
        cells, found = layouts(problem, limit=3000)
    except TooBig:
        return None
    return [{c: lay >> i & 1 for i, c in enumerate(cells)} for lay in found]


def _shows(problem, lay, cell):
    return -1 if lay[cell] else sum(lay[n] for n in neighbours(problem.shape, cell) if n in lay)


def _two_by_hand(problem, lays, cell):
    """P(cell safe) x E[max over other cells of P(safe) | the number], over the listed layouts."""
    safe = [lay for lay in lays if not lay[cell]]
    total = 0.0
    for n in {_shows(problem, lay, cell) for lay in safe}:
        group = [lay for lay in safe if _shows(problem, lay, cell) == n]
        others = [c for c in group[0] if c != cell]
        best = max((sum(1 - lay[c] for lay in group) / len(group) for c in others), default=1.0)
        total += len(group) / len(lays) * best
    return total


def _three_by_hand(problem, lays, cell):
    """P(cell safe) x E[worth of the next click | the number]: 1 where some cell is safe in every
    layout left, else the best two-move score, by hand, of the cells three_moves looks at (which
    cells those are, the safest of each box, is its choice: the counting is what is checked)."""
    safe = [lay for lay in lays if not lay[cell]]
    odds = dict(lookahead.outcomes(problem, cell))  # (only to pick the next cells as three_moves does)
    total = 0.0
    for n in {_shows(problem, lay, cell) for lay in safe}:
        group = [lay for lay in safe if _shows(problem, lay, cell) == n]
        others = [c for c in group[0] if c != cell]
        if not others or any(all(not lay[c] for lay in group) for c in others):
            worth = 1.0
        else:
            shown = reveal(problem, cell, n)
            left = [{c: v for c, v in lay.items() if c != cell} for lay in group]
            nexts = lookahead._safest(odds[n], lookahead.DEEP_NEXT)
            worth = max(_two_by_hand(shown, left, c) for _, c in nexts)
        total += len(group) / len(lays) * worth
    return total


def _positions():
    """Small mid-game boards (no flags: a flag is the user's claim) where a guess is needed."""
    for board in mid_game_positions(1000, seed=31, level=Level(5, 5, 6)):
        if (board.cells == FLAG).any() or not (board.cells >= 0).any():
            continue
        problem = build_problem(board)
        with SatCore(problem) as core:
            safe, mines = core.forced()
        lays = _enumerated(problem) if not safe and problem.rules else None
        if lays:
            yield problem, mines, lays


def test_three_moves_is_what_counting_every_layout_gives():
    checked = deeper = 0
    for problem, mines, lays in _positions():
        odds = probabilities(problem).cells
        for cell in [c for c in problem.covered if c not in mines][:6]:
            safety = 1.0 - odds[cell]
            two = lookahead.two_moves(problem, cell, safety)
            three = lookahead.three_moves(problem, cell, safety, lookahead.Budget(10**6))
            assert abs(two - _two_by_hand(problem, lays, cell)) < 1e-9
            assert abs(three - _three_by_hand(problem, lays, cell)) < 1e-9, (problem, cell)
            assert three <= two + 1e-12  # (what the guess prunes by)
            checked += 1
            deeper += three < two - 1e-9
    assert checked > 40 and deeper > 5, (checked, deeper)


def test_three_moves_stops_when_its_budget_is_spent():
    """Out of looks, it says so (None) rather than give a score from a part of the numbers."""
    for problem, mines, _ in _positions():
        odds = probabilities(problem).cells
        for cell in [c for c in problem.covered if c not in mines]:
            full = lookahead.Budget(10**6)
            lookahead.three_moves(problem, cell, 1.0 - odds[cell], full)
            spent = 10**6 - full.looks
            if spent > 2:
                assert lookahead.three_moves(problem, cell, 1.0 - odds[cell], lookahead.Budget(spent - 1)) is None
                assert lookahead.three_moves(problem, cell, 1.0 - odds[cell], lookahead.Budget(spent)) is not None
                return
    raise AssertionError("no position needed more than two looks")


def test_the_guess_takes_the_best_three_move_score_among_close_candidates(monkeypatch):
    """With DEEP_MARGIN on, of candidates whose two-move scores are close, the one three moves
    deep rate best is chosen, even where it was second by two moves."""
    board = parse_grid("1??\n???\n???")
    problem = build_problem(board)
    grid = np.full(board.shape, 0.2)
    twos = {(0, 1): 0.70, (1, 0): 0.69, (1, 1): 0.50}
    threes = {(0, 1): 0.40, (1, 0): 0.45, (1, 1): 0.49}
    monkeypatch.setattr(guess, "LONG_TERM", False)
    monkeypatch.setattr(guess, "_representatives", lambda b, p, cells, also=None: [c for c in cells if c in twos])
    monkeypatch.setattr(lookahead, "look", lambda problem, cell, safety, deadline, floor=None: (twos[cell], 2))
    monkeypatch.setattr(lookahead, "three_moves", lambda problem, cell, safety, budget, deadline: threes[cell])
    monkeypatch.setattr(guess, "DEEP_MARGIN", None)
    assert guess.choose_guess(board, problem, grid, frozenset()) == (0, 1)
    monkeypatch.setattr(guess, "DEEP_MARGIN", 0.05)  # (1, 1) is not close: never looked at
    assert guess.choose_guess(board, problem, grid, frozenset()) == (1, 0)
    monkeypatch.setattr(lookahead, "three_moves", lambda problem, cell, safety, budget, deadline: None)
    assert guess.choose_guess(board, problem, grid, frozenset()) == (0, 1)  # out of budget: two moves
