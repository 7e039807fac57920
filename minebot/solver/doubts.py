"""Play through doubt: a revealed cell whose number could not be read for sure.

Such a cell is still certainly no mine, and its number is one of a few candidates. The board
the solver sees shows it as ``#`` (open, number unknown): it is not a variable and constrains
nothing, so whatever the solver concludes holds for every candidate (dropping a constraint
only removes knowledge, never adds any). Before that, the rules may settle the doubt: a
candidate that no mine layout of the rest of the board allows is impossible, and when only
one candidate is left, that is the number, proven by the other numbers rather than guessed.
"""

from __future__ import annotations

from ..board import Board, Cell
from ..errors import InconsistentBoardError
from .analysis import analyse

Coord = tuple[int, int]


def possible(board: Board, mines: int | None = None) -> bool:
    """Whether some mine layout agrees with every number of ``board``."""
    try:
        analyse(board, mines)
    except InconsistentBoardError:
        return False
    return True


def settle(board: Board, unsure: dict[Coord, tuple[int, ...]], mines: int | None = None
           ) -> tuple[Board, dict[Coord, tuple[int, ...]]]:
    """``board`` with each unsure cell set to its number where the rules leave one candidate,
    and to ``#`` elsewhere; also the candidates still open per cell."""
    relaxed = board.with_cells({cell: Cell.OPEN for cell in unsure})
    left: dict[Coord, tuple[int, ...]] = {}
    settled: dict[Coord, int] = {}
    for cell, candidates in unsure.items():
        fits = tuple(k for k in candidates if possible(relaxed.with_cells({cell: k}), mines))
        if len(fits) == 1:
            settled[cell] = fits[0]
        else:
            left[cell] = fits or tuple(candidates)
    return relaxed.with_cells(settled), left


def sure_board(board: Board, unsure: dict[Coord, tuple[int, ...]], mines: int | None = None) -> Board:
    """The board to act on: ``board`` with its unsure numbers settled or shown as ``#``."""
    return settle(board, unsure, mines)[0] if unsure else board
