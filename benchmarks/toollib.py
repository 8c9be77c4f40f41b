"""Side by side, in one process, on the same positions: `bot.solve` vs ms_toollib.

ms_toollib (PyPI, a Rust core; `cal_probability_onboard` is a port of the JSMinesweeper
probability engine) is the fastest public exact solver we know of. It is a benchmark-only
dependency: `pip install ms_toollib`. Positions are real mid-game boards: games on the simulator
played by the bot's own advice (no flags put), taken where nothing was proven and a guess was
needed. For each one this prints the time of `bot.solve` (the whole library call: parsing, the
SAT core, exact odds, the guess and its look-ahead, which counts the odds again for every number
a candidate could show), of the part ms_toollib also does (forced cells and exact odds, nothing
remembered between positions), and of ms_toollib's probabilities, and the largest difference
between their probabilities over covered cells.

    python3 -m benchmarks.toollib --level expert --positions 200
    python3 -m benchmarks.toollib --level 100x100x2000 --positions 10 --memory
    python3 -m benchmarks.toollib --level 100x100x2000 --positions 6 --clicks random

`--clicks random`: positions made by opening random safe cells until 30 to 60 % of the board is
open (no flags), as a player clicking all over a big board would leave them: frontiers of
thousands of cells in one component, mostly proven cells.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc

import numpy as np

import bot
from bot.board import format_grid
from bot.games.bench import game_seed
from bot.games.simulator import Game, opened_at_random, parse_level
from bot.solver import probability
from bot.solver.advice import advise
from bot.solver.rules import build_problem, fix
from bot.solver.sat import SatCore

TOOLLIB_COVERED = 10  # ms_toollib's code for a covered cell; 0..8 are numbers


def positions(level, count: int, seed: int, every: int = 1):
    """Boards where the bot had to guess, from games it played; `every` keeps one in that many."""
    out, i, seen = [], 0, 0
    while len(out) < count:
        game = Game(level, "safe", game_seed(seed, i))
        i += 1
        while game.status == "playing" and len(out) < count:
            board = game.board()
            advice = advise(board, odds=False)
            if advice.safe:
                for c in sorted(advice.safe):
                    game.open(c)
                continue
            if (board.cells >= 0).any():
                if seen % every == 0:
                    out.append(board)
                seen += 1
            advice = advise(board)
            if advice.guess is None:
                break
            game.open(advice.guess)
    return out


def random_positions(level, count: int, seed: int):
    """Boards opened by random safe clicks until 30, 40, 50 or 60 % of the cells show (in turn)."""
    return [opened_at_random(level, game_seed(seed, i), 0.3 + 0.1 * (i % 4)).board() for i in range(count)]


def toollib_grid(board) -> list[list[int]]:
    return np.where(board.cells >= 0, board.cells, TOOLLIB_COVERED).astype(int).tolist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", help="beginner, intermediate, expert or RxCxM (default expert)")
    parser.add_argument("--positions", type=int, default=100, help="positions to time (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    parser.add_argument("--every", type=int, default=1, help="keep one guess position in this many (default 1)")
    parser.add_argument("--memory", action="store_true", help="also the peak memory of bot.solve (tracemalloc)")
    parser.add_argument("--clicks", choices=["bot", "random"], default="bot",
                        help="positions where the bot had to guess (default), or opened by random safe clicks")
    args = parser.parse_args()
    try:
        import ms_toollib
    except ImportError:
        sys.exit("benchmarks.toollib: needs ms_toollib (pip install ms_toollib), a benchmark-only dependency")
    level = parse_level(args.level)
    if args.clicks == "random":
        boards = random_positions(level, args.positions, args.seed)
    else:
        boards = positions(level, args.positions, args.seed, args.every)
    ours, odds, theirs, worst, peaks, inexact = [], [], [], 0.0, [], 0
    for board in boards:
        text, grid = format_grid(board), toollib_grid(board)
        t0 = time.perf_counter()
        answer = bot.solve(text, board.mines)
        t1 = time.perf_counter()
        inexact += bool(answer["approximate"])
        probs, _ = ms_toollib.cal_probability_onboard(grid, board.mines)
        t2 = time.perf_counter()
        probability._MEMO.clear()  # (what ms_toollib computes: forced cells and odds, nothing remembered)
        problem = build_problem(board)
        with SatCore(problem) as core:
            safe, mines = core.forced()
        probability.probabilities(fix(problem, mines, safe))
        t3 = time.perf_counter()
        ours.append(t1 - t0)
        theirs.append(t2 - t1)
        odds.append(t3 - t2)
        covered = board.covered()
        mine = np.array([[np.nan if p is None else p for p in row] for row in answer["probability"]])
        worst = max(worst, float(np.abs(mine - np.array(probs))[covered].max()))
        if args.memory:
            tracemalloc.start()
            bot.solve(text, board.mines)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
    ours_ms, theirs_ms, odds_ms = np.array(ours) * 1000, np.array(theirs) * 1000, np.array(odds) * 1000
    where = "random-click positions" if args.clicks == "random" else "guess positions from games the bot played"
    print(f"{level.rows}x{level.cols}/{level.mines}: {len(boards)} {where} "
          f"(seed {args.seed}), ms_toollib {ms_toollib.__version__ if hasattr(ms_toollib, '__version__') else ''}")
    for name, ms in (("bot.solve ", ours_ms), ("odds only ", odds_ms), ("ms_toollib", theirs_ms)):
        print(f"  {name}: total {ms.sum():9.1f} ms  median {np.median(ms):8.2f} ms  max {ms.max():9.1f} ms")
    for name, ms in (("bot.solve", ours_ms), ("odds only (SAT forced cells + exact odds)", odds_ms)):
        ratio = ms / theirs_ms
        print(f"  ratio {name} / ms_toollib: total {ms.sum() / theirs_ms.sum():.2f}x, "
              f"median per position {np.median(ratio):.2f}x, worst position {ratio.max():.1f}x "
              f"({int((ratio > 10).sum())} over 10x)")
    print(f"  largest probability difference on a covered cell: {worst:.1e}; "
          f"bot.solve approximate (past its 5 s deadline) on {inexact} of {len(boards)}")
    if peaks:
        print(f"  peak memory of bot.solve (tracemalloc): max {max(peaks) / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
