"""The live game: a real Minesweeper window, read from the screen and played with the mouse.

``LiveGame`` wires the parts together; each job is its own module:

- ``GameUI`` (``minebot.game.ui``, one module per game): everything that depends on which game
  it is (how its window is found, how a new game starts, its dialogs, its pause, what a fresh
  board looks like). This module knows no game by name.
- ``WindowGuard`` (``window_guard``): finds and follows the window (or the board on the whole
  screen), owns its ``FrameSource`` (``minebot.backends.frames``), and before every batch says
  whether the board may have moved, been resized, covered or closed: then it is read again,
  never clicked blind. GNOME Mines pauses when it loses focus (and KMines takes keys only with
  it), so focus is re-asserted whenever it is lost.
- ``Clicker`` (``acting``): sends the clicks of a batch, only inside the board just read, each
  checked just before it goes; ``plan`` and ``points`` are its pure rules.
- ``observing``: reads through the one capture -> read loop (``minebot.backends.readings``),
  the pointer parked off the board (a hovered cell changes colour); after a batch the game is
  watched, not slept on: every clicked cell must change on screen, then two grabs must agree,
  then the read board must show what the moves should have done (``plan.expectation``,
  ``read_checks``) or it is read again; a frame that stays unreadable is saved
  (``saved_frames``).
- ``new_games``: a new game asked of the ``GameUI``, then reads until its fresh board shows.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..backends.backend import open_backend
from ..backends.listed import ListedWindow, WindowList
from ..backends.pointer import Button
from ..backends.x11.window import Rect
from ..board import Board, Cell
from ..errors import BadInputError, NoGameError, UnresponsiveGameError
from ..games import DEFAULT
from ..games.interfaces import detect, detect_listed, ui_for
from ..move import Move
from ..rules import Rules
from ..timing import Phase, phase
from . import new_games, observing
from .acting import PACED_WMS, Clicker
from .base import Game
from .plan import expectation, silent_moves
from .points import BoardOnScreen, park_point
from .read_checks import ScreenMismatchError
from .saved_frames import save_frame
from .ui import GameUI
from .window_guard import WindowGuard

if TYPE_CHECKING:   # pragma: no cover
    from ..vision.learn import Learner
    from ..vision.reader import Reader, Reading
    from .replay import Recording

__all__ = ["LiveGame", "ScreenMismatchError", "PACED_WMS"]


UNANSWERED_TURNS = 8
"""Turns in a row whose clicks change nothing on the board before play stops (a dropped click
is planned again, and a few drops in a row happen; eight never did in the live tests)."""


class LiveGame(Game):
    """A Minesweeper window on an X display (``$DISPLAY`` by default).

    ``ui`` is the game's own interface (``minebot.game.ui.GameUI``; GNOME Mines' by default).
    ``level`` (one of ``ui.levels``, e.g. beginner/intermediate/expert) or
    ``custom=(rows, cols, mines)`` makes ``start()`` switch the window to that size, where the
    game allows it; with neither, whatever board the window shows is played, and new games
    repeat its size. ``recorder`` (a ``minebot.game.replay.Recording``) keeps every frame read
    and every move made; ``learner`` (a ``minebot.vision.learn.Learner``) learns the looks a
    game was unsure of when it ends. ``backend``: an open desktop backend handed over (closed
    with the game), else detected. ``reader`` (a ``minebot.vision.Reader``): handed over, else
    one is built from ``templates`` and ``crops_dir`` (where unsure cells' crops are saved).
    """

    first_click = None

    def __init__(self, display: str | None = None, *, reader=None, templates: str | None = None,
                 level: str | None = None, custom: tuple[int, int, int] | None = None,
                 mines: int | None = None, click_log: str | None = None, recorder=None,
                 rereads: int = 4, settle_timeout: float = 2.0,
                 question_marks: bool = True, frames_dir: str | Path | None = None,
                 window_id: int | None = None, use_window: bool = True,
                 cover_wait: float = 3.0, learner=None, ui: GameUI | None = None,
                 backend=None, crops_dir: str | Path | None = None) -> None:
        self.backend = backend if backend is not None else open_backend(display)
        self.x11 = self.backend.x11   # None where clients cannot list windows (native Wayland)
        known = ui is not None
        if ui is None:   # the supported game whose window is open (GNOME Mines when none is)
            listing = self.backend.window_list
            ui = (detect(self.x11, window_id) if self.x11 is not None
                  else detect_listed(listing.windows()) if listing is not None
                  else None) if use_window else None
            known = ui is not None      # nothing recognised: the reader tries every game
            ui = ui or ui_for(DEFAULT)
        self.ui = ui
        # the game whose window is played, when it was named or recognised: a reading of
        # another game is never played on (``read_checks.game_problem``)
        self.window_game: str | None = ui.profile.name if known else None
        if level is not None and level not in ui.levels:
            self.backend.close()
            raise BadInputError(f"unknown level {level!r} for {ui.name}: expected one of "
                               f"{', '.join(ui.levels) or '(none: it plays the size it shows)'}")
        self.display, self.screen_rect = self.backend.display, self.backend.screen_rect
        self.pointer = self.backend.pointer(click_log)
        if reader is None:
            from ..vision import Reader
            # Built here, not by the caller: the game named or recognised in the window is the
            # only one the reader looks for (else every game's looks are tried on each locate).
            reader = Reader(templates, crops_dir=crops_dir, game=ui.profile if known else None)
        self.reader: Reader = reader
        self.level, self.custom = level, custom
        self.expected_shape: tuple[int, int] | None = None   # set once a game's board is known
        self.mines_hint = mines if mines is not None else (
            ui.levels[level][2] if level else (custom[2] if custom else None))
        self.recorder: Recording | None = recorder
        self.learner: Learner | None = learner
        self.rereads, self.settle_timeout = rereads, settle_timeout
        self.question_marks = question_marks
        self.frames_dir = Path(frames_dir) if frames_dir else Path(".")
        self.frame: np.ndarray | None = None
        self.reading: Reading | None = None
        self.clicks = 0             # clicks in the current game
        self.unanswered = 0         # turns in a row whose clicks changed nothing on the board
        self.dialogs_closed = 0
        self.frame_index: int | None = None
        # the last won board, its frame and where the board was in it
        self.won_board: Board | None = None
        self.won_frame: np.ndarray | None = None
        self.won_px: tuple[int, int, int, int] | None = None
        self.guard = WindowGuard(self.backend, ui, window_id=window_id, use_window=use_window,
                                 cover_wait=cover_wait, settle_timeout=settle_timeout,
                                 frames_dir=self.frames_dir)
        self.guard.locate(self.reader.read)
        # Some window managers drop a click that comes too soon after the previous one (see
        # PACED_WMS): there, each move waits until the previous one shows on screen.
        self.paced = self.backend.wm in PACED_WMS or self.ui.paced
        self.clicker = Clicker(self.pointer, self.guard, ui, paced=self.paced,
                               question_marks=question_marks)
        # How long a hovered/pressed look may be the click's result still to come: longer
        # where input and frames pass through a compositor's queues (mutter's D-Bus APIs).
        self.hover_grace = self.backend.hover_grace
        # Where a click can be dropped on its way (mutter's virtual pointer, KMines' event
        # queue), a clicked cell that shows no change is planned again instead of stopping.
        self.drops_clicks = self.ui.paced or self.backend.drops_clicks
        # Where the cast may hold back a click's frame until the screen changes again, the
        # wait for it moves the parked pointer a little (``nudge``).
        self.stalls_casts = self.backend.stalls_casts
        self.nudges = 0

    @property
    def rules(self) -> Rules:   # type: ignore[override]
        """The rule set of the game played (where mines may lie): the ``GameUI``'s."""
        return self.ui.rules

    # -- the window and its frames (``WindowGuard``) ----------------------------------------
    @property
    def window(self):
        """The game's ``WindowInfo``, or None when playing the whole screen."""
        return self.guard.window

    @property
    def listed(self) -> ListedWindow | None:
        """The game's window in the compositor's own list (sway's), when there is one."""
        return self.guard.listed

    @property
    def frames(self):
        return self.guard.frames

    @property
    def screen(self):
        """The whole screen's capture, when playing without the window."""
        return self.guard.screen

    @property
    def region(self) -> Rect | None:
        """The screen rectangle the frames cover (the window's visible part, or the screen)."""
        return self.guard.frames.region if self.guard.frames is not None else None

    def focus(self) -> None:
        self.guard.focus()

    def refocus(self) -> None:
        """Give the game its keyboard focus back (after a dialog had it)."""
        self.guard.refocus()

    def check_window(self) -> bool:
        """Re-validate the window (or the board) before clicking. True if it may have changed:
        then the last reading is forgotten (parking falls back to the window's margin) and the
        board must be read again before any click."""
        if not self.guard.check(self.reading, self.frame):
            return False
        self.reading = None
        self.forget_grid()   # a cached grid may no longer fit: locate it afresh
        return True

    def forget_grid(self) -> None:
        """Make the reader locate the grid afresh on the next read, on the whole screen again
        where the capture had been narrowed to the board (``watch_board``).

        A doubtful read may come from a cached grid that no longer fits (the Reader re-checks
        its cache only by sampling); after any surprise we want a full locate.
        """
        self.reader.forget()
        if self.frames is not None:
            self.frames.narrow(None)

    def watch_board(self) -> None:
        """Narrow a capture that can watch less than the screen (mutter's area cast) to the
        board just accepted: fewer pixels per frame, so each frame comes sooner."""
        if self.reading is not None and self.frames is not None:
            self.frames.narrow(self.on_screen().rect)

    def ring_same(self, before: np.ndarray, px, inside: bool = False) -> bool:
        """``FrameSource.ring_same``: the board still where and what it was."""
        return self.frames.ring_same(before, px, inside)

    def await_board_change(self, frame: np.ndarray, px, timeout: float) -> bool:
        """``FrameSource.await_change`` (for a ``GameUI`` where windows cannot be listed)."""
        return self.frames.await_change(frame, px, timeout)

    def close_dialogs(self) -> bool:
        """Close the game's own dialogs (see ``GameUI.close_dialogs``); True if there were any."""
        return self.ui.close_dialogs(self)

    def key(self, combo: str) -> None:
        self.focus()
        self.backend.key(combo)

    # -- what a ``GameUI`` may do besides (``GameHost``) ------------------------------------
    @property
    def window_list(self) -> WindowList | None:
        """The compositor's own list of windows (sway's), where there is one, else None."""
        return self.backend.window_list

    def send_key(self, combo: str) -> None:
        """A key to whatever has the keyboard focus now (a dialog of the game), without
        giving the game the focus first (``key`` does)."""
        self.backend.key(combo)

    def read(self, frame: np.ndarray) -> Reading:
        """``frame`` read with the game's reader (a UI checking what the game shows)."""
        return self.reader.read(frame)

    def click_control(self, x: float, y: float, bounds: tuple[int, int, int, int]) -> None:
        """One left click on a control of the game outside the board (xdemineur's smiley),
        at (x, y), which must lie inside ``bounds``: the control found on the frame just read,
        never a board click."""
        self.pointer.click(x, y, Button.LEFT, bounds)

    # -- the pointer, on the last reading (``points``) --------------------------------------
    def on_screen(self) -> BoardOnScreen:
        """The board of the last reading on screen: its cells' centres, where a click may land
        and where the pointer parks. Only for clicks aimed at that reading: after a move or
        any doubt, read again first."""
        if self.reading is None:
            raise NoGameError("no board read yet: nothing to aim at")
        return BoardOnScreen.of(self.region, self.reading)

    def park_point(self, margin: bool = False) -> tuple[int, int, tuple[int, int, int, int]]:
        """Off the board as last read (``margin``, or no reading: the window's left margin,
        after a read that may have been spoiled by a pointer over the board)."""
        if self.reading is None or margin:
            return park_point(self.region, None)
        return self.on_screen().park_point()

    def park(self, margin: bool = False, shift: int = 0) -> None:
        """Pointer inside the window (or region) but off the board: no hovered cell.

        ``shift`` moves the point that many pixels down (up when that leaves the bounds), so
        that parking again is a real motion the game hears."""
        x, y, limits = self.park_point(margin)
        if shift:
            y = y + shift if y + shift < limits[3] else y - shift
        self.pointer.move(x, y, limits)

    def nudge(self) -> None:
        """Move the parked pointer 2 px and back, one step per call, off the board as last
        read: a real motion the game hears, which makes a stalled cast (``stalls_casts``:
        mutter 50's area cast) send the frame it held back. Each step goes through the
        pointer's checks (inside the window, the fail-safe) like any parking."""
        self.nudges += 1
        self.park(shift=2 if self.nudges % 2 else 0)

    # -- observe -----------------------------------------------------------------------------
    def grab(self) -> np.ndarray:
        return self.frames.grab()

    def observe(self) -> Board:
        """A clean, settled reading of the game (``observing.observe``)."""
        return observing.observe(self)

    # -- act (``Clicker``) -------------------------------------------------------------------
    def act(self, moves: Sequence[Move]) -> Board:
        if self.reading is None:
            self.observe()
        board = self.reading.board
        if board.is_over:
            return board
        if self.check_window():
            board = self.observe()   # moved or resized: read again before any click
        moves = list(moves)
        if self.recorder is not None and self.frame_index is not None:
            self.recorder.add_moves(self.frame_index, moves)
        # With flags on the board a click on a number revealed by an earlier click of the same
        # batch could chord around a wrong flag: then play one move per capture.
        batch = 1 if (board.cells == Cell.FLAG).any() else len(moves)
        i = 0
        while i < len(moves) and not board.is_over:
            chunk = moves[i:i + batch]
            i += batch
            board = self._play_chunk(board, chunk)
        if board.is_over and self.ui.end_message_seconds:
            # The game draws a message over the board when it ends (KMines): the board read
            # under it may be wrong, so the final board is the one read once it has gone.
            time.sleep(self.ui.end_message_seconds)
            board = self.observe()
        return board

    def _play_chunk(self, board: Board, moves: Sequence[Move]) -> Board:
        """Click ``moves`` and read the board they should produce (``plan.expectation``)."""
        before = self.frame
        sent = self.clicker.send(board, self.reading, before, moves)
        if sent is None:
            return board
        self.clicks += sent.clicks
        with phase(Phase.PLAN):
            expect = expectation(board, sent.played, self.drops_clicks)
        if not sent.complete:
            # The window moved during the batch: read it where it is now and let the solver
            # plan the rest on that reading.
            self.check_window()
            return observing.observe(self, expect)
        if before is None:
            return observing.observe(self, expect)
        # The settled frame is read first; re-reads (if needed) capture again.
        settled = observing.settled(self, before, [m.cell for m in sent.played])
        after = observing.observe_frame(self, settled, expect)
        silent = silent_moves(board, after, [*sent.played, *sent.lost])
        if silent:
            after = self._await_late(board, before, silent, expect)
        self._count_unanswered(board, after, sent.played)
        return after

    def _await_late(self, board: Board, before: np.ndarray, silent: Sequence[Move],
                    expect) -> Board:
        """The board once clicks that showed nothing by the draw deadline (``silent``) had
        a second chance to show: a click drawn late looks like a dropped one on any one frame,
        but planning it again is no repair (a second right-click on a flag drawn late takes
        it off, or makes it "?"; GNOME Mines 50 under a loaded headless mutter drew flags
        seconds late, or its area cast sent no frame of them). So the capture starts afresh
        (``forget_grid``: mutter's monitor cast joined again is painted new for it), those
        cells get the draw deadline again, and a settled frame is read anew; only a cell that
        still shows what it showed before was dropped, and the solver plans it again."""
        cells = [m.cell for m in silent]
        if os.environ.get("MINEBOT_DEBUG"):
            print(f"minebot: no change yet at {cells}: looking again before any new click",
                  file=sys.stderr)
        self.forget_grid()
        frame = observing.settled(self, before, cells)
        return observing.observe_frame(self, frame, expect)

    def _count_unanswered(self, board: Board, after: Board, played: Sequence[Move]) -> None:
        """Stop when UNANSWERED_TURNS turns in a row changed nothing: where a dropped click is
        planned again (``drops_clicks``) a game that gets no click at all would otherwise be
        clicked until the turn limit (minutes on an expert board)."""
        if not played or not np.array_equal(board.cells, after.cells):
            self.unanswered = 0
            return
        self.unanswered += 1
        if self.unanswered >= UNANSWERED_TURNS:
            saved = self.save_frame("unresponsive")
            cell = played[-1].cell
            raise UnresponsiveGameError(
                f"the game did not react to {self.unanswered} turns of clicks in a row (the last "
                f"at row {cell[0]}, col {cell[1]}): do its clicks reach it?"
                + (f" Frame saved to {saved}" if saved else ""), saved)

    # -- games -------------------------------------------------------------------------------
    def switch_level(self, level: str) -> None:
        """Play ``level`` from the next ``start()`` on, in the same window (a game that
        switches its own size). Why not a new ``LiveGame``: finding the game again from
        nothing fails where no window list exists and the last game left a dialog over the
        board (GNOME Mines 50's "Congratulations!" on Wayland); this one's UI closes it.
        The level's mine count replaces the last one's (the solver counts on it)."""
        if level not in self.ui.levels:
            raise BadInputError(f"unknown level {level!r} for {self.ui.name}: expected one of "
                                f"{', '.join(self.ui.levels) or '(none)'}")
        self.level, self.custom = level, None
        self.mines_hint = self.ui.levels[level][2]

    def start(self) -> Board:
        """Bring the window to the requested level (or keep its size) with a fresh board."""
        self.unanswered = 0
        return new_games.start(self)

    def settled_frame(self) -> np.ndarray:
        """A frame of the window once it stopped changing (for a ``GameUI`` to look at)."""
        return observing.settled(self, None)

    def wait_fresh(self, before: Board | None = None, timeout: float | None = None) -> Board:
        """Read until the new game's board shows (``new_games.wait_fresh``)."""
        return new_games.wait_fresh(self, before, timeout)

    def new_game(self) -> Board:
        """A new game of the same size, by the game's own interface."""
        self.unanswered = 0
        return new_games.new_game(self)

    def save_frame(self, what: str) -> Path | None:
        """Write the last frame as a PNG (for error reports); returns its path."""
        return None if self.frame is None else save_frame(self.frame, self.frames_dir, what)

    def close(self) -> None:
        """Idempotent: the pointer log, the frames and the backend's connection."""
        self.pointer.close()
        self.guard.close()
        self.backend.close()
