"""Boards far past Expert: exact where the count can finish, bounded where it cannot.

The 100 x 100 board (2 000 mines) is a real mid-game position: the simulator's game, played by
the bot's own advice up to a guess (benchmarks/toollib.py `positions`). Its frontier is one
component of 1 874 cells, about 10^560 layouts: floats overflow, and counting it with one dense
array per state held gigabytes. The lattice board has numbers on every other row and column: its
one component is as wide as the board, which no exact method counts in seconds (ms_toollib did not
finish in 60 s either).
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest

import bot
from bot.board import Board, format_grid, parse_grid
from bot.errors import InconsistentBoardError
from bot.games.simulator import Level, opened_at_random
from bot.solver.deadline import NO_LIMIT
from bot.solver.probability import (
    DENSE_CELLS,
    EXACT_CELLS,
    Box,
    _dense_pass,
    _exact_pass,
    _order,
    _plan,
    _walk,
    make_boxes,
    probabilities,
    split_components,
)
from bot.solver.rules import Problem, build_problem

GRIDS = Path(__file__).resolve().parents[2] / "fixtures" / "grids"


def big_board() -> Board:
    return parse_grid((GRIDS / "100x100-2000-midgame.txt").read_text(), 2000)


def exact_counts(boxes: list[Box], counts: list[int], weigh: int | None = None) -> list[int]:
    """Layouts per mine total with Python's exact integers, box by box with the rules' remaining
    needs as the state (weigh: box index whose mines each layout is also multiplied by)."""
    boxes = _order(boxes)
    last = {r: i for i, b in enumerate(boxes) for r in b.rules}
    states: dict[tuple, np.ndarray] = {(): np.array([1], dtype=object)}
    for i, box in enumerate(boxes):
        size = len(box.cells)
        nxt: dict[tuple, np.ndarray] = {}
        for state, poly in states.items():
            need = dict(state)
            for r in box.rules:
                need.setdefault(r, counts[r])
            for k in range(size + 1):
                after = {r: v - k if r in box.rules else v for r, v in need.items()}
                if any(v < 0 for v in after.values()) or any(after[r] for r in box.rules if last[r] == i):
                    continue
                key = tuple(sorted((r, v) for r, v in after.items() if last[r] > i))
                factor = comb(size, k) * (k if i == weigh else 1)
                if not factor:
                    continue
                grown = np.concatenate([np.zeros(k, dtype=object), poly * factor])
                old = nxt.get(key)
                if old is None:
                    nxt[key] = grown
                else:
                    width = max(len(old), len(grown))
                    old = np.concatenate([old, np.zeros(width - len(old), dtype=object)])
                    nxt[key] = old + np.concatenate([grown, np.zeros(width - len(grown), dtype=object)])
        states = nxt
    return list(states.get((), np.array([0], dtype=object)))


def times(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def check_against_big_integers(problem: Problem, boxes_checked: int = 5) -> int:
    """The largest component's boxes (five, spread along it) against exact integer counts, joined
    with the other components and the interior by exact integers too: equal to 1e-9. Returns the
    number of layouts."""
    counts = [r.count for r in problem.rules]
    comps = sorted(split_components(make_boxes(problem)), key=lambda c: -sum(len(b.cells) for b in c))
    big, small = comps[0], comps[1:]
    others = [1]
    for comp in small:
        others = times(others, exact_counts(comp, counts))
    n_int, left = len(problem.interior), problem.mines_left

    def joined(poly: list[int]) -> int:
        whole = times(poly, others)
        return sum(w * comb(n_int, left - m) for m, w in enumerate(whole) if 0 <= left - m <= n_int)

    z = joined(exact_counts(big, counts))
    probs = probabilities(problem)
    ordered = _order(big)
    for i in np.linspace(0, len(ordered) - 1, boxes_checked).astype(int):
        box = ordered[int(i)]
        expected = Fraction(joined(exact_counts(big, counts, weigh=int(i))), z * len(box.cells))
        assert probs.cells[box.cells[0]] == pytest.approx(float(expected), abs=1e-9), box
    return z


def test_a_100x100_midgame_board_is_exact_against_big_integers():
    problem = build_problem(big_board())
    assert max(sum(len(b.cells) for b in c) for c in split_components(make_boxes(problem))) > 1500
    check_against_big_integers(problem)


def strip(cols: int, density: float, seed: int) -> Problem:
    """Three rows, numbers two apart along the middle one (each among eight covered cells), from a
    random layout of the covered cells: one long component whose size `cols` sets."""
    rng = np.random.default_rng(seed)
    number = np.zeros((3, cols), dtype=bool)
    number[1, ::2] = True
    mine = ~number & (rng.random((3, cols)) < density)
    padded = np.pad(mine, 1).astype(int)
    around = sum(padded[1 + dr : 4 + dr, 1 + dc : 1 + dc + cols] for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    text = "\n".join("".join(str(around[r, c]) if number[r, c] else "?" for c in range(cols)) for r in range(3))
    return build_problem(parse_grid(text, int(mine.sum())))


def test_a_component_with_more_layouts_than_a_float_holds_is_exact():
    """A strip of numbers two apart, each among eight covered cells: one component of 3 600 cells
    with about 10^300 layouts and more, counted by the banded polynomials (past DENSE_CELLS)."""
    problem = strip(1201, 0.3, seed=5)
    assert sum(len(b.cells) for b in make_boxes(problem)) > DENSE_CELLS
    assert check_against_big_integers(problem) > 10**300


def test_the_packed_integer_count_is_exact_up_to_the_widest_component_it_takes():
    """Components of up to EXACT_CELLS cells are counted with each polynomial packed into one
    integer: a coefficient too narrow for its count would carry into the next one. On a strip of
    numbers just under that size, every layout count and box total is the exact integer's, and the
    float pass agrees."""
    cols = (2 * EXACT_CELLS + 1) // 5  # odd, numbers at both ends: (5 cols - 1) / 2 covered cells
    cols -= 1 - cols % 2
    problem = strip(cols, 0.45, seed=11)
    counts = [rule.count for rule in problem.rules]
    (comp,) = split_components(make_boxes(problem))
    plan = _plan(comp)
    assert EXACT_CELLS - 10 < sum(plan.sizes) <= EXACT_CELLS
    steps = _walk(plan, counts, NO_LIMIT)
    weight, box_mines = _exact_pass(steps, plan.sizes)
    exact = exact_counts(list(comp), counts)
    assert max(exact) > 2**60  # past what a float holds exactly
    assert weight[: len(exact)] == pytest.approx([float(v) for v in exact], rel=1e-15)
    for i in (0, len(plan.boxes) // 2, len(plan.boxes) - 1):
        weighed = exact_counts(list(comp), counts, weigh=i)
        assert box_mines[i][: len(weighed)] == pytest.approx([float(v) for v in weighed], rel=1e-15)
    dense_weight, dense_mines = _dense_pass(steps, plan.sizes)
    assert dense_weight == pytest.approx(weight, rel=1e-12)
    assert dense_mines == pytest.approx(box_mines, rel=1e-12)


def test_a_100x100_midgame_board_answers_exactly_and_soundly():
    """The whole library call on the big board, with no deadline: exact (not approximate), every
    probability between 0 and 1, and the expected mines over all covered cells add up to the 2 000
    (the join of the components with the interior)."""
    board = big_board()
    answer = bot.solve(str(board), 2000, deadline=None)
    assert answer["approximate"] is False
    probs = np.array([[np.nan if p is None else p for p in row] for row in answer["probability"]])
    covered = board.covered()
    assert np.all((probs[covered] >= 0) & (probs[covered] <= 1))
    assert abs(np.nansum(probs[covered]) - 2000) < 1e-6  # expected mines add up to the count


def lattice(n: int, seed: int) -> tuple[str, np.ndarray]:
    """Numbers on every other row and column, from a random layout of the covered cells."""
    rng = np.random.default_rng(seed)
    number = np.zeros((n, n), dtype=bool)
    number[::2, ::2] = True
    mine = ~number & (rng.random((n, n)) < 0.3)
    padded = np.pad(mine, 1).astype(int)
    around = sum(padded[1 + dr : 1 + dr + n, 1 + dc : 1 + dc + n] for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    rows = ["".join(str(around[r, c]) if number[r, c] else "?" for c in range(n)) for r in range(n)]
    return "\n".join(rows) + "\n", mine


@pytest.mark.parametrize("n", [20, 40])
def test_a_board_too_wide_to_count_answers_by_its_deadline_labelled_approximate(n):
    """No hang and no memory blow-up: by the deadline, the advice is what the SAT core proved (each
    cell true in the dealt layout) and approximate odds (between 0 and 1), marked `approximate`."""
    text, mine = lattice(n, 3)
    start = time.monotonic()
    answer = bot.solve(text, int(mine.sum()), deadline=2.0)
    took = time.monotonic() - start
    assert answer["approximate"] is True
    assert all(not mine[r, c] for r, c in answer["safe"])
    assert all(mine[r, c] for r, c in answer["mine"])
    probs = [p for row in answer["probability"] for p in row if p is not None]
    assert probs and all(0.0 <= p <= 1.0 for p in probs)
    assert answer["guess"] is not None or answer["safe"]
    assert took < 60, f"answered after {took:.0f} s, deadline 2 s"  # (a hang, not a speed test)


def test_an_inconsistent_100x100_board_is_named_so():
    """One number of the big board raised by one (row 20, column 33): no single number shows the
    clash, the SAT core does, and the error names the numbers at fault (it once hung)."""
    rows = [list(r) for r in (GRIDS / "100x100-2000-midgame.txt").read_text().split()]
    rows[19][32] = str(int(rows[19][32]) + 1)
    with pytest.raises(InconsistentBoardError, match="no mine layout fits row"):
        bot.solve("\n".join("".join(r) for r in rows), 2000)


def test_a_count_no_layout_of_a_big_board_fits_is_named_in_a_short_line():
    """Every covered cell of a 100 x 100 board touches a 0, and 1 000 mines are said to be left:
    the error names the count and a few of the numbers, and counts the rest (it once listed all
    2 500 in a 60 KB line, after 15 s of encoding the count as clauses)."""
    grid = np.full((100, 100), "0")
    grid[::2, ::2] = "?"
    with pytest.raises(InconsistentBoardError) as caught:
        bot.solve("\n".join("".join(r) for r in grid), 1000)
    message = str(caught.value)
    assert "the 1000 mines left" in message and "more" in message and len(message) < 400, message


SOLVER_POSITIONS = Path(__file__).resolve().parents[3] / "shared" / "solver"


def test_a_long_frontier_of_a_100_by_100_board_is_counted_exactly() -> None:
    """A 100 x 100 position with 2 000 mines from a random game (ms_toollib's generator; kept in
    ../shared/solver, not here): its frontier is one component of 1 560 cells and 1 318 boxes, a
    few thousand states a box. Its count once gave up at once, the states' memory reckoned as if
    each polynomial were 401 long; it takes 157 000 steps and about 95 MB, under a second."""
    path = SOLVER_POSITIONS / "approx_100x100x2000.txt"
    if not path.exists():
        pytest.skip(f"the position is not beside the repository ({path}): ../shared/solver")
    text = "\n".join(line for line in path.read_text().splitlines() if not line.startswith("#"))
    board = parse_grid(text, 2000)
    problem = build_problem(board)  # (unsettled: bot.solve counts it with its proven cells settled)
    assert max(sum(len(b.cells) for b in comp) for comp in split_components(make_boxes(problem))) == 1560
    whole = probabilities(problem)
    answer = bot.solve(text, mines=2000, deadline=None)
    assert answer["approximate"] is False
    odds = np.array([[np.nan if p is None else p for p in row] for row in answer["probability"]])
    for cell, p in whole.cells.items():  # the same odds counted both ways: two other decompositions
        assert abs(odds[cell] - p) < 1e-9, (cell, odds[cell], p)


@pytest.mark.parametrize("seed, share", [(2, 0.5), (5, 0.4)])
def test_a_board_opened_by_random_clicks_is_counted_exactly(seed: int, share: float) -> None:
    """Random clicks all over a 100 x 100 board leave one frontier component of thousands of
    cells, linked in two dimensions: no order of its boxes keeps the states few, and it came back
    `approximate` with odds up to 0.6 off (ms_toollib counts it exactly in 10 to 30 s). Most of
    those cells are proven: settled, the rest falls apart into components of at most ~110 cells,
    counted exactly. The dealt layout agrees with every proven cell and every certain odd."""
    game = opened_at_random(Level(100, 100, 2000), seed, share)
    board = game.board()
    comps = split_components(make_boxes(build_problem(board)))
    assert max(sum(len(b.cells) for b in comp) for comp in comps) > 3000
    answer = bot.solve(format_grid(board), mines=2000, deadline=None)
    assert answer["approximate"] is False
    odds = np.array([[np.nan if p is None else p for p in row] for row in answer["probability"]])
    covered = board.covered()
    assert np.all((odds[covered] >= 0) & (odds[covered] <= 1))
    assert abs(odds[covered].sum() - 2000) < 1e-6  # (each layout holds all 2 000 mines under covered cells)
    assert all(game.mine[tuple(c)] for c in answer["mine"]) and not any(game.mine[tuple(c)] for c in answer["safe"])
    assert np.all(game.mine[covered & (odds == 1.0)]) and not np.any(game.mine[covered & (odds == 0.0)])
