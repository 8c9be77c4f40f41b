"""What the endgame search adds: play games and, at every guess where a search applies, compare
the exact chance to win of its pick with that of the guess played (both with best play after).

    python3 -m benchmarks.endgame --level beginner --games 3000
    python3 -m benchmarks.endgame --level expert --games 5000 --seed 2027 \
        --layouts 200:1000 --nodes 60000 --own-nodes 5000

Without `--layouts` the bot plays with the secondary-safety guess alone, and the search as it is
judges that guess. With `--layouts A:B` the bot plays with its search taking up to A layouts (and
`--own-nodes` positions), and a larger search (up to B layouts, `--nodes` positions) is judged
where only it applies: more than A layouts, at most B. Each pick is valued by a search without
limits, so the figure is the exact gain in wins that the larger search would bring on these
positions, free of the luck of the games (a paired run of whole games cannot see a gain this rare).
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import get_context

import numpy as np

from bot.games import bench
from bot.games.simulator import Game, Level, parse_level
from bot.solver import endgame
from bot.solver.advice import Advice
from bot.solver.policy import Policy
from bot.solver.rules import build_problem

UNLIMITED = {"limit": 10**6, "nodes_limit": 10**9}  # the search that values the picks


def _larger(task: tuple[Level, int, int, int, int, int, int]) -> dict[str, float]:
    """One game played by the bot with the smaller search; at each position only the larger search
    takes, the exact chance its pick gains over the bot's."""
    level, seed, index, low, high, nodes, own_nodes = task
    policy = Policy(max_layouts=low, nodes=own_nodes)  # (0 layouts: the bot plays without its search)
    tally = {"positions": 0, "solved": 0, "changed": 0, "worse": 0, "gain": 0.0, "seconds": 0.0, "slowest": 0.0}

    def judge(game: Game, advice: Advice) -> None:
        problem = build_problem(game.board())
        try:
            count = len(endgame.layouts(problem, limit=high)[1])
        except endgame.TooBig:
            return
        if count <= low:
            return
        tally["positions"] += 1
        start = time.perf_counter()
        pick = endgame.best_guess(problem, limit=high, nodes_limit=nodes)
        took = time.perf_counter() - start
        tally["seconds"] += took
        tally["slowest"] = max(tally["slowest"], took)
        if pick is not None:
            tally["solved"] += 1
            if pick[0] != advice.guess:
                played = endgame.best_guess(problem, [advice.guess], **UNLIMITED)
                tally["changed"] += 1
                tally["gain"] += pick[1] - played[1]
                tally["worse"] += pick[1] < played[1] - 1e-12

    bench.play_game(level, "safe", bench.game_seed(seed, index), judge, policy=policy)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--start", type=int, default=0, help="the first board's index in the seed's sequence")
    parser.add_argument("--layouts", default=None, metavar="A:B",
                        help="judge a search up to B layouts where the bot's (up to A) does not apply")
    parser.add_argument("--nodes", type=int, default=endgame.NODES, help="the larger search's positions")
    parser.add_argument("--own-nodes", type=int, default=endgame.NODES, help="the bot's own search's positions")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    level = parse_level(args.level)
    if args.layouts is not None:
        try:
            low, high = (int(n) for n in args.layouts.split(":"))
        except ValueError:
            parser.error(f"--layouts takes A:B, two whole numbers (got {args.layouts!r})")
        boards = range(args.start, args.start + args.games)
        tasks = [(level, args.seed, i, low, high, args.nodes, args.own_nodes) for i in boards]
        if args.jobs <= 1:
            tallies = list(map(_larger, tasks))
        else:
            with get_context("fork").Pool(args.jobs) as pool:
                tallies = list(pool.imap_unordered(_larger, tasks, chunksize=10))
        total = {k: sum(t[k] for t in tallies) for k in tallies[0] if k != "slowest"}
        slowest = max(t["slowest"] for t in tallies)
        print(f"{args.level}, boards {args.start} to {args.start + args.games - 1} (seed {args.seed}): "
              f"{total['positions']} positions with {low} < layouts <= {high}; the search ({high} layouts, "
              f"{args.nodes} positions) finished {total['solved']}, picked another cell at {total['changed']} "
              f"(a worse one at {total['worse']}); exact wins gained {total['gain']:.3f} "
              f"({1000 * total['gain'] / args.games:.3f} a thousand games); search time {total['seconds']:.1f} s "
              f"in all, {1000 * total['seconds'] / args.games:.1f} ms a game, slowest {slowest:.2f} s")
        return
    alone = Policy(max_layouts=0)  # play with the secondary-safety guess only
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
        bench.play_game(level, "safe", bench.game_seed(args.seed, i), compare, policy=alone)
    positions, worse = counts["positions"], counts["worse"]
    print(f"{args.level}: {args.games} games, {positions} endgame positions, exact chance to win gained "
          f"{100 * float(np.mean(gains)):.4f} points a game on average; search pick worse at {worse}")


if __name__ == "__main__":
    main()
