"""Forced cells and probabilities against brute force, and the error path."""

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.board import FLAG, UNOPENED, Board, parse_grid
from bot.errors import InconsistentBoardError
from bot.games.bench import game_seed
from bot.games.simulator import Game, Level
from bot.report import to_json
from bot.solver.advice import advise
from bot.solver.probability import probabilities
from bot.solver.rules import build_problem
from tests.support.bruteforce import MAX_FRONTIER, brute_probabilities

SMALL = Level(6, 6, 7)


def mid_game_positions(count, seed, level=SMALL, rule="safe"):
    """Positions from real simulated play: random safe clicks until the game ends."""
    rng = np.random.default_rng(seed)
    out = []
    i = 0
    while len(out) < count:
        game = Game(level, rule, game_seed(seed, i))
        i += 1
        game.open((int(rng.integers(level.rows)), int(rng.integers(level.cols))))
        while game.status == "playing" and len(out) < count:
            board = game.board()
            covered = np.argwhere(board.covered() & ~game.mine)
            if rng.random() < 0.35 or len(covered) == 0:
                out.append(board)
            if len(covered) == 0:
                break
            if rng.random() < 0.15:
                mines = np.argwhere(game.mine & (board.cells == -1))
                if len(mines):
                    game.flag(tuple(mines[0]))
            game.open(tuple(covered[rng.integers(len(covered))]))
    return out


def frontier_size(board):
    return len({c for rule in build_problem(board).rules for c in rule.cells})


def check_against_brute_force(board):
    truth = brute_probabilities(board)
    ours = probabilities(build_problem(board)).cells
    assert set(ours) == set(truth)
    for cell, p in truth.items():
        assert abs(ours[cell] - p) < 1e-9, (str(board), cell, ours[cell], p)
    # The advice takes flags as claims: what it proves is what the numbers prove with every flag
    # a covered cell; flagged cells are never advised, and a flag proven safe is reported.
    flagged = board.cells == FLAG
    free_board = Board(np.where(flagged, UNOPENED, board.cells).astype(np.int8), board.mines)
    if frontier_size(free_board) > MAX_FRONTIER:
        return  # the flags kept the frontier small enough to enumerate; without them it is not
    free = brute_probabilities(free_board)
    flags = {(int(r), int(c)) for r, c in np.argwhere(flagged)}
    advice = advise(board)
    assert advice.safe == {c for c, p in free.items() if p == 0 and c not in flags}
    assert advice.mines == {c for c, p in free.items() if p == 1 and c not in flags}
    assert advice.wrong_flags == {c for c in flags if free[c] == 0}


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.full) for s in range(1, 4))])
def test_probabilities_equal_brute_force_with_mine_count(seed):
    checked = 0
    for board in mid_game_positions(500, seed):
        if frontier_size(board) <= MAX_FRONTIER:
            check_against_brute_force(board)
            checked += 1
    assert checked >= 400


def test_probabilities_equal_brute_force_without_mine_count():
    for board in mid_game_positions(400, 99, Level(4, 5, 5)):
        check_against_brute_force(board.with_mines(None))


@pytest.mark.full
def test_probabilities_on_a_wider_board_with_zero_rule():
    for board in mid_game_positions(300, 7, Level(5, 8, 8), "zero"):
        if frontier_size(board) <= MAX_FRONTIER:
            check_against_brute_force(board)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_consistent_boards_match_brute_force(data):
    rows = data.draw(st.integers(3, 5))
    cols = data.draw(st.integers(3, 5))
    mines = data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    opened = data.draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    layout = np.array(mines).reshape(rows, cols)
    game = Game.from_layout(layout) if layout.any() else None
    if game is None:
        return
    for i, flag in enumerate(opened):
        cell = divmod(i, cols)
        if flag and not layout[cell]:
            game.shown[cell] = game.counts[cell]
    board = game.board()
    assume(frontier_size(board) <= MAX_FRONTIER)  # the brute force enumerates 2**frontier
    with_count = data.draw(st.booleans())
    check_against_brute_force(board if with_count else board.with_mines(None))


def test_count_alone_can_force_the_interior():
    # Two mines left; the 1 pins one of its two cells, so the far cell holds the other.
    board = parse_grid("1??\n1??\n???", mines=2)
    truth = brute_probabilities(board)
    advice = advise(board)
    assert advice.mines == {c for c, p in truth.items() if p == 1}
    assert advice.safe == {c for c, p in truth.items() if p == 0}


def test_count_forces_all_interior_safe():
    board = parse_grid("?1000\n11000\n00000\n0000?", mines=1)
    advice = advise(board)
    assert (3, 4) in advice.safe and (0, 0) in advice.mines


def test_inconsistent_board_names_the_numbers():
    with pytest.raises(InconsistentBoardError, match="row 1, column 2"):
        advise(parse_grid("?1?\n010\n???"))  # hmm: the 0 clears all, the 1 has no room


def test_inconsistent_pair_is_explained_by_core():
    board = parse_grid("??1\n?2?\n1??")
    # 1 at (0,2) and 1 at (2,0) with a 2 between and nothing else: consistent.
    advise(board)
    with pytest.raises(InconsistentBoardError, match="no mine layout fits"):
        advise(parse_grid("?1?\n???\n?3?", mines=2))


def test_too_many_flags_for_the_count_is_a_wrong_flag_not_a_wrong_board():
    """Two flags, one mine: a flag is wrong, which one the board does not say; nothing is advised
    from the flags, and the guess is never a flagged cell."""
    advice = advise(parse_grid("FF?\n???", mines=1))
    assert not advice.safe and not advice.mines and not advice.wrong_flags
    assert advice.guess is not None and advice.guess not in {(0, 0), (0, 1)}
    import bot  # the same through the JSON contract: plain ints, never a flagged cell

    for text, mines in (("FF?\n???", 1), ("?F\n??", 1), ("F??\n???\n???", 4)):
        got = json.loads(to_json(bot.solve(text, mines)))
        assert got["guess"] is not None and text.splitlines()[got["guess"][0]][got["guess"][1]] != "F", text


def test_a_flag_the_numbers_contradict_is_reported_and_never_trusted():
    """A flag beside a 0 is wrong: reported, and the cells the 0 clears are still safe (trusting
    the flag made the board "inconsistent" and gave no advice at all)."""
    advice = advise(parse_grid("0??\nF??\n???", mines=1))
    assert advice.wrong_flags == {(1, 0)}
    assert advice.safe == {(0, 1), (1, 1)} and not advice.mines


@pytest.mark.parametrize("grid, mines, conflict", [
    ("1F?\nF??\n???", None, True),  # two flags on a 1: neither is proven wrong, the pair is
    ("1F?\n???\n???", None, False),
    ("?F?\n?F?\n???", 1, True),  # more flags than the game has mines
    ("11?\nF??\n???", None, False),
])
def test_flags_that_cannot_all_be_mines_are_reported(grid, mines, conflict):
    import bot

    advice = advise(parse_grid(grid, mines=mines))
    assert advice.flags_conflict is conflict
    assert json.loads(to_json(bot.solve(grid, mines)))["flags_conflict"] is conflict


def test_an_untouched_board_whose_count_decides_everything():
    """No first-click rule applies when the count alone says where every mine is."""
    full = advise(parse_grid("???\n???\n???", mines=9))
    empty = advise(parse_grid("???\n???\n???", mines=0))
    assert len(full.mines) == 9 and not full.safe and full.guess is None
    assert len(empty.safe) == 9 and not empty.mines and empty.guess is None
    assert advise(parse_grid("???\n???\n???", mines=4)).guess == (0, 0)  # the corner rule


def test_an_unavoidable_fifty_fifty_is_taken_at_once():
    """Bottom-left: two cells share one mine, every other neighbour is open or a proven mine, so
    nothing can ever tell them apart. A far safer cell elsewhere does not delay the coin toss."""
    board = parse_grid("001???\n113???\n1?4???\n24????\n??????", mines=7)
    advice = advise(board)
    assert not advice.safe and advice.guess in {(4, 0), (4, 1)}
    assert advice.probability[4, 0] == pytest.approx(0.5)


def test_a_fifty_fifty_a_future_number_may_resolve_is_not_forced():
    from bot.solver.chains import unavoidable_pairs
    from bot.solver.rules import Problem, Rule

    pair = ((0, 0), (0, 1))
    closed = Problem((2, 3), pair, (), (Rule(pair, 1, (1, 0)), Rule(pair, 1, (1, 1))), 1)
    assert unavoidable_pairs(closed, frozenset()) == [frozenset(pair)]
    open_side = Problem((2, 3), pair, ((1, 2),), (Rule(pair, 1, (1, 0)), Rule(pair, 1, (1, 1))), 1)
    assert unavoidable_pairs(open_side, frozenset()) == []  # (1, 2) may still show a number
    assert unavoidable_pairs(open_side, frozenset({(1, 2)})) == [frozenset(pair)]  # ... unless a known mine


def test_every_unavoidable_pair_is_listed_once():
    from bot.solver.chains import unavoidable_pairs

    board = parse_grid("??F22F??\n13F22F31\n01111110", mines=6)  # a sealed pair in each top corner
    problem = build_problem(board)
    pairs = unavoidable_pairs(problem, frozenset())
    assert sorted(sorted(p) for p in pairs) == [[(0, 0), (0, 1)], [(0, 6), (0, 7)]]
    assert advise(board).guess == (0, 0)


def test_two_move_scores_stay_under_the_bound_the_guess_prunes_by():
    """The guess stops scanning candidates once a cell's safety cannot beat the best score found:
    that is exact only if no two-move score ever exceeds the cell's safety."""
    from bot.solver import lookahead
    from bot.solver.sat import SatCore

    checked = lower = 0
    for board in mid_game_positions(60, seed=5):
        problem = build_problem(board)
        with SatCore(problem) as core:
            safe, mines = core.forced()
        if safe or not problem.rules:
            continue
        probs = probabilities(problem)
        for cell, p in list(probs.cells.items())[:4]:
            if cell in mines:
                continue
            safety = 1.0 - p
            score = lookahead.two_moves(problem, cell, safety)
            assert 0.0 <= score <= safety + 1e-12
            checked += 1
            lower += score < safety - 1e-9
    assert checked > 20 and lower > 0


def test_a_dead_cell_is_one_that_can_show_a_single_number():
    """How many numbers a guess could show (1: dead, nothing learnt by opening it) is what the SAT
    core finds consistent, number by number."""
    from bot.board import neighbours
    from bot.solver import lookahead
    from bot.solver.rules import reveal
    from bot.solver.sat import SatCore

    counted = dead = 0
    for board in mid_game_positions(40, seed=11):
        problem = build_problem(board)
        with SatCore(problem) as core:
            _, mines = core.forced()
        covered = set(problem.covered)
        for cell, p in list(probabilities(problem).cells.items())[:5]:
            if cell in mines:
                continue
            _, outcomes = lookahead.look(problem, cell, 1.0 - p)
            room = sum(1 for n in neighbours(problem.shape, cell) if n in covered)
            fits = 0
            for need in range(room + 1):
                try:
                    shown = reveal(problem, cell, need)
                except InconsistentBoardError:
                    continue
                with SatCore(shown) as core:
                    fits += bool(core.consistent())
            assert outcomes == fits, (board, cell)
            counted += 1
            dead += outcomes == 1
    assert counted > 40 and dead > 0


def test_the_library_call_gives_what_solve_json_prints(tmp_path, capsys):
    """bot.solve(text, mines) is the `solve --json` object: the CLI is a shell round it."""
    import json

    import bot
    from bot.board import format_grid
    from bot.cli import main
    from bot.errors import GridError

    for i, board in enumerate(mid_game_positions(6, seed=11, level=Level(9, 9, 10))):
        text = format_grid(board)
        (tmp_path / f"{i}.txt").write_text(text)
        assert main(["solve", str(tmp_path / f"{i}.txt"), "--mines", "10", "--json"]) == 0
        printed = json.loads(capsys.readouterr().out)
        assert bot.solve(text, mines=10) == printed
        assert printed["mines"] == 10 and printed["rows"] == 9
    with pytest.raises(GridError):
        bot.solve("01?\n1x?\n")
    with pytest.raises(InconsistentBoardError):
        bot.solve("1?\n??\n", mines=0)


def test_the_wrong_flag_fixture_gets_no_wrong_advice(capsys):
    """beginner1-middle: the player flagged (9, 5), which the lost game shows held no mine. Taking
    flags as facts, `replay` once marked two mines safe and a safe cell a mine; now every cell it
    calls safe or a mine is so in the game's own layout, and the flag is reported wrong."""
    import json
    from pathlib import Path

    from bot.board import EXPLODED, MINE
    from bot.cli import main

    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "winemine"
    assert main(["replay", "--json", str(fixtures / "beginner1-middle.png")]) == 0
    advice = json.loads(capsys.readouterr().out)["advice"]
    shown = parse_grid((fixtures / "beginner1-lost.txt").read_text()).cells
    mine = np.isin(shown, [MINE, EXPLODED, FLAG])  # the layout, as the loss shows it
    assert advice["safe"] and not any(mine[tuple(c)] for c in advice["safe"])
    assert advice["mine"] and all(mine[tuple(c)] for c in advice["mine"])
    assert advice["wrong_flags"] == [[8, 4]]


def test_a_big_interior_never_underflows_the_join():
    """1 500 numbers each pinning one mine, 4 000 cells no number touches, 2 000 mines left: the
    interior holds exactly 500 of them. Joining the counts with the interior's binomials scaled by
    their overall maximum underflowed the only possible total to 0 (C(4000, 500) is e^1264 below
    C(4000, 2000)) and called the board inconsistent; in log space it is exact."""
    from bot.solver.rules import Problem, Rule

    frontier = tuple((0, c) for c in range(1500))
    interior = tuple((1 + r // 100, r % 100) for r in range(4000))
    rules = tuple(Rule((cell,), 1, cell) for cell in frontier)
    probs = probabilities(Problem((41, 1500), frontier, interior, rules, 2000))
    assert all(probs.cells[c] == pytest.approx(1.0, abs=1e-12) for c in frontier)
    assert probs.interior == pytest.approx(500 / 4000, abs=1e-12)
    assert probs.log_layouts == pytest.approx(math.lgamma(4001) - math.lgamma(501) - math.lgamma(3501), rel=1e-12)


def test_the_join_matches_exact_big_integer_counts():
    """Random components and a large interior: every probability equals the one computed with
    Python's exact integers from the same per-component counts, to 1e-12."""
    from fractions import Fraction

    from bot.solver.probability import make_boxes, split_components, tally_component
    from bot.solver.rules import Problem, Rule

    rng = np.random.default_rng(3)
    for trial in range(20):
        cells = [(0, c) for c in range(24)]
        rules = []
        for start in range(0, 22, 2):  # a chain of overlapping rules: one or two components
            span = tuple(cells[start : start + 3])
            if rng.random() < 0.8:
                rules.append(Rule(span, int(rng.integers(0, 3)), span[0]))
        touched = tuple(sorted({c for r in rules for c in r.cells}))
        n_int = int(rng.integers(500, 3000))
        interior = tuple((1 + i // 100, i % 100) for i in range(n_int))
        left = int(rng.integers(10, n_int // 2))
        problem = Problem((40, 100), touched, interior, tuple(rules), left)
        try:
            probs = probabilities(problem)
        except InconsistentBoardError:
            continue
        counts = [r.count for r in rules]
        tallies = [tally_component(comp, counts) for comp in split_components(make_boxes(problem))]
        ints = [[round(math.exp(w)) if np.isfinite(w) else 0 for w in t.log_weight()] for t in tallies]
        total = [1]
        for w in ints:
            total = [sum(total[i] * w[k - i] for i in range(len(total)) if 0 <= k - i < len(w))
                     for k in range(len(total) + len(w) - 1)]
        z = sum(t * math.comb(n_int, left - j) for j, t in enumerate(total) if 0 <= left - j <= n_int)
        interior_mines = sum(t * math.comb(n_int, left - j) * (left - j)
                             for j, t in enumerate(total) if 0 <= left - j <= n_int)
        assert probs.interior == pytest.approx(float(Fraction(interior_mines, z * n_int)), abs=1e-12), trial


def test_bench_in_two_processes_where_there_is_no_fork(monkeypatch):
    """Windows has only the spawn start method (`bench --jobs 2` failed there: "cannot find
    context for 'fork'"): the same games, the same results, in spawned workers."""
    from bot.games import bench, engines
    from bot.games.simulator import parse_level

    monkeypatch.setattr(engines, "get_all_start_methods", lambda: ["spawn"])
    level = parse_level("beginner")
    spawned = sorted((r.won, r.clicks, r.three_bv) for r in bench.play_many(level, "safe", 12, 5, jobs=2))
    alone = sorted((r.won, r.clicks, r.three_bv) for r in bench.play_many(level, "safe", 12, 5, jobs=1))
    assert spawned == alone


def test_each_first_click_rule_and_the_cli_knows_them_all():
    """`none` (ace-minesweeper: mines placed before the first click, never moved) loses on a mine
    under it; `safe` and `zero` never do, `zero` opens an area; `open` starts opened; the CLI
    offers every rule."""
    from bot import cli
    from bot.games.simulator import RULES, Game, Level

    assert cli.RULES == RULES
    lost = {rule: 0 for rule in RULES}
    for seed in range(200):
        for rule in RULES:
            game = Game(Level(8, 8, 30), rule, seed)
            game.open((3, 3))
            lost[rule] += game.status == "lost"
            if rule == "zero":
                assert game.shown[3, 3] == 0
    assert lost["safe"] == lost["zero"] == lost["winxp"] == 0
    assert 60 < lost["none"] < 130  # 30 of 64 cells: about 94 of 200
    game = Game(Level(16, 30, 99), "open", 7)  # xdemineur: the game opens a 0's area itself
    assert game.status == "playing" and (game.shown == 0).any() and game.clicks == 0
