"""What a reading must be before it is played on: its board completed with the mine total and
the game's own verdict, and the size the game has. No display needed."""

from __future__ import annotations

import numpy as np

from minebot.board import Board, GameState
from minebot.game.read_checks import complete_board, shape_problem
from minebot.games.gnome_mines.ui import GnomeMinesUI
from minebot.vision.reader import Reading

FRAME = np.zeros((100, 100, 3), np.uint8)


def reading(text: str, mines: int | None = None) -> Reading:
    board = Board.parse(text).replace(mines=mines)
    rects = np.zeros(board.shape + (4,), int)
    return Reading(board, (0, 0, 10, 10), rects, "test")


BEGINNER = "\n".join(["01--------"[:8]] * 8) + "\n"


def test_the_mine_total_comes_from_the_counter_else_the_level_asked_else_the_board_size():
    ui = GnomeMinesUI()
    assert complete_board(reading(BEGINNER, 12), FRAME, ui, 10).mines == 12   # the counter
    assert complete_board(reading(BEGINNER), FRAME, ui, 11).mines == 11       # the level asked
    assert complete_board(reading(BEGINNER), FRAME, ui, None).mines == 10     # 8x8: beginner
    assert complete_board(reading("0-\n--\n"), FRAME, ui, None).mines is None  # no such level


def test_the_games_own_verdict_ends_a_board_that_reads_as_in_play():
    class Smiley(GnomeMinesUI):
        def shown_state(self, frame, board_px):
            return GameState.LOST

    r = reading(BEGINNER, 10)
    board = complete_board(r, FRAME, Smiley(), None)
    assert board.state is GameState.LOST and r.board is board
    assert complete_board(reading(BEGINNER, 10), None, Smiley(), None).state is not GameState.LOST


def test_unsure_numbers_are_settled_by_the_rules_or_never_played_as_read():
    proven = reading("1-\n--\n", 1)          # one mine in all: a 2 is impossible
    proven.unsure = {(0, 0): (1, 2)}
    assert complete_board(proven, FRAME, GnomeMinesUI(), None).to_text().endswith("1-\n--\n")
    open_question = reading("1--\n---\n---\n", 2)
    open_question.unsure = {(0, 0): (1, 2)}
    assert complete_board(open_question, FRAME, GnomeMinesUI(), None).to_text().endswith(
        "#--\n---\n---\n")


def test_a_board_of_another_size_than_the_game_is_named():
    board = Board.parse("0-\n--\n--\n")
    assert shape_problem(board, None) is None
    assert shape_problem(board, (3, 2)) is None
    assert shape_problem(board, (8, 8)) == "read a 2x3 board where the game is 8x8"
