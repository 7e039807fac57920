"""Dead cells: unknown cells whose number, should they be safe, is already known.

Opening a dead cell tells nothing: the position after it is the same position less one cell.
So when the look-ahead asks how safe the next move will be, a dead cell, even a certainly safe
one, is not a move that gets anywhere; JSMinesweeper leaves such cells out of its next-move
safety, and ``Guesser(living=True)`` does too (lookahead.two_best_safeties).
"""

from __future__ import annotations

from ..board import neighbours
from .constraints import Constraints
from .probability import Counts

Coord = tuple[int, int]


def first_living(ranked: list[tuple[int, int]], dead: "DeadCells", n: int) -> list[tuple[int, int]]:
    """The first ``n`` entries of ``ranked`` ((weight, var), safest first) whose cell is living."""
    out = []
    for w, v in ranked:
        if not dead(v):
            out.append((w, v))
            if len(out) == n:
                break
    return out


class DeadCells:
    """Whether a frontier cell is dead: safe or not, the number it would show is already known.

    A sufficient test, cheap enough for every position of the look-ahead: the cell touches no
    background cell whose state is open (those could hold any number of mines), and its
    undecided unknown neighbours are either none, or exactly the undecided cells of one
    revealed number besides the cell itself (then, with the cell safe, they hold that number's
    remaining mines). JSMinesweeper calls such cells dead and leaves them out of its
    next-move safety; tests check every cell this finds against an enumeration of layouts.
    """

    def __init__(self, cons: Constraints, counts: Counts) -> None:
        self.cons = cons
        layouts = counts.layouts
        weights = counts.mine_weight
        self.open = [0 < w < layouts for w in weights]
        bw = counts.background_weight
        self.background_open = bool(cons.background) and (bw is None or 0 < bw < layouts)
        self.background = set(cons.background)
        self.numbers_of: dict[int, list[int]] = {}
        for j, number in enumerate(cons.numbers):
            for v in number.vars:
                self.numbers_of.setdefault(v, []).append(j)

    def __call__(self, v: int) -> bool:
        cons = self.cons
        undecided = set()
        for x in neighbours(*cons.shape, *cons.cells[v]):
            if x in self.background:
                if self.background_open:
                    return False
            else:
                u = cons.index.get(x)
                if u is not None and self.open[u]:
                    undecided.add(u)
        if not undecided:
            return True
        for j in {j for u in undecided for j in self.numbers_of.get(u, ())}:
            if {u for u in cons.numbers[j].vars if self.open[u] and u != v} == undecided:
                return True
        return False


def dead_cells(cons: Constraints, counts: Counts) -> set[Coord]:
    """The frontier cells DeadCells finds dead (certain mines left out)."""
    dead = DeadCells(cons, counts)
    return {cell for v, cell in enumerate(cons.cells) if counts.mine_weight[v] < counts.layouts and dead(v)}
