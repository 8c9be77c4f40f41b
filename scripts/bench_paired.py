#!/usr/bin/env python3
"""Paired games: the current guess against a variant of it, on the same boards, so that only
games whose decisions differ can differ in result (far less noise than two separate runs).

    python3 scripts/bench_paired.py --level intermediate --games 10000 --variant no-fifty
    python3 scripts/bench_paired.py --level expert --games 3000 --seed 43 --variant slack=0.03,depth=6
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import bench, guess
from bot.simulator import parse_level


def apply(variant: str) -> None:
    """no-fifty: unavoidable 50/50s wait their turn; slack=S,depth=D: a narrower or wider look."""
    if variant == "no-fifty":
        guess._unavoidable_pair = lambda *_: None
        return
    values = dict(part.split("=") for part in variant.split(","))
    guess.SLACK = float(values.get("slack", guess.SLACK))
    guess.DEPTH_CANDIDATES = int(values.get("depth", guess.DEPTH_CANDIDATES))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--variant", default="no-fifty", help="no-fifty, or slack=S,depth=D")
    args = parser.parse_args()
    level = parse_level(args.level)
    current = [bench.play_game(level, "safe", bench.game_seed(args.seed, i)).won for i in range(args.games)]
    apply(args.variant)
    variant = [bench.play_game(level, "safe", bench.game_seed(args.seed, i)).won for i in range(args.games)]
    only_current = sum(c and not v for c, v in zip(current, variant))
    only_variant = sum(v and not c for c, v in zip(current, variant))
    print(f"{args.level}: {args.games} paired games; current {sum(current)} won, {args.variant} {sum(variant)}; "
          f"won only by current {only_current}, only by {args.variant} {only_variant}")


if __name__ == "__main__":
    main()
