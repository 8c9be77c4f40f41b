#!/usr/bin/env python3
"""Paired games: the current guess against a variant of it, on the same boards, so that only
games whose decisions differ can differ in result (far less noise than two separate runs).

    python3 scripts/bench_paired.py --level intermediate --games 10000 --variant no-fifty
    python3 scripts/bench_paired.py --level expert --games 20000 --seed 1 --jobs 2 --variant no-fifty
    python3 scripts/bench_paired.py --level 16x16x40 --rules zero --games 1000 --variant no-total
    python3 scripts/bench_paired.py --level expert --games 20000 --jobs 2 --variant chains=1 --variant defer=1

Several variants are each compared with one run of the current guess (played once).
"""

from __future__ import annotations

import argparse
import math
import sys
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import bench
from bot.games.simulator import RULES, Game, parse_level
from bot.solver import chains, endgame, guess, long_term, lookahead


def apply(variant: str) -> None:
    """no-fifty: unavoidable 50/50s wait their turn; no-total: the mine total is never told (a game
    with no counter to read); else K=V pairs: slack, depth, progress, inner (the two-move look),
    layouts, nodes (the endgame search), dead (1: dead cells opened last), fifty (1: a number
    forming an unavoidable 50/50 costs half the game), ltr (1: long-term risk, bot.solver.long_term),
    ltrw (its weight: a 50/50 share's worth against safety),
    blend (the share of the second safest cell in the next click's worth), free (the same where
    the number proves cells safe, living ones only), cutoff (candidates
    by a share of the best safety; none: by slack), pockets (1: enclosed groups played first), defer (1: candidates in
    small closed-off areas wait, bot.solver.space), offedge (1: DavidNHill's interior candidates),
    chains (1: unavoidable 50/50 chains guessed first, bot.solver.chains), deep (the share of the best
    two-move score within which candidates are looked at three moves deep; none: off), deepcands,
    budget, next (how many of them, the two-move looks a decision may spend, the next clicks
    scored after each number), ties (top or bottom: which of cells alike is taken), living (1: the next
    click's worth is the safest living cell's), allin (every interior cell a candidate when fewer remain),
    pseudo (1: chains joined by a pseudo link guessed first, bot.solver.chains.pseudo_links), interior
    (interior cells as candidates only above this share of the best safety; none: the cut-off alone)."""
    if variant == "no-fifty":
        chains.unavoidable_pairs = lambda *_: []
        return
    if variant == "no-total":
        shown = Game.board
        Game.board = lambda self: shown(self).with_mines(None)
        return
    values = dict(part.split("=") for part in variant.split(","))
    guess.SLACK = float(values.get("slack", guess.SLACK))
    if "cutoff" in values:
        guess.CUTOFF = None if values["cutoff"] == "none" else float(values["cutoff"])
    guess.DEPTH_CANDIDATES = int(values.get("depth", guess.DEPTH_CANDIDATES))
    lookahead.PROGRESS = float(values.get("progress", lookahead.PROGRESS))
    guess.MAX_LAYOUTS = endgame.MAX_LAYOUTS = int(values.get("layouts", endgame.MAX_LAYOUTS))
    endgame.NODES = int(values.get("nodes", endgame.NODES))
    guess.INTERIOR_CANDIDATES = int(values.get("inner", guess.INTERIOR_CANDIDATES))
    if "interior" in values:
        guess.INTERIOR_CUTOFF = None if values["interior"] == "none" else float(values["interior"])
    guess.INTERIOR_ALL_BELOW = int(values.get("allin", guess.INTERIOR_ALL_BELOW))
    guess.AVOID_DEAD = bool(int(values.get("dead", guess.AVOID_DEAD)))
    lookahead.FIFTY_PENALTY = bool(int(values.get("fifty", lookahead.FIFTY_PENALTY)))
    guess.LONG_TERM = bool(int(values.get("ltr", guess.LONG_TERM)))
    long_term.WEIGHT = float(values.get("ltrw", long_term.WEIGHT))
    lookahead.BLEND = float(values.get("blend", lookahead.BLEND))
    lookahead.FREE_SHARE = float(values.get("free", lookahead.FREE_SHARE))
    guess.POCKETS = bool(int(values.get("pockets", guess.POCKETS)))
    guess.DEFER_SMALL = bool(int(values.get("defer", guess.DEFER_SMALL)))
    guess.OFF_EDGE = bool(int(values.get("offedge", guess.OFF_EDGE)))
    guess.CHAINS = bool(int(values.get("chains", guess.CHAINS)))
    guess.PSEUDO_LINKS = bool(int(values.get("pseudo", guess.PSEUDO_LINKS)))
    if "deep" in values:
        guess.DEEP_MARGIN = None if values["deep"] == "none" else float(values["deep"])
    guess.DEEP_CANDIDATES = int(values.get("deepcands", guess.DEEP_CANDIDATES))
    guess.DEEP_BUDGET = int(values.get("budget", guess.DEEP_BUDGET))
    lookahead.DEEP_NEXT = int(values.get("next", lookahead.DEEP_NEXT))
    guess.TIES = values.get("ties", guess.TIES)
    lookahead.LIVING_NEXT = bool(int(values.get("living", lookahead.LIVING_NEXT)))


def _won(task: tuple[object, str, int, int]) -> bool:
    level, rule, seed, index = task
    return bench.play_game(level, rule, bench.game_seed(seed, index)).won


def play(level, rule: str, seed: int, games: int, jobs: int) -> list[bool]:
    """Results in game order (forked workers inherit whatever variant is applied)."""
    tasks = [(level, rule, seed, i) for i in range(games)]
    if jobs <= 1:
        return list(map(_won, tasks))
    with get_context("fork").Pool(jobs) as pool:
        return list(pool.imap(_won, tasks, chunksize=20))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--variant", action="append",
                        help="no-fifty, or K=V,... (see apply); several: each against the same current run")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rules", choices=RULES, default="safe", help="the first-click rule")
    args = parser.parse_args()
    level = parse_level(args.level)
    current = play(level, args.rules, args.seed, args.games, args.jobs)
    for name in args.variant or ["no-fifty"]:
        variant = _play_variant(name, level, args.rules, args.seed, args.games, args.jobs)
        only_current = sum(c and not v for c, v in zip(current, variant))
        only_variant = sum(v and not c for c, v in zip(current, variant))
        print(f"{args.level}: {args.games} paired games; current {sum(current)} won, {name} {sum(variant)}; "
              f"won only by current {only_current}, only by {name} {only_variant}", flush=True)
        if only_current + only_variant:
            print(sign_test(only_current, only_variant), flush=True)


def _play_variant(name: str, level, rule: str, seed: int, games: int, jobs: int) -> list[bool]:
    """The variant's games in a process of its own, so that the next variant starts from the
    current settings again (apply changes module settings in place)."""
    context = get_context("fork")
    reader, writer = context.Pipe(duplex=False)

    def run() -> None:
        apply(name)
        writer.send(play(level, rule, seed, games, jobs))

    child = context.Process(target=run)
    child.start()
    while not reader.poll(1.0):
        if not child.is_alive():
            raise SystemExit(f"bench_paired: the variant {name} stopped before its games ended (above)")
    won = reader.recv()
    child.join()
    return won


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
