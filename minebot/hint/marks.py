"""What the hint shows: a pure function of a Board and the solver's Analysis.

The overlay, the PNG output and the terminal view all draw the same ``Hints``; keeping the
decision of *what* to mark apart from *how* it is drawn means it is tested with no display,
and the three outputs can never disagree.

Rules of respect for the player's game: certain safe cells and certain mines are marked,
a player's flag is never silently trusted (a flag the numbers prove wrong gets its own mark),
mines the player already flagged need no mark, and a board no mine layout fits gets no hints
at all, only the statement that it is inconsistent and the numbers that contradict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Protocol, Sequence

import numpy as np

from ..board import Board, Cell, GameState
from ..errors import InconsistentBoardError

Coord = tuple[int, int]


class Mark(StrEnum):
    """What the hint marks on a cell; each output (overlay, PNG, terminal) gives every mark its
    own colour. A ``StrEnum``, so that a mark is also the name of its layer."""

    SAFE = "safe"          # certainly safe
    MINE = "mine"          # certainly a mine
    WRONG = "wrong"        # a flag the numbers prove wrong
    GUESS = "guess"        # the best guess
    PROBLEM = "problem"    # numbers that contradict each other
    TARGET = "target"      # the explained cell
    PROOF = "proof"        # the numbers proving the explained cell


class AnalysisLike(Protocol):
    """The part of ``minebot.solver.Analysis`` the hint needs."""

    safe: list[Coord]
    mines: list[Coord]
    wrong_flags: list[Coord]

    @property
    def probability(self) -> np.ndarray: ...


class ExplainableAnalysis(AnalysisLike, Protocol):
    """An analysis that can also say why (``explain_cell``): the numbers that force a cell and
    whether the mine total was needed, the exact fraction of layouts with a mine on a cell, and
    how many layouts there are (``minebot.solver.Analysis`` declares all three)."""

    @property
    def layouts(self) -> int: ...

    def fraction(self, cell: Coord) -> Fraction | None: ...

    def explanation(self, cell: Coord) -> tuple[list[Coord], bool]: ...


@dataclass(frozen=True)
class Hints:
    """Everything to mark on one board.

    ``safe``: covered or "?" cells proved safe. ``mines``: cells proved mines that carry no
    flag yet. ``wrong_flags``: flags on cells proved safe. ``guess``/``guess_p``: the best
    cell to open when nothing is certain, with its mine probability. ``probability``: rows x
    cols, NaN where a cell is not unknown. ``problem``: why no hints are shown (inconsistent
    board, game over, ...), with ``problem_cells`` the numbers at fault.
    """

    board: Board
    safe: tuple[Coord, ...] = ()
    mines: tuple[Coord, ...] = ()
    wrong_flags: tuple[Coord, ...] = ()
    guess: Coord | None = None
    guess_p: float | None = None
    probability: np.ndarray | None = None
    problem: str | None = None
    problem_cells: tuple[Coord, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def summary(self) -> str:
        """One line for a status label or the terminal."""
        if self.problem:
            return self.problem
        parts = [f"{len(self.safe)} safe", f"{len(self.mines)} mine(s)"]
        if self.wrong_flags:
            parts.append(f"{len(self.wrong_flags)} wrong flag(s): "
                         + ", ".join(_fmt(c) for c in self.wrong_flags))
        line = ", ".join(parts)
        if self.guess is not None and self.guess_p is not None:
            line += f"; best guess {_fmt(self.guess)}: {format_percent(self.guess_p)} mine"
        return "; ".join((line,) + self.notes)


def _fmt(cell: Coord) -> str:
    return f"({cell[0]},{cell[1]})"


def format_percent(p: float) -> str:
    """A probability as a percentage that never rounds an uncertain cell to 0 % or 100 %."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    pct = p * 100
    if pct < 1:
        return f"{pct:.1f}%"
    if pct > 99:
        return f"{min(pct, 99.9):.1f}%"
    return f"{pct:.0f}%"


def short_percent(p: float) -> str:
    """At most two characters for drawing inside a cell: 0<p<1 shows 1..99."""
    return str(int(min(99, max(1, round(p * 100)))))


STATE_PROBLEMS = {
    GameState.WON: "game won: nothing left to hint",
    GameState.LOST: "game lost: no hints on a finished game",
    GameState.PAUSED: "game paused: resume it to see hints",
    GameState.CHOOSER: "no board: pick a size in the game",
    GameState.NONE: "no board found",
}


def no_hints(board: Board, problem: str, cells: Sequence[Coord] = ()) -> Hints:
    """Hints that show nothing but a problem (and the cells at fault)."""
    return Hints(board=board, problem=problem,
                 problem_cells=tuple((int(r), int(c)) for r, c in cells))


def best_guess(board: Board, probability: np.ndarray, certain: set[Coord]) -> tuple[Coord, float] | None:
    """The covered or "?" cell least likely to be a mine (not flags, not certain cells).

    Ties go to the first cell in reading order, so the choice is stable between frames and
    the overlay does not flicker between equal cells.
    """
    candidates = (board.cells == Cell.COVERED) | (board.cells == Cell.QUESTION)
    candidates &= ~np.isnan(probability)
    for r, c in certain:
        candidates[r, c] = False
    if not candidates.any():
        return None
    masked = np.where(candidates, probability, np.inf)
    flat = int(np.argmin(masked))
    r, c = divmod(flat, board.cols)
    return (r, c), float(probability[r, c])


def compute_hints(board: Board, analysis: AnalysisLike, guess: tuple[Coord, float] | None = None,
                  always_guess: bool = False) -> Hints:
    """The marks for ``board`` given the solver's ``analysis`` of it.

    ``guess`` is the solver's own choice ``(cell, p_mine)`` when it made one; otherwise the
    least likely cell is taken. The best guess is only shown when no cell is certainly safe
    (a safe cell is always the better move) unless ``always_guess``.
    """
    if board.state in STATE_PROBLEMS:
        return no_hints(board, STATE_PROBLEMS[board.state])
    cells = board.cells
    flags = cells == Cell.FLAG
    safe = tuple(sorted((int(r), int(c)) for r, c in analysis.safe if not flags[r, c]))
    mines = tuple(sorted((int(r), int(c)) for r, c in analysis.mines if not flags[r, c]))
    wrong = tuple(sorted((int(r), int(c)) for r, c in analysis.wrong_flags))
    probability = np.array(analysis.probability, dtype=float)
    if probability.shape != board.shape:
        raise ValueError(f"probability has shape {probability.shape}, board {board.shape}")
    g_cell, g_p = None, None
    if not safe or always_guess:
        if guess is not None:
            g_cell, g_p = (int(guess[0][0]), int(guess[0][1])), float(guess[1])
        else:
            certain = set(analysis.safe) | set(analysis.mines)
            found = best_guess(board, probability, {(int(r), int(c)) for r, c in certain})
            if found is not None:
                g_cell, g_p = found
    return Hints(board=board, safe=safe, mines=mines, wrong_flags=wrong, guess=g_cell,
                 guess_p=g_p, probability=probability)


def inconsistent_hints(board: Board, error: InconsistentBoardError) -> Hints:
    """No hints: the board read contradicts the rules (its ``cells`` are the numbers that
    contradict each other)."""
    return no_hints(board, f"board inconsistent, no hints: {error}", error.cells)
