"""A number that proves cells safe, in the look-ahead (bot.solver.lookahead.FREE_SHARE): worth a
whole next click only with two living safe cells."""

from __future__ import annotations

from bot.board import parse_grid
from bot.solver import lookahead
from bot.solver.advice import advise
from bot.solver.lookahead import DeadCells, look, outcomes
from bot.solver.rules import build_problem

# Expert, the opening (a game of our simulator): (0, 3) is safe at 0.902 and each of its numbers
# proves cells safe (1: (0, 4) and (1, 3), the latter dead; 2: three cells), so counted as free
# clicks its two-move score is its safety; (3, 2) is safe at 0.959 and scores 0.900.
OPENING = "01" + "?" * 28 + "\n12??2" + "?" * 25 + "\n??213" + "?" * 25 + "\n" + ("?" * 30 + "\n") * 13


def test_one_living_safe_cell_is_not_a_whole_free_click(monkeypatch) -> None:
    board = parse_grid(OPENING, mines=99)
    problem = build_problem(board)
    monkeypatch.setattr(lookahead, "FREE_SHARE", 0.0)
    plain = advise(board, "safe", odds=True)
    assert plain.guess == (0, 3) and plain.probability is not None
    safety = 1.0 - float(plain.probability[0, 3])
    assert abs(look(problem, (0, 3), safety)[0] - safety) < 1e-12  # every number a free click
    one = [(need, probs) for need, probs in outcomes(problem, (0, 3))
           if sum(not DeadCells(problem, (0, 3), need, probs)(c) for c, p in probs.cells.items() if p < 1e-12) == 1]
    assert one  # the number 1: one living safe cell
    monkeypatch.setattr(lookahead, "FREE_SHARE", 0.2)
    assert look(problem, (0, 3), safety)[0] < safety - 1e-3
    blended = advise(board, "safe", odds=True)
    assert blended.guess == (3, 2)
    assert 1.0 - float(blended.probability[3, 2]) > safety + 0.05
