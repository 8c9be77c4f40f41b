"""Long-term risk (bot.solver.long_term): the share of each 50/50 that may form, its pseudo-50/50s and
what the guess makes of them, against every layout listed one by one."""

import numpy as np
import pytest

from bot.games.simulator import Level
from bot.solver.advice import advise
from bot.solver.long_term import SCORE_MISSING, LongTermRisk
from bot.solver.policy import Policy
from bot.solver.probability import log_count, probabilities
from bot.solver.rules import build_problem, fix
from tests.support.bruteforce import all_layouts
from tests.unit.test_solver import mid_game_positions

TINY = Level(4, 5, 5)


def risk_of(board):
    """The position's LongTermRisk, with odds laid out as the guess sees them."""
    problem = build_problem(board)
    probs = probabilities(problem)
    odds = np.full(board.shape, np.nan)
    for cell, p in probs.cells.items():
        odds[cell] = p
    return problem, LongTermRisk(board, problem, odds, probs.log_layouts)


def positions(count=80, seed=3):
    out = []
    for board in mid_game_positions(count, seed, level=TINY):
        problem = build_problem(board)
        if problem.rules and len(problem.covered) > 3 and board.mines is not None:
            out.append(board)
    return out


def test_a_settled_count_is_the_share_of_every_layout_that_agrees():
    checked = 0
    for board in positions():
        problem = build_problem(board)
        cells, layouts = all_layouts(board)
        rng = np.random.default_rng(len(cells))
        for _ in range(3):
            picked = rng.choice(len(cells), size=min(3, len(cells)), replace=False)
            mines = frozenset(cells[i] for i in picked[:1])
            safe = frozenset(cells[i] for i in picked[1:])
            agree = layouts[:, [cells.index(c) for c in mines]].all(axis=1)
            agree &= ~layouts[:, [cells.index(c) for c in safe]].any(axis=1)
            if not agree.any():
                continue
            assert np.exp(log_count(fix(problem, mines, safe))) == pytest.approx(agree.sum(), rel=1e-9)
            checked += 1
        assert np.exp(log_count(problem)) == pytest.approx(len(layouts), rel=1e-9)
        assert log_count(problem) == pytest.approx(probabilities(problem).log_layouts, abs=1e-9)
    assert checked > 40


def _share(layouts, col, mines, safe):
    """The share of the listed layouts with a mine on each of `mines` and none on `safe`."""
    agree = layouts[:, [col[c] for c in mines]].all(axis=1)
    if safe:
        agree &= ~layouts[:, [col[c] for c in safe]].any(axis=1)
    return agree.sum() / len(layouts)


def test_each_pattern_share_is_the_share_of_layouts_it_forms_in():
    """A pair forms with a mine on its first cell, its second clear and every covered cell beyond
    it a mine; a square likewise with its mines on a diagonal. The share must be that of every
    layout listed, and the same with the mine on the other cell (nothing tells them apart)."""
    checked = pseudos = 0
    for board in positions(120):
        _, risk = risk_of(board)
        cells, layouts = all_layouts(board)
        col = {c: i for i, c in enumerate(cells)}

        rows, cols = board.shape
        for r in range(rows):
            for c in range(cols):
                for kind in SCORE_MISSING:
                    pattern = risk.pattern(kind, (r, c), 8)
                    if pattern is None:
                        continue
                    first, last = (pattern.cells[0], pattern.cells[-1]) if kind == "square" else pattern.cells[:1] * 2
                    mines = {first, last, *pattern.enablers}
                    other = set(pattern.cells) - {first, last}
                    assert pattern.share == pytest.approx(_share(layouts, col, mines, other), rel=1e-9)
                    swapped = other | set(pattern.enablers)
                    assert pattern.share == pytest.approx(_share(layouts, col, swapped, {first, last}), rel=1e-9)
                    checked += 1
        for cell in risk.pseudo():  # a mine there always sits in some pattern that has formed
            i = col[cell]
            with_mine = layouts[layouts[:, i] == 1]
            formed = np.zeros(len(with_mine), dtype=bool)
            for (kind, _), pattern in risk._patterns.items():
                if pattern is None or cell not in pattern.cells:
                    continue
                beyond = with_mine[:, [col[e] for e in pattern.enablers]].all(axis=1)
                inside = with_mine[:, [col[x] for x in pattern.cells]].sum(axis=1) == (2 if kind == "square" else 1)
                formed |= beyond & inside
            assert formed.all(), (str(board), cell)
            pseudos += 1
    assert checked > 30 and pseudos > 0


def test_influence_is_bounded_by_the_chances_of_mine_and_safe():
    seen = 0
    for board in positions(120, seed=4):
        problem, risk = risk_of(board)
        for cell in problem.covered:
            p = float(risk.odds[cell])
            value = risk.influence(cell)
            assert 0.0 <= value <= min(p, 1.0 - p) + 1e-12
            seen += value > 0
    assert seen > 10


EXPERT_CORNER = """\
000000001F3222FFF22F22F2??101F
0000123233FF2F3322F22F33??2111
11001FFF2F4321100112222F22F100
F210123222F100112111F111222100
2F2100000111001F2F1111001F2100
23F10000000111223221123333F100
3F3101110001F22F11F12FFFF21100
FF3112F200012F2111112F??322221
222F23F212322110000123??2??F??
11212F321FFF10001222F22???????
1F1012F125F421101FF322????????
111013321FF21F10123F12????????
00112FF235433320001234F???????
001F3322FFF3FF100112FF????????
0023F21247F4222112F44?????????
001F3F11FFF2001F12F???????????"""


def test_with_long_term_risk_a_pseudo_fifty_fifty_is_guessed_first():
    """Top right (a position from a game the bot played): a 2 x 2 block between two flagged
    corners holds its mines on a diagonal whenever it holds any, so each of its cells is safe or
    half of a coin that must be tossed some time. With long-term risk it is guessed now; without,
    a safer cell elsewhere. (It is also an exact coin that bot.solver.chains finds: off here, to test the
    long-term risk alone.)"""
    from bot.board import parse_grid

    board = parse_grid(EXPERT_CORNER, mines=99)
    _, risk = risk_of(board)
    assert set(risk.pseudo()) <= {(0, 24), (0, 25), (1, 24), (1, 25)} and risk.pseudo()
    plain = advise(board, policy=Policy(chains=False, long_term=False))
    with_risk = advise(board, policy=Policy(chains=False))
    assert plain.guess not in risk.pseudo()
    assert with_risk.guess in risk.pseudo()
    assert plain.probability[with_risk.guess] > plain.probability[plain.guess]


def test_the_board_scan_finds_every_place_a_pattern_can_stand():
    """The scan's whole-board filter against the rule cell by cell: the pattern's cells covered and
    unproven, nothing open beyond it, at most so many unproven cells beyond."""
    from bot.board import parse_grid
    from bot.solver.long_term import _shape

    boards = [parse_grid(EXPERT_CORNER, mines=99), *positions(40, seed=6)]
    for board in boards:
        _, risk = risk_of(board)
        rows, cols = board.shape
        for kind in SCORE_MISSING:
            for limit in (0, 1, 2, 3):
                expected = set()
                for r in range(rows):
                    for c in range(cols):
                        shape = _shape(kind, (r, c), board.shape)
                        if shape is None:
                            continue
                        cells, beyond = shape
                        if not all(risk._hidden[x] for x in cells) or any(risk._open[x] for x in beyond):
                            continue
                        if sum(bool(risk._hidden[x]) for x in beyond) <= limit:
                            expected.add((r, c))
                assert set(risk._anchors(kind, limit)) == expected, (kind, limit)


def test_a_deadline_passing_during_the_long_term_scan_still_gives_a_guess(monkeypatch):
    """Past the deadline the counts of the patterns stop (OutOfTime) like the look-ahead's: the
    guess is then the safest cell, never an exception out of the advice."""
    from bot.board import parse_grid
    from bot.solver import guess
    from bot.solver.deadline import Deadline, OutOfTime
    from bot.solver.long_term import LongTermRisk

    board = parse_grid(EXPERT_CORNER, mines=99)
    problem, risk = risk_of(board)
    probs = probabilities(problem)

    def out_of_time(*_):
        raise OutOfTime("the deadline passed")

    monkeypatch.setattr(LongTermRisk, "_count", out_of_time)
    no_chains = Policy(chains=False)  # (its coin would be taken before the scan)
    cell = guess.choose_guess(board, problem, risk.odds, frozenset(), probs.log_layouts, Deadline.after(0.0), no_chains)
    covered = [c for c in problem.covered if risk.odds[c] < 1.0]
    assert cell in covered
    assert risk.odds[cell] == min(risk.odds[c] for c in covered)
