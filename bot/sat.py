"""The logic half of the solver: consistency and forced cells, decided by a SAT solver.

Minicard takes cardinality constraints natively ("at most k of these literals"), so a
rule "exactly k of n" is two native constraints and the global mine count one more pair,
with no auxiliary variables and nothing to count by hand.  Forced cells are the backbone
of the formula, found with the bbscan idiom of pysat's examples: every model found rules
out, at once, every candidate whose value it flips.
"""

from __future__ import annotations

from collections.abc import Iterable

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Minicard, Solver

from bot.board import Cell
from bot.rules import Problem, where


class SatCore:
    """One solver per decision: rules in, consistency and forced cells out."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.pool = IDPool()
        self.solver = Minicard()
        for rule in problem.rules:
            self._exactly([self.pool.id(c) for c in rule.cells], rule.count)
        if problem.mines_left is not None:
            self._exactly([self.pool.id(c) for c in problem.covered], problem.mines_left)

    def _exactly(self, lits: list[int], k: int) -> None:
        self.solver.add_atmost(lits, k)
        self.solver.add_atmost([-lit for lit in lits], len(lits) - k)

    def __enter__(self) -> SatCore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.solver.delete()

    def consistent(self) -> bool:
        return bool(self.solver.solve())

    def candidates(self) -> list[Cell]:
        """Cells worth asking about: the frontier, and one interior cell speaking for all.

        Interior cells are interchangeable (only the global count constrains them), so one
        of them is forced exactly when all are; without a count, none can be.
        """
        cells = list(self.problem.frontier)
        if self.problem.mines_left is not None and self.problem.interior:
            cells.append(self.problem.interior[0])
        return cells

    def forced(self) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """Cells safe in every layout and cells mined in every layout (complete, count included)."""
        cells = self.candidates()
        if not cells or not self.solver.solve():
            return frozenset(), frozenset()
        value = self._values(cells)
        open_: dict[Cell, bool] = dict(zip(cells, value))  # candidate -> value in all models so far
        settled: dict[Cell, bool] = {}
        for cell in cells:
            if cell not in open_:
                continue
            lit = self.pool.id(cell)
            is_mine = open_.pop(cell)
            if self.solver.solve(assumptions=[-lit if is_mine else lit]):
                model = self._model_set()
                for other in [o for o, v in open_.items() if (self.pool.id(o) in model) != v]:
                    del open_[other]
            else:
                settled[cell] = is_mine
        safe = {c for c, m in settled.items() if not m}
        mines = {c for c, m in settled.items() if m}
        interior = self.problem.interior
        if interior and interior[0] in settled:
            (mines if settled[interior[0]] else safe).update(interior)
        return frozenset(safe), frozenset(mines)

    def _model_set(self) -> set[int]:
        return {lit for lit in self.solver.get_model() if lit > 0}

    def _values(self, cells: Iterable[Cell]) -> list[bool]:
        model = self._model_set()
        return [self.pool.id(c) in model for c in cells]


def explain_inconsistency(problem: Problem) -> str:
    """Name the numbers (and the count) that cannot hold together, from an unsat core.

    Only called on the error path, so a clausal encoding with one selector per rule is
    fine here: it is what lets the solver point at the culprits.
    """
    pool = IDPool()
    selectors: dict[int, str] = {}
    with Solver(name="g4") as solver:
        groups: list[tuple[str, list[int], int]] = [
            (where(rule.source), [pool.id(c) for c in rule.cells], rule.count) for rule in problem.rules
        ]
        if problem.mines_left is not None:
            groups.append(
                (f"the {problem.mines_left} mines left", [pool.id(c) for c in problem.covered], problem.mines_left)
            )
        encoded = []
        for label, lits, k in groups:
            cnf = CardEnc.equals(lits=lits, bound=k, vpool=pool, encoding=EncType.seqcounter)
            encoded.append((label, cnf.clauses))
        for label, clauses in encoded:
            sel = pool.id(("selector", label))
            selectors[sel] = label
            for clause in clauses:
                solver.add_clause(clause + [-sel])
        if solver.solve(assumptions=list(selectors)):
            return "the board is consistent"
        core = solver.get_core() or list(selectors)
    labels = [selectors[s] for s in core if s in selectors]
    return "no mine layout fits " + "; ".join(labels)
