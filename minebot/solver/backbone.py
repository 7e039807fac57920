"""Certain cells by SAT backbone, and minimal explanations from unsatisfiable cores.

Variable ``v + 1`` is "frontier cell v is a mine". Two encodings of "exactly k of these":

* ``native``: Minicard's own cardinality constraints, ``atmost(lits, k)`` and
  ``atmost(-lits, n - k)``. Measured fastest on expert positions (no auxiliary variables).
* ``binomial``: the classic subset CNF with Minisat22: every k+1 cells hold a safe cell and
  every n-k+1 cells hold a mine. Kept as the textbook formulation and as a cross-check.

The global mine count enters as bounds on the frontier: with U background cells and M mines
left, ``max(0, M-U) <= sum(frontier) <= min(F, M)``; any frontier layout in that range extends
to a full layout, so the backbone is exactly the set of cells fixed in every layout.

The backbone is found by the iterative algorithm that filters the candidates with every model
found (Marques-Silva, Janota, Lynce 2010): take any model, keep as candidates the literals it
makes true, and test one candidate at a time under the assumption of its negation; an UNSAT
answer proves it, a model drops every candidate it contradicts.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterable, NamedTuple

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Minicard, Minisat22

from .constraints import Constraints

ENCODINGS = ("native", "binomial")


def frontier_bounds(cons: Constraints) -> tuple[int, int] | None:
    """Bounds on the frontier's mine count from the global count, or None if it says nothing."""
    if cons.mines_left is None:
        return None
    f, u, m = cons.frontier_size, len(cons.background), cons.mines_left
    return max(0, m - u), min(f, m)


def _binomial_exactly(lits: list[int], k: int) -> Iterable[list[int]]:
    n = len(lits)
    if k < n:
        for sub in combinations(lits, k + 1):
            yield [-x for x in sub]
    if k > 0:
        for sub in combinations(lits, n - k + 1):
            yield list(sub)


def frontier_solver(cons: Constraints, encoding: str, bounds: tuple[int, int] | None,
                    numbers: list[int] | None = None):
    """A fresh solver holding the numbers (all, or the chosen ones) and the global bounds."""
    f = cons.frontier_size
    chosen = range(len(cons.numbers)) if numbers is None else numbers
    if encoding == "native":
        solver = Minicard()
        for j in chosen:
            number = cons.numbers[j]
            lits = [v + 1 for v in number.vars]
            # "at most all of them" says nothing: a number that needs none of its cells or
            # all of them is one constraint, not two (the same layouts, fewer calls)
            if number.need < len(lits):
                solver.add_atmost(lits, number.need)
            if number.need > 0:
                solver.add_atmost([-x for x in lits], len(lits) - number.need)
        if bounds is not None:
            lo, hi = bounds
            allv = list(range(1, f + 1))
            if hi < f:
                solver.add_atmost(allv, hi)
            if lo > 0:
                solver.add_atmost([-x for x in allv], f - lo)
        return solver
    if encoding == "binomial":
        solver = Minisat22()
        for j in chosen:
            number = cons.numbers[j]
            for clause in _binomial_exactly([v + 1 for v in number.vars], number.need):
                solver.add_clause(clause)
        if bounds is not None:
            lo, hi = bounds
            pool = IDPool(start_from=f + 1)
            allv = list(range(1, f + 1))
            if hi < f:
                for clause in CardEnc.atmost(allv, hi, vpool=pool, encoding=EncType.seqcounter).clauses:
                    solver.add_clause(clause)
            if lo > 0:
                for clause in CardEnc.atleast(allv, lo, vpool=pool, encoding=EncType.seqcounter).clauses:
                    solver.add_clause(clause)
        return solver
    raise ValueError(f"unknown encoding {encoding!r}: expected one of {', '.join(ENCODINGS)}")


class Backbone(NamedTuple):
    """What the backbone search found: the fixed frontier variables (``{var: is_mine}``) and
    the fewest and most mines on the frontier among the layouts it met on the way.

    The mine range is free (every SAT model is a frontier layout) and answers most of the
    questions about the background (``analysis.background_certainty``) without building
    another solver: a layout seen with fewer mines than are left proves that the background
    can hold one, for instance."""

    fixed: dict[int, bool]
    fewest: int
    most: int


def backbone(cons: Constraints, encoding: str = "native") -> dict[int, bool] | None:
    """Frontier variables fixed in every layout: ``{var: is_mine}``; None when no layout fits."""
    found = backbone_search(cons, encoding)
    return None if found is None else found.fixed


def backbone_search(cons: Constraints, encoding: str = "native",
                    likely_mines: Iterable[int] = ()) -> Backbone | None:
    """The backbone (see ``Backbone``); None when no layout fits.

    ``likely_mines`` are variables the caller expects to be certain mines (those proved on the
    same game's previous move, which stay on the frontier until the game ends): they are put
    to the solver together, and one UNSAT answer to "one of them is safe" proves them all,
    where each would otherwise take a call of its own. Only a proof counts, so a wrong or stale
    hint costs one call and changes nothing: the backbone is the same with or without them."""
    f = cons.frontier_size
    if f == 0:
        return Backbone({}, 0, 0)
    bounds = frontier_bounds(cons)
    if bounds is not None and bounds[0] > bounds[1]:
        return None
    solver = frontier_solver(cons, encoding, bounds)
    try:
        if not solver.solve():
            return None
        model = solver.get_model()
        candidates = {lit for lit in model[:f]}
        fewest = most = sum(1 for lit in model[:f] if lit > 0)
        fixed: dict[int, bool] = {}
        # Each candidate's phase is set against it, so that a model drops as many as it can.
        # After a proof only the proved candidate leaves, so the phases are set anew only after
        # a model: the same backbone (the models met may differ), for far fewer calls.
        phases_due = encoding == "native"
        hinted = [v + 1 for v in likely_mines if v + 1 in candidates] if encoding == "native" else []
        if len(hinted) > 1:
            # A selector variable past the frontier's (the native encoding has no others) turns
            # the clause "one hinted cell is safe" on for this call only.
            selector = f + 1
            solver.add_clause([-selector] + [-x for x in hinted])
            if solver.solve(assumptions=[selector]):
                model = solver.get_model()
                candidates.intersection_update(model[:f])
                mines = sum(1 for lit in model[:f] if lit > 0)
                fewest, most = min(fewest, mines), max(most, mines)
            else:
                for lit in hinted:
                    fixed[lit - 1] = True
                    solver.add_clause([lit])
                candidates.difference_update(hinted)
        while candidates:
            if phases_due:
                solver.set_phases([-x for x in candidates])
                phases_due = False
            lit = candidates.pop()
            if solver.solve(assumptions=[-lit]):
                model = solver.get_model()
                candidates.intersection_update(model[:f])
                mines = sum(1 for lit in model[:f] if lit > 0)
                fewest, most = min(fewest, mines), max(most, mines)
                phases_due = encoding == "native"
            else:
                fixed[abs(lit) - 1] = lit > 0
                solver.add_clause([lit])
        return Backbone(fixed, fewest, most)
    finally:
        solver.delete()


def any_certain_safe(cons: Constraints) -> bool:
    """Whether some frontier cell is certainly safe (stops at the first one found).

    The look-ahead asks this for every value a guess could show: when the answer is yes the
    next move is free, and the per-cell counts are not needed at all.
    """
    f = cons.frontier_size
    if f == 0:
        return False
    if any(number.need == 0 for number in cons.numbers):
        return True
    bounds = frontier_bounds(cons)
    if bounds is not None and bounds[0] > bounds[1]:
        return False
    solver = frontier_solver(cons, "native", bounds)
    try:
        if not solver.solve():
            return False
        # Candidates: variables (as "is a mine" literals) that are safe in every model so far.
        candidates = {-lit for lit in solver.get_model()[:f] if lit < 0}
        while candidates:
            mine = candidates.pop()
            if not solver.solve(assumptions=[mine]):
                return True
            candidates.intersection_update(-x for x in solver.get_model()[:f] if x < 0)
        return False
    finally:
        solver.delete()


# -- explanations --------------------------------------------------------------------------
class Explainer:
    """Finds small sets of numbers (and the mine total) that prove a fact, from UNSAT cores.

    Each number j gets a selector variable; "selector -> exactly need" is written for Minicard
    with auxiliary copies of the selector (``atmost(lits + copies, n)`` holds ``sum <= k`` once
    the n-k copies are forced true). The core of an UNSAT call under the selectors is then
    shrunk by deletion until every member is needed.
    """

    TOTAL = -1   # stands for the global mine count in an explanation

    def __init__(self, cons: Constraints) -> None:
        self.cons = cons
        f = cons.frontier_size
        self.solver = Minicard()
        self._next = f + 1
        self.selector: dict[int, int] = {}
        for j, number in enumerate(cons.numbers):
            lits = [v + 1 for v in number.vars]
            self.selector[j] = self._guarded_exactly(lits, number.need, number.need)
        bounds = frontier_bounds(cons)
        if bounds is not None and f and (bounds[0] > 0 or bounds[1] < f):
            self.selector[self.TOTAL] = self._guarded_exactly(list(range(1, f + 1)), *bounds)
        self.owner = {s: j for j, s in self.selector.items()}

    def _new(self) -> int:
        self._next += 1
        return self._next - 1

    def _guarded_exactly(self, lits: list[int], lo: int, hi: int) -> int:
        sel = self._new()
        n = len(lits)
        for bound_lits, k in ((lits, hi), ([-x for x in lits], n - lo)):
            if k >= n:
                continue
            copies = [self._new() for _ in range(n - k)]
            for a in copies:
                self.solver.add_clause([-sel, a])
            self.solver.add_atmost(bound_lits + copies, n)
        return sel

    def guard_sum(self, lo: int, hi: int) -> int:
        """A selector that, assumed, bounds the frontier's mine count to ``lo..hi``."""
        f = self.cons.frontier_size
        return self._guarded_exactly(list(range(1, f + 1)), max(lo, 0), min(hi, f))

    def explain(self, assumptions: list[int]) -> list[int] | None:
        """Smallest-by-deletion set of numbers (indices, or TOTAL) making ``assumptions`` UNSAT."""
        active = list(self.selector.values())
        if self.solver.solve(assumptions=assumptions + active):
            return None
        core = [s for s in (self.solver.get_core() or active) if s in self.owner]
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1:]
            if self.solver.solve(assumptions=assumptions + trial):
                i += 1
            else:
                smaller = [s for s in (self.solver.get_core() or trial) if s in self.owner]
                core = [s for s in trial if s in set(smaller)]
        return [self.owner[s] for s in core]

    def close(self) -> None:
        self.solver.delete()
