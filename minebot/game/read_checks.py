"""What a reading of the live game must be before it is played on, as functions of the reading.

Why apart from the live window: these are judgements about one reading (is a doubtful won
board proven anyway, what the board is once the game's own counter, level and verdict are
added, is it the size this game has), so they are tested on screenshots without a display.
"""

from __future__ import annotations

import numpy as np

from .. import games
from ..board import Board, Cell, GameState
from ..errors import UnreadableGameError


class ScreenMismatchError(UnreadableGameError):
    """The screen did not show what the moves should have produced; ``frame`` is saved."""


def won_beyond_doubt(reading, mines: int | None) -> bool:
    """A won board whose only doubtful cells are flags: no click will follow, and the count
    proves every doubtful flag is one (the game flags every mine on a win, and the number of
    flags read equals the mine total, from the counter or the level)."""
    board = reading.board
    if board.state is not GameState.WON:
        return False
    cells = board.cells
    if any(cells[cell] != Cell.FLAG for cell in reading.suspect):
        return False
    total = reading.counter[1] if reading.counter else (board.mines if board.mines is not None else mines)
    flags = int((cells == Cell.FLAG).sum())
    shown = reading.counter[0] if reading.counter else flags
    return total is not None and flags == total == shown


def complete_board(reading, frame: np.ndarray | None, ui, mines: int | None) -> Board:
    """The reading's board with the mine total filled in when the counter gave none (``mines``,
    else the ``ui``'s standard total for its size), its unsure numbers settled by the rules or
    shown as ``#`` (never acted on as read), and the game's own verdict (xdemineur's smiley)
    when ``frame`` shows the game over. It becomes ``reading.board``."""
    board = reading.board
    if frame is not None and board.state in (GameState.PLAYING, None):
        verdict = ui.shown_state(frame, reading.board_px)
        if verdict in (GameState.WON, GameState.LOST):
            board = board.replace(state=verdict)
    if board.mines is None:
        total = mines if mines is not None else ui.standard_mines(board.shape)
        if total is not None:
            board = board.replace(mines=total)
    if reading.unsure:
        from ..solver.doubts import settle
        board, _ = settle(board, reading.unsure, board.mines)
    reading.board = board
    return board


def game_problem(reading, game: str | None) -> str | None:
    """Why ``reading`` is not a board of ``game`` (the game whose window is played, when it is
    known), or None. A reader that may read every game tries the others on a frame its own
    game cannot read (``Reader.locate``); another game's board in this game's window is then a
    misread, and this window's game decides how every move is made."""
    if game is None or reading.game == game:
        return None
    return f"read a board of {games.get(reading.game).title} in the {games.get(game).title} window"


def shape_problem(board: Board, expected: tuple[int, int] | None) -> str | None:
    """Why ``board`` is not of the ``expected`` (rows, cols) of this game, or None."""
    if expected is None or board.shape == expected:
        return None
    rows, cols = expected
    return f"read a {board.cols}x{board.rows} board where the game is {cols}x{rows}"
