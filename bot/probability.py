"""Exact mine probabilities for every covered cell, the global mine count included.

Why not count with the SAT solver: model enumeration grows with the number of layouts,
which is astronomically large on Expert.  Instead, as the strongest solvers do:

1. frontier cells touching exactly the same numbers form a *box*; a box holding k of
   its n cells contributes C(n, k) layouts, so only box counts need enumerating;
2. boxes that share no number form independent *components*;
3. each component is counted by a dynamic programme over its boxes whose state is the
   remaining need of the numbers still open, with a polynomial in the mine count as
   value: long thin frontiers cost a handful of states instead of 2^length leaves;
   a forward and a backward pass give every box's expected mines per component total;
4. components are combined by convolution over mine count, and the cells no number
   touches are weighted by C(interior, mines left - frontier mines).

Floats are exact enough (every weight is a sum of positive terms; relative error stays
near 1e-15) and far faster than big integers. The components' totals are joined with the
interior's binomials in log space: those span thousands of orders of magnitude on a big
board, where any one scale underflows the totals that are possible.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from math import comb, lgamma

import numpy as np

from bot.board import Cell
from bot.errors import InconsistentBoardError
from bot.rules import Problem


@dataclass(frozen=True)
class Box:
    """Frontier cells that touch exactly the same rules, so share one probability."""

    cells: tuple[Cell, ...]
    rules: tuple[int, ...]


@dataclass(frozen=True)
class Tally:
    """One component counted: layouts per mine total, and each box's expected mines per total."""

    boxes: tuple[Box, ...]
    weight: np.ndarray  # weight[m]: layouts of the component with m mines
    box_mines: np.ndarray  # box_mines[b, m]: sum over those layouts of mines in box b


@dataclass(frozen=True)
class Probabilities:
    """Per-cell mine probability; `interior` is the shared value of cells no number touches."""

    cells: dict[Cell, float]
    interior: float | None
    tallies: tuple[Tally, ...]
    layouts: float  # total weight (scaled when a count is known): 0 means inconsistent
    log_layouts: float = 0.0  # natural log of the true number of layouts: comparable across boards


def make_boxes(problem: Problem) -> list[Box]:
    touching: dict[Cell, list[int]] = defaultdict(list)
    for i, rule in enumerate(problem.rules):
        for cell in rule.cells:
            touching[cell].append(i)
    groups: dict[tuple[int, ...], list[Cell]] = defaultdict(list)
    for cell in problem.frontier:
        groups[tuple(touching[cell])].append(cell)
    return [Box(tuple(cells), rules) for rules, cells in groups.items()]


def split_components(boxes: list[Box]) -> list[list[Box]]:
    """Boxes linked through shared rules, by union-find over rule indices."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for box in boxes:
        for r in box.rules[1:]:
            parent[find(r)] = find(box.rules[0])
    comps: dict[int, list[Box]] = defaultdict(list)
    for box in boxes:
        comps[find(box.rules[0])].append(box)
    return list(comps.values())


def _order(boxes: list[Box]) -> list[Box]:
    """Breadth-first along shared rules, so each rule closes soon after it opens (few DP states)."""
    by_rule: dict[int, list[int]] = defaultdict(list)
    for i, box in enumerate(boxes):
        for r in box.rules:
            by_rule[r].append(i)
    start = min(range(len(boxes)), key=lambda i: (len(boxes[i].rules), boxes[i].cells))
    seen = {start}
    queue = [start]
    for i in queue:
        for r in boxes[i].rules:
            for j in by_rule[r]:
                if j not in seen:
                    seen.add(j)
                    queue.append(j)
    return [boxes[i] for i in queue]


_MEMO: OrderedDict[tuple, Tally] = OrderedDict()
_MEMO_SIZE = 512


def tally_component(boxes: list[Box], counts: list[int]) -> Tally:
    """One component's tally, remembered: the guesser asks about many boards that differ from
    each other in one component only, and a component is counted by its boxes and numbers alone."""
    key = (tuple(boxes), tuple(counts[r] for r in sorted({r for b in boxes for r in b.rules})))
    found = _MEMO.get(key)
    if found is not None:
        _MEMO.move_to_end(key)
        return found
    tally = _tally(boxes, counts)
    _MEMO[key] = tally
    if len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return tally


def _tally(boxes: list[Box], counts: list[int]) -> Tally:
    """Count one component's layouts by the forward-backward programme described above."""
    boxes = _order(boxes)
    n = len(boxes)
    sizes = [len(b.cells) for b in boxes]
    length = sum(sizes) + 1
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, box in enumerate(boxes):
        for r in box.rules:
            first.setdefault(r, i)
            last[r] = i
    # open_at[i]: rules begun before box i and not finished before it; their need is the state.
    open_at = [tuple(sorted(r for r in first if first[r] < i <= last[r])) for i in range(n + 1)]
    cap_after = []  # capacity left in each rule of box i once box i is placed
    for i, box in enumerate(boxes):
        cap_after.append(
            {r: sum(sizes[j] for j in range(i + 1, last[r] + 1) if r in boxes[j].rules) for r in box.rules}
        )

    # transitions[i]: list of (state, k, next_state) for box i
    forward: list[dict[tuple[int, ...], np.ndarray]] = [{(): _unit(length)}]
    transitions: list[list[tuple[tuple[int, ...], int, tuple[int, ...]]]] = []
    for i, box in enumerate(boxes):
        size = sizes[i]
        nxt: dict[tuple[int, ...], np.ndarray] = {}
        steps = []
        for state, poly in forward[i].items():
            need = dict(zip(open_at[i], state))
            for r in box.rules:
                need.setdefault(r, counts[r])
            lo = max([0] + [need[r] - cap_after[i][r] for r in box.rules])
            hi = min([size] + [need[r] for r in box.rules])
            for k in range(lo, hi + 1):
                after = dict(need)
                for r in box.rules:
                    after[r] -= k
                key = tuple(after[r] for r in open_at[i + 1])
                steps.append((state, k, key))
                shifted = _shift(poly, k, comb(size, k))
                if key in nxt:
                    nxt[key] += shifted
                else:
                    nxt[key] = shifted
        forward.append(nxt)
        transitions.append(steps)

    backward: list[dict[tuple[int, ...], np.ndarray]] = [{} for _ in range(n + 1)]
    backward[n] = {(): _unit(length)}
    for i in range(n - 1, -1, -1):
        acc: dict[tuple[int, ...], np.ndarray] = {}
        for state, k, key in transitions[i]:
            tail = backward[i + 1].get(key)
            if tail is None:
                continue
            shifted = _shift(tail, k, comb(sizes[i], k))
            if state in acc:
                acc[state] += shifted
            else:
                acc[state] = shifted
        backward[i] = acc

    weight = forward[n].get((), np.zeros(length))
    box_mines = np.zeros((n, length))
    for i in range(n):
        for state, k, key in transitions[i]:
            if k == 0 or key not in backward[i + 1]:
                continue
            both = np.convolve(forward[i][state], backward[i + 1][key])[: length - k]
            box_mines[i, k:] += both * (k * comb(sizes[i], k))
    return Tally(tuple(boxes), weight, box_mines)


def _unit(length: int) -> np.ndarray:
    poly = np.zeros(length)
    poly[0] = 1.0
    return poly


def _shift(poly: np.ndarray, k: int, factor: int) -> np.ndarray:
    if k == 0:
        return poly * factor
    out = np.zeros_like(poly)
    out[k:] = poly[:-k] * factor
    return out


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    out = np.full(k.shape, -np.inf)
    ok = (k >= 0) & (k <= n)
    kk = k[ok].astype(float)
    out[ok] = lgamma(n + 1) - np.array([lgamma(x + 1) + lgamma(n - x + 1) for x in kk])
    return out


def probabilities(problem: Problem) -> Probabilities:
    """Exact probabilities; raises InconsistentBoardError when no layout exists."""
    counts = [rule.count for rule in problem.rules]
    tallies = [tally_component(comp, counts) for comp in split_components(make_boxes(problem))]
    cells: dict[Cell, float] = {}
    n_int = len(problem.interior)
    if problem.mines_left is None:
        # No global count: every layout is equally likely and components are independent.
        total = 1.0
        for t in tallies:
            z = float(t.weight.sum())
            total *= z
            for b, box in enumerate(t.boxes):
                p = float(t.box_mines[b].sum()) / z / len(box.cells) if z else float("nan")
                cells.update(dict.fromkeys(box.cells, p))
        interior = 0.5 if n_int else None
        if total == 0:
            raise InconsistentBoardError("no mine layout fits the numbers shown")
        cells.update(dict.fromkeys(problem.interior, 0.5))
        return Probabilities(cells, interior, tuple(tallies), total, float(np.log(total) + n_int * np.log(2.0)))

    left = problem.mines_left
    # Prefix/suffix convolutions give each component the distribution of all the others.
    prefix = [np.ones(1)]
    for t in tallies:
        prefix.append(np.convolve(prefix[-1], t.weight))
    suffix = [np.ones(1)]
    for t in reversed(tallies):
        suffix.append(np.convolve(suffix[-1], t.weight))
    suffix.reverse()
    everything = prefix[-1]
    j = np.arange(len(everything))
    log_off = _log_comb(n_int, left - j)  # log C(interior, left - j): the interior's layouts
    # The join is done in log space: the interior's binomials span thousands of orders of
    # magnitude on a big board, and scaling them by their overall maximum underflowed every
    # total the numbers allow to 0 (a consistent 100 x 100 board was called inconsistent).
    log_z = _log_dot(everything, log_off)
    if not np.isfinite(log_z):
        raise InconsistentBoardError("no mine layout fits the numbers shown and the mine count")
    for c, t in enumerate(tallies):
        others = np.convolve(prefix[c], suffix[c + 1])
        log_others = _log(others)
        # rest[m] = sum_j others[j] * off[m + j]: the weight of everything else given m here,
        # kept relative to the total so it neither overflows nor underflows
        rest = np.zeros(len(t.weight))
        for m in range(len(t.weight)):
            span = log_off[m : m + len(others)]
            rest[m] = np.exp(_logsumexp(log_others[: len(span)] + span) - log_z)
        for b, box in enumerate(t.boxes):
            cells.update(dict.fromkeys(box.cells, float(t.box_mines[b] @ rest) / len(box.cells)))
    interior = None
    if n_int:
        with np.errstate(divide="ignore"):
            log_left = np.log(np.clip(left - j, 0, None).astype(float))
        interior = float(np.exp(_log_dot(everything, log_off + log_left) - log_z)) / n_int
        cells.update(dict.fromkeys(problem.interior, interior))
    return Probabilities(cells, interior, tuple(tallies), float(np.exp(min(log_z, 700.0))), float(log_z))


def _log(values: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return np.log(values)


def _logsumexp(logs: np.ndarray) -> float:
    if not len(logs):
        return -np.inf
    top = float(np.max(logs))
    if not np.isfinite(top):
        return top
    return top + float(np.log(np.exp(logs - top).sum()))


def _log_dot(weights: np.ndarray, log_factors: np.ndarray) -> float:
    """log(sum_j weights[j] * exp(log_factors[j])), weights >= 0, without leaving log space."""
    return _logsumexp(_log(weights) + log_factors)
