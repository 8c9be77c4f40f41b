"""Exact play when few mine layouts remain: the guess that wins most often, by full game-tree search.

Late in a game the covered cells are few and so are the layouts that fit the numbers and the
mine count. Then the chance to *win* from each guess can be computed exactly instead of
estimated: every layout is equally likely; opening a cell either hits a mine or shows a number,
which splits the layouts; every cell safe in all layouts left is opened for free (its number
splits them further); the value of a set of layouts is the best guess's chance summed over its
splits. A set of layouts fixes everything known, so values are memoised on it. A guess never
wins more often than it survives, so candidates are tried safest first and the search stops as
soon as no later one can beat the best found (exact pruning).

Sets of layouts are bitmasks, and each cell keeps one mask per number it can show, so a split
is a few ANDs whatever the number of layouts; values are counted in layouts won (integers), so
two guesses that win equally often tie exactly, never by a rounding.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache
from itertools import combinations

from bot.board import Cell, neighbours
from bot.solver.deadline import NO_LIMIT, Deadline, OutOfTime
from bot.solver.rules import Problem

#: Search only when at most this many layouts remain (and give up past NODES positions). Past
#: 1 000 layouts a search costs twice as much for less than half the gain (docs/results.md).
MAX_LAYOUTS = 1_000
NODES = 60_000
#: Layouts are placed one frontier cell per level of recursion: past this many cells (a long,
#: nearly settled frontier on a 100 x 100 board) the search is not tried, rather than overflowing
#: Python's stack. No standard board comes near it (Expert has 480 cells).
MAX_FRONTIER = 800


class TooBig(Exception):
    """More layouts or positions than the search may take on: the caller guesses as usual."""


def layouts(problem: Problem, limit: int | None = None) -> tuple[tuple[Cell, ...], list[int]]:
    """Every mine layout over the covered cells, as bitmasks over `cells` (raises TooBig past
    `limit`, by default MAX_LAYOUTS)."""
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


def best_guess(problem: Problem, candidates: list[Cell] | None = None, deadline: Deadline = NO_LIMIT,
               limit: int | None = None, nodes_limit: int | None = None) -> tuple[Cell, float] | None:
    """The guess with the highest chance to win the game, and that chance; None if the position
    is too big to search (past `limit` layouts or `nodes_limit` positions, by default MAX_LAYOUTS
    and NODES), or the deadline passes first (then the usual guess
    applies). The size is bounded by counts, not time, so that a board is played alike on any
    machine; the deadline only keeps a live decision from waiting on a slow one."""
    most = NODES if nodes_limit is None else nodes_limit
    try:
        cells, found = layouts(problem, limit)
    except TooBig:
        return None
    if len(found) < 2:
        return None
    n = len(cells)
    where = {c: i for i, c in enumerate(cells)}
    around = [[where[m] for m in neighbours(problem.shape, c) if m in where] for c in cells]
    # Sets of layouts are bitmasks over `found`; each cell's layouts by what it shows in them, so
    # that splitting a set by a cell's number is a few ANDs, never a walk over the layouts.
    mine = [0] * n
    shows: list[dict[int, int]] = [{} for _ in range(n)]
    for k, lay in enumerate(found):
        bit = 1 << k
        for i in range(n):
            if lay >> i & 1:
                mine[i] |= bit
            else:
                v = sum(lay >> j & 1 for j in around[i])
                shows[i][v] = shows[i].get(v, 0) | bit
    masks = [list(by_number.values()) for by_number in shows]
    everyone = (1 << len(found)) - 1
    nodes = [0]

    def split(s: int, i: int) -> list[int]:
        """The layouts of s where cell i is safe, by the number it shows."""
        return [g for m in masks[i] if (g := s & m)]

    def informative(s: int) -> int | None:
        """A cell safe in every layout of s whose number still differs between them: opening it
        is free and teaches something (a cell opened before shows one number throughout)."""
        for i in range(n):
            if not s & mine[i]:
                for m in masks[i]:
                    if part := s & m:  # (the first number s shows: all of s, or s is split)
                        if part != s:
                            return i
                        break
        return None

    @cache
    def wins(s: int) -> int:
        """In how many of the layouts of s the best play wins (exact integers: no rounding
        decides between two guesses that win equally often)."""
        size = s.bit_count()
        if size == 1:
            return 1
        nodes[0] += 1
        if nodes[0] > most:
            raise TooBig("too many positions")
        if not nodes[0] % 1024:
            deadline.check()
        free = informative(s)
        if free is not None:
            return sum(map(wins, split(s, free)))
        return best_of(s, size, range(n))[0]

    def best_of(s: int, size: int, tried: Iterable[int]) -> tuple[int, int | None]:
        """The best cell to open among `tried`, and in how many layouts of s it wins. A cell never
        wins where it is a mine, so cells are tried safest first and the scan stops once none can
        beat the best; a cell's own count stops as soon as what is left of it cannot."""
        options = []
        for i in tried:
            safe = size - (s & mine[i]).bit_count()
            if 0 < safe < size:  # cells safe everywhere teach nothing more; mines everywhere never
                options.append((safe, i))
        options.sort(reverse=True)
        best: tuple[int, int | None] = (0, None)
        for safe, i in options:
            if safe <= best[0]:
                break
            total, rest = 0, safe
            for g in split(s, i):
                total += wins(g)
                rest -= g.bit_count()
                if total + rest <= best[0]:
                    break
            else:
                if total > best[0]:
                    best = (total, i)
        return best

    pick = [where[c] for c in candidates if c in where] if candidates is not None else range(n)
    try:
        if informative(everyone) is not None:  # a proven-safe cell is opened first: no guess due
            return None
        won, i = best_of(everyone, len(found), pick)
    except (TooBig, OutOfTime):
        return None
    return None if i is None else (cells[i], won / len(found))
