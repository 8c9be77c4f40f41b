"""Does taking unavoidable 50/50s at once change anything but the coin? Play the same boards with
and without the rule, and in both take the coin out: a guess into a pair known to be unavoidable
opens that pair's safe cell. What is left is how the rest of each game is played; a win counted
here is a win of the real game half the time, with or without the rule.

    python3 -m benchmarks.fifty --level expert --games 5000 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
from multiprocessing import get_context

from bot.board import Cell
from bot.games import bench
from bot.games.simulator import Game, Level, parse_level
from bot.solver.advice import Advice
from bot.solver.chains import unavoidable_pairs
from bot.solver.policy import Policy
from bot.solver.rules import build_problem


def _play(task: tuple[Level, int, int, bool]) -> tuple[bool, bool]:
    """(won with the coin taken out, met an unavoidable pair); pairs taken at once or not."""
    level, seed, index, at_once = task
    pairs: list[frozenset[Cell]] = []

    def no_coin(game: Game, advice: Advice) -> Cell | None:
        for pair in unavoidable_pairs(build_problem(game.board()), advice.mines):  # unavoidable stays so
            if pair not in pairs:
                pairs.append(pair)
        for pair in pairs:
            if advice.guess in pair:
                return next(cell for cell in pair if not game.mine[cell])
        return None

    record = bench.play_game(level, "safe", bench.game_seed(seed, index), no_coin, policy=Policy(pairs=at_once))
    return record.won, bool(pairs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    level = parse_level(args.level)
    results = {}
    for at_once in (True, False):
        tasks = [(level, args.seed, i, at_once) for i in range(args.games)]
        with get_context().Pool(max(1, args.jobs)) as pool:
            results[at_once] = pool.map(_play, tasks, chunksize=20)
    rule, later = results[True], results[False]
    only_rule = sum(a[0] and not b[0] for a, b in zip(rule, later))
    only_later = sum(b[0] and not a[0] for a, b in zip(rule, later))
    print(f"{args.level}: {args.games} games, {sum(b[1] for b in later)} met an unavoidable 50/50; coin taken out: "
          f"at once {sum(a[0] for a in rule)} won, when the guess gets there {sum(b[0] for b in later)}; "
          f"won only at once {only_rule}, only later {only_later}")


if __name__ == "__main__":
    main()
