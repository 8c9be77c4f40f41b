"""Which interior cells the guess looks at two moves deep (guess._representatives, OFF_EDGE), and
when at all (INTERIOR_CUTOFF)."""

from __future__ import annotations

import numpy as np

from bot.board import around_count, parse_grid
from bot.solver import guess
from bot.solver.advice import advise
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


def test_cells_two_steps_straight_from_a_number_are_the_off_edge_pool() -> None:
    board = parse_grid(GRID, mines=10)
    problem = build_problem(board)
    pool = guess._off_edge(board, problem, around_count(board.cells < 0))
    # (1, 0) and (1, 1) touch covered cells, so do (0, 1); (0, 0) touches none (a 0).
    assert pool == {(3, 0), (3, 1), (0, 3), (1, 3)}
    assert all(c in problem.interior_set for c in pool)


def test_the_pool_adds_to_the_most_open_cells_and_replaces_none() -> None:
    board = parse_grid(GRID, mines=10)
    problem = build_problem(board)
    shut = around_count(board.cells < 0)
    inner = list(problem.interior)
    plain = guess._representatives(shut, problem, inner)
    assert len(plain) == guess.INTERIOR_CANDIDATES and set(plain) <= {(0, 7), (5, 0), (5, 7)}  # far corners
    more = guess._representatives(shut, problem, inner, guess._off_edge(board, problem, around_count(board.cells < 0)))
    assert set(plain) < set(more) and len(more) == 2 * guess.INTERIOR_CANDIDATES
    assert set(more) - set(plain) <= guess._off_edge(board, problem, around_count(board.cells < 0))


def test_few_interior_cells_left_are_all_candidates(monkeypatch) -> None:
    board = parse_grid(GRID, mines=10)
    problem = build_problem(board)
    shut = around_count(board.cells < 0)
    inner = list(problem.interior)
    monkeypatch.setattr(guess, "INTERIOR_ALL_BELOW", len(inner))  # not below: the most open only
    assert len(guess._representatives(shut, problem, inner)) == guess.INTERIOR_CANDIDATES
    monkeypatch.setattr(guess, "INTERIOR_ALL_BELOW", len(inner) + 1)
    assert guess._representatives(shut, problem, inner) == inner


# Expert, early: a frontier cell (5, 5) is safe at 7/8; the far corners, untouched, at about 0.80
# (0.91 of it): inside the cut-off (0.9), outside DavidNHill's off-edge threshold (0.95).
EARLY = """
000001????????????????????????
111112?3??????????????????????
1F11F22???????????????????????
23433?2???????????????????????
1FFF3?22??????????????????????
24????????????????????????????
""" + "??????????????????????????????\n" * 10


def test_interior_cells_wait_below_their_own_cut_off(monkeypatch) -> None:
    board = parse_grid(EARLY, mines=99)
    monkeypatch.setattr(guess, "INTERIOR_CUTOFF", None)
    plain = advise(board, "safe", odds=True)
    assert plain.probability is not None and plain.guess is not None
    best = 1.0 - float(np.nanmin(plain.probability))
    problem = build_problem(board)
    assert plain.guess in problem.interior_set  # a far corner: its chance of a 0 outweighs its risk
    assert 0.9 * best <= 1.0 - plain.probability[plain.guess] < 0.95 * best
    monkeypatch.setattr(guess, "INTERIOR_CUTOFF", 0.95)
    cut = advise(board, "safe", odds=True)
    assert cut.guess is not None and cut.guess not in problem.interior_set
    assert 1.0 - cut.probability[cut.guess] >= 0.95 * best
