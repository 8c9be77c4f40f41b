"""Command line: parse arguments, call the library, map errors to exit codes.

Everything a command does is a library call; this module only translates.  A user's
mistake (bad grid, unknown level, unreadable image) is one line on stderr and exit 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from enum import IntEnum

from bot.errors import BotError


class Exit(IntEnum):
    OK = 0
    FAILED = 1  # the job ran but did not succeed (e.g. a game loop stopped safely)
    BAD_INPUT = 2  # the user's input cannot be used
    INTERRUPTED = 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Minesweeper bot: solve, benchmark, see, play.")
    sub = parser.add_subparsers(dest="command", required=True)

    solve = sub.add_parser("solve", help="forced cells, probabilities and the best move for a text grid")
    solve.add_argument("file", help="text grid file, or - for standard input")
    solve.add_argument("--mines", type=int, default=None, help="total mines on the board (default: not assumed)")
    solve.add_argument("--rules", choices=("safe", "winxp", "zero"), default="safe", help="first-click rule")
    solve.add_argument("--json", action="store_true", help="print one JSON object")

    bench = sub.add_parser("bench", help="play simulated games and print win rate and speed")
    bench.add_argument("--level", default="beginner", help="beginner, intermediate, expert or RxCxM")
    bench.add_argument("--rules", choices=("safe", "winxp", "zero"), default="safe")
    bench.add_argument("--games", type=int, default=1000)
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--jobs", type=int, default=1)
    bench.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(COMMANDS[args.command](args))
    except BotError as err:
        print(f"error: {err}", file=sys.stderr)
        return Exit.BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return Exit.INTERRUPTED


def cmd_solve(args: argparse.Namespace) -> Exit:
    from bot.advice import advise
    from bot.board import parse_grid
    from bot.report import advice_dict, advice_text, to_json

    text = _read_text(args.file)
    board = parse_grid(text, args.mines)
    advice = advise(board, args.rules)
    print(to_json(advice_dict(board, advice)) if args.json else advice_text(board, advice))
    return Exit.OK


def cmd_bench(args: argparse.Namespace) -> Exit:
    from bot import bench
    from bot.report import to_json
    from bot.simulator import parse_level

    level = parse_level(args.level)
    if args.games < 1 or args.jobs < 1:
        raise BotError(f"--games and --jobs must be at least 1, got {args.games!r} and {args.jobs!r}")
    result = bench.run(level, args.rules, args.games, args.seed, args.jobs, bench.progress_bar)
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


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise BotError(f"cannot read grid file {path!r}: {err}") from err


COMMANDS = {"solve": cmd_solve, "bench": cmd_bench}
