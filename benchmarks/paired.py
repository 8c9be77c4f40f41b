"""Paired games: the current guess against a variant of it, on the same boards, so that only
games whose decisions differ can differ in result (far less noise than two separate runs).

    python3 -m benchmarks.paired --level intermediate --games 10000 --variant no-fifty
    python3 -m benchmarks.paired --level expert --games 20000 --seed 1 --jobs 2 --variant no-fifty
    python3 -m benchmarks.paired --level 16x16x40 --rules zero --games 1000 --variant no-total
    python3 -m benchmarks.paired --level expert --games 20000 --jobs 2 --variant chains=0 --variant cutoff=0.85

Several variants are each compared with one run of the current guess (played once).
"""

from __future__ import annotations

import argparse
import math
import sys

from bot.errors import BotError
from bot.games.engines import DaskCluster, Games, Processes
from bot.games.simulator import RULES, parse_level
from bot.solver.policy import PLAY, Policy

#: The short names earlier runs used (docs/experiments.md), for the Policy's settings.
ALIASES = {"inner": "interior", "ltr": "long_term", "ltrw": "long_term_weight", "layouts": "max_layouts",
           "fifty": "pairs"}


def variant(name: str) -> tuple[Policy, bool]:
    """A variant's policy, and whether the mine total is told. no-fifty: unavoidable 50/50 pairs
    wait their turn; no-total: the mine total is never told (a game with no counter to read); else
    K=V pairs over the current policy (bot.solver.policy.Policy's settings, or ALIASES)."""
    if name == "no-fifty":
        return Policy(pairs=False), True
    if name == "no-total":
        return PLAY, False
    parts = []
    for part in name.split(","):
        key, _, value = part.partition("=")
        parts.append(f"{ALIASES.get(key, key)}={value}")
    return PLAY.with_settings(",".join(parts)), True


def play(level, rule: str, seed: int, games: int, engine, policy: Policy = PLAY, told: bool = True) -> list[bool]:
    """Results in game order, from any engine (bot.games.engines): the policy travels with each task."""
    won = [False] * games
    for index, record in engine.play(Games(level, rule, seed, policy, told), range(games)):
        won[index] = record.won
    return won


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--variant", action="append",
                        help="no-fifty, no-total, or K=V,... (see variant); several: each against the same current run")
    parser.add_argument("--jobs", type=int, default=1, help="processes (with --cluster alone: its workers)")
    parser.add_argument("--cluster", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="play on a Dask cluster: its scheduler's address, or none for a local one")
    parser.add_argument("--rules", choices=RULES, default="safe", help="the first-click rule")
    args = parser.parse_args()
    level = parse_level(args.level)
    names = args.variant or ["no-fifty"]
    try:
        variants = [variant(name) for name in names]  # (all checked before any game is played)
    except BotError as err:
        parser.error(str(err))
    try:
        if args.cluster is None:
            engine = Processes(args.jobs)
        else:
            engine = DaskCluster(None if args.cluster == "local" else args.cluster, workers=args.jobs)
        with engine:
            current = play(level, args.rules, args.seed, args.games, engine)
            for name, (policy, told) in zip(names, variants):
                other = play(level, args.rules, args.seed, args.games, engine, policy, told)
                report(args.level, args.games, name, current, other)
    except BotError as err:
        sys.exit(f"error: {err}")


def report(level: str, games: int, name: str, current: list[bool], other: list[bool]) -> None:
    only_current = sum(c and not v for c, v in zip(current, other))
    only_variant = sum(v and not c for c, v in zip(current, other))
    print(f"{level}: {games} paired games; current {sum(current)} won, {name} {sum(other)}; "
          f"won only by current {only_current}, only by {name} {only_variant}", flush=True)
    if only_current + only_variant:
        print(sign_test(only_current, only_variant), flush=True)


def sign_test(only_first: int, only_second: int) -> str:
    """The gap between two paired runs' wins and its two-sided p. Under "no difference", each
    discordant game is a fair coin: the gap's sd is sqrt(discordant)."""
    discordant = only_first + only_second
    z = (only_first - only_second) / math.sqrt(discordant)
    p = math.erfc(abs(z) / math.sqrt(2))
    return (f"gap {only_first - only_second:+d} = {z:+.2f} sd, two-sided p = {p:.3g} "
            f"(sign test over {discordant} discordant games)")


if __name__ == "__main__":
    main()
