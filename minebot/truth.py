"""What a finished game proves about every cell it showed.

A lost GNOME Mines game shows every mine (shown, exploded, or under a flag that stays); a won
one flags them all. So once a game is over, the true number of every cell that was revealed
is known, independently of how any cell was read during the game. That truth checks the
reads of a game (tests, benchmarks) and labels looks that were unsure (learning from play).
"""

from __future__ import annotations

import numpy as np

from .board import Board, Cell, GameState, neighbour_count


def true_numbers(final: Board) -> np.ndarray | None:
    """(rows, cols) int array: the number every non-mine cell hides, -1 on mines and where a
    "?" next to it leaves the count open; None when the game is not over."""
    c = final.cells
    if final.state is GameState.LOST:
        mines = np.isin(c, (Cell.MINE, Cell.EXPLODED, Cell.FLAG))
    elif final.state is GameState.WON:
        mines = c == Cell.FLAG
    else:
        return None
    counts = neighbour_count(mines).astype(np.int16)
    open_ = neighbour_count(c == Cell.QUESTION) > 0
    return np.where(mines | open_, -1, counts)


def misreads(boards: list[Board], final: Board) -> list[tuple[int, int, int, int, int]]:
    """(step, row, col, read, true) for every number read in ``boards`` (the positions seen
    during a game) that the finished game ``final`` shows to be wrong."""
    truth = true_numbers(final)
    if truth is None:
        return []
    out = []
    for step, board in enumerate(boards):
        wrong = (board.cells <= 8) & (truth >= 0) & (board.cells != truth)
        out += [(step, int(r), int(c), int(board.cells[r, c]), int(truth[r, c]))
                for r, c in np.argwhere(wrong)]
    return out
