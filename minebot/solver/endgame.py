"""Exhaustive endgame search: the guess with the best chance of winning, when few layouts remain.

With a few hundred layouts left every one can be listed, and the game from here is a small
tree: pick a cell; each layout either has a mine there (lost) or shows a value, which splits
the layouts into groups; recurse on each group. The win probability of a cell is the
layout-weighted sum over its groups. Certainly safe cells are always opened first, all at once
(they can only add information); the area a 0 opens is exactly such a set of cells, so the
search needs no flood fill of its own. Results are memoised on the remaining layouts (they
alone decide a node's value), and cells that split the layouts alike are searched once; a node
budget bounds the work, and when it runs out the search gives up and the look-ahead decides
instead.

The layouts are a boolean matrix (layout x unknown cell) and the value every cell would show
under every layout is one matrix product, so a node costs a few numpy operations over its
layouts instead of Python loops over cells and layouts. Candidates are tried safest first:
a cell cannot win more often than it survives, so once the best value found reaches the next
candidate's survival chance the rest need not be searched.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

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


_POWERS = 9 ** np.arange(18, -1, -1, dtype=np.int64)     # base-9 place values, most significant first


def row_groups(values: np.ndarray) -> np.ndarray:
    """For each row of ``values`` (numbers 0-8), the index of its distinct row in sorted order:
    ``np.unique(values, axis=0, return_inverse=True)``'s inverse, the same groups in the same order.

    Up to 19 columns a row is one base-9 integer (digits most significant first, so the integers
    sort as the rows do) and one 1-D unique groups them; np.unique over rows is several times
    slower, and the endgame search groups rows at most of its nodes."""
    k = values.shape[1]
    if k > len(_POWERS):
        return np.unique(values, axis=0, return_inverse=True)[1].ravel()
    keys = values.astype(np.int64) @ _POWERS[len(_POWERS) - k:]
    return np.unique(keys, return_inverse=True)[1].ravel()


class Endgame:
    """Best-win-probability search over an explicit list of layouts."""

    @classmethod
    def of_position(cls, cons: Constraints, limit: int, budget: int) -> "Endgame | None":
        """The search over every layout of a position, or None if it has more than ``limit``
        (or none). Cells outside the constraints' unknown cells (opened ones, and mines the
        solver has proved) are taken as known: they split no layouts."""
        layouts = enumerate_layouts(cons, limit)
        if not layouts:
            return None
        unknown = set(cons.index) | set(cons.background)
        rows, cols = cons.shape
        revealed = frozenset((r, c) for r in range(rows) for c in range(cols) if (r, c) not in unknown)
        return cls(cons.shape, revealed, layouts, budget)

    def __init__(self, shape: tuple[int, int], revealed: frozenset[Coord],
                 layouts: list[frozenset[Coord]], budget: int = 20000) -> None:
        rows, cols = shape
        unknown = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in revealed]
        pos = {cell: i for i, cell in enumerate(unknown)}
        n = len(unknown)
        mines = np.zeros((len(layouts), n), dtype=bool)
        for row, layout in zip(mines, layouts):
            row[[pos[cell] for cell in layout]] = True
        adjacency = np.zeros((n, n), dtype=np.int16)
        for i, cell in enumerate(unknown):
            adjacency[i, [pos[y] for y in neighbours(rows, cols, *cell) if y in pos]] = 1
        shows = np.where(mines, -1, mines.astype(np.int16) @ adjacency).astype(np.int8)
        # Cells that are a mine in every layout are never opened: only their effect on the
        # numbers matters, and that is in ``shows`` already.
        keep = np.asarray(~mines.all(axis=0))
        self.cells = [cell for cell, k in zip(unknown, keep) if k]
        # shows[l, i]: the number cell i shows under layout l, -1 where it is a mine there.
        self.shows = shows[:, keep]
        self.budget = budget
        self.memo: dict[bytes, float] = {}

    def best(self) -> tuple[Coord | None, float] | None:
        """(cell, win probability) for the root, or None if the budget ran out.

        The cell is None when nothing is left to open (every unknown cell is a mine).
        """
        idx = np.arange(self.shows.shape[0])
        hidden = np.ones(self.shows.shape[1], dtype=bool)
        if not hidden.any():
            return None, 1.0
        try:
            cell, value = self._choose(hidden, idx)
        except BudgetExceeded:
            return None
        return (None if cell is None else self.cells[cell]), value

    def win_probability(self, cell: Coord) -> float | None:
        """The chance to win by opening ``cell`` now and playing best after it: 0 for a cell that
        is a mine in every layout, None if the budget runs out. What ``best`` maximises, for any
        one cell (a benchmark measures how much a guess gives away with it)."""
        if cell not in self.cells:
            return 0.0
        j = self.cells.index(cell)
        try:
            return self._open(np.ones(self.shows.shape[1], dtype=bool), np.arange(self.shows.shape[0]),
                              j, self.shows[:, j], -1.0)
        except BudgetExceeded:
            return None

    def _open(self, hidden: np.ndarray, idx: np.ndarray, c: int, column: np.ndarray, floor: float) -> float:
        """Win probability of opening cell ``c`` (its values ``column`` over the layouts ``idx``)
        and playing best after it. Stops early, with some value at most ``floor``, once even
        winning every group still to be searched could not beat ``floor``."""
        k = len(idx)
        nxt = hidden.copy()
        nxt[c] = False
        alive = column >= 0
        members_all, values = idx[alive], column[alive]
        total, left = 0.0, float(len(members_all))
        for v in np.flatnonzero(np.bincount(values, minlength=9)):
            members = members_all[values == v]
            total += len(members) * self._value(nxt, members)
            left -= len(members)
            if (total + left) / k <= floor + 1e-12:
                break   # even winning every remaining group would not beat the floor
        return total / k

    def _value(self, hidden: np.ndarray, idx: np.ndarray) -> float:
        """Win probability from a node: certain cells opened at once, else the best guess.

        A 0 is not followed into the area it opens: its neighbours are safe in every layout
        of its group, so the next node opens them as certain cells, which is the same thing.
        """
        if len(idx) == 1:
            return 1.0
        # The layouts left decide the value alone: a cell already opened shows the same in all
        # of them, and a hidden cell that does too is either opened at once (safe) or never
        # (a mine). So positions reached by opening cells in another order share one entry.
        key = idx.tobytes()
        found = self.memo.get(key)
        if found is not None:
            return found
        sub = self.shows[idx][:, hidden]
        certain = (sub >= 0).all(axis=0)
        if certain.any():
            self._spend()
            cols = np.flatnonzero(hidden)[certain]
            nxt = hidden.copy()
            nxt[cols] = False
            group = row_groups(sub[:, certain])
            value = 0.0
            for g in range(group.max() + 1):
                members = idx[group == g]
                value += len(members) * self._value(nxt, members)
            value /= len(idx)
        else:
            value = self._choose(hidden, idx)[1]
        self.memo[key] = value
        return value

    def _spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise BudgetExceeded

    def _choose(self, hidden: np.ndarray, idx: np.ndarray) -> tuple[int | None, float]:
        """The best cell to open at a node and its win probability."""
        k = len(idx)
        cols = np.flatnonzero(hidden)
        sub = self.shows[idx][:, cols]
        mined = (sub < 0).sum(axis=0)
        open_ok = np.flatnonzero(mined < k)
        if open_ok.size == 0:
            return None, 1.0     # every hidden cell is a mine in every layout left: won
        if k == 1:
            return int(cols[open_ok[0]]), 1.0
        if k == 2 and mined[open_ok].min() == 1:
            # No cell is safe in both layouts: any cell that is safe in one is a coin toss,
            # and surviving it leaves one layout, a won game.
            return int(cols[open_ok[0]]), 0.5
        self._spend()
        order = open_ok[np.argsort(mined[open_ok], kind="stable")]
        best_cell, best = None, -1.0
        seen: set[bytes] = set()
        for j in order:
            survive = (k - mined[j]) / k
            if survive <= best + 1e-12:
                break       # sorted by survival: no later cell can do better
            column = sub[:, j]
            # Two cells that are mines in the same layouts and show the same values are one
            # choice: either splits the layouts alike, and the other is then certain.
            if (signature := column.tobytes()) in seen:
                continue
            seen.add(signature)
            value = self._open(hidden, idx, int(cols[j]), column, best)
            if value > best + 1e-12:
                best_cell, best = int(cols[j]), value
        return best_cell, best
