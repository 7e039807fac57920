"""What a move means on screen, as pure functions: which buttons to press on a cell, and
what the next board must show once the moves were made.

Why apart from the live window: both are rules of the game, not of the desktop, and can be
tested without a display; the live game only carries them out and checks them.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..board import Board, Cell, GameState
from ..errors import MinebotError
from ..move import Action, Move


def clicks_for(move: Move, code: int, question_marks: bool = True) -> list[str]:
    """The buttons to press, in order, on a cell showing ``code`` to carry out ``move``.

    Empty when the move must not click at all (a flag blocks a reveal: never click through
    it). GNOME Mines cycles marks none -> flag -> "?" -> none (no "?" when ``question_marks``
    is off), so removing a flag may take two right-clicks.
    """
    if move.action is Action.OPEN:
        if code in (Cell.COVERED, Cell.QUESTION) or code <= 8:
            return ["left"]
        return []   # a flag blocks a reveal: never click through it
    if move.action is Action.CHORD:
        return ["left"] if code <= 8 else []
    if move.action is Action.FLAG:
        if code == Cell.COVERED:
            return ["right"]
        if code == Cell.QUESTION:
            return ["right", "right"]
        return []
    if move.action is Action.UNFLAG:
        if code == Cell.FLAG:
            return ["right", "right"] if question_marks else ["right"]
        if code == Cell.QUESTION:
            return ["right"]
        return []
    raise MinebotError(f"unknown action {move.action!r}")


def expectation(board: Board, moves: Sequence[Move],
                dropped_ok: bool = False) -> Callable[[Board], str | None]:
    """A check of the next board: None if it is what ``moves`` should produce, else why not.

    ``dropped_ok``: for a game that may drop a click (KMines): a clicked cell that still shows
    exactly what it showed before is a click that never arrived, not a misread; the solver
    plans it again from what the screen shows. A cell that changed must still have changed
    the way the move says."""
    before = board.cells.copy()
    shape = board.shape
    opens = [m.cell for m in moves if m.action in (Action.OPEN, Action.CHORD)
             and before[m.cell] in (Cell.COVERED, Cell.QUESTION)]
    flags = [m.cell for m in moves if m.action is Action.FLAG]
    unflags = [m.cell for m in moves if m.action is Action.UNFLAG]

    def check(new: Board) -> str | None:
        if new.shape != shape:
            return f"the board changed size from {shape} to {new.shape}"
        if new.state is GameState.LOST:
            return None
        cells = new.cells
        was_open = before <= 8
        if (cells[was_open] != before[was_open]).any():
            bad = np.argwhere(was_open & (cells != before))[0]
            return f"revealed cell {tuple(int(v) for v in bad)} changed"
        opened = new.opened
        def dropped(cell) -> bool:
            return dropped_ok and cells[cell] == before[cell]
        for cell in opens:
            if not opened[cell] and new.state is not GameState.WON and not dropped(cell):
                return f"cell {cell} was clicked but is not revealed"
        for cell in flags:
            if cells[cell] != Cell.FLAG and cells[cell] > 8 and new.state is not GameState.WON \
                    and not dropped(cell):
                return f"cell {cell} was flagged but shows no flag"
        for cell in unflags:
            if cells[cell] in (Cell.FLAG, Cell.QUESTION) and not dropped(cell):
                return f"cell {cell} still shows a mark"
        return None
    return check
