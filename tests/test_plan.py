"""Click planning and the expected effect of moves: rules of the game, no display."""

from __future__ import annotations

import pytest

from minebot.board import Board, Cell
from minebot.game.plan import clicks_for, expectation
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
