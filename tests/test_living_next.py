"""The look-ahead's next click among living cells only (bot.solver.lookahead.LIVING_NEXT), against
counting every mine layout by hand."""

from __future__ import annotations

import numpy as np

from bot.board import FLAG
from bot.games import bench
from bot.games.simulator import Game, parse_level
from bot.solver import lookahead
from bot.solver.advice import Advice, advise
from bot.solver.probability import probabilities
from bot.solver.rules import build_problem, reveal
from tests.test_chains import proven_mines
from tests.test_three_moves import _positions, _shows


def _dead_by_hand(problem, lays, cell):
    """Every layout with the cell safe gives it the same number (and some layout has it safe)."""
    return len({_shows(problem, lay, cell) for lay in lays if not lay[cell]}) == 1


def _two_living_by_hand(problem, lays, cell):
    """P(cell safe) x E[safety of the next click | the number]: 1 where a cell is safe in every
    layout left, else the safest frontier cell not dead once the number is shown, or interior cell
    (the safest of all when every cell that may be safe is dead)."""
    safe = [lay for lay in lays if not lay[cell]]
    total = 0.0
    for n in {_shows(problem, lay, cell) for lay in safe}:
        group = [lay for lay in safe if _shows(problem, lay, cell) == n]
        odds = {c: sum(1 - lay[c] for lay in group) / len(group) for c in group[0] if c != cell}
        may = {c: s for c, s in odds.items() if s > 1e-12}
        if not may or max(may.values()) > 1 - 1e-12:
            best = 1.0
        else:
            shown = reveal(problem, cell, n)
            frontier = set(shown.frontier)
            living = [s for c, s in may.items() if c not in frontier or not _dead_by_hand(shown, group, c)]
            best = max(living) if living else max(may.values())
        total += len(group) / len(lays) * best
    return total


def test_dead_cells_are_those_every_layout_gives_one_number(monkeypatch):
    monkeypatch.setattr(lookahead.DeadCells, "SHORTCUT", False)  # (the next test checks the shortcut)
    checked = dead = 0
    for problem, mines, lays in _positions():
        for cell in [c for c in problem.covered if c not in mines][:3]:
            for need, probs in lookahead.outcomes(problem, cell):
                cells = lookahead.DeadCells(problem, cell, need, probs)
                group = [lay for lay in lays if not lay[cell] and _shows(problem, lay, cell) == need]
                shown = reveal(problem, cell, need)
                for other, p in probs.cells.items():
                    if other in shown.frontier and p < 1.0 - 1e-12:
                        assert cells(other) == _dead_by_hand(shown, group, other), (cell, need, other)
                        checked += 1
                        dead += cells(other)
        if checked > 1000 and dead > 20:
            break
    assert dead > 20 and checked > 2 * dead  # both kinds met


def test_living_next_is_what_counting_every_layout_gives(monkeypatch):
    monkeypatch.setattr(lookahead.DeadCells, "SHORTCUT", False)
    monkeypatch.setattr(lookahead, "LIVING_NEXT", True)
    monkeypatch.setattr(lookahead, "LIVING_SCAN", 10_000)  # every box: the count by hand looks at all
    checked = changed = 0
    for problem, mines, lays in _positions():
        odds = probabilities(problem).cells
        for cell in [c for c in problem.covered if c not in mines][:6]:
            safety = 1.0 - odds[cell]
            if safety < 1e-12:
                continue
            living = lookahead.look(problem, cell, safety)[0]
            assert abs(living - _two_living_by_hand(problem, lays, cell)) < 1e-9, cell
            monkeypatch.setattr(lookahead, "LIVING_NEXT", False)
            changed += abs(living - lookahead.two_moves(problem, cell, safety)) > 1e-9
            monkeypatch.setattr(lookahead, "LIVING_NEXT", True)
            checked += 1
        if checked > 200 and changed >= 5:
            break
    assert checked > 200 and changed  # the living rule changed some scores, and every one is right


def test_the_shortcut_agrees_with_counting_on_expert_positions(monkeypatch):
    """Every frontier cell the interior shortcut calls living, after each number of a few cells of
    positions from simulated Expert games, shows two numbers or more when counted."""
    called = 0
    for board, _ in _expert_guesses(seed=21, games=6):
        problem = build_problem(board)
        mines = proven_mines(problem)
        for cell in [c for c in problem.frontier if c not in mines][:4]:
            for need, probs in lookahead.outcomes(problem, cell):
                cells = lookahead.DeadCells(problem, cell, need, probs)
                shown = reveal(problem, cell, need)
                for other in [c for c in shown.frontier if probs.cells[c] < 1.0 - 1e-12][:8]:
                    if cells._interior_decides(other):
                        assert len(lookahead.outcomes(shown, other)) > 1, (cell, need, other)
                        called += 1
    assert called > 100


def _expert_guesses(seed: int, games: int) -> list[tuple]:
    """(board, the bot's guess) at each position where the bot guesses in simulated Expert games."""
    found = []

    def keep(game: Game, advice: Advice) -> None:
        found.append((game.board(), advice.guess))

    for index in range(games):
        bench.play_game(parse_level("expert"), "safe", bench.game_seed(seed, index), before_guess=keep)
    return found


def test_the_floor_changes_no_guess(monkeypatch):
    """Candidates under the best score found skip the dead-cell counting (their score counting dead
    cells too is never below the living one): the guess is the one full living scores give."""
    monkeypatch.setattr(lookahead, "LIVING_NEXT", True)
    positions = _expert_guesses(seed=22, games=4)
    full = lookahead.look
    monkeypatch.setattr(lookahead, "look", lambda problem, cell, safety, deadline, floor=None:
                        full(problem, cell, safety, deadline))
    for board, chosen in positions:  # (every flag there is the bot's own, on a proven mine)
        own = frozenset(map(tuple, np.argwhere(board.cells == FLAG).tolist()))
        assert advise(board, "safe", odds=False, trusted=own).guess == chosen
    assert len(positions) > 5
