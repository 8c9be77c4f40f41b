"""Which interior cells the guess looks at two moves deep (guess._representatives), and that an
interior cell may win over safer frontier cells inside the cut-off."""

from __future__ import annotations

import numpy as np

from bot.board import around_count, parse_grid
from bot.solver import guess
from bot.solver.advice import advise
from bot.solver.policy import Policy
from bot.solver.rules import build_problem

# The first click opened a small area in the top-left corner; the rest is covered.
GRID = """
01??????
12??????
????????
????????
????????
????????
"""


def test_the_most_open_interior_cells_stand_for_the_rest() -> None:
    board = parse_grid(GRID, mines=10)
    problem = build_problem(board)
    shut = around_count(board.cells < 0)
    inner = list(problem.interior)
    plain = guess._representatives(shut, problem, inner, Policy())
    assert len(plain) == Policy().interior and set(plain) <= {(0, 7), (5, 0), (5, 7)}  # far corners
    four = guess._representatives(shut, problem, inner, Policy(interior=4))
    assert len(four) == 4 and set(plain) < set(four)
    assert guess._representatives(shut, problem, inner, Policy(interior=len(inner))) == inner


# Expert, early: a frontier cell (5, 5) is safe at 7/8; the far corners, untouched, at about 0.80
# (0.91 of it): inside the cut-off (0.9).
EARLY = """
000001????????????????????????
111112?3??????????????????????
1F11F22???????????????????????
23433?2???????????????????????
1FFF3?22??????????????????????
24????????????????????????????
""" + "??????????????????????????????\n" * 10


def test_an_interior_cell_inside_the_cut_off_may_win() -> None:
    board = parse_grid(EARLY, mines=99)
    plain = advise(board, "safe", odds=True)
    assert plain.probability is not None and plain.guess is not None
    best = 1.0 - float(np.nanmin(plain.probability))
    problem = build_problem(board)
    assert plain.guess in problem.interior_set  # a far corner: its chance of a 0 outweighs its risk
    assert 0.9 * best <= 1.0 - plain.probability[plain.guess] < 0.95 * best
    strict = advise(board, "safe", odds=True, policy=Policy(cutoff=0.95))
    assert strict.guess is not None and 1.0 - strict.probability[strict.guess] >= 0.95 * best
