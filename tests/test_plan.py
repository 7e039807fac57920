"""Click planning and the expected effect of moves: rules of the game, no display."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.board import Board, Cell
from minebot.errors import MinebotError
from minebot.game.plan import clicks_for, expectation, move_box, move_of, move_shows, plan_batch
from minebot.move import Action, Move

BEFORE = Board.parse("""{"rows": 3, "cols": 4, "mines": 2, "state": "playing"}
01--
01F-
0?--
""")


@pytest.mark.parametrize("action, code, marks, buttons", [
    (Action.OPEN, Cell.COVERED, True, ["left"]),
    (Action.OPEN, Cell.QUESTION, True, ["left"]),
    (Action.OPEN, Cell.FLAG, True, []),            # a flag blocks a reveal: never click through
    (Action.CHORD, 1, True, ["left"]),
    (Action.CHORD, Cell.COVERED, True, []),
    (Action.FLAG, Cell.COVERED, True, ["right"]),
    (Action.FLAG, Cell.QUESTION, True, ["right", "right"]),
    (Action.FLAG, Cell.FLAG, True, []),
    (Action.UNFLAG, Cell.FLAG, True, ["right", "right"]),   # flag -> ? -> none
    (Action.UNFLAG, Cell.FLAG, False, ["right"]),           # no question marks: flag -> none
    (Action.UNFLAG, Cell.QUESTION, True, ["right"]),
    (Action.UNFLAG, Cell.COVERED, True, []),
])
def test_clicks_for(action, code, marks, buttons):
    assert clicks_for(Move(action, (0, 0)), int(code), marks) == buttons


def _board(text: str, state: str = "playing") -> Board:
    return Board.parse(f'{{"rows": 3, "cols": 4, "mines": 2, "state": "{state}"}}\n' + text)


def test_expected_reveal_passes_and_missing_reveal_is_named():
    check = expectation(BEFORE, [Move(Action.OPEN, (0, 2))])
    assert check(_board("011-\n01F-\n0?--\n")) is None
    assert check(BEFORE) == "cell (0, 2) was clicked but is not revealed"


def test_a_revealed_cell_that_changes_is_a_misread():
    check = expectation(BEFORE, [Move(Action.OPEN, (0, 2))])
    assert check(_board("021-\n01F-\n0?--\n")) == "revealed cell (0, 1) changed"


def test_flag_and_unflag_expectations():
    assert expectation(BEFORE, [Move(Action.FLAG, (0, 3))])(BEFORE) == \
        "cell (0, 3) was flagged but shows no flag"
    assert expectation(BEFORE, [Move(Action.UNFLAG, (1, 2))])(BEFORE) == "cell (1, 2) still shows a mark"
    assert expectation(BEFORE, [Move(Action.UNFLAG, (1, 2))])(_board("01--\n01--\n0?--\n")) is None


def test_a_loss_or_a_resize_is_judged_apart():
    check = expectation(BEFORE, [Move(Action.OPEN, (0, 2))])
    assert check(_board("01X-\n01F-\n0?--\n", "lost")) is None
    small = Board.parse('{"rows": 2, "cols": 2, "mines": 1, "state": "playing"}\n--\n--\n')
    assert "changed size" in check(small)


def test_a_dropped_click_is_accepted_only_where_the_game_may_drop_clicks():
    """KMines may drop a click: the cell then shows what it showed before, and is planned
    again; a cell that changed the wrong way is still a misread."""
    opened = expectation(BEFORE, [Move(Action.OPEN, (0, 2))], dropped_ok=True)
    assert opened(BEFORE) is None
    assert opened(_board("011-\n01F-\n0?--\n")) is None
    assert opened(_board("021-\n01F-\n0?--\n")) == "revealed cell (0, 1) changed"
    flagged = expectation(BEFORE, [Move(Action.FLAG, (0, 3))], dropped_ok=True)
    assert flagged(BEFORE) is None
    assert flagged(_board("01--\n01F-\n0?-?\n")) is None            # another cell: not judged here
    assert expectation(BEFORE, [Move(Action.UNFLAG, (1, 2))], dropped_ok=True)(BEFORE) is None


def test_a_batch_clicks_each_move_at_its_point_and_leaves_out_blocked_moves():
    moves = [Move(Action.OPEN, (0, 2)), Move(Action.OPEN, (1, 2)),   # (1, 2) is flagged: blocked
             Move(Action.FLAG, (2, 1)), Move(Action.CHORD, (1, 1))]  # (2, 1) shows "?": 2 clicks
    asked = []

    def point(cell):   # one call per click, in order: the caller may place each one apart
        asked.append(cell)
        return 10.0 * cell[1] + asked.count(cell) - 1, 100.0 + cell[0]
    batch = plan_batch(BEFORE, moves, point)
    assert asked == [(0, 2), (2, 1), (2, 1), (1, 1)]
    assert batch.points == [(20.0, 100.0, "left"), (10.0, 102.0, "right"), (11.0, 102.0, "right"),
                            (10.0, 101.0, "left")]
    assert batch.starts == {0: 0, 1: 1, 3: 2}
    assert batch.cells == [(0, 2), (2, 1), (1, 1)]


def test_a_move_off_the_board_is_never_planned():
    with pytest.raises(MinebotError, match="outside the 4x3 board"):
        plan_batch(BEFORE, [Move(Action.OPEN, (0, 1)), Move(Action.OPEN, (3, 0))],
                   lambda cell: (0.0, 0.0))


@pytest.mark.parametrize("click, move", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2)])
def test_each_click_belongs_to_its_move(click, move):
    assert move_of({0: 0, 1: 1, 3: 2}, click) == move


@pytest.mark.parametrize("made, done", [(1, 1), (2, 1), (3, 2), (4, 3)])
def test_a_batch_stopped_between_the_two_clicks_of_a_move_counts_it_as_not_done(made, done):
    """Moves of 1, 2 and 1 clicks; ``made`` clicks were sent before the window moved."""
    starts = {0: 0, 1: 1, 3: 2}
    assert move_of({**starts, 4: 3}, made) == done


RECTS = np.array([[[10 * c, 10 * r, 10 * c + 9, 10 * r + 9] for c in range(4)] for r in range(3)])


def test_a_move_shows_on_its_cell_and_a_chord_on_its_block():
    assert move_box(RECTS, Move(Action.OPEN, (1, 2))) == (20, 10, 29, 19)
    assert move_box(RECTS, Move(Action.CHORD, (1, 2))) == (10, 0, 39, 29)
    assert move_box(RECTS, Move(Action.CHORD, (0, 0))) == (0, 0, 19, 19)   # clipped at the edge


def test_move_shows_a_changed_cell_but_not_a_hovered_one_nor_a_change_elsewhere():
    before = np.zeros((30, 40, 3), np.uint8)
    opened, hovered, elsewhere, near = before.copy(), before.copy(), before.copy(), before.copy()
    opened[12:18, 22:28] = 50
    hovered[10:19, 20:29] = 200
    elsewhere[2:8, 2:8] = 50
    near[12:18, 32:38] = 50         # a neighbour opened: a chord's result, not an open's
    hover = lambda crop: bool((crop == 200).all())   # noqa: E731
    move = Move(Action.OPEN, (1, 2))
    assert move_shows(move, before, opened, RECTS, hover)
    assert not move_shows(move, before, hovered, RECTS, hover)
    assert not move_shows(move, before, elsewhere, RECTS, hover)
    assert not move_shows(move, before, near, RECTS, hover)
    assert move_shows(Move(Action.CHORD, (1, 2)), before, near, RECTS, hover)
    assert not move_shows(move, before, before, RECTS)
