"""A click the game draws late is not clicked again (``LiveGame._await_late``), and a click
that was really dropped is (``plan.silent_moves``).

No display, but no stand-in for what is read either: the screen is a real GNOME Mines 50
frame (fixtures/gnome-mines, its truth proven by the finished game), read by the real reader
and the real checks. What is scripted is only *when* the capture shows what the game drew:
a right-click puts the game's own flag tile (a crop of a flagged cell of the same frame) on
the clicked cell at once ("drawn"), and the capture shows it after ``delay`` seconds, or, as
mutter's area cast did under load (issue 33), only once the capture starts afresh.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.backends.capture import GrabbedCapture
from minebot.backends.pointer import BasePointer, Button
from minebot.backends.x11.window import Rect
from minebot.board import Board, Cell
from minebot.game.live import LiveGame
from minebot.game.plan import silent_moves
from minebot.games.gnome_mines.ui import GnomeMinesUI
from minebot.move import Action, Move

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
STEM = "bgcolors-gm50-16x16-810x656-mid"
FLAGGED = (0, 9)      # a flag in the fixture's truth: its tile is what a flag looks like
TARGET = (1, 9)       # covered in the truth: the cell the bot flags


class Screen(GrabbedCapture):
    """The screen as the capture shows it: ``drawn`` is what the game drew, ``shown`` what a
    grab gets. ``delay``: a drawing reaches the capture that long after it was drawn;
    ``stale``: it never does until the capture is started afresh (``focus(None)``, as
    ``LiveGame.forget_grid`` asks: mutter then joins its monitor cast again, painted new);
    ``stalled``: it does once the pointer moves a while later (as mutter 50's area cast did)."""

    def __init__(self, frame: np.ndarray, delay: float = 0.0, stale: bool = False,
                 stalled: bool = False) -> None:
        self.rect = Rect(0, 0, frame.shape[1], frame.shape[0])
        self.drawn, self.shown = frame.copy(), frame.copy()
        self.delay, self.stale, self.stalled = delay, stale or stalled, stalled
        self.drawn_at: float | None = None
        self.restarts = 0

    def draw(self, pixels: np.ndarray) -> None:
        self.drawn, self.drawn_at = pixels, time.monotonic()

    def grab(self, region: Rect) -> np.ndarray:
        if self.drawn_at is not None and not self.stale and \
                time.monotonic() - self.drawn_at >= self.delay:
            self.shown = self.drawn.copy()
        return self.shown[region.top:region.bottom, region.left:region.right].copy()

    def focus(self, rect: Rect | None) -> None:
        if rect is None:
            self.restarts += 1
            self.shown = self.drawn.copy()
            self.stale = False

    def moved(self) -> None:
        """The pointer moved: a stalled cast sends what was drawn before (not in the same
        few ms: the parking right after a click brought no flag, measured)."""
        if self.stalled and self.drawn_at is not None and time.monotonic() - self.drawn_at > 0.05:
            self.shown = self.drawn.copy()

    def close(self) -> None:
        pass


class Game(BasePointer):
    """The game behind the pointer: each right-click on ``TARGET`` cycles its mark the way
    GNOME Mines does (none -> flag -> "?" -> none; the "?" and none looks are the real tiles
    of the frame too), unless ``drop``: then the click is lost on its way."""

    def __init__(self, screen: Screen, rects: np.ndarray, flag: np.ndarray,
                 question: np.ndarray | None, drop: bool = False) -> None:
        super().__init__()
        self.screen, self.rects, self.drop = screen, rects, drop
        x0, y0, x1, y1 = rects[TARGET]
        self.looks = [screen.drawn[y0:y1, x0:x1].copy(), flag, question]
        self.mark = 0
        self.right_clicks = self.motions = 0

    def _motion(self, x: int, y: int) -> None:
        self.motions += 1
        self.screen.moved()

    def _press_release(self, x: int, y: int, button: Button) -> None:
        x0, y0, x1, y1 = self.rects[TARGET]
        assert x0 <= x < x1 and y0 <= y < y1, "a click off the cell the test expects"
        assert button is Button.RIGHT
        self.right_clicks += 1
        if self.drop:
            return
        self.mark = (self.mark + 1) % 3
        pixels = self.screen.drawn.copy()
        pixels[y0:y1, x0:x1] = self.looks[self.mark]
        self.screen.draw(pixels)

    def _flush(self) -> None:
        pass


class Backend:
    """A native-Wayland-like desktop (no window list: the board is found on the screen) whose
    clicks may be dropped (``drops_clicks``, as mutter's)."""

    name, wm, display = "scripted", "Scripted", "scripted"
    x11 = None
    window_list = None
    hover_grace = 0.06
    drops_clicks = True
    stalls_casts = True

    def __init__(self, screen: Screen, game: Game) -> None:
        self._screen, self.game = screen, game
        self.screen_rect = screen.rect

    def screen(self) -> Screen:
        return self._screen

    def pointer(self, log_path: str | None = None) -> Game:
        return self.game

    def key(self, combo: str) -> None:
        raise AssertionError(f"no key is pressed in this test ({combo})")

    def close(self) -> None:
        pass


def live_game(delay: float = 0.0, stale: bool = False, drop: bool = False,
              stalled: bool = False):
    """A ``LiveGame`` on the fixture frame, with the game and capture above; the flag tile
    is cut from the frame where the truth has a flag."""
    from minebot.vision import Reader
    frame = cv2.imread(str(FIXTURES / f"{STEM}.png"))
    truth = Board.parse((FIXTURES / f"{STEM}.board").read_text())
    assert truth.cells[FLAGGED] == Cell.FLAG and truth.cells[TARGET] == Cell.COVERED
    reader = Reader(game=GnomeMinesUI().profile)
    rects = reader.read(frame).cell_rects
    fx0, fy0, fx1, fy1 = rects[FLAGGED]
    tx0, ty0, tx1, ty1 = rects[TARGET]
    assert (fx1 - fx0, fy1 - fy0) == (tx1 - tx0, ty1 - ty0), "cells of one size in this frame"
    flag = frame[fy0:fy1, fx0:fx1].copy()
    screen = Screen(frame, delay=delay, stale=stale, stalled=stalled)
    game = Game(screen, rects, flag, None, drop=drop)
    live = LiveGame(reader=reader, ui=GnomeMinesUI(), backend=Backend(screen, game),
                    use_window=False, question_marks=False, settle_timeout=0.5,
                    frames_dir="/nonexistent-minebot-frames")
    return live, game, screen, truth


def test_the_fixture_reads_as_its_truth():
    live, _game, _screen, truth = live_game()
    board = live.observe()
    np.testing.assert_array_equal(board.cells, truth.cells)


@pytest.mark.parametrize("delay, stale", [(0.0, False), (0.7, False), (0.0, True)],
                         ids=["drawn-at-once", "drawn-after-the-deadline", "capture-missed-it"])
def test_a_flag_shown_late_is_read_once_shown_and_never_clicked_again(delay, stale):
    """The draw deadline is 0.5 s here: a flag shown 0.7 s after its click, or one the capture
    shows only once started afresh, is read as a flag by the first ``act``; a second ``act``
    asking the same flag clicks nothing (the flag stays: two right-clicks would make "?" or,
    without "?", take it off)."""
    live, game, screen, _truth = live_game(delay=delay, stale=stale)
    board = live.act([Move(Action.FLAG, TARGET)])
    assert board.cells[TARGET] == Cell.FLAG
    assert game.right_clicks == 1
    board = live.act([Move(Action.FLAG, TARGET)])   # the solver's plan, again: nothing to click
    assert game.right_clicks == 1 and board.cells[TARGET] == Cell.FLAG
    if stale:
        assert screen.restarts >= 1


def test_a_stalled_cast_is_nudged_by_a_small_motion_of_the_parked_pointer():
    """A cast that holds the flag's frame back until the screen changes again: the wait moves
    the parked pointer (off the board, inside the frame) and the flag is read well before the
    draw deadline, with no fresh capture needed."""
    live, game, screen, _truth = live_game(stalled=True)
    live.observe()
    parked = game.motions
    started = time.monotonic()
    board = live.act([Move(Action.FLAG, TARGET)])
    assert board.cells[TARGET] == Cell.FLAG and game.right_clicks == 1
    assert time.monotonic() - started < 0.4, "the flag came with the nudge, not the deadline"
    assert screen.restarts == 0 and game.motions > parked + 1   # the click's, then a nudge


def test_a_dropped_click_is_planned_again_and_then_lands():
    """A click that never reaches the game: after the second look the cell still shows what
    it showed, so the move may be clicked again, and that click lands."""
    live, game, _screen, _truth = live_game(drop=True)
    started = time.monotonic()
    board = live.act([Move(Action.FLAG, TARGET)])
    waited = time.monotonic() - started
    assert board.cells[TARGET] == Cell.COVERED and game.right_clicks == 1
    assert waited >= 2 * 0.5 - 0.05, "the second look gets the draw deadline again"
    game.drop = False
    board = live.act([Move(Action.FLAG, TARGET)])
    assert board.cells[TARGET] == Cell.FLAG and game.right_clicks == 2


def test_silent_moves_are_the_clicked_cells_that_show_no_change():
    before = Board.parse('{"rows": 2, "cols": 4, "mines": 3, "state": "playing"}\n1---\n-?F-\n')
    after = Board.parse('{"rows": 2, "cols": 4, "mines": 3, "state": "playing"}\n1F--\n-?--\n')
    moves = [Move(Action.FLAG, (0, 1)),      # shows its flag
             Move(Action.OPEN, (0, 2)),      # still covered: silent
             Move(Action.OPEN, (1, 1)),      # "?" still: silent
             Move(Action.UNFLAG, (1, 2)),    # flag gone
             Move(Action.CHORD, (0, 0)),     # a chord may change nothing on its own cell
             Move(Action.OPEN, (0, 0))]      # a click on a number: no change expected
    assert silent_moves(before, after, moves) == [moves[1], moves[2]]
    lost = Board.parse('{"rows": 2, "cols": 4, "mines": 3, "state": "lost"}\n1*--\n-?F-\n')
    assert silent_moves(before, lost, moves) == []
