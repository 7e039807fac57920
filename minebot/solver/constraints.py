"""Turn a Board into the counting constraints the solver reasons about.

Every revealed number is an exactly-k constraint over its *unknown* neighbours (covered, flagged
or question-marked: a player's flag may be wrong, so it proves nothing). Mines the game itself
shows (after a loss) are known mines and lower the numbers around them. Frontier cells (unknown
cells next to a number) are numbered 0..F-1 as variables; cells linked through shared numbers
form independent components; unknown cells touching no number are the *background*, which
only the global mine count says anything about.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..board import NEIGHBOUR_OFFSETS, Board, Cell, neighbour_count, neighbours
from ..errors import InconsistentBoardError

Coord = tuple[int, int]


@dataclass(frozen=True)
class Number:
    """One revealed number: ``need`` mines among the frontier variables ``vars``."""

    cell: Coord
    vars: tuple[int, ...]
    need: int


@dataclass
class Component:
    """Frontier variables linked through shared numbers, with the numbers over them.

    ``shape`` and ``counted`` are the counting's caches (``probability.CountCache``): the
    numbers' cells in a canonical order, and the counts found for each tuple of needs. A
    component's variables and its numbers' variables never change once it is made (a
    ``Reveal`` shares its components among the values it tries, only needs differ), so
    they stay valid for as long as the component lives."""

    vars: list[int]
    numbers: list[int]          # indices into Constraints.numbers
    shape: tuple | None = field(default=None, compare=False, repr=False)
    counted: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass
class Constraints:
    shape: tuple[int, int]
    cells: list[Coord]                      # frontier variable -> cell
    index: dict[Coord, int]                 # cell -> frontier variable
    numbers: list[Number]                   # de-duplicated, each with at least one variable
    components: list[Component]
    background: list[Coord]
    mines_left: int | None                  # global mines not yet shown, None when unknown
    flags: list[Coord] = field(default_factory=list)

    @property
    def frontier_size(self) -> int:
        return len(self.cells)


_ROW_STEPS = np.array([dr for dr, _ in NEIGHBOUR_OFFSETS])
_COL_STEPS = np.array([dc for _, dc in NEIGHBOUR_OFFSETS])


def known_mine_mask(board: Board) -> np.ndarray:
    """Mines the game shows itself (after a loss): certain, and not unknown."""
    return (board.cells == Cell.MINE) | (board.cells == Cell.EXPLODED)


def build_constraints(board: Board, mines: int | None = None) -> Constraints:
    """Collect the numbers of ``board`` as constraints; raise on a number no layout can meet.

    Only the trivial contradictions are found here (a number larger than its unknown
    neighbours, or below the shown mines); everything else is the SAT solver's job.
    Vectorised: one fancy-indexing pass gathers every number's unknown neighbours.
    """
    unknown = board.unknown
    shown = known_mine_mask(board)
    total = mines if mines is not None else board.mines
    rows, cols = board.shape
    revealed = board.revealed
    unknown_n = neighbour_count(unknown)
    shown_n = neighbour_count(shown) if shown.any() else np.zeros_like(unknown_n)
    need_all = board.cells.astype(np.int16) - shown_n
    bad = revealed & ((need_all < 0) | (need_all > unknown_n))
    if bad.any():
        r, c = (int(x) for x in np.argwhere(bad)[0])
        raise InconsistentBoardError(
            f"the {int(board.cells[r, c])} at ({r}, {c}) cannot be met: it touches "
            f"{int(unknown_n[r, c])} unknown cell(s) and {int(shown_n[r, c])} shown mine(s)", [(r, c)])
    frontier = unknown & (neighbour_count(revealed) > 0)
    fr, fc = np.nonzero(frontier)
    cells = list(zip(fr.tolist(), fc.tolist()))
    index = {cell: i for i, cell in enumerate(cells)}
    var_grid = np.full((rows + 2, cols + 2), -1, dtype=np.int32)
    var_grid[fr + 1, fc + 1] = np.arange(len(cells), dtype=np.int32)
    nr, nc = np.nonzero(revealed & (unknown_n > 0))
    gathered = var_grid[(nr + 1)[:, None] + _ROW_STEPS, (nc + 1)[:, None] + _COL_STEPS]
    # Variables are numbered in reading order and the neighbours are taken in reading order,
    # so each row's variables ascend: sorted, the -1s (no variable) come first and the rest
    # keep their order.
    gathered.sort(axis=1)
    skip = (gathered < 0).sum(axis=1).tolist()
    needs = need_all[nr, nc].tolist()
    numbers: list[Number] = []
    seen: dict[tuple[int, ...], Number] = {}
    for r, c, row, k, need in zip(nr.tolist(), nc.tolist(), gathered.tolist(), skip, needs):
        vs = tuple(row[k:])
        other = seen.get(vs)
        if other is not None:
            if other.need != need:
                raise InconsistentBoardError(
                    f"the numbers at {other.cell} and ({r}, {c}) see the same unknown cells "
                    f"but need {other.need} and {need} mines", [other.cell, (r, c)])
            continue
        number = Number((r, c), vs, need)
        seen[vs] = number
        numbers.append(number)
    components = _split(len(cells), numbers)
    br, bc = np.nonzero(unknown & ~frontier)
    background = list(zip(br.tolist(), bc.tolist()))
    mines_left = None
    if total is not None:
        mines_left = int(total) - int(shown.sum())
        if mines_left < 0 or mines_left > int(unknown.sum()):
            raise InconsistentBoardError(
                f"the mine total {total} cannot fit: {int(shown.sum())} mine(s) shown and "
                f"{int(unknown.sum())} unknown cell(s)", [])
    fl_r, fl_c = np.nonzero(board.cells == Cell.FLAG)
    flags = list(zip(fl_r.tolist(), fl_c.tolist()))
    return Constraints((rows, cols), cells, index, numbers, components, background, mines_left, flags)


def _split(n_vars: int, numbers: list[Number]) -> list[Component]:
    """Union-find over variables that share a number (the finds written out: this runs for
    every position the solver and its look-ahead see)."""
    parent = list(range(n_vars))
    for number in numbers:
        vs = number.vars
        root = vs[0]
        while parent[root] != root:
            parent[root] = root = parent[parent[root]]
        for v in vs[1:]:
            while parent[v] != v:
                parent[v] = v = parent[parent[v]]
            if v != root:
                parent[v] = root
    roots = []
    for v in range(n_vars):
        r = v
        while parent[r] != r:
            r = parent[r]
        parent[v] = r
        roots.append(r)
    groups: dict[int, Component] = {}
    for v, r in enumerate(roots):
        group = groups.get(r)
        if group is None:
            group = groups[r] = Component([], [])
        group.vars.append(v)
    for j, number in enumerate(numbers):
        groups[roots[number.vars[0]]].numbers.append(j)
    return list(groups.values())


def with_revealed(cons: Constraints, cell: Coord, value: int) -> Constraints | None:
    """The constraints after ``cell`` turns out safe and shows ``value``; None if impossible."""
    return Reveal(cons, cell).show(value)


class Reveal:
    """The constraints after ``cell`` turns out safe, for each value it could show.

    Incremental (no Board needed), so the look-ahead can try every value a guess could show
    without rebuilding the whole position. The values differ only in the need of the one new
    number, so everything else (the variables, the old numbers, the components) is worked out
    once per cell and shared by the positions of all its values; callers must not change it.
    """

    def __init__(self, cons: Constraints, cell: Coord) -> None:
        self.cell = cell
        background = set(cons.background)
        unknown_nbrs = [x for x in neighbours(*cons.shape, *cell) if x in cons.index or x in background]
        self.room = len(unknown_nbrs)
        fresh = [x for x in unknown_nbrs if x in background]
        cells = [x for x in cons.cells if x != cell] + fresh
        index = {x: i for i, x in enumerate(cells)}
        numbers: list[Number] = []
        seen: dict[tuple[int, ...], int] = {}
        old_cells = cons.cells
        self.possible = True
        changed: list[int] = []       # numbers that lost the cell, then the new number
        guessed = cons.index.get(cell)
        for number in cons.numbers:
            vs = tuple(sorted(index[x] for x in (old_cells[v] for v in number.vars) if x != cell))
            if len(vs) < number.need:
                self.possible = False
                return
            if not vs:
                continue
            other = seen.get(vs)
            if other is not None:
                if other != number.need:
                    self.possible = False
                    return
                continue
            seen[vs] = number.need
            if guessed in number.vars:
                changed.append(len(numbers))
            numbers.append(Number(number.cell, vs, number.need))
        vs = tuple(sorted(index[x] for x in unknown_nbrs))
        # The new number: the same cells as an old one need the same count (and add nothing);
        # else it is one more number, whose need is the value shown.
        self.new_vars = vs
        self.same_as = seen.get(vs) if vs else 0
        if vs and self.same_as is None:
            changed.append(len(numbers))
            numbers.append(Number(cell, vs, 0))
        self.numbers = numbers
        # Only these numbers differ from the position before (the others kept their cells and
        # needs): what a rule over pairs of numbers can newly prove involves one of them.
        self.changed = tuple(changed)
        self.components = _split(len(cells), numbers)
        background.discard(cell)
        background.difference_update(fresh)
        self.base = Constraints(cons.shape, cells, index, numbers, self.components, sorted(background),
                                cons.mines_left, cons.flags)

    def show(self, value: int) -> Constraints | None:
        """The position after the cell shows ``value``; None when no layout allows it."""
        if not self.possible or value > self.room:
            return None
        if self.same_as is not None:            # no new number: it must agree with the old one
            return self.base if value == self.same_as else None
        numbers = self.numbers[:-1] + [Number(self.cell, self.new_vars, value)]
        base = self.base
        return Constraints(base.shape, base.cells, base.index, numbers, self.components, base.background,
                           base.mines_left, base.flags)


def with_fixed(cons: Constraints, mines: list[Coord], safe: list[Coord]) -> Constraints:
    """The constraints with ``mines`` taken as mines and ``safe`` as safe, nothing revealed.

    Each fixed cell gets a one-cell "number" (need 1 or 0), so the counting DP counts exactly
    the layouts that agree; background cells among them become frontier variables. Used to
    count the layouts in which a pattern (a potential 50/50) is there."""
    background = set(cons.background)
    fresh = [x for x in dict.fromkeys([*mines, *safe]) if x in background]
    cells = list(cons.cells) + fresh
    index = {x: i for i, x in enumerate(cells)}
    numbers = list(cons.numbers) + [Number(x, (index[x],), 1) for x in mines] + \
        [Number(x, (index[x],), 0) for x in safe]
    background.difference_update(fresh)
    return Constraints(cons.shape, cells, index, numbers, _split(len(cells), numbers),
                       sorted(background), cons.mines_left, cons.flags)
