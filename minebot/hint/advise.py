"""From a Board to Hints (and an Explanation) with the real solver: the one glue every
output uses (overlay, PNG, terminal), so they all say the same thing."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from ..board import Board, GameState
from ..errors import InconsistentBoardError
from .explain import Explanation, explain_cell
from .marks import ExplainableAnalysis, Hints, compute_hints, inconsistent_hints

Coord = tuple[int, int]


class Choice(Protocol):
    """A guess as the solver makes it: the cell and its chance of a mine."""

    cell: Coord
    p_mine: float


class Advisor(Protocol):
    """What the hint needs of a solver (``minebot.solver.Solver`` is one): an analysis it can
    explain, and its own choice of guess when nothing is certain (the hint shows the move the
    bot would make, not merely the least likely cell)."""

    def analyse(self, board: Board, mines: int | None = None) -> ExplainableAnalysis: ...

    def guess(self, result) -> Choice: ...

FRESH_NOTE = "fresh board: in GNOME Mines the first click is always safe and opens an area"


def advise(board: Board, solver: Advisor | None = None, mines: int | None = None,
           explain: Coord | None = None) -> tuple[Hints, Explanation | None]:
    """Hints for ``board`` and, if asked, the explanation of cell ``explain``.

    An inconsistent board gives hints with only the problem (no marks, no explanation): the
    hint never advises on a board that breaks the rules, it says so.
    """
    if solver is None:
        from ..solver import Solver
        default: Advisor = Solver()
        solver = default
    total = mines if mines is not None else board.mines
    if board.state not in (None, GameState.PLAYING):
        return compute_hints(board, _EmptyAnalysis(board)), None
    if not board.revealed.any():
        hints = compute_hints(board, _EmptyAnalysis(board))
        return replace(hints, notes=(FRESH_NOTE,)), None
    try:
        analysis = solver.analyse(board, total)
    except InconsistentBoardError as exc:
        return inconsistent_hints(board, exc), None
    guess = None
    if not analysis.safe:
        covered = board.unknown & ~board.flags
        certain = set(analysis.mines)
        if any((int(r), int(c)) not in certain for r, c in zip(*covered.nonzero())):
            choice = solver.guess(analysis)
            row, col = choice.cell
            guess = ((row, col), float(choice.p_mine))
    hints = compute_hints(board, analysis, guess)
    explanation = None
    if explain is not None:
        without = None
        if total is not None and board.unknown[explain] and explain not in set(analysis.safe) \
                and explain not in set(analysis.mines):
            try:
                without = solver.analyse(board.replace(mines=None), None)
            except InconsistentBoardError:
                without = None
        explanation = explain_cell(board, analysis, explain, total, without)
    return hints, explanation


class _EmptyAnalysis:
    """Nothing proved (used where the solver has nothing to say: fresh or finished boards)."""

    def __init__(self, board: Board) -> None:
        import numpy as np
        self.safe: list[Coord] = []
        self.mines: list[Coord] = []
        self.wrong_flags: list[Coord] = []
        self.probability = np.full(board.shape, np.nan)
