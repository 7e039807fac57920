"""Unavoidable 50/50s: two ways to place some mines that no number outside them can tell apart.

Take the frontier cells that are *linked*: every layout has exactly one mine in the pair (a
``1`` with only these two unknown cells left, say). Links join into chains, and a connected
set of links can hold its mines in just two ways, colouring its cells in two classes: the
mines are the whole of one class or the whole of the other. Suppose the classes are the same
size and every cell outside the set that could ever show a number (a revealed number, or an
unknown cell that is not a certain mine) touches as many cells of one class as of the other.
Then no number, shown now or opened later, and not the mine total either, differs between the
two ways; both are equally likely whatever the rest of the board holds; only opening a cell of
the set itself can tell. A guess there, at exactly 50%, has to be made sooner or later, and the
rest of the board will never make it safer.

Making it first never loses: the chance of getting through it is the same at any time, and if
it goes well its number may help the rest; if it goes badly, no other guess was risked in vain.
The single pair closed at both ends is the simplest case; chains of pairs along a wall are the
common longer one (JSMinesweeper finds the same chains by following links end to end).
"""

from __future__ import annotations

from ..board import neighbours
from .backbone import frontier_bounds, frontier_solver
from .constraints import Constraints
from .probability import Counts

Coord = tuple[int, int]

LINK_REACH = 2      # linked cells share a number, so they are at most two cells apart


def _links(cons: Constraints, counts: Counts) -> list[tuple[int, int]]:
    """Pairs of frontier variables with exactly one mine between them in every layout.

    The weights pick the candidates (the two chances must add up to one exactly); the SAT
    solver proves each, since equal weights alone do not rule out layouts with both or none.
    """
    layouts, weight = counts.layouts, counts.mine_weight
    open_vars = {cell: v for v, cell in enumerate(cons.cells) if 0 < weight[v] < layouts}
    pairs = []
    for (r, c), v in open_vars.items():
        for dr in range(-LINK_REACH, LINK_REACH + 1):
            for dc in range(-LINK_REACH, LINK_REACH + 1):
                u = open_vars.get((r + dr, c + dc))
                if u is not None and v < u and weight[v] + weight[u] == layouts:
                    pairs.append((v, u))
    if not pairs:
        return []
    solver = frontier_solver(cons, "native", frontier_bounds(cons))
    try:
        return [(v, u) for v, u in pairs
                if not solver.solve(assumptions=[v + 1, u + 1]) and not solver.solve(assumptions=[-v - 1, -u - 1])]
    finally:
        solver.delete()


def _two_classes(links: list[tuple[int, int]]) -> list[tuple[list[int], list[int]]]:
    """Each connected set of links as its two colour classes (sorted, in a fixed order)."""
    linked: dict[int, list[int]] = {}
    for v, u in links:
        linked.setdefault(v, []).append(u)
        linked.setdefault(u, []).append(v)
    colour: dict[int, int] = {}
    found = []
    for start in sorted(linked):
        if start in colour:
            continue
        colour[start] = 0
        classes: tuple[list[int], list[int]] = ([start], [])
        todo = [start]
        while todo:
            v = todo.pop()
            for u in linked[v]:
                if u not in colour:
                    colour[u] = 1 - colour[v]
                    classes[colour[u]].append(u)
                    todo.append(u)
        found.append((sorted(classes[0]), sorted(classes[1])))
    return found


def unavoidable_fifty_fifty(cons: Constraints, counts: Counts) -> list[Coord] | None:
    """The cells of an unavoidable 50/50 (any of them is a 50% guess that must be made some
    time), or None if the position has none. See the module docstring for the test."""
    links = _links(cons, counts)
    if not links:
        return None
    layouts, weight = counts.layouts, counts.mine_weight
    certain_mines = {cell for v, cell in enumerate(cons.cells) if weight[v] == layouts}
    for one, other in _two_classes(links):
        if len(one) != len(other):
            continue            # the mine total would tell the two ways apart in the end
        side = {cons.cells[v]: 1 for v in one} | {cons.cells[v]: -1 for v in other}
        watchers = {y for cell in side for y in neighbours(*cons.shape, *cell)} - set(side) - certain_mines
        if all(sum(side.get(x, 0) for x in neighbours(*cons.shape, *y)) == 0 for y in watchers):
            return sorted(side)
    return None
