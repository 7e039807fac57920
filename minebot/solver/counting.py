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

from dataclasses import dataclass

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
    """Greedy elimination order that keeps few numbers open at a time."""
    of_cell: dict[int, list[int]] = {v: [] for v in cells}
    for j, (vs, _) in enumerate(numbers):
        for v in vs:
            of_cell[v].append(j)
    remaining = set(cells)
    left = [len(vs) for vs, _ in numbers]      # unplaced cells per number
    opened = [False] * len(numbers)
    order: list[int] = []
    start = min(cells, key=lambda v: (len(of_cell[v]), v))
    while remaining:
        if not order:
            best = start
        else:
            best = max(remaining, key=lambda v: (
                sum(1 for j in of_cell[v] if opened[j]),          # continue open numbers
                sum(1 for j in of_cell[v] if opened[j] and left[j] == 1),  # close them
                -sum(1 for j in of_cell[v] if not opened[j]),     # open few new ones
                -v))
        order.append(best)
        remaining.discard(best)
        for j in of_cell[best]:
            opened[j] = True
            left[j] -= 1
    return order


def count_component(cells: list[int], numbers: list[tuple[tuple[int, ...], int]]) -> ComponentCounts | None:
    """Count the layouts of one component; None when it has none.

    ``numbers`` are ``(vars, need)`` pairs whose vars all lie in ``cells``.
    """
    order = _order(cells, numbers)
    n = len(order)
    pos = {v: i for i, v in enumerate(order)}
    sets = [sorted(pos[v] for v in vs) for vs, _ in numbers]
    first = [s[0] for s in sets]
    last = [s[-1] for s in sets]
    # Per step: the numbers open before it, those it opens, and how each changes.
    steps = []
    active: list[int] = []
    for i in range(n):
        opening = [j for j in range(len(numbers)) if first[j] == i]
        ext = active + opening
        contains = [1 if i in sets[j] else 0 for j in ext]
        cap = [sum(1 for p in sets[j] if p > i) for j in ext]
        keep = [t for t, j in enumerate(ext) if last[j] > i]
        steps.append((tuple(numbers[j][1] for j in opening), contains, cap, keep))
        active = [ext[t] for t in keep]

    def move(state: tuple, step, x: int):
        open_needs, contains, cap, keep = step
        vals = state + open_needs
        new = []
        for val, c, cp in zip(vals, contains, cap):
            v = val - x * c
            if v < 0 or v > cp:
                return None
            new.append(v)
        return tuple(new[t] for t in keep)

    forward: list[dict[tuple, list[int]]] = [{(): [1]}]
    links: list[dict[tuple, tuple]] = []
    for i, step in enumerate(steps):
        nxt: dict[tuple, list[int]] = {}
        link: dict[tuple, tuple] = {}
        for state, poly in forward[-1].items():
            t0, t1 = move(state, step, 0), move(state, step, 1)
            link[state] = (t0, t1)
            if t0 is not None:
                acc = nxt.get(t0)
                if acc is None:
                    nxt[t0] = poly + [0]
                else:
                    for p, val in enumerate(poly):
                        acc[p] += val
            if t1 is not None:
                acc = nxt.get(t1)
                if acc is None:
                    nxt[t1] = [0] + poly
                else:
                    for p, val in enumerate(poly):
                        acc[p + 1] += val
        forward.append(nxt)
        links.append(link)
    final = forward[-1].get(())
    if final is None or not any(final):
        return None
    # Backward: completions from each state by number of mines in the suffix.
    backward: dict[tuple, list[int]] = {(): [1]}
    mine_counts = [[0] * (n + 1) for _ in range(n)]
    for i in range(n - 1, -1, -1):
        prev: dict[tuple, list[int]] = {}
        acc_mine = mine_counts[i]
        for state, (t0, t1) in links[i].items():
            b0 = backward.get(t0) if t0 is not None else None
            b1 = backward.get(t1) if t1 is not None else None
            size = n - i + 1
            poly = [0] * size
            if b0 is not None:
                for q, val in enumerate(b0):
                    poly[q] += val
            if b1 is not None:
                for q, val in enumerate(b1):
                    poly[q + 1] += val
                # Layouts through this state with cell i a mine: prefix x 1 x suffix.
                fpoly = forward[i][state]
                for p, fv in enumerate(fpoly):
                    if fv:
                        for q, bv in enumerate(b1):
                            if bv:
                                acc_mine[p + q + 1] += fv * bv
            if any(poly):
                prev[state] = poly
        backward = prev
    return ComponentCounts(order, final, mine_counts)


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
