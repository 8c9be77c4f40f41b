"""Unavoidable 50/50s of any length: chains of "one mine in these two cells" that nothing can split.

A number whose unknown cells are two and which needs one more mine links the two: exactly one is
a mine. Linked cells form chains (or any connected shape); each can hold its mines in only two
ways, one colour class or the other. When every number touching the chain sees as many cells of
one class as of the other, and so does every unknown cell next to it (a number yet to show),
and both classes hold as many mines, nothing on the board now or later can tell the two ways
apart: swapping them keeps every number and the mine count. The chain is a coin that must be
tossed some time, and tossing it first risks nothing more, while a safe cell's number may teach
the rest of the board something. DavidNHill's solver finds such chains by walking links from a
closed end; this finds them as the two-colourable groups of links and checks the swap exactly.
The two-cell case with no unknown neighbours is `unavoidable_pairs`.
"""

from __future__ import annotations

from bot.board import Cell, neighbours
from bot.solver.rules import Problem


def _needing_one(problem: Problem, mines: frozenset[Cell]) -> list[list[Cell]]:
    """The unknown cells of each number that needs one more mine among them."""
    found = []
    for rule in problem.rules:
        unknown = [c for c in rule.cells if c not in mines]
        if rule.count - (len(rule.cells) - len(unknown)) == 1:
            found.append(unknown)
    return found


def _link_graph(problem: Problem, mines: frozenset[Cell]) -> dict[Cell, set[Cell]]:
    """Each cell's partners in "one mine in these two cells"."""
    links: dict[Cell, set[Cell]] = {}
    for cells in _needing_one(problem, mines):
        if len(cells) == 2:
            a, b = cells
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return links


def _ways(side: dict[Cell, int]) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """A two-coloured chain's cells of one way, and of the other."""
    return (frozenset(c for c, s in side.items() if s == 0), frozenset(c for c, s in side.items() if s == 1))


def _touching(problem: Problem) -> dict[Cell, list[tuple[Cell, ...]]]:
    touching: dict[Cell, list[tuple[Cell, ...]]] = {}
    for rule in problem.rules:
        for cell in rule.cells:
            touching.setdefault(cell, []).append(rule.cells)
    return touching


def unavoidable_chains(problem: Problem, mines: frozenset[Cell]) -> list[tuple[frozenset[Cell], frozenset[Cell]]]:
    """Each chain as its two ways (the cells holding the mines in one, in the other), smallest
    first."""
    links = _link_graph(problem, mines)
    touching = _touching(problem)
    unknown_cells = set(problem.covered) - mines
    found: list[tuple[frozenset[Cell], frozenset[Cell]]] = []
    seen: set[Cell] = set()
    for start in links:
        if start in seen:
            continue
        side, clash = _two_colour(links, start)
        seen |= side.keys()
        if clash:
            continue
        one, other = _ways(side)
        if len(one) != len(other) or not _indistinguishable(problem, one, other, touching, unknown_cells):
            continue
        found.append((one, other))
    found.sort(key=lambda ways: (len(ways[0]), min(ways[0] | ways[1])))
    return found


def _two_colour(links: dict[Cell, set[Cell]], start: Cell) -> tuple[dict[Cell, int], bool]:
    """The linked group of `start`, each cell with its way (0 or 1), and whether the links clash
    (an odd loop: then no layout fits, and the solver has said so before)."""
    side = {start: 0}
    todo = [start]
    clash = False
    while todo:
        cell = todo.pop()
        for other in links[cell]:
            if other not in side:
                side[other] = 1 - side[cell]
                todo.append(other)
            elif side[other] == side[cell]:
                clash = True
    return side, clash


def _indistinguishable(problem: Problem, one: frozenset[Cell], other: frozenset[Cell],
                       touching: dict[Cell, list[tuple[Cell, ...]]], unknown: set[Cell]) -> bool:
    """True when every number touching the chain, and every unknown cell next to it, sees as
    many cells of one way as of the other."""
    chain = one | other
    for cell in chain:
        for cells in touching.get(cell, ()):
            if len(one.intersection(cells)) != len(other.intersection(cells)):
                return False
        for near in neighbours(problem.shape, cell):
            if near in unknown and near not in chain:
                around = neighbours(problem.shape, near)
                if len(one.intersection(around)) != len(other.intersection(around)):
                    return False
    return True


def unavoidable_pairs(problem: Problem, mines: frozenset[Cell]) -> list[frozenset[Cell]]:
    """The 50/50s no future move can resolve: two covered cells holding one mine, every number
    that touches either touches both and nothing else still unknown, and every other neighbour of
    both already open or a proven mine (so no number yet to show could tell them apart; the mine
    count cannot either, as the pair always holds exactly one). Taking one first loses no chance
    and tells the rest of the board one more mine's place."""
    covered = set(problem.covered) - mines
    touching: dict[Cell, list[frozenset[Cell]]] = {}
    for rule in problem.rules:
        unknown = frozenset(rule.cells) - mines
        for cell in unknown:
            touching.setdefault(cell, []).append(unknown)
    pairs: list[frozenset[Cell]] = []
    for rule in problem.rules:
        pair = frozenset(rule.cells) - mines
        if len(pair) != 2 or rule.count - len(set(rule.cells) & mines) != 1 or pair in pairs:
            continue
        if any(unknown != pair for cell in pair for unknown in touching[cell]):
            continue
        around = {n for cell in pair for n in neighbours(problem.shape, cell)} - pair
        if around & covered:
            continue
        pairs.append(pair)
    return pairs
