"""Every number a cell could show, counted at once (probability.by_need), against counting the
board with each number on its own: the guess's look-ahead reads the one in place of the other."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import neighbours
from bot.errors import InconsistentBoardError
from bot.games.simulator import Level
from bot.solver import lookahead, probability
from bot.solver.probability import by_need, probabilities
from bot.solver.rules import build_problem, reveal
from tests.unit.test_solver import mid_game_positions


def _cells_to_try(problem, count, rng):
    covered = list(problem.covered)
    picks = rng.choice(len(covered), size=min(count, len(covered)), replace=False)
    return [covered[int(i)] for i in picks]


def _compare(problem, cell) -> int | None:
    """Checks one cell's numbers; how many numbers some layout allows (None: by_need declined,
    its component being too big for it)."""
    covered = set(problem.covered)
    room = sum(1 for n in neighbours(problem.shape, cell) if n in covered)
    try:
        shown = reveal(problem, cell, 0)
    except InconsistentBoardError:  # (a cell no layout leaves safe: no number at all)
        return 0
    each = by_need(shown, len(shown.rules) - 1, room)
    if each is None:
        return None
    assert len(each) == room + 1
    fits = 0
    for need, got in enumerate(each):
        try:
            alone = probabilities(reveal(problem, cell, need))
        except InconsistentBoardError:
            alone = None
        assert (got is None) == (alone is None), (cell, need)
        if alone is None:
            continue
        fits += 1
        assert abs(got.log_layouts - alone.log_layouts) < 1e-9
        assert got.cells.keys() == alone.cells.keys()
        for c, p in alone.cells.items():
            assert abs(got.cells[c] - p) < 1e-12, (cell, need, c, got.cells[c], p)
        assert (got.smallest is None) == (alone.smallest is None)
        if alone.smallest is not None:
            assert abs(got.smallest - alone.smallest) < 1e-12
    return fits


@pytest.mark.parametrize(("level", "count"), [(Level(16, 30, 99), 60), (Level(6, 6, 7), 150)])
def test_every_number_at_once_matches_each_number_alone(level, count):
    rng = np.random.default_rng(3)
    numbers = ruled_out = 0
    for board in mid_game_positions(count, seed=21, level=level):
        problem = build_problem(board)
        for cell in _cells_to_try(problem, 4, rng):
            room = sum(1 for n in neighbours(problem.shape, cell) if n in set(problem.covered))
            fits = _compare(problem, cell) if room else None
            if fits is not None:
                numbers += fits
                ruled_out += room + 1 - fits
    assert numbers > 200 and ruled_out > 50  # (numbers no layout allows were met, and agree too)


def test_without_a_mine_count_too():
    rng = np.random.default_rng(4)
    numbers = 0
    for board in mid_game_positions(100, seed=22):
        problem = build_problem(board.with_mines(None))
        for cell in _cells_to_try(problem, 3, rng):
            if any(n in set(problem.covered) for n in neighbours(problem.shape, cell)):
                numbers += _compare(problem, cell) or 0
    assert numbers > 100


def test_a_component_too_big_for_packed_integers_is_counted_number_by_number(monkeypatch):
    """Past EXACT_CELLS by_need declines, and the look-ahead counts each number alone: the same
    scores either way."""
    boards = mid_game_positions(40, seed=23, level=Level(16, 30, 99))
    looked = []
    for board in boards:
        problem = build_problem(board)
        probs = probabilities(problem)
        for cell, p in list(probs.cells.items())[:3]:
            if p < 0.99:  # (not a mine: its own rule would leave no room)
                looked.append((problem, cell, 1.0 - p, lookahead.look(problem, cell, 1.0 - p)))
    monkeypatch.setattr(probability, "EXACT_CELLS", 0)
    declined = 0
    for problem, cell, safety, (score, outcomes) in looked:
        shown = reveal(problem, cell, 0)
        declined += by_need(shown, len(shown.rules) - 1, 8) is None
        again = lookahead.look(problem, cell, safety)
        assert again[1] == outcomes
        assert abs(again[0] - score) < 1e-12
    assert declined == len(looked) > 50
