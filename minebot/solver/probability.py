"""Exact mine probabilities for a whole position.

Components are independent except through the global mine count. For each component the
counting DP gives layouts per number of mines; the components are combined by mine count and
every combination is weighted by the number of ways to place the remaining mines in the
background, C(U, M - mines on the frontier). Everything stays in Python integers, so each
probability is an exact fraction ``weight / layouts`` where ``layouts`` is the number of full
board layouts that agree with the board (or, with no mine total, the number of frontier
layouts, every one weighted alike).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from .constraints import Constraints
from .counting import ComponentCounts, convolve, count_component


def _comb(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


@dataclass
class Counts:
    """Exact weights: P(cell is a mine) = ``mine_weight[var] / layouts``."""

    layouts: int                       # total weight (full layouts when the mine total is known)
    mine_weight: list[int]             # per frontier variable
    background_weight: int | None      # per background cell; None when the total is unknown
    frontier_mines: list[int]          # layouts by number of mines on the frontier (all comps)
    components: list[ComponentCounts]
    mines_known: bool

    def fraction(self, var: int) -> tuple[int, int]:
        return self.mine_weight[var], self.layouts


class CountCache:
    """Component counts keyed by their cells and needs, reused across positions (look-ahead)."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self.data: dict[tuple, ComponentCounts | None] = {}
        self._cells: dict[tuple, list] = {}

    def get(self, cons: Constraints, comp) -> ComponentCounts | None:
        numbers = [(cons.numbers[j].vars, cons.numbers[j].need) for j in comp.numbers]
        key = tuple(sorted((tuple(cons.cells[v] for v in vs), need) for vs, need in numbers))
        if key in self.data:
            hit = self.data[key]
            if hit is None:
                return None
            # Same cells and needs, possibly other variable numbers: map by cell.
            cells_of = {cons.cells[v]: v for v in comp.vars}
            base = self._cells[key]
            remap = [cells_of[c] for c in base]
            return ComponentCounts(remap, hit.total, hit.mine)
        result = count_component(comp.vars, numbers)
        if len(self.data) >= self.limit:
            self.data.clear()
            self._cells.clear()
        self.data[key] = result
        if result is not None:
            self._cells[key] = [cons.cells[v] for v in result.cells]
        return result


def count_position(cons: Constraints, cache: CountCache | None = None) -> Counts | None:
    """Exact counts for the whole position; None when no layout fits."""
    comps: list[ComponentCounts] = []
    for comp in cons.components:
        counted = cache.get(cons, comp) if cache is not None else \
            count_component(comp.vars, [(cons.numbers[j].vars, cons.numbers[j].need) for j in comp.numbers])
        if counted is None:
            return None
        comps.append(counted)
    f = cons.frontier_size
    mine_weight = [0] * f
    m = cons.mines_left
    u = len(cons.background)
    # prefix[c] = product of comps before c; suffix likewise.
    prefix = [[1]]
    for cc in comps:
        prefix.append(convolve(prefix[-1], cc.total))
    allpoly = prefix[-1]
    if m is None:
        layouts = 1
        for cc in comps:
            layouts *= cc.layouts
        for cc in comps:
            others = layouts // cc.layouts
            for i, v in enumerate(cc.cells):
                mine_weight[v] = sum(cc.mine[i]) * others
        return Counts(layouts, mine_weight, None, allpoly, comps, False)
    suffix = [[1]] * (len(comps) + 1)
    for c in range(len(comps) - 1, -1, -1):
        suffix[c] = convolve(comps[c].total, suffix[c + 1])
    layouts = sum(n * _comb(u, m - k) for k, n in enumerate(allpoly))
    if layouts == 0:
        return None
    for c, cc in enumerate(comps):
        others = convolve(prefix[c], suffix[c + 1])
        weight = [sum(q * _comb(u, m - k - j) for j, q in enumerate(others) if q)
                  for k in range(len(cc.total))]
        for i, v in enumerate(cc.cells):
            mine_weight[v] = sum(a * w for a, w in zip(cc.mine[i], weight) if a)
    background = sum(n * _comb(u - 1, m - k - 1) for k, n in enumerate(allpoly)) if u else 0
    return Counts(layouts, mine_weight, background, allpoly, comps, True)
