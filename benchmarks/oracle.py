"""Paired games against another solver's guesses: on the same boards, the bot plays alone, then
with the other solver choosing every guess (or only the guesses of some kinds), so that only the
guesses decide the difference. It says how often the two disagree, and where.

    python3 -m benchmarks.oracle --oracle "java -cp DIR Driver" --level expert --games 10000 --jobs 2
    python3 -m benchmarks.oracle --oracle "..." --take FF,IF,FI      # not when both are interior
    python3 -m benchmarks.oracle --oracle "..." --seed 2027 --start 20000 --games 10000  # a slice
    python3 -m benchmarks.oracle --oracle "..." --covered 400:480   # only early in the game

The other solver runs as a process of its own (one per worker) speaking a line protocol on its
standard input and output: for each guessing position the bot writes `cols rows MINES;OPEN` (cell
indices row * cols + col, comma-separated: where every mine lies and which cells are open), and
reads back `row col`, or `none` (any other line is skipped). The mines are given only because some
solvers load a position as a whole game; a fair solver reads nothing but the open cells. Safe cells
and mines are the bot's own throughout: only the guess changes.

Kinds of guess (`--take`): two letters, the bot's cell then the other's, F a cell next to an open
one, I one that is not (II is mostly a choice between cells alike by symmetry, such as two far
corners); a third character `-`, `=` or `+` narrows it to where the other's cell is less safe, as
safe, or safer by the bot's odds. `--covered A:B` takes them only where A to B-1 cells are still
covered (the game's phase: on Expert, 400:480 is the start).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
from collections import Counter
from multiprocessing import get_context

import numpy as np

from benchmarks.paired import sign_test
from bot.board import UNOPENED, Cell, around_count
from bot.games import bench
from bot.games.simulator import Game, Level, parse_level
from bot.solver.advice import Advice

_process: subprocess.Popen | None = None


def _ask(command: str, game: Game) -> Cell | None:
    """The other solver's guess in this game, or None where it has none."""
    global _process
    if _process is None:  # one per worker process, started on its first question
        _process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, bufsize=1)
    rows, cols = game.shape
    mines = ",".join(map(str, np.flatnonzero(game.mine.ravel())))
    opened = ",".join(map(str, np.flatnonzero((game.shown >= 0).ravel())))
    assert _process.stdin is not None and _process.stdout is not None
    _process.stdin.write(f"{cols} {rows} {mines};{opened}\n")
    _process.stdin.flush()
    while True:
        line = _process.stdout.readline()
        if not line:
            raise RuntimeError(f"the other solver stopped ({command})")
        words = line.split()
        if words == ["none"]:
            return None
        if len(words) == 2 and all(w.isdigit() for w in words):
            cell = (int(words[0]), int(words[1]))
            return cell if cell[0] < rows and cell[1] < cols and game.shown[cell] == UNOPENED else None


def kind(game: Game, ours: Cell, theirs: Cell, odds: np.ndarray) -> str:
    """The disagreement's kind: FF, FI, IF or II, then -, = or + (the other's cell less safe,
    as safe, safer)."""
    near = around_count(game.shown >= 0) > 0
    gap = float(odds[theirs] - odds[ours])
    return ("F" if near[ours] else "I") + ("F" if near[theirs] else "I") + (
        "-" if gap > 1e-9 else "+" if gap < -1e-9 else "=")


def _game(task: tuple[Level, int, int, str, str | None, range]) -> tuple[bool, bool, Counter]:
    level, seed, index, command, take, covered = task
    alone = bench.play_game(level, "safe", bench.game_seed(seed, index)).won
    kinds: Counter = Counter()

    def other(game: Game, advice: Advice) -> Cell | None:
        if not game.placed or advice.guess is None or advice.probability is None:
            return None  # (the first click: there is no position to ask about yet)
        if int((game.shown == UNOPENED).sum()) not in covered:
            return None
        theirs = _ask(command, game)
        if theirs is None or theirs == advice.guess:
            return None
        k = kind(game, advice.guess, theirs, advice.probability)
        kinds[k] += 1
        return theirs if take is None or k[:2] in take or k in take else None

    helped = bench.play_game(level, "safe", bench.game_seed(seed, index), before_guess=other).won
    return alone, helped, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oracle", required=True, help="the other solver's command line")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--start", type=int, default=0,
                        help="the first board's index in the seed's sequence: a long set played in slices")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--take", default=None,
                        help="kinds of guess to take from it (FF,IF,FI,II, FF-...); all if unset")
    parser.add_argument("--covered", default=None, metavar="A:B",
                        help="take its guesses only where A to B-1 cells are still covered")
    args = parser.parse_args()
    take = None if args.take is None else set(args.take.split(","))
    level = parse_level(args.level)
    try:
        low, high = (int(n) for n in args.covered.split(":")) if args.covered else (0, level.rows * level.cols + 1)
    except ValueError:
        parser.error(f"--covered takes A:B, two whole numbers (got {args.covered!r})")
    covered = range(low, high)
    tasks = [(level, args.seed, i, args.oracle, take, covered) for i in range(args.start, args.start + args.games)]
    if args.jobs <= 1:
        results = list(map(_game, tasks))
    else:
        with get_context("fork").Pool(args.jobs) as pool:
            results = list(pool.imap(_game, tasks, chunksize=10))
    alone = sum(r[0] for r in results)
    helped = sum(r[1] for r in results)
    only_alone = sum(a and not h for a, h, _ in results)
    only_helped = sum(h and not a for a, h, _ in results)
    kinds: Counter = sum((r[2] for r in results), Counter())
    boards = f"boards {args.start} to {args.start + args.games - 1}" if args.start else f"{args.games} boards"
    which = (args.take or "all") + (f", covered {args.covered}" if args.covered else "")
    print(f"{args.level}, safe rule, {boards} (seed {args.seed}): the bot alone won {alone}, "
          f"with the other's guesses ({which}) {helped}; "
          f"won only alone {only_alone}, only with them {only_helped}")
    if only_alone + only_helped:
        print(sign_test(only_helped, only_alone))
    print("disagreements (bot's cell, other's cell; other's less safe -, as safe =, safer +): "
          + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
