"""Exhaustive endgame search: the guess with the best chance of winning, when few layouts remain.

With a handful of layouts left every one can be listed, and the game from here is a small
tree: pick a cell; each layout either has a mine there (lost) or shows a value (and, for a 0,
opens an area as the game would), which splits the layouts into groups; recurse on each group.
The win probability of a cell is the layout-weighted sum over its groups. A certainly safe cell
is always opened first (it can only add information). Results are memoised on (revealed cells,
remaining layouts); a node budget bounds the work, and when it runs out the search gives up
and the look-ahead decides instead.
"""

from __future__ import annotations

from itertools import combinations

from ..board import neighbours
from .constraints import Constraints

Coord = tuple[int, int]


class BudgetExceeded(Exception):
    pass


def enumerate_layouts(cons: Constraints, limit: int) -> list[frozenset[Coord]] | None:
    """Every full layout (set of mine cells) that fits, or None if there are more than ``limit``."""
    per_component: list[list[tuple[frozenset[Coord], int]]] = []
    for comp in cons.components:
        sols = _component_solutions(cons, comp, limit)
        if sols is None:
            return None
        per_component.append(sols)
    combos: list[tuple[frozenset[Coord], int]] = [(frozenset(), 0)]
    for sols in per_component:
        combos = [(a | b, ka + kb) for a, ka in combos for b, kb in sols]
        if len(combos) > limit * 4:
            return None
    m = cons.mines_left
    out: list[frozenset[Coord]] = []
    for mines, k in combos:
        rest = m - k
        if rest < 0 or rest > len(cons.background):
            continue
        for extra in combinations(cons.background, rest):
            out.append(mines | frozenset(extra))
            if len(out) > limit:
                return None
    return out


def _component_solutions(cons: Constraints, comp, limit: int):
    """Backtracking over one component's cells (small ones only: this is the endgame)."""
    vars_ = comp.vars
    numbers = [cons.numbers[j] for j in comp.numbers]
    of_var: dict[int, list[int]] = {v: [] for v in vars_}
    for j, nb in enumerate(numbers):
        for v in nb.vars:
            of_var[v].append(j)
    need = [nb.need for nb in numbers]
    room = [len(nb.vars) for nb in numbers]
    chosen: list[int] = []
    out: list[tuple[frozenset[Coord], int]] = []

    def walk(i: int) -> bool:
        if i == len(vars_):
            out.append((frozenset(cons.cells[v] for v in chosen), len(chosen)))
            return len(out) <= limit
        v = vars_[i]
        js = of_var[v]
        for j in js:
            room[j] -= 1
        # safe
        if all(need[j] <= room[j] for j in js):
            if not walk(i + 1):
                return False
        # mine
        if all(need[j] >= 1 for j in js):
            for j in js:
                need[j] -= 1
            chosen.append(v)
            ok = walk(i + 1)
            chosen.pop()
            for j in js:
                need[j] += 1
            if not ok:
                return False
        for j in js:
            room[j] += 1
        return True

    if not walk(0):
        return None
    return out


class Endgame:
    """Best-win-probability search over an explicit list of layouts."""

    def __init__(self, shape: tuple[int, int], revealed: frozenset[Coord],
                 layouts: list[frozenset[Coord]], budget: int = 20000) -> None:
        self.rows, self.cols = shape
        self.layouts = layouts
        self.budget = budget
        self.memo: dict[tuple, float] = {}
        self.unknown = frozenset((r, c) for r in range(self.rows) for c in range(self.cols)) - revealed
        self.root = revealed
        self._nb: dict[Coord, list[Coord]] = {}

    def neighbours(self, cell: Coord) -> list[Coord]:
        nb = self._nb.get(cell)
        if nb is None:
            nb = self._nb[cell] = list(neighbours(self.rows, self.cols, *cell))
        return nb

    def _open(self, revealed: frozenset[Coord], cell: Coord, mines: frozenset[Coord]):
        """What opening ``cell`` shows under layout ``mines``: a hashable outcome."""
        stack = [cell]
        seen = {cell}
        shown = []
        while stack:
            x = stack.pop()
            value = sum(1 for y in self.neighbours(x) if y in mines)
            shown.append((x, value))
            if value == 0:
                for y in self.neighbours(x):
                    if y not in seen and y not in revealed:
                        seen.add(y)
                        stack.append(y)
        return frozenset(shown)

    def best(self) -> tuple[Coord, float] | None:
        """(cell, win probability) for the root, or None if the budget ran out."""
        try:
            return self._value(self.root, tuple(range(len(self.layouts))), want_cell=True)
        except BudgetExceeded:
            return None

    def _value(self, revealed: frozenset[Coord], idx: tuple[int, ...], want_cell: bool = False):
        layouts = self.layouts
        hidden = self.unknown - revealed
        safe_somewhere = [c for c in hidden if any(c not in layouts[i] for i in idx)]
        if not safe_somewhere or len(idx) == 1 and not want_cell:
            return (None, 1.0) if want_cell else 1.0
        key = (revealed, idx)
        if not want_cell and key in self.memo:
            return self.memo[key]
        self.budget -= 1
        if self.budget < 0:
            raise BudgetExceeded
        certain = [c for c in safe_somewhere if all(c not in layouts[i] for i in idx)]
        candidates = sorted(certain[:1] if certain else safe_somewhere)
        best_cell, best_value = None, -1.0
        total = len(idx)
        for cell in candidates:
            groups: dict[frozenset, list[int]] = {}
            for i in idx:
                if cell in layouts[i]:
                    continue
                groups.setdefault(self._open(revealed, cell, layouts[i]), []).append(i)
            # Upper bound: surviving this click; skip if it cannot beat the best.
            survive = sum(len(g) for g in groups.values()) / total
            if survive <= best_value:
                continue
            value = 0.0
            for shown, members in groups.items():
                nxt = revealed | frozenset(x for x, _ in shown)
                value += len(members) / total * self._value(nxt, tuple(members))
            if value > best_value:
                best_cell, best_value = cell, value
                if value >= 1.0 - 1e-12:
                    break
        if want_cell:
            return best_cell, best_value
        self.memo[key] = best_value
        return best_value
