"""Exact layout counts for one frontier component, without visiting each layout.

A counting DP walks the component's cells in a fixed order. After deciding the first i cells,
what matters for the rest is only how many mines each *partly assigned* number still needs, so
the state is that tuple of needs and each state carries a polynomial: entry p counts the
prefix layouts with p mines. Going forward gives the count of layouts per number of mines;
going backward (completions per state, again by mines) and combining the two around each cell
gives, for every cell, how many layouts with k mines make it a mine. All in exact integers.

The cell order keeps the set of partly assigned numbers small (greedy: next the cell that
shares the most numbers with the open ones), which is what keeps tangled frontiers in
milliseconds where plain enumeration takes seconds.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

INT64_SAFE = 1 << 62


@dataclass
class ComponentCounts:
    """Counts for one component with n cells.

    ``total[k]``: layouts with k mines (k = 0..n). ``mine[i][k]``: those of them where cell
    ``cells[i]`` (a frontier variable) is a mine.
    """

    cells: list[int]
    total: list[int]
    mine: list[list[int]]

    @property
    def layouts(self) -> int:
        return sum(self.total)


def _order(cells: list[int], numbers: list[tuple[tuple[int, ...], int]]) -> list[int]:
    """Greedy elimination order that keeps few numbers open at a time.

    Next is the cell in the most already-open numbers (ties: the one closing most of them,
    then the one opening fewest new numbers); scores are kept up to date incrementally.
    """
    of_cell: dict[int, list[int]] = {v: [] for v in cells}
    for j, (vs, _) in enumerate(numbers):
        for v in vs:
            of_cell[v].append(j)
    remaining = set(cells)
    left = [len(vs) for vs, _ in numbers]      # unplaced cells per number
    opened = [False] * len(numbers)
    in_open = dict.fromkeys(cells, 0)          # open numbers containing the cell
    closing = dict.fromkeys(cells, 0)          # open numbers the cell would close
    unopened = {v: len(of_cell[v]) for v in cells}
    order: list[int] = []
    touching: set[int] = set()                 # unplaced cells in an open number
    best = min(cells, key=lambda v: (len(of_cell[v]), v))
    while True:
        order.append(best)
        remaining.discard(best)
        touching.discard(best)
        for j in of_cell[best]:
            vs = numbers[j][0]
            if not opened[j]:
                opened[j] = True
                for v in vs:
                    in_open[v] += 1
                    unopened[v] -= 1
                    if v in remaining:
                        touching.add(v)
            left[j] -= 1
            if left[j] == 1:
                for v in vs:
                    if v in remaining:
                        closing[v] += 1
        if not remaining:
            return order
        best = max(touching or remaining, key=lambda v: (in_open[v], closing[v], -unopened[v], -v))


FLOAT_EXACT = float(1 << 53)


def _picker(keep: list[int]):
    """A fast ``lambda vals: tuple(vals[t] for t in keep)``."""
    if not keep:
        return lambda vals: ()
    if len(keep) == 1:
        k = keep[0]
        return lambda vals: (vals[k],)
    getter = itemgetter(*keep)
    return getter


class _TooBig(Exception):
    pass


def count_component(cells: list[int], numbers: list[tuple[tuple[int, ...], int]]) -> ComponentCounts | None:
    """Count the layouts of one component; None when it has none.

    ``numbers`` are ``(vars, need)`` pairs whose vars all lie in ``cells``. Polynomials are
    numpy rows of length n+1. With n <= 62 cells no count can reach 2**62, so int64 is exact.
    Larger components run in float64, exact while every number stays below 2**53 (checked at
    every step: all forward counts of live states bound the backward ones); beyond that, in
    Python integers.
    """
    order = _order(cells, numbers)
    if len(order) <= 62:
        return _count(order, numbers, np.int64)
    try:
        return _count(order, numbers, np.float64)
    except _TooBig:
        return _count(order, numbers, object)


def _count(order: list[int], numbers, dtype) -> ComponentCounts | None:
    n = len(order)
    checked = dtype is np.float64
    pos = {v: i for i, v in enumerate(order)}
    sets = [sorted(pos[v] for v in vs) for vs, _ in numbers]
    members = [set(s) for s in sets]
    first = [s[0] for s in sets]
    last = [s[-1] for s in sets]
    opens_at: list[list[int]] = [[] for _ in range(n)]
    for j, f in enumerate(first):
        opens_at[f].append(j)
    steps = []
    active: list[int] = []
    for i in range(n):
        opening = opens_at[i]
        ext = active + opening
        contains = [1 if i in members[j] else 0 for j in ext]
        cap = [len(sets[j]) - bisect_right(sets[j], i) for j in ext]
        keep = [t for t, j in enumerate(ext) if last[j] > i]
        member = [t for t, c in enumerate(contains) if c]
        steps.append((list(numbers[j][1] for j in opening), list(zip(member, [cap[t] for t in member])),
                      _picker(keep)))
        active = [ext[t] for t in keep]

    def move(state: tuple, step) -> tuple:
        """The states after this cell is safe (x=0) and a mine (x=1); None where impossible.

        Only the numbers containing the cell change (value and room left), so only they are
        checked; the others were checked when their room last shrank.
        """
        open_needs, member, pick = step
        vals = list(state)
        vals += open_needs
        ones = vals.copy()
        ok0 = ok1 = True
        for t, cp in member:
            v = vals[t]
            if v > cp:
                ok0 = False
            if v == 0 or v - 1 > cp:
                ok1 = False
            else:
                ones[t] = v - 1
        return (pick(vals) if ok0 else None), (pick(ones) if ok1 else None)

    zero = np.zeros(n + 1, dtype=dtype)
    start = zero.copy()
    start[0] = 1
    forward: list[dict[tuple, np.ndarray]] = [{(): start}]
    links: list[dict[tuple, tuple]] = []
    for i, step in enumerate(steps):
        nxt: dict[tuple, np.ndarray] = {}
        link: dict[tuple, tuple] = {}
        for state, poly in forward[-1].items():
            t0, t1 = move(state, step)
            link[state] = (t0, t1)
            if t0 is not None:
                acc = nxt.get(t0)
                if acc is None:
                    nxt[t0] = poly.copy()
                else:
                    acc += poly
            if t1 is not None:
                acc = nxt.get(t1)
                if acc is None:
                    acc = nxt[t1] = zero.copy()
                acc[1:] += poly[:-1]
        if checked and nxt and np.max(np.array(list(nxt.values()))) >= FLOAT_EXACT:
            raise _TooBig
        forward.append(nxt)
        links.append(link)
    final = forward[-1].get(())
    if final is None or not final.any():
        return None
    # Backward: completions from each state by number of mines in the suffix.
    end = zero.copy()
    end[0] = 1
    backward: dict[tuple, np.ndarray] = {(): end}
    mine_counts: list[list[int]] = [[]] * n
    for i in range(n - 1, -1, -1):
        prev: dict[tuple, np.ndarray] = {}
        rows_f, rows_b = [], []
        fwd = forward[i]
        for state, (t0, t1) in links[i].items():
            b0 = backward.get(t0) if t0 is not None else None
            b1 = backward.get(t1) if t1 is not None else None
            if b1 is not None:
                rows_f.append(fwd[state][: i + 1])
                rows_b.append(b1[: n - i])
                poly = zero.copy()
                poly[1:] += b1[:-1]
                if b0 is not None:
                    poly += b0
            elif b0 is not None:
                poly = b0
            else:
                continue
            prev[state] = poly
        acc = [0] * (n + 1)
        if rows_f:
            # Layouts through a state with cell i a mine: prefix (p mines) x suffix (q mines).
            grid = np.array(rows_f, dtype=dtype).T @ np.array(rows_b, dtype=dtype)
            a, b = grid.shape
            shifted = np.zeros((a, a + b), dtype=dtype)
            shifted[:, :b] = grid
            sums = shifted.ravel()[: a * (a + b - 1)].reshape(a, a + b - 1).sum(axis=0)
            for k, val in enumerate(sums.tolist()):
                if val:
                    acc[k + 1] = int(round(val)) if checked else int(val)
        mine_counts[i] = acc
        backward = prev
    return ComponentCounts(order, [int(round(x)) if checked else int(x) for x in final], mine_counts)


def convolve(a: list[int], b: list[int]) -> list[int]:
    """Exact product of two count polynomials (numpy when the numbers cannot overflow)."""
    if not a or not b:
        return []
    if max(a) < INT64_SAFE >> 20 and max(b) < INT64_SAFE >> 20 and len(a) + len(b) < 1 << 10 \
            and max(a) * max(b) * min(len(a), len(b)) < INT64_SAFE:
        return [int(x) for x in np.convolve(np.array(a, dtype=np.int64), np.array(b, dtype=np.int64))]
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out
