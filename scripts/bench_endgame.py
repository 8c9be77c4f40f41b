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

from bot import bench, endgame, guess
from bot.advice import advise
from bot.board import FLAG
from bot.rules import build_problem
from bot.simulator import Game, parse_level


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    level = parse_level(args.level)
    guess.MAX_LAYOUTS = 1e-300  # play with the secondary-safety guess only
    gains, positions, worse = [], 0, 0
    for i in range(args.games):
        game = Game(level, "safe", bench.game_seed(args.seed, i))
        gain = 0.0
        while game.status == "playing":
            board = game.board()
            advice = advise(board, "safe", odds=False)
            for cell in advice.mines:
                if board.cells[cell] != FLAG:
                    game.flag(cell)
            if advice.safe:
                for cell in sorted(advice.safe):
                    game.open(cell)
                continue
            if advice.guess is None:
                break
            problem = build_problem(game.board())
            best = endgame.best_guess(problem)
            played = endgame.best_guess(problem, [advice.guess]) if best is not None else None
            if best is not None and played is not None:
                positions += 1
                gain += best[1] - played[1]
                worse += best[1] < played[1] - 1e-12
            game.open(advice.guess)
        gains.append(gain)
    print(f"{args.level}: {args.games} games, {positions} endgame positions, exact chance to win gained "
          f"{100 * float(np.mean(gains)):.4f} points a game on average; search pick worse at {worse}")


if __name__ == "__main__":
    main()
