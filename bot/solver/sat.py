"""The logic half of the solver: consistency and forced cells, decided by a SAT solver.

Minicard takes cardinality constraints natively ("at most k of these literals"), so a
rule "exactly k of n" is two native constraints and the global mine count one more pair,
with no auxiliary variables and nothing to count by hand.  Forced cells are the backbone
of the formula, found with the bbscan idiom of pysat's examples: every model found rules
out, at once, every candidate whose value it flips.
"""

from __future__ import annotations

import threading

from pysat.formula import IDPool
from pysat.solvers import Minicard

from bot.board import Cell
from bot.solver.deadline import NO_LIMIT, Deadline, disarm
from bot.solver.rules import Problem, where


class SatCore:
    """One solver per decision: rules in, consistency and forced cells out.

    Only frontier cells get variables.  Interior cells are interchangeable, so the
    global count becomes bounds on the frontier sum, L - I <= sum(frontier) <= L, each
    with a guard literal: assuming `fewer` asks for a layout with a mine in the interior,
    assuming `more` for one with a free interior cell.  Keeping 400 interior variables
    out of the solver makes each query several times faster on Expert.
    """

    def __init__(self, problem: Problem, deadline: Deadline = NO_LIMIT) -> None:
        self.problem = problem
        self.deadline = deadline
        #: False once a call ran out of time: the forced cells found are sound but maybe not all.
        self.complete = True
        self._timer: threading.Timer | None = None
        self.pool = IDPool()
        self.solver = Minicard()
        self.fewer: int | None = None
        self.more: int | None = None
        for rule in problem.rules:
            lits = [self.pool.id(c) for c in rule.cells]
            self.solver.add_atmost(lits, rule.count)
            self.solver.add_atmost([-lit for lit in lits], len(lits) - rule.count)
        left = problem.mines_left
        if left is not None:
            front = [self.pool.id(c) for c in problem.frontier]
            low = left - len(problem.interior)
            if left <= len(front):  # sum(frontier) + fewer <= left
                self.fewer = self.pool.id("fewer")
                self.solver.add_atmost([*front, self.fewer], left)
            if low >= 0:  # sum(not frontier) + more <= F - low, i.e. sum(frontier) >= low + more
                self.more = self.pool.id("more")
                self.solver.add_atmost([*(-lit for lit in front), self.more], len(front) - low)

    def __enter__(self) -> SatCore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        disarm(self._timer)
        self.solver.delete()

    def _solve(self, assumptions: list[int] | None = None) -> bool | None:
        """The SAT answer, or None when the deadline interrupted it (and every call after)."""
        if self.deadline.at is None:
            return bool(self.solver.solve(assumptions=assumptions or []))
        if self._timer is None:  # one timer for all the calls of this decision
            self._timer = self.deadline.interrupter(self.solver.interrupt)
        answer = None if self.deadline.expired() else self.solver.solve_limited(
            assumptions=assumptions or [], expect_interrupt=True)
        if answer is None:
            self.complete = False
        return answer

    def consistent(self) -> bool | None:
        """True or False, or None when the deadline passed first."""
        return self._solve()

    def forced(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """Cells safe in every layout and cells mined in every layout (count included): all of
        them, or when the deadline passes, those proven by then (`complete` turns False)."""
        if not self._solve():
            return frozenset(), frozenset()
        safe: set[Cell] = set()
        mines: set[Cell] = set()
        cells = list(self.problem.frontier)
        model = self._model_set()
        open_ = {c: self.pool.id(c) in model for c in cells}  # candidate -> its value in every model so far
        for cell in cells:
            if cell not in open_:
                continue
            lit = self.pool.id(cell)
            is_mine = open_.pop(cell)
            answer = self._solve([-lit if is_mine else lit])
            if answer is None:
                return frozenset(safe), frozenset(mines)
            if answer:
                model = self._model_set()
                for other in [o for o, v in open_.items() if (self.pool.id(o) in model) != v]:
                    del open_[other]
            else:
                (mines if is_mine else safe).add(cell)
        interior = self.problem.interior
        if interior and self.fewer is not None and self._solve([self.fewer]) is False:
            safe.update(interior)
        elif interior and self.more is not None and self._solve([self.more]) is False:
            mines.update(interior)
        return frozenset(safe), frozenset(mines)

    def _model_set(self) -> set[int]:
        return {lit for lit in self.solver.get_model() or () if lit > 0}


SHOWN_CLASHES = 8  # numbers named in an inconsistency's message; the rest are counted


def explain_inconsistency(problem: Problem, deadline: Deadline = NO_LIMIT) -> str:
    """Name the numbers (and the count) that cannot hold together, from an unsat core.

    Each rule is a pair of native cardinality constraints switched on by its selector: "at most k
    of n" while selected is sum(cells) + (n - k) copies of the selector <= n, each copy a fresh
    variable equal to it (Minicard takes no repeated literal). The mine count over every covered
    cell so stays a few thousand variables where a clausal encoding made millions of clauses (15 s
    on a 100x100 board with 1 000 mines left, past any deadline).
    """
    pool = IDPool()
    selectors: dict[int, str] = {}
    groups: list[tuple[str, list[int], int]] = [
        (where(rule.source), [pool.id(c) for c in rule.cells], rule.count) for rule in problem.rules
    ]
    if problem.mines_left is not None:
        groups.append((f"the {problem.mines_left} mines left", [pool.id(c) for c in problem.covered],
                       problem.mines_left))
    with Minicard() as solver:
        for label, lits, k in groups:
            sel = pool.id(("selector", label))
            selectors[sel] = label
            for way, bound, side in (("most", k, lits), ("least", len(lits) - k, [-lit for lit in lits])):
                copies = [pool.id(("copy", label, way, i)) for i in range(len(side) - bound)]
                for copy in copies:
                    solver.add_clause([-sel, copy])
                    solver.add_clause([sel, -copy])
                solver.add_atmost([*side, *copies], len(side))
        with deadline.interrupting(solver.interrupt):
            answer = solver.solve_limited(assumptions=list(selectors), expect_interrupt=True)
        if answer is None:
            return "no mine layout fits the numbers shown and the mine count (which ones clash was not found in time)"
        if answer:
            return "the board is consistent"
        core = solver.get_core() or list(selectors)
    labels = [selectors[s] for s in core if s in selectors]
    more = f"; and {len(labels) - SHOWN_CLASHES} more" if len(labels) > SHOWN_CLASHES else ""
    return "no mine layout fits " + "; ".join(labels[:SHOWN_CLASHES]) + more
