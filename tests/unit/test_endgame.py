"""The endgame search against an independent, naive game-tree evaluation on tiny boards."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from bot.board import parse_grid
from bot.games.simulator import Game, Level
from bot.solver.endgame import best_guess, layouts
from bot.solver.rules import build_problem


def naive_value(board_cells: np.ndarray, mines: int) -> float:
    """Best chance to win by any strategy, from first principles: enumerate every layout of all
    covered cells that fits the numbers; an action opens any covered cell (cascading like the game)."""
    rows, cols = board_cells.shape
    covered = [(r, c) for r in range(rows) for c in range(cols) if board_cells[r, c] < 0]

    def shows(lay: frozenset, cell) -> int:
        r, c = cell
        return sum((rr, cc) in lay for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2) if (rr, cc) != cell)

    opened0 = frozenset((r, c) for r in range(rows) for c in range(cols) if board_cells[r, c] >= 0)
    fits = []
    for chosen in itertools.combinations(covered, mines):
        lay = frozenset(chosen)
        if all(shows(lay, o) == board_cells[o] for o in opened0):
            fits.append(lay)

    def cascade(lay: frozenset, opened: frozenset, cell) -> frozenset:
        todo, out = [cell], set(opened)
        while todo:
            x = todo.pop()
            if x in out:
                continue
            out.add(x)
            if shows(lay, x) == 0:
                r, c = x
                todo += [(rr, cc) for rr in range(max(0, r - 1), min(rows, r + 2))
                         for cc in range(max(0, c - 1), min(cols, c + 2)) if (rr, cc) not in out]
        return frozenset(out)

    @cache
    def value(lays: frozenset, opened: frozenset) -> float:
        if len(opened) == rows * cols - mines:
            return 1.0
        best = 0.0
        for cell in covered:
            if cell in opened:
                continue
            outcomes: dict = {}
            for lay in lays:
                if cell in lay:
                    continue
                now = cascade(lay, opened, cell)
                key = (now, tuple(shows(lay, x) for x in sorted(now)))
                outcomes.setdefault(key, set()).add(lay)
            total = sum(len(g) / len(lays) * value(frozenset(g), key[0]) for key, g in outcomes.items())
            best = max(best, total)
        return best

    return value(frozenset(fits), opened0)


def test_a_pure_fifty_fifty_is_half():
    board = parse_grid("1?\n1?", mines=1)
    cell, chance = best_guess(build_problem(board))
    assert chance == pytest.approx(0.5) and cell in ((0, 1), (1, 1))


def positions(count: int, seed: int):
    """Mid-game positions of tiny games where a guess is due and few layouts remain."""
    from bot.solver.advice import advise

    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        game = Game(Level(3, 4, 3), "safe", int(rng.integers(1 << 30)))
        game.open((int(rng.integers(3)), int(rng.integers(4))))
        while game.status == "playing":
            board = game.board()
            advice = advise(board, "safe", odds=False)
            if advice.safe:
                for cell in advice.safe:
                    game.open(cell)
                continue
            yield board
            found += 1
            covered = [tuple(map(int, c)) for c in np.argwhere(board.cells < 0)]
            game.open(covered[int(rng.integers(len(covered)))])
            break


@pytest.mark.full
def test_the_chance_it_reports_is_the_best_any_strategy_has():
    checked = 0
    for board in positions(40, seed=4):
        problem = build_problem(board)
        if len(layouts(problem)[1]) < 2:
            continue
        result = best_guess(problem)
        assert result is not None
        cell, chance = result
        assert chance == pytest.approx(naive_value(board.cells, board.mines), abs=1e-12), board.cells
        assert best_guess(problem, [cell])[1] == pytest.approx(chance)  # the cell named is the one that wins
        checked += 1
    assert checked >= 20


def test_a_long_nearly_settled_frontier_is_not_searched_cell_by_cell():
    """1 500 frontier cells each pinned by its own number, and one 50/50 at the end: two layouts
    only, so the endgame search is asked, but placing cells one recursion level each overflowed
    Python's stack on a 100 x 100 board (RecursionError). Such a frontier is declined instead."""
    from bot.solver.rules import Problem, Rule

    frontier = tuple((0, c) for c in range(1502))
    rules = (*(Rule((cell,), 1, cell) for cell in frontier[:1500]), Rule(frontier[1500:], 1, frontier[1500]))
    problem = Problem((3, 1502), frontier, (), rules, 1501)
    assert best_guess(problem) is None


def test_a_search_past_its_deadline_gives_way_to_the_usual_guess():
    """A live decision must not wait on a slow machine: the search counts its size (so a board is
    played alike everywhere) but also stops at the decision's deadline, answering None."""
    from bot.solver.deadline import Deadline

    problem = build_problem(parse_grid("1????\n?????\n?????\n?????", mines=3))  # 360 layouts
    assert len(layouts(problem, limit=1000)[1]) == 360
    _, chance = best_guess(problem, limit=1000, nodes_limit=10**6)
    assert 0.5 < chance < 1.0
    assert best_guess(problem, deadline=Deadline.after(0), limit=1000, nodes_limit=10**6) is None
