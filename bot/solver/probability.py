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

The guesser asks for the odds after every number a candidate could show. Those boards differ in
one number only, so they are counted together (by_need): that number's rule is left out of the
state and its mines become a second axis of each polynomial, and the join's sums over the other
components are worked out once for all the numbers. The time is Python's per-step work: a
component of up to EXACT_CELLS cells is counted in Python's integers, each polynomial packed
into one integer, so a step is one operation and the count is exact. Up to DENSE_CELLS cells,
float arrays (exact enough: every weight is a sum of positive terms, relative error near 1e-15;
they cannot overflow); a bigger component (a 100 x 100 board's frontier) in Poly: banded,
rescaled, tilted polynomials. The components' totals are joined with the interior's binomials in
log space: those span thousands of orders of magnitude on a big board, where any one scale
underflows the totals that are possible. Past a deadline, or past MAX_SLOTS coefficients, the
count gives up (OutOfTime): bot.solver.advice then labels its odds approximate (bot.solver.approximate).
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from functools import cached_property
from math import comb, lgamma
from typing import NamedTuple

import numpy as np

from bot.board import Cell
from bot.errors import InconsistentBoardError
from bot.solver.deadline import NO_LIMIT, Deadline, OutOfTime
from bot.solver.rules import Problem


class Box(NamedTuple):
    """Frontier cells that touch exactly the same rules, so share one probability. (A named
    tuple: the memo keys on tuples of boxes, hashed and compared at C speed.)"""

    cells: tuple[Cell, ...]
    rules: tuple[int, ...]


@dataclass(frozen=True)
class Poly:
    """A polynomial in the mine count, m -> value[m], as value[m] = arr[m - lo] * e^scale * x^-m.

    Counts on a big board overflow any float (a 3 000-cell component has ~10^800 layouts), and a
    dense array per DP state as long as the component held gigabytes. So each polynomial keeps
    only the band of mine counts it can have (`lo` on), its own scale, and is *tilted* by x^m (x
    about the odds of a mine among the cells no number touches): in the tilted measure the mine
    counts the whole board favours sit near each polynomial's top, so what underflows to 0 is
    what could never matter (below e^-700 of the top), not what the join with the interior's
    binomials would have brought back."""

    lo: int
    arr: np.ndarray
    scale: float

    def shifted(self, k: int, log_factor: float) -> Poly:
        return Poly(self.lo + k, self.arr, self.scale + log_factor)

    def log_values(self, log_x: float) -> tuple[int, np.ndarray]:
        """(lo, natural logs of the true values from lo on), -inf where a value is 0."""
        with np.errstate(divide="ignore"):
            logs = np.log(self.arr) + self.scale
        return self.lo, logs - log_x * np.arange(self.lo, self.lo + len(self.arr))


def _normal(lo: int, arr: np.ndarray, scale: float) -> Poly:
    """Rescaled so its largest value is 1, when it has drifted far from 1 (kept as is otherwise:
    the rescaling costs more than the products and sums it guards)."""
    top = float(arr.max()) if len(arr) else 0.0
    if 1e-100 < top < 1e100 or top <= 0.0 or not np.isfinite(top):
        return Poly(lo, arr, scale)
    return Poly(lo, arr / top, scale + float(np.log(top)))


def _sum(terms: list[Poly]) -> Poly:
    """Several polynomials added at once: one array and one rescaling instead of one per pair."""
    if len(terms) == 1:
        return terms[0]
    lo = min(t.lo for t in terms)
    hi = max(t.lo + len(t.arr) for t in terms)
    top = max(t.scale for t in terms)
    out = np.zeros(hi - lo)
    for t in terms:
        out[t.lo - lo : t.lo - lo + len(t.arr)] += t.arr * np.exp(t.scale - top)
    return _normal(lo, out, top)


def _times(a: Poly, b: Poly) -> Poly:
    return _normal(a.lo + b.lo, np.convolve(a.arr, b.arr), a.scale + b.scale)


_ONE = Poly(0, np.ones(1), 0.0)
_ZERO = Poly(0, np.zeros(1), 0.0)


@dataclass(frozen=True)
class Tally:
    """One component counted: layouts per mine total, and each box's expected mines per total
    (sums over the layouts of the mines in the box), as tilted polynomials (Poly)."""

    boxes: tuple[Box, ...]
    weight: Poly
    box_mines: tuple[Poly | None, ...]  # None: no layout puts a mine in the box
    log_x: float

    def log_weight(self) -> np.ndarray:
        """Natural log of the number of layouts with m mines, m = 0, 1, ... (-inf: none)."""
        lo, logs = self.weight.log_values(self.log_x)
        return np.concatenate([np.full(lo, -np.inf), logs])

    @cached_property
    def aligned(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The boxes some layout puts a mine in (their indices and sizes), and the natural log of
        each one's mines per mine total, aligned on the weight's band: what every join with the
        rest of the board reads, worked out once per tally (tallies are remembered)."""
        wlo, width = self.weight.lo, len(self.weight.arr)
        rows = [i for i, mines in enumerate(self.box_mines) if mines is not None]
        arr = np.zeros((len(rows), width))
        scales = np.zeros(len(rows))
        for row, i in enumerate(rows):
            mines = self.box_mines[i]
            assert mines is not None
            skip = max(0, wlo - mines.lo)  # (a box's band lies inside the component's)
            at = mines.lo + skip - wlo
            part = mines.arr[skip : skip + width - at]
            arr[row, at : at + len(part)] = part
            scales[row] = mines.scale
        with np.errstate(divide="ignore"):
            log_mines = np.log(arr) + scales[:, None] - self.log_x * np.arange(wlo, wlo + width)
        sizes = np.array([len(self.boxes[i].cells) for i in rows], dtype=float)
        return np.array(rows, dtype=int), log_mines, sizes


@dataclass(frozen=True)
class Probabilities:
    """Mine probabilities: per box of each counted component (a box's cells share one), and
    `interior`, the shared value of the cells no number touches. `cells` lists them cell by cell,
    made when first read: the guesser's look-ahead needs only the safest value (`smallest`)."""

    boxes: tuple[tuple[Box, ...], ...]  # per counted component
    box_odds: tuple[np.ndarray, ...]  # per component, each box's probability for one of its cells
    interior: float | None
    interior_cells: tuple[Cell, ...]
    layouts: float  # total weight (scaled when a count is known): 0 means inconsistent
    log_layouts: float = 0.0  # natural log of the true number of layouts: comparable across boards

    @cached_property
    def cells(self) -> dict[Cell, float]:
        cells: dict[Cell, float] = {}
        for boxes, odds in zip(self.boxes, self.box_odds):
            for box, p in zip(boxes, odds.tolist()):
                cells.update(dict.fromkeys(box.cells, p))
        if self.interior is not None:
            cells.update(dict.fromkeys(self.interior_cells, self.interior))
        return cells

    @property
    def smallest(self) -> float | None:
        """The lowest probability of any covered cell (None: nothing is covered)."""
        lows = [float(odds.min()) for odds in self.box_odds if len(odds)]
        if self.interior is not None and self.interior_cells:
            lows.append(self.interior)
        return min(lows, default=None)


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
    """Boxes linked through shared rules, each component's boxes in their order in `boxes` (the
    memo's keys), components in the order of their first box."""
    by_rule: dict[int, list[int]] = defaultdict(list)
    for i, box in enumerate(boxes):
        for r in box.rules:
            by_rule[r].append(i)
    seen = [False] * len(boxes)
    comps: list[list[Box]] = []
    for start in range(len(boxes)):
        if seen[start]:
            continue
        seen[start] = True
        members, stack = [start], [start]
        while stack:
            for r in boxes[stack.pop()].rules:
                for j in by_rule[r]:
                    if not seen[j]:
                        seen[j] = True
                        members.append(j)
                        stack.append(j)
        comps.append([boxes[i] for i in sorted(members)])
    return comps


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


def tally_component(boxes: list[Box], counts: list[int], log_x: float = 0.0, deadline: Deadline = NO_LIMIT) -> Tally:
    """One component's tally, remembered: the guesser asks about many boards that differ from
    each other in one component only, and a component is counted by its boxes and numbers alone
    (and the tilt, which the mine density sets and moves by whole steps: TILT_STEP)."""
    key = (tuple(boxes), tuple(counts[r] for r in sorted({r for b in boxes for r in b.rules})), log_x)
    found = _MEMO.get(key)
    if found is not None:
        _MEMO.move_to_end(key)
        return found
    tally = _tally(boxes, counts, log_x, deadline)
    _MEMO[key] = tally
    if len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return tally


Step = tuple[int, int, int]  # (state before a box, mines in it, state after): _Layer

#: Components of at most this many cells are counted with plain float arrays, one slot per mine
#: total: no count can overflow (at most 2^cells layouts), and it is the fast path. Larger ones
#: (a 100 x 100 board's frontier) are counted with banded, rescaled polynomials (Poly).
DENSE_CELLS = 400


#: Past this many polynomial coefficients over all the states of one component (8 bytes each, kept
#: forward and backward: up to about 1 GB), its exact count is given up whatever the deadline. A
#: component as wide as a 20 x 20 lattice of numbers has millions of states and filled 3 GB; the
#: widest Expert fixture (expert2-middle: 229 cells, 110 000 states) needs 25 million, 360 MB.
MAX_SLOTS = 60_000_000
#: Past this many steps (a box's mines from one state: a tuple each, about 100 bytes) a
#: component's count is given up too. A 100 x 100 board's frontier of 1 560 cells takes 157 000
#: steps and 95 MB in all, counted in 0.6 s; a component whose states explode passes this within
#: a few boxes.
MAX_STEPS = 2_000_000


def _tally(boxes: list[Box], counts: list[int], log_x: float = 0.0, deadline: Deadline = NO_LIMIT) -> Tally:
    """Count one component's layouts by the forward-backward programme described above."""
    plan = _plan(boxes)
    steps = _walk(plan, counts, deadline)
    deadline.check()
    cells = sum(plan.sizes)
    if cells <= EXACT_CELLS:
        weight, box_mines = _exact_pass(steps, plan.sizes, deadline)
    elif cells <= DENSE_CELLS:
        weight, box_mines = _dense_pass(steps, plan.sizes, deadline)
    else:
        weight, banded = _banded_pass(steps, plan.sizes, log_x, deadline)
        return Tally(plan.boxes, weight, banded, log_x)
    tilted = _tilted(np.vstack([weight, box_mines]), log_x)
    return Tally(plan.boxes, tilted[0] or _ZERO, tuple(tilted[1:]), log_x)


#: Bits of a rule's need in a state: numbers show at most 8.
_SLOT = 4


@dataclass(frozen=True)
class _Layer:
    """One box of a plan. A state is one integer, each open rule's remaining need in its own
    _SLOT bits (a rule keeps its place while open; a finished rule's place is 0 and reused), so a
    step is one subtraction. `begins`: (bit offset, rule) of the rules whose need enters the state
    here; `reads`: (bit offset, cells still to come) of each of the box's rules; `hits`: one in
    the place of each of the box's rules (k mines in the box take k x hits off the state)."""

    size: int
    begins: tuple[tuple[int, int], ...]
    reads: tuple[tuple[int, int], ...]
    hits: int


@dataclass(frozen=True)
class _Plan:
    """What counting a component takes from its boxes alone, whatever the numbers: their order and
    the layers. The numbers a guess could show give components of the same boxes with one count
    changed, so the guesser's recounts share one plan (remembered, like the tallies)."""

    boxes: tuple[Box, ...]
    sizes: tuple[int, ...]
    layers: tuple[_Layer, ...]
    rules: tuple[int, ...]
    loose: tuple[bool, ...] = ()  # per layer: the box lies in the free rule (tally_free)


_PLANS: OrderedDict[tuple[tuple[Box, ...], int | None], _Plan] = OrderedDict()


def _plan(boxes: list[Box], free: int | None = None) -> _Plan:
    """`free`: a rule whose need is left open (no place in the state): tally_free counts its
    mines in the polynomial instead."""
    key = (tuple(boxes), free)
    found = _PLANS.get(key)
    if found is not None:
        _PLANS.move_to_end(key)
        return found
    ordered = _order(boxes)
    sizes = [len(b.cells) for b in ordered]
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    remaining: dict[int, int] = defaultdict(int)  # cells of each rule in the boxes not yet placed
    for i, box in enumerate(ordered):
        for r in box.rules:
            if r == free:
                continue
            first.setdefault(r, i)
            last[r] = i
            remaining[r] += sizes[i]
    # Places are handed out as rules begin and taken back as they end (a sweep: recomputing the
    # open rules for every box was quadratic, 27 s on a 100 x 100 board).
    place: dict[int, int] = {}
    unused: list[int] = []
    layers = []
    for i, box in enumerate(ordered):
        begins = []
        held = [r for r in box.rules if r != free]
        for r in held:
            remaining[r] -= sizes[i]
            if first[r] == i:
                place[r] = unused.pop() if unused else len(place) + len(unused)
                begins.append((_SLOT * place[r], r))
        reads = tuple((_SLOT * place[r], remaining[r]) for r in held)
        hits = sum(1 << _SLOT * place[r] for r in held)
        layers.append(_Layer(sizes[i], tuple(begins), reads, hits))
        for r in held:
            if last[r] == i:
                unused.append(place.pop(r))
    loose = tuple(free in box.rules for box in ordered) if free is not None else ()
    plan = _Plan(tuple(ordered), tuple(sizes), tuple(layers), tuple(first), loose)
    _PLANS[key] = plan
    if len(_PLANS) > _MEMO_SIZE:
        _PLANS.popitem(last=False)
    return plan


def _walk(plan: _Plan, counts: list[int], deadline: Deadline) -> list[list[Step]]:
    """Every way through the boxes in order: the state is the remaining need of the rules begun
    and not yet finished, and a step puts k mines in one box. The counting passes follow these."""
    if any(not 0 <= counts[r] < 1 << _SLOT for r in plan.rules):
        return [[] for _ in plan.layers]  # (no layout: a need no box can meet)
    states: list[int] = [0]
    out: list[list[Step]] = []
    length, slots, mask = sum(plan.sizes) + 1, 0, (1 << _SLOT) - 1
    taken = 0  # steps kept so far
    for layer in plan.layers:
        steps: list[Step] = []
        enter = sum(counts[r] << at for at, r in layer.begins)
        for state in states:
            now = state + enter
            lo, hi = 0, layer.size
            for at, rest in layer.reads:  # (comparisons, not min and max: this is the hot loop)
                need = now >> at & mask
                if need - rest > lo:
                    lo = need - rest
                if need < hi:
                    hi = need
            steps.extend((state, k, now - k * layer.hits) for k in range(lo, hi + 1))
        out.append(steps)
        states = list(dict.fromkeys(key for _, _, key in steps))
        taken += len(steps)
        if length <= DENSE_CELLS + 1:  # (a state's array is as long as the component: counted here)
            slots += len(states) * length
        if slots > MAX_SLOTS or taken > MAX_STEPS:  # (a bigger one's bands: by the banded pass, as they grow)
            raise OutOfTime("the component has too many states to count exactly")
        deadline.check()
    return out


#: Components of at most this many cells are counted with Python's integers, each polynomial in
#: the mine count packed into one integer (a coefficient every few bytes, wide enough that none
#: carries into the next): a shift, a product and a sum each cost one operation on it, which is
#: what the guesser's many small recounts need (1.5 to 3 times faster than the float arrays on
#: Expert's look-ahead, and exact). Past it the products of long integers cost more than
#: convolving floats.
EXACT_CELLS = 130


def _exact_pass(steps: list[list[Step]], sizes: tuple[int, ...], deadline: Deadline = NO_LIMIT,
                loose: tuple[bool, ...] = (), room: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """_dense_pass with packed integers: (weight, each box's expected mines) per mine total.

    With `loose` (tally_free), the mines of the boxes it marks are counted twice over, by the
    mine total and by the free rule's need (0 to `room`): each polynomial packs one row of
    coefficients per need, so a loose box's k mines shift by k rows and k slots. The results
    then have a need axis before the mine total's."""
    n, cells = len(sizes), sum(sizes)
    length = cells + 1
    width = (cells + cells.bit_length() + 9) // 8  # bytes per coefficient: > cells x 2^cells
    bits = 8 * width
    unit = [bits * (length + 1) if loose and loose[i] else bits for i in range(n)]
    ways = [[comb(size, k) for k in range(size + 1)] for size in sizes]
    forward: list[dict[int, int]] = [{0: 1}]
    for i in range(n):
        here, w, nxt, u = forward[i], ways[i], {}, unit[i]
        for state, k, key in steps[i]:
            nxt[key] = nxt.get(key, 0) + (here[state] << u * k) * w[k]
        forward.append(nxt)
        deadline.check()  # (a wide component has many states a box: each pass is checked box by box)
    backward: list[dict[int, int]] = [{} for _ in range(n + 1)]
    backward[n] = {0: 1}
    for i in range(n - 1, -1, -1):
        tails, w, acc, u = backward[i + 1], ways[i], {}, unit[i]
        for state, k, key in steps[i]:
            tail = tails.get(key)
            if tail is not None:
                acc[state] = acc.get(state, 0) + (tail << u * k) * w[k]
        backward[i] = acc
        deadline.check()
    totals = [forward[n].get(0, 0)]
    for i in range(n):
        here, tails, w, total, u = forward[i], backward[i + 1], ways[i], 0, unit[i]
        for state, k, key in steps[i]:
            tail = tails.get(key) if k else None
            if tail is not None:
                total += (here[state] * tail << u * k) * (k * w[k])
        totals.append(total)
        deadline.check()
    size = length * (room + 1) * width
    raw = b"".join(v.to_bytes(size, "little") for v in totals)
    digits = np.frombuffer(raw, dtype=np.uint8).reshape(n + 1, (room + 1) * length, width).astype(float)
    counted = digits @ (256.0 ** np.arange(width))
    if loose:
        counted = counted.reshape(n + 1, room + 1, length)
    return counted[0], counted[1:]


class Free(NamedTuple):
    """One component counted for every need of one of its rules (tally_free): plain counts."""

    boxes: tuple[Box, ...]
    weight: np.ndarray  # [need, mines]: layouts
    box_mines: np.ndarray  # [box, need, mines]: the box's mines summed over those layouts

    def tally(self, need: int, log_x: float) -> Tally | None:
        """The tally of one need (None: no layout has it)."""
        tilted = _tilted(np.vstack([self.weight[need], self.box_mines[:, need]]), log_x)
        return None if tilted[0] is None else Tally(self.boxes, tilted[0], tuple(tilted[1:]), log_x)


def tally_free(boxes: list[Box], counts: list[int], free: int, room: int, deadline: Deadline = NO_LIMIT
               ) -> Free | None:
    """One component counted for every need of rule `free` (0 to `room`) at once: the guesser
    asks what each number a cell could show leaves, and the boards differ in that one need only.
    None where the component is too big for packed integers (EXACT_CELLS): the caller counts
    need by need."""
    plan = _plan(boxes, free)
    if sum(plan.sizes) > EXACT_CELLS:
        return None
    steps = _walk(plan, counts, deadline)
    weight, box_mines = _exact_pass(steps, plan.sizes, deadline, plan.loose, room)
    return Free(plan.boxes, weight, box_mines)


def _dense_pass(steps: list[list[Step]], sizes: tuple[int, ...], deadline: Deadline = NO_LIMIT
                ) -> tuple[np.ndarray, np.ndarray]:
    """Layout counts per mine total as float arrays: (weight, each box's expected mines)."""
    n, length = len(sizes), sum(sizes) + 1
    ways = [[comb(size, k) for k in range(size + 1)] for size in sizes]
    unit = np.zeros(length)
    unit[0] = 1.0
    forward: list[dict[int, np.ndarray]] = [{0: unit}]
    for i in range(n):
        nxt: dict[int, np.ndarray] = {}
        for state, k, key in steps[i]:
            shifted = _shift(forward[i][state], k, ways[i][k])
            if key in nxt:
                nxt[key] += shifted
            else:
                nxt[key] = shifted
        forward.append(nxt)
        deadline.check()
    backward: list[dict[int, np.ndarray]] = [{} for _ in range(n + 1)]
    backward[n] = {0: unit}
    for i in range(n - 1, -1, -1):
        acc: dict[int, np.ndarray] = {}
        for state, k, key in steps[i]:
            tail = backward[i + 1].get(key)
            if tail is None:
                continue
            shifted = _shift(tail, k, ways[i][k])
            if state in acc:
                acc[state] += shifted
            else:
                acc[state] = shifted
        backward[i] = acc
        deadline.check()
    weight = forward[n].get(0, np.zeros(length))
    box_mines = np.zeros((n, length))
    for i in range(n):
        for state, k, key in steps[i]:
            if k == 0 or key not in backward[i + 1]:
                continue
            both = np.convolve(forward[i][state], backward[i + 1][key])[: length - k]
            box_mines[i][k:] += both * (k * ways[i][k])
        deadline.check()
    return weight, box_mines


def _shift(poly: np.ndarray, k: int, factor: int) -> np.ndarray:
    if k == 0:
        return poly * factor
    out = np.zeros_like(poly)
    out[k:] = poly[:-k] * factor
    return out


def _tilted(counts: np.ndarray, log_x: float) -> list[Poly | None]:
    """Rows of plain counts per mine total as tilted Polys (None for a row of zeros)."""
    with np.errstate(divide="ignore"):
        logs = np.log(counts) + log_x * np.arange(counts.shape[1])
    top = logs.max(axis=1)
    live = np.isfinite(top)
    arr = np.exp(logs - np.where(live, top, 0.0)[:, None])
    return [Poly(0, arr[i], float(top[i])) if live[i] else None for i in range(len(counts))]


def _banded_pass(
    steps: list[list[Step]], sizes: tuple[int, ...], log_x: float, deadline: Deadline
) -> tuple[Poly, tuple[Poly | None, ...]]:
    """The same passes on tilted, banded, rescaled polynomials, for components too big for floats."""
    n = len(sizes)
    # log of C(size, k) x^k: a box of `size` cells holding k mines, tilted
    step = [[_log_binom(size, k) + k * log_x for k in range(size + 1)] for size in sizes]
    forward: list[dict[int, Poly]] = [{0: _ONE}]
    slots = 0
    for i in range(n):
        nxt: dict[int, list[Poly]] = defaultdict(list)
        for state, k, key in steps[i]:
            nxt[key].append(forward[i][state].shifted(k, step[i][k]))
        forward.append({key: _sum(terms) for key, terms in nxt.items()})
        slots += sum(len(p.arr) for p in forward[-1].values())
        if 2 * slots > MAX_SLOTS:  # (the backward pass keeps as many)
            raise OutOfTime("the component has too many states to count exactly")
        deadline.check()
    backward: list[dict[int, Poly]] = [{} for _ in range(n + 1)]
    backward[n] = {0: _ONE}
    for i in range(n - 1, -1, -1):
        acc: dict[int, list[Poly]] = defaultdict(list)
        for state, k, key in steps[i]:
            tail = backward[i + 1].get(key)
            if tail is not None:
                acc[state].append(tail.shifted(k, step[i][k]))
        backward[i] = {state: _sum(terms) for state, terms in acc.items()}
        deadline.check()
    weight = forward[n].get(0, _ZERO)
    box_mines: list[Poly | None] = []
    for i in range(n):
        terms = [
            _times(forward[i][state], backward[i + 1][key]).shifted(k, step[i][k] + float(np.log(k)))
            for state, k, key in steps[i]
            if k and key in backward[i + 1]
        ]
        box_mines.append(_sum(terms) if terms else None)
    return weight, tuple(box_mines)


def _log_binom(n: int, k: int) -> float:
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    out = np.full(k.shape, -np.inf)
    ok = (k >= 0) & (k <= n)
    kk = k[ok].astype(float)
    out[ok] = lgamma(n + 1) - np.array([lgamma(x + 1) + lgamma(n - x + 1) for x in kk])
    return out


#: The tilt (Poly) moves in steps of this, in log odds: tallies are remembered per tilt, and the
#: boards of one game change their mine density slowly.
TILT_STEP = 0.5


def _tilt(problem: Problem) -> float:
    """log x for the tilted counts: about the log odds of a mine in a cell no number touches."""
    if problem.mines_left is None:
        return 0.0
    cells = max(1, len(problem.frontier) + len(problem.interior))
    q = min(max(problem.mines_left / cells, 1e-3), 1 - 1e-3)
    return round(float(np.log(q / (1 - q))) / TILT_STEP) * TILT_STEP


def _log_sum(poly: Poly) -> float:
    total = float(poly.arr.sum())
    return poly.scale + float(np.log(total)) if total > 0 else -np.inf


def _tallies(problem: Problem, deadline: Deadline) -> tuple[list[Tally], float]:
    counts = [rule.count for rule in problem.rules]
    log_x = _tilt(problem)
    return [tally_component(comp, counts, log_x, deadline) for comp in split_components(make_boxes(problem))], log_x


def log_count(problem: Problem, deadline: Deadline = NO_LIMIT) -> float:
    """Natural log of the number of layouts that fit (-inf: none), as `probabilities` finds it
    (its log_layouts) without the odds of each box: what the long-term risk asks of many
    settled boards."""
    tallies, log_x = _tallies(problem, deadline)
    n_int = len(problem.interior)
    if problem.mines_left is None:
        return sum((_log_sum(t.weight) for t in tallies), n_int * float(np.log(2.0)))
    every = _ONE
    for t in tallies:
        every = _times(every, t.weight)
    lo, log_every = every.log_values(log_x)
    log_off = _log_comb(n_int, problem.mines_left - np.arange(lo + len(log_every)))
    return _logsumexp(log_every + log_off[lo:])


def by_need(problem: Problem, free: int, room: int, deadline: Deadline = NO_LIMIT) -> list[Probabilities | None] | None:
    """The odds for every need of rule `free` (0 to `room`; its count in `problem` is not read):
    None for a need no layout fits. What the guesser asks of each number a cell could show, with
    the component that rule lies in counted once for all of them (tally_free) instead of once
    each. None where that component is too big for it: the caller asks need by need."""
    counts = [rule.count for rule in problem.rules]
    log_x = _tilt(problem)
    comps = split_components(make_boxes(problem))
    star = next(i for i, comp in enumerate(comps) if any(free in box.rules for box in comp))
    each = tally_free(comps[star], counts, free, room, deadline)
    if each is None:
        return None
    rest = [tally_component(comp, counts, log_x, deadline) for i, comp in enumerate(comps) if i != star]
    if problem.mines_left is not None:
        return _join_each(problem, rest, star, each, log_x)
    out: list[Probabilities | None] = []
    for need in range(room + 1):
        tally = each.tally(need, log_x)
        try:
            out.append(None if tally is None else join(problem, [*rest[:star], tally, *rest[star:]], log_x))
        except InconsistentBoardError:
            out.append(None)
    return out


def _join_each(problem: Problem, rest: list[Tally], star: int, each: Free, log_x: float
               ) -> list[Probabilities | None]:
    """join for each need of one component (`each`), the others (`rest`, the component at `star`
    left out) and the mine count fixed. Every sum of the join splits into the others' part,
    worked out once as a function of the mines in that one component, and that component's own
    counts: so each need costs a few small array operations, not a join. (The same sums as
    join's, in another order: equal to rounding.)"""
    assert problem.mines_left is not None
    needs, length = each.weight.shape
    out: list[Probabilities | None] = [None] * needs
    n_int, left = len(problem.interior), problem.mines_left
    with np.errstate(divide="ignore"):
        log_s = np.log(each.weight)  # [need, mines]: the component's log weights
        log_bm = np.log(each.box_mines)
    prefix, suffix = _products(rest)
    olo, log_others = prefix[-1].log_values(log_x)
    reach = length + sum(t.weight.lo + len(t.weight.arr) for t in rest) + 1
    log_off = _log_comb(n_int, left - np.arange(reach))  # the interior's layouts, by frontier mines
    with np.errstate(divide="ignore"):
        log_left = np.log(np.clip(left - np.arange(reach), 0, None).astype(float))
    # By the component's mines s: the weight of everything else, and of its interior mines.
    rest_w = _logsumexp_last(_windows(log_off[olo:], len(log_others), length) + log_others)
    inner_w = _logsumexp_last(_windows((log_off + log_left)[olo:], len(log_others), length) + log_others)
    log_z = _logsumexp_last(log_s + rest_w)
    live = np.flatnonzero(np.isfinite(log_z))  # (the needs some layout has, the mine count too)
    if not len(live):
        return out
    log_s, log_z = log_s[live], log_z[live]
    # Its boxes' odds: their mines by its mines, times everything else's weight.
    sizes = np.array([len(box.cells) for box in each.boxes], dtype=float)
    star_odds = np.exp(_logsumexp_last(log_bm[:, live] + (rest_w - log_z[:, None])[None])).T / sizes
    # The others' odds: each one's weight of the rest but it, by its mines plus the component's.
    others: list[np.ndarray] = []
    for c, t in enumerate(rest):
        nlo, log_nc = _times(prefix[c], suffix[c + 1]).log_values(log_x)
        wlo, width = t.weight.lo, len(t.weight.arr)
        by_sum = _logsumexp_last(_windows(log_off[wlo + nlo :], len(log_nc), width + length - 1) + log_nc)
        given = _logsumexp_last(log_s[:, None, :] + _windows(by_sum, length, width)[None]) - log_z[:, None]
        rows, log_mines, box_sizes = t.aligned
        odds = np.zeros((len(live), len(t.boxes)))
        if len(rows):
            odds[:, rows] = np.exp(_logsumexp_last(log_mines[None] + given[:, None, :])) / box_sizes
        others.append(odds)
    interior = np.exp(_logsumexp_last(log_s + inner_w) - log_z) / n_int if n_int else None
    boxes = tuple(t.boxes for t in rest)
    boxes = (*boxes[:star], each.boxes, *boxes[star:])
    for row, need in enumerate(live.tolist()):
        box_odds = [o[row] for o in others]
        box_odds.insert(star, star_odds[row])
        out[need] = Probabilities(boxes, tuple(box_odds), None if interior is None else float(interior[row]),
                                  problem.interior, float(np.exp(min(log_z[row], 700.0))), float(log_z[row]))
    return out


def _products(tallies: list[Tally]) -> tuple[list[Poly], list[Poly]]:
    """The weights' products over the first c tallies and over the tallies from c on: with them
    each component gets the distribution of all the others (prefix[c] x suffix[c + 1])."""
    prefix = [_ONE]
    for t in tallies:
        prefix.append(_times(prefix[-1], t.weight))
    suffix = [_ONE]
    for t in reversed(tallies):
        suffix.append(_times(suffix[-1], t.weight))
    suffix.reverse()
    return prefix, suffix


def _windows(arr: np.ndarray, size: int, count: int) -> np.ndarray:
    """The first `count` windows of `size` values of arr (-inf past its end)."""
    need = size + count - 1
    if len(arr) < need:
        arr = np.concatenate([arr, np.full(need - len(arr), -np.inf)])
    return np.lib.stride_tricks.sliding_window_view(arr, size)[:count]


def _logsumexp_last(logs: np.ndarray) -> np.ndarray:
    """log(sum(exp)) over the last axis, -inf where nothing there is finite."""
    top = logs.max(axis=-1)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.exp(logs - safe[..., None]).sum(axis=-1))


def probabilities(problem: Problem, deadline: Deadline = NO_LIMIT) -> Probabilities:
    """Exact probabilities; raises InconsistentBoardError when no layout exists, OutOfTime when
    the deadline passes (or a component is too wide to count) first."""
    tallies, log_x = _tallies(problem, deadline)
    return join(problem, tallies, log_x)


def join(problem: Problem, tallies: list[Tally], log_x: float) -> Probabilities:
    """The odds of every covered cell from the components' tallies, the interior and the mine
    count (the problem's rules are not read: they made the tallies)."""
    n_int = len(problem.interior)
    box_odds: list[np.ndarray] = []
    if problem.mines_left is None:
        # No global count: every layout is equally likely and components are independent (untilted).
        log_total = 0.0
        for t in tallies:
            log_z = _log_sum(t.weight)
            if not np.isfinite(log_z):
                raise InconsistentBoardError("no mine layout fits the numbers shown")
            log_total += log_z
            box_odds.append(np.array([0.0 if mines is None else float(np.exp(_log_sum(mines) - log_z)) / len(box.cells)
                                      for box, mines in zip(t.boxes, t.box_mines)]))
        return Probabilities(tuple(t.boxes for t in tallies), tuple(box_odds), 0.5 if n_int else None, problem.interior,
                             float(np.exp(min(log_total, 700.0))), float(log_total + n_int * np.log(2.0)))

    left = problem.mines_left
    prefix, suffix = _products(tallies)
    lo, log_every = prefix[-1].log_values(log_x)
    top = lo + len(log_every)
    log_off = _log_comb(n_int, left - np.arange(top))  # log C(interior, left - j): the interior's layouts
    # The join is done in log space: the interior's binomials span thousands of orders of
    # magnitude on a big board, and scaling them by their overall maximum underflowed every
    # total the numbers allow to 0 (a consistent 100 x 100 board was called inconsistent).
    log_z = _logsumexp(log_every + log_off[lo:])
    if not np.isfinite(log_z):
        raise InconsistentBoardError("no mine layout fits the numbers shown and the mine count")
    for c, t in enumerate(tallies):
        olo, log_others = _times(prefix[c], suffix[c + 1]).log_values(log_x)
        wlo, width = t.weight.lo, len(t.weight.arr)
        # rest[i]: the weight of everything else given wlo + i mines here, relative to the total
        rest = _logsumexp_last(_windows(log_off[wlo + olo :], len(log_others), width) + log_others) - log_z
        rows, log_mines, sizes = t.aligned
        odds = np.zeros(len(t.boxes))
        if len(rows):
            odds[rows] = np.exp(_logsumexp_last(log_mines + rest)) / sizes
        box_odds.append(np.clip(odds, 0.0, 1.0))  # (a certain mine's sum of a thousand terms may pass 1 by 1e-13)
    interior = None
    if n_int:
        with np.errstate(divide="ignore"):
            log_left = np.log(np.clip(left - np.arange(lo, top), 0, None).astype(float))
        interior = float(np.exp(_logsumexp(log_every + log_off[lo:] + log_left) - log_z)) / n_int
    return Probabilities(tuple(t.boxes for t in tallies), tuple(box_odds), interior, problem.interior,
                         float(np.exp(min(log_z, 700.0))), float(log_z))


def _logsumexp(logs: np.ndarray) -> float:
    if not len(logs):
        return -np.inf
    top = float(np.max(logs))
    if not np.isfinite(top):
        return top
    return top + float(np.log(np.exp(logs - top).sum()))
