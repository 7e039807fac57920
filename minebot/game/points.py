"""Where the pointer goes, as pure functions of the region on screen and the board read in it.

Why apart: the rule "only ever inside the board just read" and "park off the board, inside
the window" are geometry of one reading; written as functions of their parameters they are
tested without a display, and the live game (and the benchmarks) only call them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..backends.x11.window import Rect
from ..errors import NoGameError

PARK_OFFSET = 8
"""Pixels between the board's edge and the parked pointer."""

Bounds = tuple[int, int, int, int]
"""(left, top, right, bottom) on screen, right/bottom exclusive: where a click may land."""


def bounds(rect: Rect) -> Bounds:
    return rect.left, rect.top, rect.right, rect.bottom


def board_rect(region: Rect, board_px: tuple[int, int, int, int]) -> Rect:
    """The board ``board_px`` (frame pixels of a frame of ``region``) on screen."""
    left, top, right, bottom = board_px
    return Rect(region.left + left, region.top + top, right - left, bottom - top)


REPEAT_STEP = 6
"""Pixels between two clicks in a row on one cell (a flag, then taking it off: flag -> "?" ->
none).

Why not the same point twice: GTK 4 counts a press that comes within the double-click time
and within ``gtk-double-click-distance`` (5 px by default) of the last one as the second of a
double click, and GNOME Mines 48 and later ignore such a press (``n_press > 1``), so the
second click would never arrive. 6 px apart, still inside the cell, it is a click of its own."""


def cell_point(region: Rect, cell_rects: np.ndarray, cell: tuple[int, int],
               nth: int = 0) -> tuple[float, float]:
    """The centre of ``cell`` on screen (its rectangle in a frame of ``region``); for the
    ``nth`` click on it, beside the centre, in turn right and left, each time one
    ``REPEAT_STEP`` further (+6, -6, +12, -12 px ...), never closer than 2 px to the cell's
    edge: any two clicks in a row on one cell are ``REPEAT_STEP`` or more apart where the
    cell has the room."""
    x0, y0, x1, y1 = cell_rects[cell]
    x = (x0 + x1 - 1) / 2
    if nth:
        room = max(0.0, (x1 - x0 - 1) / 2 - 2)
        x += min(REPEAT_STEP * ((nth + 1) // 2), room) * (1 if nth % 2 else -1)
    return region.left + x, region.top + (y0 + y1 - 1) / 2


def park_point(region: Rect, board: Rect | None) -> tuple[int, int, Bounds]:
    """Where to park the pointer so that no cell is hovered, and the bounds it must stay in.

    A few pixels off ``board`` on its roomiest side, inside ``region`` (the window's margin:
    with focus-follows-pointer, a pointer outside the game would pause it). With no board
    known, the region's left margin. No room at all off the board: ``NoGameError``.
    """
    if board is None:
        x, y = region.left + 3, region.top + region.height // 2
    else:
        mid_x, mid_y = board.left + board.width // 2, board.top + board.height // 2
        left, right = board.left - region.left, region.right - board.right
        top, bottom = board.top - region.top, region.bottom - board.bottom
        gaps = [  # (room, x, y) candidates around the board, inside the region
            (left, board.left - min(PARK_OFFSET, left // 2), mid_y),
            (right, board.right - 1 + min(PARK_OFFSET, right // 2), mid_y),
            (bottom, mid_x, board.bottom - 1 + min(PARK_OFFSET, bottom // 2)),
            (top, mid_x, board.top - min(PARK_OFFSET, top // 2)),
        ]
        room, x, y = max(gaps)
        if room < 2:
            raise NoGameError("no room off the board to park the pointer")
    return x, y, bounds(region)


@dataclass(frozen=True, eq=False)
class BoardOnScreen:
    """One reading's board placed on the screen: each cell's centre, where a click may land and
    where the pointer parks, all from the same reading.

    Why a value: every click of a batch must be aimed at one reading (the one just taken) and
    kept inside its board; the live game hands this out (``LiveGame.on_screen``) so that its
    own clicker and a benchmark that clicks by itself aim by the same rules.
    """

    region: Rect
    """The screen rectangle the reading's frame covers."""
    board_px: tuple[int, int, int, int]
    cell_rects: np.ndarray

    @classmethod
    def of(cls, region: Rect, reading) -> "BoardOnScreen":
        """``reading`` (a ``minebot.vision.Reading``) of a frame of ``region``."""
        return cls(region, tuple(reading.board_px), reading.cell_rects)

    @property
    def rect(self) -> Rect:
        """The board on screen."""
        return board_rect(self.region, self.board_px)

    @property
    def bounds(self) -> Bounds:
        """Where a click may land: the board, nothing else."""
        return bounds(self.rect)

    def cell_point(self, cell: tuple[int, int], nth: int = 0) -> tuple[float, float]:
        """The centre of ``cell`` on screen (the ``nth`` click on it: beside, ``cell_point``)."""
        return cell_point(self.region, self.cell_rects, cell, nth)

    def park_point(self) -> tuple[int, int, Bounds]:
        """Off this board, inside the region (``park_point``)."""
        return park_point(self.region, self.rect)
