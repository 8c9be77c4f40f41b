"""`bench`: simulated games played and summarised, here or on a cluster."""

from __future__ import annotations

import argparse

from bot.commands.common import Exit
from bot.errors import BotError


def cmd_bench(args: argparse.Namespace) -> Exit:
    from bot.games import bench
    from bot.games.engines import DaskCluster, Processes
    from bot.games.simulator import parse_level
    from bot.report import to_json

    level = parse_level(args.level)
    if args.games < 1 or args.jobs < 1:
        raise BotError(f"--games and --jobs must be at least 1, got {args.games!r} and {args.jobs!r}")
    if args.cluster is None:
        engine = Processes(args.jobs)
    else:
        engine = DaskCluster(None if args.cluster == "local" else args.cluster, workers=args.jobs)
    result = bench.run(level, args.rules, args.games, args.seed, progress=bench.progress_bar, engine=engine,
                       results=args.results)
    if args.json:
        print(to_json(result))
    else:
        print(
            f"{level.name} ({level.rows}x{level.cols}, {level.mines} mines), rule {args.rules}, "
            f"{result['games']} games, seed {args.seed}\n"
            f"win rate      {result['win_rate']:.2%}  (95% CI {result['ci_low']:.2%} .. {result['ci_high']:.2%})\n"
            f"speed         {result['games_per_s']:.1f} games/s per process\n"
            f"decision      p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, "
            f"max {result['max_ms']:.1f} ms\n"
            f"per game      {result['guesses_per_game']:.2f} guesses, mean 3BV {result['mean_3bv']:.1f}"
        )
    return Exit.OK
