"""Which interior cells the guess looks at two moves deep (guess._representatives, OFF_EDGE)."""

from __future__ import annotations

from bot.board import around_count, parse_grid
from bot.solver import guess
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
