"""Name the number sprites of an unknown look from the game's logic alone.

The learner sees classes of identical-looking opened cells but not which number each shows.
A naming is possible only if every board it gives could be a real game: no two classes share a
number, a 0 never borders a covered cell once the game has cascaded, and some mine layout fits
every number at once (the SAT core decides). Naming is a small search (classes x 9 numbers)
pruned by checking each partial naming the same way: cells of unnamed classes are opened cells
that say nothing. A lost game ends all doubt: the mines are on show, and each number is the
count of mines around it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

import numpy as np

from bot.board import Cell, neighbour_table
from bot.solver.rules import Problem, Rule
from bot.solver.sat import SatCore

#: The search stops counting namings past this: the learner only needs to know "more than one".
MAX_NAMINGS = 64

Frame = np.ndarray  # rows x cols: a class id per cell; COVERED_CLASS for covered cells


COVERED_CLASS = -1
#: A flag we put down: covered for the rules, but the game never opens it in a cascade.
FLAGGED_CLASS = -2


def _problem(frame: Frame, naming: dict[int, int]) -> Problem | None:
    """Rules the named cells of a frame make; None if a named cell is impossible on its own."""
    rows, cols = frame.shape
    table = neighbour_table(rows, cols)
    covered = frame < 0
    unflagged = frame == COVERED_CLASS
    rules = []
    touched: set[Cell] = set()
    named = ~covered & np.isin(frame, list(naming)) if naming else np.zeros_like(covered)
    for r, c in zip(*np.nonzero(named)):  # (cells of unnamed classes say nothing)
        value = naming[int(frame[r, c])]
        around = tuple(n for n in table[r * cols + c] if covered[n])
        if value > len(around) or (value == 0 and any(unflagged[n] for n in around)):
            return None  # more mines than room, or a 0 the game would have opened around
        if around:
            rules.append(Rule(around, value, (int(r), int(c))))
            touched.update(around)
    frontier = tuple(sorted(touched))
    interior = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(covered)) if (int(r), int(c)) not in touched)
    return Problem((rows, cols), frontier, interior, tuple(rules), None)


def fits(frames: list[Frame], naming: dict[int, int]) -> bool:
    """Could every frame be a real game under this (partial) naming?"""
    if not naming:  # nothing named says anything: any frame fits
        return True
    for frame in frames:
        problem = _problem(frame, naming)
        if problem is None:
            return False
        with SatCore(problem) as core:
            if not core.consistent():
                return False
    return True


def namings(frames: list[Frame], classes: list[int], fixed: dict[int, int] | None = None) -> Iterator[dict[int, int]]:
    """Every naming of `classes` with numbers 0-8 that fits all frames (fixed names kept)."""
    fixed = dict(fixed or {})
    free = [k for k in classes if k not in fixed]
    # Most frequent classes first: they constrain the most, so bad branches die early.
    counts = {k: sum(int((f == k).sum()) for f in frames) for k in free}
    free.sort(key=lambda k: -counts[k])

    def extend(i: int, naming: dict[int, int]) -> Iterator[dict[int, int]]:
        if i == len(free):
            yield dict(naming)
            return
        used = set(naming.values())
        for value in range(9):
            if value in used:
                continue
            naming[free[i]] = value
            if fits(frames, naming):
                yield from extend(i + 1, naming)
            del naming[free[i]]

    if fits(frames, fixed):
        yield from extend(0, fixed)


def settle(
    frames: list[Frame], classes: list[int], fixed: dict[int, int] | None = None
) -> tuple[dict[int, int], dict[int, set[int]], int]:
    """What the frames pin down: names shared by every fitting naming, each class's possible
    names, and how many namings fit (up to MAX_NAMINGS)."""
    possible: dict[int, set[int]] = {k: set() for k in classes}
    count = 0
    for naming in namings(frames, classes, fixed):
        count += 1
        for k, v in naming.items():
            possible.setdefault(k, set()).add(v)
        if count >= MAX_NAMINGS:
            break
    if count >= MAX_NAMINGS:  # not every naming was seen: only what was fixed is certain
        return dict(fixed or {}), {k: set(range(9)) for k in classes}, count
    sure = {k: next(iter(v)) for k, v in possible.items() if len(v) == 1}
    return sure, possible, count


def from_mines(frame: Frame, mines: np.ndarray) -> dict[int, int]:
    """Names read off a lost game: each opened class shows the count of shown mines around it.

    Raises ValueError when two cells of one class disagree: the classes were split wrongly.
    """
    rows, cols = frame.shape
    table = neighbour_table(rows, cols)
    names: dict[int, int] = {}
    for r, c in zip(*np.nonzero((frame >= 0) & ~mines)):
        k = int(frame[r, c])
        value = sum(1 for n in table[r * cols + c] if mines[n])
        if names.setdefault(k, value) != value:
            raise ValueError(f"cells of one look show {names[k]} and {value} mines around them")
    return names


def forced_under_every_naming(
    frame: Frame, sure: dict[int, int], possible: dict[int, set[int]]
) -> tuple[set[Cell], set[Cell]]:
    """Cells safe, and cells mined, under every naming still possible: the only cells a learner
    that does not yet know every number's name may click, whatever the names turn out to be."""
    problem = _problem(frame, sure)
    if problem is None:
        return set(), set()
    with SatCore(problem) as core:
        safe, mines = core.forced()
    safe, mines = set(safe), set(mines)
    if safe or all(len(v) == 1 for v in possible.values()):
        return safe, mines
    # Names not yet certain: a cell is safe only if every naming makes it so.
    first = True
    for naming in islice(namings([frame], list(possible), sure), MAX_NAMINGS):
        problem = _problem(frame, naming)
        with SatCore(problem) as core:
            s, m = core.forced()
        safe, mines = (set(s), set(m)) if first else (safe & set(s), mines & set(m))
        first = False
        if not safe and not mines:
            break
    return safe, mines
