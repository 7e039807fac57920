"""What the solver knows about one board: certain cells, exact probabilities, explanations.

The certain cells come from the SAT backbone (eagerly: every move needs them); probabilities
come from the counting DP and are computed on first use (only guesses and the hint overlay
need them). Explanations are computed per cell on request from UNSAT cores.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

import numpy as np

from ..bignum import count_text, fraction_text
from ..board import Board
from ..errors import InconsistentBoardError
from .backbone import Backbone, Explainer, backbone_search, frontier_bounds, frontier_solver
from .constraints import Constraints, build_constraints
from .probability import CountCache, Counts, count_position

Coord = tuple[int, int]


class Analysis:
    """The solver's conclusions about one board.

    ``safe`` and ``mines`` are proved by the numbers (and the mine total when known);
    ``probability`` is rows x cols, NaN where a cell is not unknown (revealed) or, without a
    mine total, for background cells; ``wrong_flags`` are flags on cells proved safe.
    """

    def __init__(self, board: Board, cons: Constraints, safe: list[Coord], mines: list[Coord],
                 cache: CountCache | None = None) -> None:
        self.board = board
        self.constraints = cons
        self.safe = sorted(safe)
        self.mines = sorted(mines)
        self._safe_set, self._mine_set = set(self.safe), set(self.mines)
        flags = set(cons.flags)
        self.wrong_flags = [c for c in self.safe if c in flags]
        self._cache = cache
        self._counts: Counts | None = None
        self._probability: np.ndarray | None = None
        self._explainer: Explainer | None = None
        self._explanations: dict[Coord, tuple[list[Coord], bool]] = {}

    # -- probabilities -------------------------------------------------------------------
    @property
    def counts(self) -> Counts:
        if self._counts is None:
            counts = count_position(self.constraints, self._cache)
            if counts is None:   # the backbone found a layout, so this cannot happen
                raise InconsistentBoardError("no mine layout fits this board", [])
            self._counts = counts
        return self._counts

    @property
    def layouts(self) -> int:
        """Layouts that agree with the board: full boards when the mine total is known,
        otherwise frontier layouts (each counted once, the background left open)."""
        return self.counts.layouts

    @property
    def mines_known(self) -> bool:
        return self.constraints.mines_left is not None

    def fraction(self, cell: Coord) -> Fraction | None:
        """The exact probability that ``cell`` is a mine (None where it is not defined)."""
        cons = self.constraints
        cell = (int(cell[0]), int(cell[1]))
        if cell in self._safe_set:
            return Fraction(0)
        if cell in self._mine_set:
            return Fraction(1)
        counts = self.counts
        if cell in cons.index:
            return Fraction(counts.mine_weight[cons.index[cell]], counts.layouts)
        if not self.board.unknown[cell]:
            return None
        if counts.background_weight is None:
            return None
        return Fraction(counts.background_weight, counts.layouts)

    @property
    def probability(self) -> np.ndarray:
        if self._probability is None:
            cons = self.constraints
            counts = self.counts
            prob = np.full(self.board.shape, np.nan)
            for v, cell in enumerate(cons.cells):
                prob[cell] = counts.mine_weight[v] / counts.layouts
            if counts.background_weight is not None and cons.background:
                p_bg = counts.background_weight / counts.layouts
                rows, cols = zip(*cons.background)
                prob[list(rows), list(cols)] = p_bg
            for cell in self.safe:
                prob[cell] = 0.0
            for cell in self.mines:
                prob[cell] = 1.0
            prob.setflags(write=False)
            self._probability = prob
        return self._probability

    def describe(self, cell: Coord) -> str:
        """One line on how the cell's probability was found (for the hint overlay)."""
        cell = (int(cell[0]), int(cell[1]))
        if cell in self._safe_set or cell in self._mine_set:
            what = "safe" if cell in self._safe_set else "a mine"
            numbers, total = self.explanation(cell)
            by = f"{len(numbers)} number(s)" + (" and the mine total" if total else "")
            return f"certainly {what}: proved by {by}"
        frac = self.fraction(cell)
        if frac is None:
            return "no probability: the mine total is unknown and no number touches this cell"
        cons = self.constraints
        where = "frontier" if cell in cons.index else "background"
        if self.mines_known:
            how = (f"{count_text(self.layouts)} full layouts weighted by C({len(cons.background)} background "
                   f"cells, mines left); {cons.mines_left} mines left")
        else:
            how = f"{count_text(self.layouts)} frontier layouts, mine total unknown"
        return f"{float(frac):.1%} mine ({fraction_text(frac)}, {where} cell): exact over {how}"

    # -- explanations ---------------------------------------------------------------------
    def explanation(self, cell: Coord) -> tuple[list[Coord], bool]:
        """``(numbers, uses_total)``: a minimal set of revealed numbers proving the cell."""
        cell = (int(cell[0]), int(cell[1]))
        if cell in self._explanations:
            return self._explanations[cell]
        is_safe = cell in self._safe_set
        if not is_safe and cell not in self._mine_set:
            raise ValueError(f"{cell} is not a certain cell")
        cons = self.constraints
        if self._explainer is None:
            self._explainer = Explainer(cons)
        ex = self._explainer
        if cell in cons.index:
            lit = cons.index[cell] + 1
            core = ex.explain([lit] if is_safe else [-lit])
        else:
            # A background cell is certain only through the total: the numbers must force
            # the frontier to hold every mine left (safe) or leave all background cells mines.
            m, u, f = cons.mines_left, len(cons.background), cons.frontier_size
            if f == 0:
                core = [Explainer.TOTAL]
            else:
                sel = ex.guard_sum(0, m - 1) if is_safe else ex.guard_sum(m - u + 1, f)
                core = ex.explain([sel])
        core = core or []
        numbers = sorted(cons.numbers[j].cell for j in core if j != Explainer.TOTAL)
        result = (numbers, Explainer.TOTAL in core or cell not in cons.index)
        self._explanations[cell] = result
        return result

    def explain(self, cell: Coord) -> list[Coord]:
        """The revealed numbers that prove ``cell`` safe or a mine (smallest set found)."""
        return self.explanation(cell)[0]


def analyse(board: Board, mines: int | None = None, encoding: str = "native",
            cache: CountCache | None = None, likely_mines: Iterable[Coord] = ()) -> Analysis:
    """Certain cells of ``board`` by SAT backbone; raise InconsistentBoardError if none fits.

    ``likely_mines``: cells expected to be certain mines (the previous move's), a hint that
    makes the backbone faster and never changes it (see ``backbone_search``)."""
    try:
        cons = build_constraints(board, mines)
    except InconsistentBoardError as err:
        err.uses_total = not err.cells  # type: ignore[attr-defined]
        raise
    index = cons.index
    hints = [index[cell] for cell in likely_mines if cell in index]
    found = backbone_search(cons, encoding, hints)
    if found is None:
        raise inconsistency(cons)
    safe = [cons.cells[v] for v, is_mine in found.fixed.items() if not is_mine]
    mines_ = [cons.cells[v] for v, is_mine in found.fixed.items() if is_mine]
    bg = background_certainty(cons, found)
    if bg is True:
        mines_ += cons.background
    elif bg is False:
        safe += cons.background
    return Analysis(board, cons, safe, mines_, cache)


def background_certainty(cons: Constraints, seen: Backbone | None = None) -> bool | None:
    """True if every background cell must be a mine, False if every one must be safe.

    ``seen``, the backbone search of the same constraints, settles most cases with no further
    SAT call: a layout it met with fewer frontier mines than are left puts a mine in the
    background, one with enough of them leaves a background cell safe."""
    m, u, f = cons.mines_left, len(cons.background), cons.frontier_size
    if m is None or u == 0:
        return None
    if m == 0:
        return False
    if f == 0:
        return True if m == u else None
    lo, hi = frontier_bounds(cons)
    some_mine = seen is not None and seen.fewest <= m - 1        # a layout with a background mine
    some_safe = seen is not None and seen.most >= m - u + 1      # ... with a safe background cell
    if hi >= m and not some_mine and _infeasible(cons, lo, min(hi, m - 1)):
        return False
    if m >= u and not some_safe and _infeasible(cons, max(lo, m - u + 1), hi):
        return True
    return None


def _infeasible(cons: Constraints, lo: int, hi: int) -> bool:
    if lo > hi:
        return True
    solver = frontier_solver(cons, "native", (lo, hi))
    try:
        return not solver.solve()
    finally:
        solver.delete()


def inconsistency(cons: Constraints) -> InconsistentBoardError:
    ex = Explainer(cons)
    try:
        core = ex.explain([]) or []
    finally:
        ex.close()
    cells = sorted(cons.numbers[j].cell for j in core if j != Explainer.TOTAL)
    total = Explainer.TOTAL in core
    text = ", ".join(f"({r}, {c})" for r, c in cells)
    if total and cells:
        msg = (f"no mine layout fits this board: the number(s) at {text} and the mine total "
               f"({cons.mines_left} left to place) cannot all hold")
    elif total:
        msg = f"no mine layout fits this board: the mine total ({cons.mines_left} left) cannot be met"
    elif len(cells) == 1:
        msg = f"no mine layout fits this board: the number at {text} cannot be met"
    else:
        msg = f"no mine layout fits this board: the numbers at {text} contradict each other"
    err = InconsistentBoardError(msg, cells)
    err.uses_total = total  # type: ignore[attr-defined]
    return err


def check_rules(board: Board, source: str) -> None:
    """Raise ``InconsistentBoardError`` (naming ``source`` and the contradicting numbers) when
    no mine layout fits ``board``: for boards that are not solved but used as they are (an
    example to learn cell looks from, a board with no covered cell left)."""
    try:
        analyse(board, board.mines)
    except InconsistentBoardError as exc:
        raise InconsistentBoardError(f"{source}: {exc}", exc.cells) from None

