"""Pockets: enclosed parts of the frontier that the rest of the game can never inform.

A pocket is a group of frontier cells linked through shared numbers whose covered neighbours all
lie inside the group, and whose every layout holds the same number of mines. No cell opened
elsewhere can touch it, and the mine count cannot tell its layouts apart (each leaves the same
count to the rest of the board), so its layouts stay equally likely whatever else happens: it
must be guessed some time, and the chance to clear it depends only on how it is played there.
That chance is found exactly by the endgame's game-tree search over the pocket alone, and the
pocket is played first (its order cannot change the odds of either part; DavidNHill's solver
does the same with its "isolated edges"). The usual guess scores a cell by the next move only.
"""

from __future__ import annotations

from bot.board import Cell, neighbours
from bot.errors import InconsistentBoardError
from bot.solver.deadline import NO_LIMIT, Deadline
from bot.solver.endgame import TooBig, best_guess, layouts
from bot.solver.probability import make_boxes, split_components
from bot.solver.rules import Problem, Rule, fix

#: Pockets of more cells than this are left to the usual guess (the search lists every layout),
#: and so are groups with more layouts than LAYOUTS (over all their mine counts).
MAX_CELLS = 24
LAYOUTS = 4096


def pockets(problem: Problem, mines: frozenset[Cell], deadline: Deadline = NO_LIMIT) -> list[Problem]:
    """Each pocket as a problem of its own (its cells, its numbers, its fixed mine count), with
    two layouts or more; the smallest first. Raises OutOfTime past the deadline."""
    try:
        settled = fix(problem, frozenset(mines & set(problem.covered)), frozenset())
    except InconsistentBoardError:
        return []
    covered = set(settled.covered)
    found: list[Problem] = []
    for cells, rules in _groups(settled):
        deadline.check()
        if len(cells) > MAX_CELLS:
            continue
        if any(n in covered and n not in cells for c in cells for n in neighbours(settled.shape, c)):
            continue  # a covered cell outside could one day show a number touching it
        counts = _mine_counts(settled.shape, cells, rules)
        if counts is not None and len(counts) == 1:
            (mines_in, ways), = counts.items()
            if ways >= 2:
                order = tuple(c for c in settled.frontier if c in cells)
                found.append(Problem(settled.shape, order, (), tuple(rules), mines_in))
    found.sort(key=lambda p: len(p.frontier))
    return found


def pocket_guess(problem: Problem, mines: frozenset[Cell], deadline: Deadline = NO_LIMIT) -> Cell | None:
    """The cell that clears a pocket most often, or None where there is no pocket to play (or
    each is too large to search). Raises OutOfTime past the deadline."""
    for pocket in pockets(problem, mines, deadline):
        best = best_guess(pocket)
        if best is not None:
            return best[0]
    return None


def _groups(problem: Problem) -> list[tuple[set[Cell], list[Rule]]]:
    """Frontier cells linked through shared rules (the odds' components), with their rules."""
    groups = []
    for component in split_components(make_boxes(problem)):
        cells = {c for box in component for c in box.cells}
        rules = sorted({r for box in component for r in box.rules})
        groups.append((cells, [problem.rules[r] for r in rules]))
    return groups


def _mine_counts(shape: tuple[int, int], cells: set[Cell], rules: list[Rule]) -> dict[int, int] | None:
    """How many layouts of the group hold each number of mines (None: more than LAYOUTS)."""
    order = tuple(sorted(cells))
    counts: dict[int, int] = {}
    left = LAYOUTS
    for k in range(len(order) + 1):
        try:
            _, found = layouts(Problem(shape, order, (), tuple(rules), k), limit=left)
        except TooBig:
            return None
        if found:
            counts[k] = len(found)
            left -= len(found)
    return counts
