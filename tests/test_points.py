"""Where the pointer goes: only inside the board just read, parked off it inside the window.
Pure geometry, no display."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.backends.x11.window import Rect
from minebot.errors import NoGameError
from minebot.game.points import PARK_OFFSET, REPEAT_STEP, board_rect, bounds, cell_point, park_point

REGION = Rect(100, 50, 400, 300)


def test_the_board_and_its_cells_on_screen():
    assert board_rect(REGION, (20, 30, 220, 130)) == Rect(120, 80, 200, 100)
    rects = np.array([[[20, 30, 40, 50], [40, 30, 60, 50]]])
    assert cell_point(REGION, rects, (0, 1)) == (100 + 49.5, 50 + 39.5)
    assert bounds(Rect(1, 2, 3, 4)) == (1, 2, 4, 6)


@pytest.mark.parametrize("width", [9, 16, 24, 40])
def test_clicks_in_a_row_on_a_cell_land_apart_inside_the_cell(width):
    """GTK 4 drops a press within 5 px of the last one as part of a double click: each click
    on a cell goes beside the one before (REPEAT_STEP or more) where the cell has room, and
    never near the cell's edge."""
    rects = np.array([[[20, 30, 20 + width, 30 + width]]])
    points = [cell_point(REGION, rects, (0, 0), nth) for nth in range(6)]
    assert points[0] == cell_point(REGION, rects, (0, 0))
    assert {y for _, y in points} == {points[0][1]}
    for x, _ in points:
        assert REGION.left + 20 + 2 <= x <= REGION.left + 20 + width - 1 - 2
    if width >= 24:
        assert all(abs(a[0] - b[0]) >= REPEAT_STEP for a, b in zip(points, points[1:]))


@pytest.mark.parametrize("board, where", [
    (Rect(250, 60, 200, 280), "left"),      # the most room is left of the board
    (Rect(110, 60, 380, 200), "bottom"),
    (Rect(105, 150, 390, 195), "top"),
    (Rect(105, 55, 150, 290), "right"),
])
def test_parked_off_the_board_on_its_roomiest_side_inside_the_window(board, where):
    x, y, limits = park_point(REGION, board)
    assert limits == bounds(REGION)
    assert REGION.contains(x, y) and not board.contains(x, y)
    side = {"left": x < board.left, "right": x >= board.right,
            "top": y < board.top, "bottom": y >= board.bottom}
    assert side[where]
    assert max(board.left - x, x - board.right + 1, board.top - y, y - board.bottom + 1) <= PARK_OFFSET


def test_without_a_board_the_pointer_parks_in_the_left_margin():
    assert park_point(REGION, None) == (103, 200, bounds(REGION))


def test_no_room_off_the_board_is_refused():
    with pytest.raises(NoGameError, match="no room"):
        park_point(REGION, Rect(101, 51, 398, 298))


def test_board_on_screen_aims_inside_the_board_it_was_read_from():
    """``BoardOnScreen`` (what ``LiveGame.on_screen`` hands out, and the clicker aims with) on a
    real reading: every cell's centre lies inside that cell and inside the click bounds, which
    are the board's; the pointer parks off the board, inside the region."""
    from pathlib import Path

    import cv2

    from minebot.game.points import BoardOnScreen
    from minebot.vision import Reader

    png = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines" / "classic-16x16-810x656-mid.png"
    reading = Reader().read(cv2.imread(str(png)))
    region = Rect(37, 21, 810, 656)
    aim = BoardOnScreen.of(region, reading)
    left, top, right, bottom = reading.board_px
    assert aim.rect == Rect(37 + left, 21 + top, right - left, bottom - top)
    assert aim.bounds == bounds(aim.rect)
    rows, cols = reading.board.rows, reading.board.cols
    for cell in [(r, c) for r in range(rows) for c in range(cols)]:
        x, y = aim.cell_point(cell)
        x0, y0, x1, y1 = reading.cell_rects[cell]
        assert 37 + x0 <= x < 37 + x1 and 21 + y0 <= y < 21 + y1
        assert aim.rect.contains(x, y)
    x, y, limits = aim.park_point()
    assert limits == bounds(region)
    assert region.contains(x, y) and not aim.rect.contains(x, y)
