"""Unavoidable 50/50 chains (bot.solver.chains): found where nothing can split them, and only there."""

from __future__ import annotations

import math

import numpy as np

from bot.board import parse_grid
from bot.games import bench
from bot.games.simulator import Game, parse_level
from bot.solver import chains, guess
from bot.solver.advice import Advice
from bot.solver.policy import Policy
from bot.solver.probability import log_count, probabilities
from bot.solver.rules import Problem, Rule, build_problem, fix

# Two Expert positions the bot met (simulated games, seed 8): a chain of two links down the left
# edge (the 2s and 4s beside it see one cell of each way), and a 2 x 2 square with its mines on a
# diagonal; both boards have other, safer cells to guess.
LEFT_EDGE = """
0111011101F22FF3F100111002F200
13F201F10112F45F32111F2112F211
??F2011101233F3F32F1123F33211F
2432001233FF22322F2101F3FF1122
??F2002FFF4311F1111001245432F2
2FF2114F54F201110000001FFF3F3F
12211F3F44F2000001110124FF3121
00002232FF33210112F102F4442111
11001F11333FF201F21102F3FF22F2
F31111212F23F20111111112222F4F
F3F1001F32112321013F200000224F
12121223F1001FF211FF3112223F31
0001F2F21100123F1124F21FF3FF31
12232312110000111014F31234F4??
3FF3F101F1000011101FF4101F3???
FF4F21011100001F1013FF10112???
"""
SQUARE = """
12210113F3100011100001?????210
1FF211F4FF21101F332223??3??F20
123F112F433F2013FFF2FF212F4F20
01221123F12F2113F4333321113220
23F101F2222111F3232F11F1124F31
FF3322112F211212F3F211111FFF3F
222FF2102F32F2133F321111123221
01233F1012F212F3F32F22F1001110
12F1222001221113F212F211012F10
2F432F10113F32221101221001F210
F3FF32212F3F4FF111212F10012221
1223F12F3233??421F2F3221113F3F
1112213F32F4??F21133F11F23FF31
F21F102F22FF23F3101F2112F3F310
F21122322243212F21111001132200
11001FF11F2F1012F100000001F100
"""


def proven_mines(problem: Problem) -> frozenset:
    return frozenset(c for c, p in probabilities(problem).cells.items() if p > 1 - 1e-12)


def assert_a_fair_coin(problem: Problem, one: frozenset, other: frozenset) -> None:
    """Each way holds in exactly half the layouts (so every layout is one of the two)."""
    total = log_count(problem)
    assert math.isclose(log_count(fix(problem, one, other)), total - math.log(2), abs_tol=1e-9)
    assert math.isclose(log_count(fix(problem, other, one)), total - math.log(2), abs_tol=1e-9)


def test_a_chain_down_the_edge_and_a_diagonal_square_are_found_and_guessed_first() -> None:
    for grid, ways in ((LEFT_EDGE, ({(2, 0), (4, 1)}, {(2, 1), (4, 0)})),
                       (SQUARE, ({(11, 12), (12, 13)}, {(11, 13), (12, 12)}))):
        board = parse_grid(grid, mines=99)
        problem = build_problem(board)
        mines = proven_mines(problem)
        assert chains.unavoidable_pairs(problem, mines) == []  # (the lone-pair rule misses both)
        found = chains.unavoidable_chains(problem, mines)
        assert [set(map(frozenset, f)) for f in found] == [set(map(frozenset, ways))]
        assert_a_fair_coin(problem, *found[0])
        log_layouts = probabilities(problem).log_layouts
        grid = _grid(board, problem)
        before = guess.choose_guess(board, problem, grid, mines, log_layouts, policy=Policy(chains=False))
        after = guess.choose_guess(board, problem, grid, mines, log_layouts)
        assert before not in ways[0] | ways[1] and after in ways[0] | ways[1]


def _grid(board, problem: Problem) -> np.ndarray:
    grid = np.full(board.shape, np.nan)
    for cell, p in probabilities(problem).cells.items():
        grid[cell] = p
    return grid


def test_an_unknown_cell_that_sees_one_way_only_may_still_split_the_chain() -> None:
    pair = ((0, 0), (0, 1))
    rules = (Rule(pair, 1, (1, 0)), Rule(pair, 1, (1, 1)))
    open_side = Problem((2, 3), pair, ((1, 2),), rules, 1)  # (1, 2) touches (0, 1) only
    assert chains.unavoidable_chains(open_side, frozenset()) == []
    assert chains.unavoidable_chains(open_side, frozenset({(1, 2)})) == [(frozenset({(0, 0)}), frozenset({(0, 1)}))]
    # Unknown cells touching both cells of the pair learn nothing about it: still a coin.
    both = Problem((2, 2), pair, ((1, 0), (1, 1)), (Rule(pair, 1, (9, 9)),), 2)
    assert chains.unavoidable_chains(both, frozenset()) == [(frozenset({(0, 0)}), frozenset({(0, 1)}))]


def test_every_chain_met_in_simulated_games_is_a_fair_coin() -> None:
    """On the positions where the bot guesses in Expert games: every chain found holds its two
    ways in exactly half the layouts each."""
    level = parse_level("expert")
    met = 0

    def check(game: Game, advice: Advice) -> None:
        nonlocal met
        if not game.placed:
            return None
        problem = build_problem(game.board())
        mines = proven_mines(problem)
        for one, other in chains.unavoidable_chains(problem, mines):
            assert_a_fair_coin(problem, one, other)
            met += 1
        return None

    for index in range(150):
        bench.play_game(level, "safe", bench.game_seed(8, index), before_guess=check)
    assert met >= 5, met
