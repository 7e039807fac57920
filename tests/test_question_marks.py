"""Question marks ("?"), read in every game and look that has them, and what the bot does with one.

A "?" is a covered cell with a player's mark on it: ``Cell.QUESTION``. The reader carries it on
the Board; the solver counts it as unknown, like a covered cell (a player's mark proves
nothing); to open one the bot clears the mark first (one right-click: every game here cycles
flag -> "?" -> none) and then opens it (``Solver._open``), so a game that swallows a left-click
on a marked cell (as it does on a flag) is never left waiting.

Which games draw a "?": GNOME Mines with its "use question marks" preference on (40.1: the
second right-click; themes bgcolors, classic, default), xdemineur (always), KMines with
``question mark=true`` (Classic, Oxygen, green). Simon Tatham's Mines has none: its right
button only toggles a flag (``mines.c``).

Fixtures: the marks series (``tools/record_clone_fixtures.py --marks``, seed 35: a "?" and a
flag next to open cells, boards and window sizes the shipped looks were not taught from,
KMines at its own window size of 0.4 x the screen) are the issue's two examples (xdemineur
30x16/99 and KMines Classic 16x16/40, each mid-game with one "?") and more; their truth is
proven by their lost frame like every clone fixture's (``test_clone_fixtures``).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.board import Board, Cell
from minebot.move import Action
from minebot.solver import Solver
from minebot.vision import Reader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

MARKS = sorted((FIXTURES / "xdemineur").glob("*-marks-*.board")) + sorted(
    (FIXTURES / "kmines").glob("*-marks-*.board"))


def _marks(board_path: Path) -> dict[tuple[int, int], str]:
    meta = json.loads(board_path.with_suffix(".json").read_text())
    return {tuple(int(v) for v in k.split(",")): m for k, m in meta["marks"].items()}


def test_the_marks_series_is_there():
    """The issue's two examples, and KMines' two shipped looks at its own window size."""
    names = {p.stem for p in MARKS}
    assert {"xdemineur-30x16-99-marks-mid", "classic-16x16-512x410-marks-mid",
            "default-16x16-512x410-marks-mid"} <= names


@pytest.mark.parametrize("board_path", MARKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_question_mark_is_read_where_it_was_put(board_path):
    """Read exactly, by a reader that may read any game, named as its game; the "?" put on
    the board is a "?" on the Board, unless the loss showed a mine under it."""
    truth = Board.load(board_path)
    reading = Reader().read(cv2.imread(str(board_path.with_suffix(".png"))))
    assert reading.game == board_path.parent.name
    assert reading.board.rows_text() == truth.rows_text()
    for cell, mark in _marks(board_path).items():
        if mark == "?" and truth.cells[cell] != Cell.MINE:
            assert reading.board.cells[cell] == Cell.QUESTION, cell


GNOME_WITH_MARKS = [FIXTURES / "gnome-mines" / f"{theme}-{size}-mid.board"
                    for theme in ("bgcolors", "classic", "default")
                    for size in ("8x8-590x460", "30x16-1290x760")]


@pytest.mark.parametrize("board_path", GNOME_WITH_MARKS, ids=lambda p: p.stem)
def test_gnome_mines_question_marks_in_every_theme(board_path):
    truth = Board.load(board_path)
    assert (truth.cells == Cell.QUESTION).any()
    reading = Reader().read(cv2.imread(str(board_path.with_suffix(".png"))))
    assert reading.game == "gnome-mines"
    assert reading.board.rows_text() == truth.rows_text()


@pytest.mark.parametrize("stem", ["xdemineur/xdemineur-30x16-99-marks-mid",
                                  "kmines/classic-16x16-820x700-marks-mid"])
def test_the_solver_counts_a_question_mark_as_unknown(stem):
    """On a real board with a "?", the certain cells and every probability are those of the
    same board with the "?" covered: a player's mark proves nothing."""
    marked = Board.load(FIXTURES / f"{stem}.board")
    assert (marked.cells == Cell.QUESTION).sum() == 1
    plain = marked.replace(cells=np.where(marked.cells == Cell.QUESTION, Cell.COVERED, marked.cells))
    a, b = Solver().analyse(marked), Solver().analyse(plain)
    assert a.safe == b.safe and a.mines == b.mines
    assert np.allclose(a.probability, b.probability, equal_nan=True)


def test_a_safe_question_mark_is_cleared_then_opened():
    """A "?" on a cell a 0 proves safe: one right-click clears the mark (UNFLAG), then the cell
    is opened; the bot never plans a flag or a left-click through the mark."""
    board = Board.parse('{"rows": 2, "cols": 3, "mines": 1}\n0?-\n---\n')
    moves = [(m.action, m.cell) for m in Solver().next_moves(board)]
    assert (Action.UNFLAG, (0, 1)) in moves and (Action.OPEN, (0, 1)) in moves
    assert moves.index((Action.UNFLAG, (0, 1))) == moves.index((Action.OPEN, (0, 1))) - 1
    assert all(a is not Action.FLAG for a, _ in moves)


def test_a_zero_beside_a_question_mark_is_not_doubted():
    """xdemineur's flood stops at a "?" (it never opens a marked cell), so a 0 can sit beside
    one. A live frame where that happened: the 0 is read as a 0, not as a doubtful cell (which
    stopped the bot: every read was refused), and the board is one the rules allow."""
    from minebot.solver import check_rules
    frame = cv2.imread(str(FIXTURES / "xdemineur" / "live-zero-next-to-question.png"))
    reading = Reader().read(frame)
    assert reading.game == "xdemineur"
    assert reading.suspect == []
    assert reading.board.cells[14, 15] == 0
    assert reading.board.cells[15, 15] == Cell.QUESTION and reading.board.cells[7, 3] == Cell.QUESTION
    check_rules(reading.board, "live frame")


@pytest.mark.parametrize("stem", ["default-8x8-810x656-won-question", "classic-8x8-810x656-won-question"])
def test_a_won_gnome_mines_board_with_question_marks_is_won(stem):
    """GNOME Mines flags every mine on a win, and draws one a player had marked "?" as a flag
    with a small "?" (default theme: the "?" look on the flagged tile's grey) or as the "?"
    itself (classic): only its counter, "10/10", says they are flags. Read as flags and won: else the bot sees a game in
    play, flags the "?" and waits for a change that never comes (seen live)."""
    path = FIXTURES / "gnome-mines" / f"{stem}.board"
    reading = Reader().read(cv2.imread(str(path.with_suffix(".png"))))
    assert reading.board.rows_text() == Board.load(path).rows_text()
    assert reading.board.state is Board.load(path).state
    assert reading.board.state.value == "won"


def test_gnome_mines_default_question_mark_is_not_a_close_call():
    """The default theme draws a "?" as a flag with a small "?" on a covered tile; on a won
    board the same picture on the flagged tile's grey is a flag. Taught as a flag look, that
    made the "?" a close call and the live game stopped; the won board is told by its counter
    instead, and a "?" reads as a "?" with no doubt."""
    path = FIXTURES / "gnome-mines" / "default-8x8-810x656-marks-fresh.board"
    reading = Reader().read(cv2.imread(str(path.with_suffix(".png"))))
    assert reading.board.rows_text() == Board.load(path).rows_text()
    assert reading.suspect == []
