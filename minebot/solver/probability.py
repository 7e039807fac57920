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

from functools import lru_cache
from math import comb
from operator import mul

from .constraints import Component, Constraints
from .counting import ComponentCounts, convolve, count_component


def _comb(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


@lru_cache(maxsize=256)
def background_ways(u: int, m: int, most: int) -> tuple[int, ...]:
    """``C(u, m - t)`` for t = 0..most: the ways to put the mines the frontier leaves (t on it)
    into u background cells. One table per position instead of a binomial per term; the
    look-ahead's positions share u and m often, so the tables are kept."""
    return tuple(_comb(u, m - t) for t in range(most + 1))


class Counts:
    """Exact weights: P(cell is a mine) = ``mine_weight[var] / layouts``.

    ``mine_weight`` is worked out on first use (it needs every component's backward pass);
    the totals alone are cheap, which is what the look-ahead asks for first.
    """

    def __init__(self, layouts: int, frontier_size: int, background_weight: int | None,
                 components: list[ComponentCounts],
                 weights: list[list[int]], mines_known: bool) -> None:
        self.layouts = layouts                      # total weight (full layouts if M known)
        self.frontier_size = frontier_size
        self.background_weight = background_weight  # per background cell; None if M unknown
        self.components = components
        self.weights = weights                      # per component: weight of k mines in it
        self.mines_known = mines_known
        self._mine_weight: list[int] | None = None

    @property
    def mine_weight(self) -> list[int]:
        if self._mine_weight is None:
            out = [0] * self.frontier_size
            for cc, weight in zip(self.components, self.weights):
                for v, mine in zip(cc.cells, cc.mine):
                    out[v] = sum(map(mul, mine, weight))
            self._mine_weight = out
        return self._mine_weight


class CountCache:
    """Component counts keyed by their cells and needs, reused across positions (look-ahead)."""

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self.data: dict[tuple, ComponentCounts | None] = {}
        self._cells: dict[tuple, list] = {}

    def get(self, cons: Constraints, comp: Component) -> ComponentCounts | None:
        every = cons.numbers
        needs = tuple([every[j].need for j in comp.numbers])
        if needs in comp.counted:       # this very component, counted with these needs
            return comp.counted[needs]
        found = self._get(cons, comp)
        comp.counted[needs] = found
        return found

    def _get(self, cons: Constraints, comp: Component) -> ComponentCounts | None:
        every = cons.numbers
        cells = cons.cells
        numbers = [(every[j].vars, every[j].need) for j in comp.numbers]
        if comp.shape is None:
            # The numbers by their cells (no two alike: numbers over the same cells are one).
            keyed = sorted((tuple([cells[v] for v in vs]), t) for t, (vs, _) in enumerate(numbers))
            comp.shape = (tuple(k for k, _ in keyed), tuple(t for _, t in keyed))
        shape, order = comp.shape
        key = (shape, tuple([numbers[t][1] for t in order]))
        if key in self.data:
            hit = self.data[key]
            if hit is None:
                return None
            # Same cells and needs, possibly other variable numbers: map by cell.
            cells_of = {cons.cells[v]: v for v in comp.vars}
            base = self._cells[key]
            remap = [cells_of[c] for c in base]
            return hit.relabelled(remap)
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
    m = cons.mines_left
    u = len(cons.background)
    if m is None:
        layouts = 1
        for cc in comps:
            layouts *= cc.layouts
        weights = [[layouts // cc.layouts] * len(cc.total) for cc in comps]
        return Counts(layouts, f, None, comps, weights, False)
    # prefix[c] = product of comps before c; suffix likewise.
    prefix = [[1]]
    for cc in comps:
        prefix.append(convolve(prefix[-1], cc.total))
    allpoly = prefix[-1]
    suffix = [[1]] * (len(comps) + 1)
    for c in range(len(comps) - 1, -1, -1):
        suffix[c] = convolve(comps[c].total, suffix[c + 1])
    ways = background_ways(u, m, len(allpoly) - 1)
    layouts = sum(map(mul, allpoly, ways))
    if layouts == 0:
        return None
    weights = []
    for c, cc in enumerate(comps):
        others = convolve(prefix[c], suffix[c + 1])
        weights.append([sum(map(mul, others, ways[k:])) for k in range(len(cc.total))])
    background = sum(map(mul, allpoly, background_ways(u - 1, m - 1, len(allpoly) - 1))) if u else 0
    return Counts(layouts, f, background, comps, weights, True)
