"""The Board text format: round trips, header handling, and errors that point at the problem."""

import numpy as np
import pytest

from minebot.board import CELL_CHARS, Board, Cell, GameState, neighbour_count
from minebot.errors import BadInputError, BoardFormatError


def test_round_trip_every_character():
    # Every number where a cell has that many neighbours (6-8 only fit inside the board).
    text = '{"rows": 3, "cols": 5, "mines": 4, "state": "lost"}\n0145-\n2678F\n3?*XW\n'
    board = Board.parse(text)
    assert board.to_text() == text
    assert board.shape == (3, 5) and board.mines == 4 and board.state is GameState.LOST
    assert [board[1, c] for c in range(4)] == [2, 6, 7, 8]
    assert board[1, 4] is Cell.FLAG and board[2, 4] is Cell.WRONG_FLAG
    assert sorted(CELL_CHARS[v] for v in board.cells.ravel()) == sorted("012345678-F?*XW")


def test_round_trip_random_boards():
    rng = np.random.default_rng(7)
    for _ in range(50):
        rows, cols = rng.integers(1, 20, size=2)
        cells = rng.integers(0, 15, size=(rows, cols))
        room = neighbour_count(np.ones((rows, cols), dtype=bool))   # no 8 in a corner
        cells = np.where(cells <= 8, np.minimum(cells, room), cells)
        mines = int(rng.integers(0, min(50, rows * cols + 1))) if rng.random() < 0.5 else None
        board = Board(cells, mines)
        again = Board.parse(board.to_text())
        assert again == board
        assert Board.parse(board.to_text(header=False)).cells.tolist() == cells.tolist()


def test_header_is_optional_and_trailing_blank_lines_ignored():
    board = Board.parse("-1\n-1\n\n\n")
    assert board.shape == (2, 2) and board.mines is None and board.state is None


def test_board_is_immutable():
    board = Board.covered(2, 3, mines=1)
    with pytest.raises(ValueError):
        board.cells[0, 0] = 1
    changed = board.with_cells({(0, 0): 1})
    assert board[0, 0] is Cell.COVERED and changed[0, 0] == 1


@pytest.mark.parametrize("text, line, column, words", [
    ("01-\n0x-\n", 2, 2, "unexpected 'x'"),
    ("01-\n0-\n", 2, 3, "row has 2 cells, expected 3"),
    ('{"rows": 2\n--\n', 1, 11, "bad JSON header"),
    ('{"rows": 3}\n--\n--\n', 1, None, "rows=3 but the grid has 2"),
    ('{"mines": -1}\n--\n', 1, None, "'mines' must be a whole number"),
    ('{"state": "sleeping"}\n--\n', 1, None, "'state' 'sleeping'"),
    ('{"rows": 1}\n', 2, None, "found none"),
    ("", 1, None, "found none"),
    ("--\n-é\n", 2, 2, "unexpected 'é'"),
])
def test_parse_errors_name_line_and_column(text, line, column, words):
    with pytest.raises(BoardFormatError) as info:
        Board.parse(text, "b.txt")
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert words in str(err) and str(err).startswith(f"b.txt:{line}")


def test_load_missing_file(tmp_path):
    with pytest.raises(BadInputError, match="no such file"):
        Board.load(tmp_path / "nope.board")


def test_masks_and_neighbour_count():
    board = Board.parse("1F?\n-2*\n")
    assert board.revealed.tolist() == [[True, False, False], [False, True, False]]
    assert board.unknown.tolist() == [[False, True, True], [True, False, False]]
    assert neighbour_count(board.unknown).tolist() == [[2, 2, 1], [1, 3, 2]]
