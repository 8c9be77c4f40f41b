#!/usr/bin/env python3
"""What the endgame search adds: play games with the secondary-safety guess alone and, at every
guess where the search applies, compare the exact chance to win of its pick with that of the
guess actually played (both with best play after it).

    python3 scripts/bench_endgame.py --level beginner --games 3000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import bench
from bot.games.simulator import Game, parse_level
from bot.solver import endgame, guess
from bot.solver.advice import Advice
from bot.solver.rules import build_problem


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    level = parse_level(args.level)
    guess.MAX_LAYOUTS = 1e-300  # play with the secondary-safety guess only
    gains: list[float] = []
    counts = {"positions": 0, "worse": 0}

    def compare(game: Game, advice: Advice) -> None:
        problem = build_problem(game.board())
        best = endgame.best_guess(problem)
        played = endgame.best_guess(problem, [advice.guess]) if best is not None else None
        if best is not None and played is not None:
            counts["positions"] += 1
            counts["worse"] += best[1] < played[1] - 1e-12
            gains[-1] += best[1] - played[1]

    for i in range(args.games):
        gains.append(0.0)
        bench.play_game(level, "safe", bench.game_seed(args.seed, i), compare)
    positions, worse = counts["positions"], counts["worse"]
    print(f"{args.level}: {args.games} games, {positions} endgame positions, exact chance to win gained "
          f"{100 * float(np.mean(gains)):.4f} points a game on average; search pick worse at {worse}")


if __name__ == "__main__":
    main()
