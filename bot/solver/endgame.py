"""Exact play when few mine layouts remain: the guess that wins most often, by full game-tree search.

Late in a game the covered cells are few and so are the layouts that fit the numbers and the
mine count. Then the chance to *win* from each guess can be computed exactly instead of
estimated: every layout is equally likely; opening a cell either hits a mine or shows a number,
which splits the layouts; every cell safe in all layouts left is opened for free (its number
splits them further); the value of a set of layouts is the best guess's chance summed over its
splits. A set of layouts fixes everything known, so values are memoised on it. A guess never
wins more often than it survives, so candidates are tried safest first and the search stops as
soon as no later one can beat the best found (exact pruning).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache
from itertools import combinations

from bot.board import Cell, neighbours
from bot.solver.rules import Problem

#: Search only when at most this many layouts remain (and give up past NODES positions).
MAX_LAYOUTS = 200
NODES = 5_000
#: Layouts are placed one frontier cell per level of recursion: past this many cells (a long,
#: nearly settled frontier on a 100 x 100 board) the search is not tried, rather than overflowing
#: Python's stack. No standard board comes near it (Expert has 480 cells).
MAX_FRONTIER = 800


class TooBig(Exception):
    """More layouts or positions than the search may take on: the caller guesses as usual."""


def layouts(problem: Problem, limit: int | None = None) -> tuple[tuple[Cell, ...], list[int]]:
    """Every mine layout over the covered cells, as bitmasks over `cells` (raises TooBig past
    `limit`, by default MAX_LAYOUTS as it is at the call)."""
    limit = MAX_LAYOUTS if limit is None else limit
    if problem.mines_left is None:
        raise TooBig("no mine count")
    if len(problem.frontier) > MAX_FRONTIER:
        raise TooBig("frontier too long to place cell by cell")
    frontier, interior = list(problem.frontier), list(problem.interior)
    cells = tuple(frontier + interior)
    index = {c: i for i, c in enumerate(frontier)}
    rules = [([index[c] for c in rule.cells], rule.count) for rule in problem.rules]
    of_cell: list[list[int]] = [[] for _ in frontier]
    for k, (members, _) in enumerate(rules):
        for i in members:
            of_cell[i].append(k)
    placed = [0] * len(rules)  # mines placed in each rule so far
    left = [len(members) for members, _ in rules]  # cells of each rule not yet decided
    found: list[int] = []
    total = problem.mines_left

    def interior_ways(mask: int, mines: int) -> None:
        rest = total - mines
        if rest < 0 or rest > len(interior):
            return
        if len(found) + math.comb(len(interior), rest) > limit:
            raise TooBig("too many layouts")
        for chosen in combinations(range(len(interior)), rest):
            extra = 0
            for j in chosen:
                extra |= 1 << (len(frontier) + j)
            found.append(mask | extra)

    def place(i: int, mask: int, mines: int) -> None:
        if mines > total:
            return
        if i == len(frontier):
            interior_ways(mask, mines)
            return
        for mine in (0, 1):
            ok = True
            for k in of_cell[i]:
                count = rules[k][1]
                now = placed[k] + mine
                if now > count or now + left[k] - 1 < count:
                    ok = False
                    break
            if not ok:
                continue
            for k in of_cell[i]:
                placed[k] += mine
                left[k] -= 1
            place(i + 1, mask | (mine << i), mines + mine)
            for k in of_cell[i]:
                placed[k] -= mine
                left[k] += 1

    place(0, 0, 0)
    return cells, found


def best_guess(problem: Problem, candidates: list[Cell] | None = None) -> tuple[Cell, float] | None:
    """The guess with the highest chance to win the game, and that chance; None if the position
    is too big to search (then the usual guess applies)."""
    try:
        cells, found = layouts(problem)
    except TooBig:
        return None
    if len(found) < 2:
        return None
    n = len(cells)
    where = {c: i for i, c in enumerate(cells)}
    around = [[where[m] for m in neighbours(problem.shape, c) if m in where] for c in cells]
    # What each cell shows under each layout (-1: a mine), one list per cell.
    shows = [[-1 if lay >> i & 1 else sum(lay >> j & 1 for j in around[i]) for lay in found] for i in range(n)]
    everyone = (1 << len(found)) - 1
    nodes = [0]

    def members(s: int) -> list[int]:
        out = []
        while s:
            low = s & -s
            out.append(low.bit_length() - 1)
            s ^= low
        return out

    def split(ks: list[int], i: int) -> dict[int, int]:
        """The layouts of ks (the members of a set) by what cell i shows in them."""
        groups: dict[int, int] = {}
        row = shows[i]
        for k in ks:
            v = row[k]
            groups[v] = groups.get(v, 0) | (1 << k)
        return groups

    def informative(s: int, ks: list[int]) -> int | None:
        """A cell safe in every layout of s whose number still differs between them: opening it
        is free and teaches something (a cell opened before shows one number throughout)."""
        for i in range(n):
            first = shows[i][ks[0]]
            if first >= 0 and all(shows[i][k] >= 0 for k in ks) and any(shows[i][k] != first for k in ks):
                return i
        return None

    @cache
    def value(s: int) -> float:
        """Chance to win from the layouts in s."""
        ks = members(s)
        if len(ks) == 1:
            return 1.0
        nodes[0] += 1
        if nodes[0] > NODES:
            raise TooBig("too many positions")
        free = informative(s, ks)
        if free is not None:
            return sum(g.bit_count() / len(ks) * value(g) for g in split(ks, free).values())
        return best_of(s, ks, range(n))[0]

    def best_of(s: int, ks: list[int], tried: Iterable[int]) -> tuple[float, int | None]:
        """The best cell to open among `tried`, and its chance to win, safest cells first: a cell
        never wins more often than it survives, so the scan stops once none can beat the best."""
        options = []
        for i in tried:
            safe = sum(1 for k in ks if shows[i][k] >= 0)
            if 0 < safe < len(ks):  # cells safe everywhere teach nothing more; mines everywhere never
                options.append((safe, i))
        options.sort(reverse=True)
        best: tuple[float, int | None] = (0.0, None)
        for safe, i in options:
            if safe / len(ks) <= best[0]:
                break
            chance = sum(g.bit_count() / len(ks) * value(g) for v, g in split(ks, i).items() if v >= 0)
            if chance > best[0]:
                best = (chance, i)
        return best

    pick = [where[c] for c in candidates if c in where] if candidates is not None else range(n)
    try:
        ks = list(range(len(found)))
        if informative(everyone, ks) is not None:  # a proven-safe cell is opened first: no guess due
            return None
        chance, i = best_of(everyone, ks, pick)
    except TooBig:
        return None
    return None if i is None else (cells[i], chance)
