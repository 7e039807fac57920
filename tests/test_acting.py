"""The checked clicks of a batch (``game.acting.Clicker``) where there is no window list (GNOME
on Wayland, the whole-screen fallback): the board itself is watched. No display: the screen is
a scripted capture that the recorded pointer's clicks change the way the game would, and the
pointer is the shared guarded click loop (``BasePointer``) with a transport that writes down
what would reach the display server."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from minebot.backends.capture import GrabbedCapture
from minebot.backends.frames import FrameSource
from minebot.backends.pointer import BasePointer
from minebot.backends.x11.window import Rect
from minebot.board import Board
from minebot.game.acting import Clicker
from minebot.game.window_guard import WindowGuard
from minebot.games.gnome_mines.ui import GnomeMinesUI
from minebot.move import Action, Move
from minebot.vision.reader import Reading

REGION = Rect(100, 50, 200, 150)          # the frames: the whole "screen" of the game
CELL = 20
ORIGIN = (40, 30)                          # the board's top-left in frame pixels
BOARD = Board.parse('{"rows": 3, "cols": 4, "mines": 2, "state": "playing"}\n0---\n01--\n01-F\n')


def reading() -> Reading:
    x0, y0 = ORIGIN
    rects = np.array([[[x0 + c * CELL, y0 + r * CELL, x0 + (c + 1) * CELL - 1, y0 + (r + 1) * CELL - 1]
                       for c in range(BOARD.cols)] for r in range(BOARD.rows)])
    return Reading(BOARD, (x0, y0, x0 + BOARD.cols * CELL, y0 + BOARD.rows * CELL), rects, "test")


class Screen(GrabbedCapture):
    """A capture of a screen that the game (``Game`` below) draws on."""

    def __init__(self) -> None:
        self.pixels = np.random.default_rng(5).integers(
            0, 200, (REGION.bottom + 10, REGION.right + 10, 3), np.uint8)

    def grab(self, region: Rect) -> np.ndarray:
        return self.pixels[region.top:region.bottom, region.left:region.right].copy()

    def close(self) -> None:
        pass


class Game(BasePointer):
    """The pointer's transport and the game behind it: a click paints the clicked cell
    (except on cells in ``drops``: a click lost on its way); ``move_after`` clicks, the
    window is moved (the screen shifts by 7 px)."""

    def __init__(self, screen: Screen, drops=(), move_after: int | None = None) -> None:
        super().__init__()
        self.screen, self.drops, self.move_after = screen, set(drops), move_after
        self.sent: list[tuple] = []

    def _motion(self, x, y):
        self.sent.append(("move", x, y))

    def _press_release(self, x, y, button):
        self.sent.append(("click", x, y, button))
        col, row = (x - REGION.left - ORIGIN[0]) // CELL, (y - REGION.top - ORIGIN[1]) // CELL
        if (row, col) not in self.drops:
            self.screen.pixels[y - 5:y + 5, x - 5:x + 5] = 255
        if self.move_after is not None and len([s for s in self.sent if s[0] == "click"]) == self.move_after:
            self.screen.pixels = np.roll(self.screen.pixels, 7, axis=1)

    def _flush(self):
        pass


def clicker(game: Game, screen: Screen, paced: bool = False) -> Clicker:
    guard = WindowGuard(SimpleNamespace(x11=None), GnomeMinesUI(), use_window=False)
    guard.frames = FrameSource(screen, REGION)
    return Clicker(game, guard, GnomeMinesUI(), paced=paced)


def test_each_move_clicks_its_cell_centre_and_the_pointer_parks_off_the_board():
    screen = Screen()
    game = Game(screen)
    frame = FrameSource(screen, REGION).grab()
    moves = [Move(Action.OPEN, (0, 1)), Move(Action.FLAG, (2, 2)), Move(Action.OPEN, (2, 3))]
    sent = clicker(game, screen).send(BOARD, reading(), frame, moves)
    assert sent.complete and sent.clicks == 2 and sent.played == moves[:2]   # a flag blocks (2, 3)
    clicks = [s for s in game.sent if s[0] == "click"]
    assert clicks == [("click", 100 + 40 + 20 + 9, 50 + 30 + 9, "left"),
                      ("click", 100 + 40 + 40 + 9, 50 + 30 + 40 + 9, "right")]
    park = game.sent[-1]
    board = Rect(140, 80, 80, 60)
    assert park[0] == "move" and REGION.contains(park[1], park[2]) and not board.contains(park[1], park[2])


def test_a_board_that_moved_during_the_batch_gets_no_further_click():
    screen = Screen()
    game = Game(screen, move_after=1)
    frame = FrameSource(screen, REGION).grab()
    moves = [Move(Action.OPEN, (0, 1)), Move(Action.OPEN, (1, 2)), Move(Action.OPEN, (2, 2))]
    sent = clicker(game, screen).send(BOARD, reading(), frame, moves)
    assert not sent.complete and sent.clicks == 1 and sent.played == moves[:1]
    assert [s[0] for s in game.sent] == ["click"]     # no second click, no parking either


def test_paced_a_click_that_never_shows_is_left_out_and_named_as_lost():
    screen = Screen()
    game = Game(screen, drops={(1, 2)})
    frame = FrameSource(screen, REGION).grab()
    moves = [Move(Action.OPEN, (0, 1)), Move(Action.OPEN, (1, 2)), Move(Action.OPEN, (2, 2))]
    sent = clicker(game, screen, paced=True).send(BOARD, reading(), frame, moves)
    assert sent.complete and sent.clicks == 3
    assert sent.played == [moves[0], moves[2]]
    # ... and named, so that it is looked at again before it may be planned again (a click
    # drawn late is not a lost one: ``LiveGame._await_late``)
    assert sent.lost == [moves[1]]
