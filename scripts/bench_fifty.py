#!/usr/bin/env python3
"""Paired games with and without taking unavoidable 50/50s at once: the same boards, so only
the games whose decisions differ can differ in result.

    python3 scripts/bench_fifty.py --level intermediate --games 10000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import bench, guess
from bot.simulator import parse_level


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    level = parse_level(args.level)
    rule = guess._unavoidable_pair
    won = {}
    for name, pair in (("without", lambda *_: None), ("with", rule)):
        guess._unavoidable_pair = pair
        won[name] = [bench.play_game(level, "safe", bench.game_seed(args.seed, i)).won for i in range(args.games)]
    guess._unavoidable_pair = rule
    only_with = sum(w and not o for o, w in zip(won["without"], won["with"]))
    only_without = sum(o and not w for o, w in zip(won["without"], won["with"]))
    print(f"{args.level}: {args.games} paired games; won without {sum(won['without'])}, with {sum(won['with'])}; "
          f"won only with {only_with}, only without {only_without}")


if __name__ == "__main__":
    main()
