"""Side by side, on the same positions: our SAT core + exact counting vs the seeds' method.

Both compute the same things (forced cells, exact probabilities); the guess policy on top is
not timed, since the seeds have none beyond "safest".

The seeds decide each covered cell with two SAT calls and, when nothing is forced, count models
by enumerating them with pysat's enum_models, per number k of mines on the frontier, weighting
by C(free cells, mines - k) (seed 000, `most_probable_safe_position`). Here that method is
given a head start: one enumeration per k tallies every cell at once, instead of one per cell.
Models are enumerated by blocking each frontier assignment found, as enum_models does.
Both must agree on every probability; the script prints the time of each and the ratio.

    python3 -m benchmarks.seeds --level intermediate --positions 200
"""

from __future__ import annotations

import argparse
import time
from math import comb

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Minisat22

from bot.games.bench import game_seed
from bot.games.simulator import Game, parse_level
from bot.solver.advice import advise
from bot.solver.probability import probabilities
from bot.solver.rules import build_problem
from bot.solver.sat import SatCore

MODEL_CAP = 50_000  # the seeds' enumeration gives up beyond this many models (counted as not finished)


class TooMany(Exception):
    pass


def seeds_method(board) -> tuple[set, set, dict]:
    """Forced cells by two SAT calls per cell; probabilities by enumerating frontier models."""
    problem = build_problem(board)
    pool = IDPool()
    var = {c: pool.id(c) for c in problem.frontier}
    clauses = []
    for rule in problem.rules:
        lits = [var[c] for c in rule.cells]
        clauses += CardEnc.equals(lits, rule.count, vpool=pool, encoding=EncType.seqcounter).clauses
    lits = [var[c] for c in problem.frontier]
    n_free, mines = len(problem.interior), problem.mines_left
    low, high = max(0, mines - n_free), min(len(lits), mines)
    safe, mined = set(), set()
    counts: dict = {}
    total = 0
    seen = 0
    index = np.array([var[c] for c in problem.frontier])
    with Minisat22(bootstrap_with=clauses) as solver:
        for c in problem.frontier:
            if not solver.solve(assumptions=[var[c]]):
                safe.add(c)
            elif not solver.solve(assumptions=[-var[c]]):
                mined.add(c)
        for k in range(low, high + 1):  # exactly k mines on the frontier, under a fresh guard
            guard = pool.id(("k", k))
            card = CardEnc.equals(lits, k, vpool=pool, encoding=EncType.seqcounter).clauses if lits else []
            for cl in card:
                solver.add_clause([-guard, *cl])
            if not lits and k:
                continue
            weight = comb(n_free, mines - k)
            models = []
            # Enumerate the frontier's models: block each one found, projected on the frontier
            # (the cardinality encoding's auxiliary variables must not make a model count twice).
            while solver.solve(assumptions=[guard]):
                model = solver.get_model()
                signs = [model[v - 1] for v in index]
                models.append(signs)
                seen += 1
                if seen > MODEL_CAP:
                    raise TooMany
                if not len(index):
                    break
                solver.add_clause([-guard, *(-lit for lit in signs)])
            if models and len(index):
                hits = (np.array(models) > 0).sum(axis=0)
                for c, h in zip(problem.frontier, hits):
                    counts[c] = counts.get(c, 0) + weight * int(h)
            counts["free"] = counts.get("free", 0) + weight * (mines - k) * len(models)
            total += weight * len(models)
            solver.add_clause([-guard])
    probs = {c: counts.get(c, 0) / total for c in problem.frontier}
    for c in problem.interior:
        probs[c] = counts.get("free", 0) / total / n_free
    return safe, mined, probs


def our_method(board) -> tuple[frozenset, frozenset, dict]:
    """The same answers by our core: forced cells on python-sat, probabilities by exact counting."""
    problem = build_problem(board)
    with SatCore(problem) as core:
        safe, mines = core.forced()
    return safe, mines, probabilities(problem).cells


def positions(level, count: int, seed: int):
    """Decision points of real games played by the bot, where a guess was needed."""
    out, i = [], 0
    while len(out) < count:
        game = Game(level, "safe", game_seed(seed, i))
        i += 1
        while game.status == "playing":
            board = game.board()
            advice = advise(board)
            if not advice.safe and (board.cells >= 0).any():
                out.append(board)
            for c in advice.mines:
                if game.shown[c] == -1:
                    game.flag(c)
            if advice.safe:
                for c in sorted(advice.safe):
                    game.open(c)
            elif advice.guess is not None:
                game.open(advice.guess)
            else:
                break
    return out[:count]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--level", default="intermediate")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    level = parse_level(args.level)
    boards = positions(level, args.positions, args.seed)
    ours, theirs, unfinished, worst = [], [], 0, 0.0
    for board in boards:
        t0 = time.perf_counter()
        safe_ours, mines_ours, probs_ours = our_method(board)
        t1 = time.perf_counter()
        try:
            safe, mined, probs = seeds_method(board)
        except TooMany:
            unfinished += 1
            continue
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        theirs.append(t2 - t1)
        assert safe == set(safe_ours) and mined == set(mines_ours)
        for c, p in probs.items():
            worst = max(worst, abs(p - probs_ours[c]))
    ours_ms, theirs_ms = np.array(ours) * 1000, np.array(theirs) * 1000
    print(f"{level.name}: {len(boards)} guess positions from games the bot played (seed {args.seed})")
    print(f"  seeds' method finished {len(ours)}, gave up on {unfinished} (more than {MODEL_CAP} models)")
    print(f"  ours   : mean {ours_ms.mean():8.2f} ms  median {np.median(ours_ms):8.2f} ms  max {ours_ms.max():8.1f} ms")
    print(f"  seeds' : mean {theirs_ms.mean():8.2f} ms  median {np.median(theirs_ms):8.2f} ms  "
          f"max {theirs_ms.max():8.1f} ms")
    print(f"  ratio (seeds' / ours) on the same positions: mean time {theirs_ms.mean() / ours_ms.mean():.1f}x, "
          f"median per position {np.median(theirs_ms / ours_ms):.1f}x; largest probability difference {worst:.1e}")


if __name__ == "__main__":
    main()
