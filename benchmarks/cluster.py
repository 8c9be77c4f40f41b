"""The same games played by each engine (bot.games.engines): this machine's processes and a local
Dask cluster, with 1 and 2 workers each. Prints the wall-clock games a second of each and
whether every engine's totals are the same (they must be: a game depends on its seed alone).

    python3 -m benchmarks.cluster --level expert --games 2000 --seed 1
    python3 -m benchmarks.cluster --level expert --games 2000 --address tcp://scheduler:8786
"""

from __future__ import annotations

import argparse
import time

from bot.games import bench
from bot.games.engines import DaskCluster, Processes
from bot.games.simulator import parse_level

KEYS = ("games", "wins", "guesses_per_game", "mean_3bv", "decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="1,2", help="worker counts to try, comma-separated")
    parser.add_argument("--address", default=None, help="also a running cluster's scheduler")
    args = parser.parse_args()
    level = parse_level(args.level)
    counts = [int(n) for n in args.workers.split(",")]
    engines = [(f"--jobs {n}", lambda n=n: Processes(n)) for n in counts]
    engines += [(f"--cluster --jobs {n}", lambda n=n: DaskCluster(None, n)) for n in counts]
    if args.address:
        engines.append((f"--cluster {args.address}", lambda: DaskCluster(args.address)))
    first = None
    for name, make in engines:
        engine = make()
        start = time.perf_counter()
        result = bench.run(level, "safe", args.games, args.seed, engine=engine)  # (a cluster's start counted)
        seconds = time.perf_counter() - start
        totals = {k: result[k] for k in KEYS}
        first = first or totals
        print(f"{args.level}, {args.games} games, seed {args.seed}, {name}: {args.games / seconds:.1f} games/s "
              f"({seconds:.1f} s wall), {result['wins']} won; totals {'the same' if totals == first else 'DIFFER'}",
              flush=True)


if __name__ == "__main__":
    main()
