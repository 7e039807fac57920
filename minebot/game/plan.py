"""What a move means on screen, as pure functions: which buttons to press on a cell, the
clicks of a batch of moves, which move a click belongs to, where on screen a move shows, and
what the next board must show once the moves were made.

Why apart from the live window: both are rules of the game, not of the desktop, and can be
tested without a display; the live game only carries them out and checks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..backends.pointer import Button
from ..board import Board, Cell, GameState
from ..errors import MinebotError
from ..move import Action, Move


def clicks_for(move: Move, code: int, question_marks: bool = True) -> list[Button]:
    """The buttons to press, in order, on a cell showing ``code`` to carry out ``move``.

    Empty when the move must not click at all (a flag blocks a reveal: never click through
    it). GNOME Mines cycles marks none -> flag -> "?" -> none (no "?" when ``question_marks``
    is off), so removing a flag may take two right-clicks.
    """
    if move.action is Action.OPEN:
        if code in (Cell.COVERED, Cell.QUESTION) or code <= 8:
            return [Button.LEFT]
        return []   # a flag blocks a reveal: never click through it
    if move.action is Action.CHORD:
        return [Button.LEFT] if code <= 8 else []
    if move.action is Action.FLAG:
        if code == Cell.COVERED:
            return [Button.RIGHT]
        if code == Cell.QUESTION:
            return [Button.RIGHT, Button.RIGHT]
        return []
    if move.action is Action.UNFLAG:
        if code == Cell.FLAG:
            return [Button.RIGHT, Button.RIGHT] if question_marks else [Button.RIGHT]
        if code == Cell.QUESTION:
            return [Button.RIGHT]
        return []
    raise MinebotError(f"unknown action {move.action!r}")


Point = tuple[float, float]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Batch:
    """The clicks of a batch of moves: ``points`` (x, y, button) in order; ``starts`` maps the
    index of each move's first click to the number of moves before it; ``played`` the moves
    that click at all (a flag blocks a reveal: such a move is left out)."""

    points: list[tuple[float, float, Button]]
    starts: dict[int, int]
    played: list[Move]

    @property
    def cells(self) -> list[tuple[int, int]]:
        return [m.cell for m in self.played]


def plan_batch(board: Board, moves: Sequence[Move], point: Callable[[tuple[int, int]], Point],
               question_marks: bool = True) -> Batch:
    """The clicks that carry out ``moves`` on ``board``, each at ``point(cell)``, called once
    per click in click order (the cell on screen: the live game puts each click on a cell
    beside the last one there, ``acting.Clicker``). A move outside the board is refused: it is
    never clicked."""
    points: list[tuple[float, float, Button]] = []
    starts: dict[int, int] = {}
    played: list[Move] = []
    for move in moves:
        r, c = move.cell
        if not (0 <= r < board.rows and 0 <= c < board.cols):
            raise MinebotError(f"move {move} is outside the {board.cols}x{board.rows} board")
        buttons = clicks_for(move, int(board.cells[move.cell]), question_marks)
        if not buttons:
            continue
        starts[len(points)] = len(played)
        points += [(*point(move.cell), button) for button in buttons]
        played.append(move)
    return Batch(points, starts, played)


def move_of(starts: dict[int, int], click: int) -> int:
    """The index of the move that click number ``click`` belongs to (``Batch.starts``). With
    ``click`` the number of clicks made when a batch stopped, it is the number of moves done:
    a move stopped between its two clicks counts as not done."""
    return starts[max(k for k in starts if k <= click)]


def move_box(cell_rects: np.ndarray, move: Move) -> Box:
    """Where ``move`` shows on screen (frame pixels): its cell, or for a chord its 3x3 block
    (a chord leaves its own number as it was, its neighbours change)."""
    rows, cols = cell_rects.shape[:2]
    r, c = move.cell
    reach = 1 if move.action is Action.CHORD else 0
    first = cell_rects[max(r - reach, 0), max(c - reach, 0)]
    last = cell_rects[min(r + reach, rows - 1), min(c + reach, cols - 1)]
    return int(first[0]), int(first[1]), int(last[2]), int(last[3])


def move_shows(move: Move, before: np.ndarray, frame: np.ndarray, cell_rects: np.ndarray,
               transient: Callable[[np.ndarray], bool] = lambda crop: False) -> bool:
    """Whether ``frame`` shows ``move`` done: where it shows (``move_box``) differs from
    ``before``, and its cell does not look ``transient`` (hovered or pressed: not yet the
    result)."""
    x0, y0, x1, y1 = move_box(cell_rects, move)
    cx0, cy0, cx1, cy1 = cell_rects[move.cell]
    old, crop = before[y0:y1, x0:x1], frame[y0:y1, x0:x1]
    return crop.shape == old.shape and not np.array_equal(crop, old) and \
        not transient(frame[cy0:cy1, cx0:cx1])


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


def silent_moves(before: Board, after: Board, moves: Sequence[Move]) -> list[Move]:
    """The moves of ``moves`` whose cell shows on ``after`` exactly what it showed on ``before``
    although the move must change it: a reveal of a covered or "?" cell, a flag, a flag taken
    off. Each is a click that was dropped on its way, or one the game has not drawn yet (or
    whose frame the capture has not had yet): the two look alike on one frame, and only the
    first may be clicked again (a second right-click on a flag drawn late takes it off).
    A chord, or a click on a revealed number, may rightly change nothing on its own cell: left
    out. None once the game is over or the board changed size."""
    if after.is_over or after.shape != before.shape:
        return []
    return [m for m in moves if m.action is not Action.CHORD and before.cells[m.cell] >= Cell.COVERED
            and after.cells[m.cell] == before.cells[m.cell]]
