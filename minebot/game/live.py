"""The live game: a real Minesweeper window, read from the screen and played with the mouse.

Why it is built this way:

- Everything that depends on which game it is (how its window is found, how a new game starts,
  its dialogs, its pause, what a fresh board looks like) is asked of the game's ``GameUI``
  (``minebot.game.ui``; GNOME Mines by default): this module only follows the window, reads,
  clicks inside the board and waits for the screen to settle.
- The window is found through X11 (title and class, from the ``GameUI``) so the capture is
  exactly its rectangle; when no such window exists the whole screen is captured and the
  board located in it. Before every batch of clicks the window's geometry, focus and stacking
  are checked again: a moved, resized, covered or closed window is re-located or the run
  stops, it is never clicked blind.
- GNOME Mines pauses when it loses focus (and KMines takes keys only with it), so focus is
  re-asserted whenever it is lost.
- The pointer is parked inside the window but off the board before each capture, because a
  hovered cell changes colour.
- Every click goes to the centre of a cell of the board just read, through ``Pointer``, which
  refuses any point outside that board's rectangle.
- After a batch, the game is watched (not slept on): every clicked cell must change on screen,
  then two consecutive grabs must agree, then the read board must show what the moves should
  have done (opened cells revealed, nothing revealed changed) or the frame is read again.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from ..board import Board, Cell, GameState
from ..errors import BadInputError, MinebotError, NoGameError, UnreadableGameError
from ..move import Action, Move
from ..desktop.watch import ring_box, ring_unchanged
from ..desktop.window import Rect
from .base import Game
from .plan import clicks_for, expectation
from .ui import GameUI


PARK_OFFSET = 8
"""Pixels between the board's edge and the parked pointer."""

HOVER_GRACE = 0.06
"""Seconds after a click during which a cell in hover/pressed colour is not yet its result."""

PACED_WMS = frozenset({"Openbox"})
"""Window managers under which clicks must wait for the previous click's result.

Openbox (3.6, default rc.xml) binds Focus and Raise to a press of any button on a client
window, so it holds a synchronous passive grab on the game: each press freezes the pointer
until openbox has run those actions and replays the press. Measured with GNOME Mines 40.1 on
Xvfb: of 6 right-clicks sent 0-50 ms apart only the first reached the game (openbox's
debug log shows it received and "focused" all 6); 100-150 ms apart, or each sent once the
previous one showed on screen (~16 ms), all 6 landed; with the Client bindings removed, or
with the bindings present but empty of actions, all 6 landed at any speed. Metacity and
no WM take them at full speed."""


def _won_beyond_doubt(reading, mines: int | None) -> bool:
    """A won board whose only doubtful cells are flags: no click will follow, and the count
    proves every doubtful flag is one (the game flags every mine on a win, and the number of
    flags read equals the mine total, from the counter or the level)."""
    board = reading.board
    if board.state is not GameState.WON:
        return False
    cells = board.cells
    if any(cells[cell] != Cell.FLAG for cell in reading.suspect):
        return False
    total = reading.counter[1] if reading.counter else (board.mines if board.mines is not None else mines)
    flags = int((cells == Cell.FLAG).sum())
    shown = reading.counter[0] if reading.counter else flags
    return total is not None and flags == total == shown


class ScreenMismatchError(UnreadableGameError):
    """The screen did not show what the moves should have produced; ``frame`` is saved."""


class LiveGame(Game):
    """A Minesweeper window on an X display (``$DISPLAY`` by default).

    ``ui`` is the game's own interface (``minebot.game.ui.GameUI``; GNOME Mines' by default).
    ``level`` (one of ``ui.levels``, e.g. beginner/intermediate/expert) or
    ``custom=(rows, cols, mines)`` makes ``start()`` switch the window to that size, where the
    game allows it; with neither, whatever board the window shows is played, and new games
    repeat its size. ``recorder`` (a
    ``minebot.game.replay.Recording``) keeps every frame read and every move made; ``learner``
    (a ``minebot.vision.learn.Learner``) learns the looks a game was unsure of when it ends.
    """

    first_click = None

    def __init__(self, display: str | None = None, *, reader=None, templates: str | None = None,
                 level: str | None = None, custom: tuple[int, int, int] | None = None,
                 mines: int | None = None, click_log: str | None = None, recorder=None,
                 rereads: int = 4, settle_timeout: float = 2.0,
                 question_marks: bool = True, frames_dir: str | Path | None = None,
                 window_id: int | None = None, use_window: bool = True,
                 cover_wait: float = 3.0, learner=None, ui: GameUI | None = None,
                 backend=None) -> None:
        from ..desktop.backend import open_backend
        # ``backend``: an open desktop backend handed over (closed with the game), else detected.
        self.backend = backend if backend is not None else open_backend(display)
        self.x11 = self.backend.x11   # None where clients cannot list windows (native Wayland)
        if ui is None:
            # the supported game whose window is open (GNOME Mines when none is)
            from .ui import detect
            from .ui_gnome_mines import GnomeMinesUI
            ui = detect(self.x11, window_id) if use_window and self.x11 is not None else None
            if ui is None:
                ui, known = GnomeMinesUI(), False   # nothing recognised: the reader tries every game
            else:
                known = True
        else:
            known = True
        self.ui = ui
        if level is not None and level not in ui.levels:
            self.backend.close()
            raise BadInputError(f"unknown level {level!r} for {ui.name}: expected one of "
                               f"{', '.join(ui.levels) or '(none: it plays the size it shows)'}")
        self.display = self.backend.display
        self.screen_rect = self.backend.screen_rect
        self.capture = None         # WindowCapture of the game window, or the whole Screen
        self.screen = None          # the whole Screen when playing without the window
        self.pointer = self.backend.pointer(click_log)
        if reader is None:
            from ..vision import Reader
            reader = Reader(templates, game=ui.profile if known else None)
        self.reader = reader
        self.level, self.custom = level, custom
        self.expected_shape: tuple[int, int] | None = None   # set once a game's board is known
        self.mines_hint = mines if mines is not None else (
            ui.levels[level][2] if level else (custom[2] if custom else None))
        self.recorder = recorder
        self.learner = learner      # minebot.vision.learn.Learner: learn doubtful looks from play
        self.rereads, self.settle_timeout = rereads, settle_timeout
        self.question_marks = question_marks
        self.frames_dir = Path(frames_dir) if frames_dir else Path(".")
        self.window = None          # WindowInfo, or None when playing the whole screen
        self.region = None          # Rect captured
        self.frame: np.ndarray | None = None
        self.reading = None
        self.clicks = 0             # clicks in the current game
        self.dialogs_closed = 0
        self._frame_index: int | None = None
        self.won_board = self.won_frame = self.won_px = None   # the last won board, its frame
        self._verified = False
        self._window_id = window_id
        self.use_window = use_window
        self.cover_wait = cover_wait   # seconds to wait for a window that covers the board
        self.locate()
        # Some window managers drop a click that comes too soon after the previous one (see
        # PACED_WMS): there, each move waits until the previous one shows on screen.
        self.paced = self.backend.wm in PACED_WMS or self.ui.paced
        # How long a hovered/pressed look may be the click's result still to come: longer
        # where input and frames pass through a compositor's queues (mutter's D-Bus APIs).
        self.hover_grace = getattr(self.backend, "hover_grace", HOVER_GRACE)
        # Where a click can be dropped on its way (mutter's virtual pointer, KMines' event
        # queue), a clicked cell that shows no change is planned again instead of stopping.
        self.drops_clicks = self.ui.paced or getattr(self.backend, "drops_clicks", False)

    @property
    def rules(self) -> str:   # type: ignore[override]
        """The rule set of the game played (where mines may lie): the ``GameUI``'s."""
        return self.ui.rules

    # -- the window -----------------------------------------------------------------------
    def locate(self) -> None:
        """Find the game window (X11), or fall back to the whole screen."""
        if not self.use_window or self.x11 is None:
            info = None
        elif self._window_id is not None:
            info = self.x11.info(self._window_id)
            if info is None or not info.viewable:
                raise NoGameError(f"window 0x{self._window_id:x} is gone")
        else:
            info = self.ui.find(self.x11)
        if info is not None:
            self._follow(info)
            self.x11.watch(info.id)
            self.focus()
            self._verified = False
            return
        self.window = None
        self.capture = self.screen = self.backend.screen()
        self.region = self.screen.rect
        from ..vision.reader import UnmatchedCellsError
        try:
            self.reader.read(self.screen.grab(self.region))
        except UnmatchedCellsError:
            pass   # a board is there (read again, with retries, by observe)
        except NoGameError as exc:
            where = ("window search off" if not self.use_window else f"no {self.ui.name} window"
                     if self.x11 is not None else f"no window list ({self.backend.name})")
            raise NoGameError(f"{where} on display {self.display}, and no board on the whole "
                              f"screen either ({exc}). Start the game first, or run "
                              "`minebot demo` for a private one.") from None

    def _follow(self, info) -> None:
        """Play ``info``: capture its own pixels, in its visible part (``region``): the X
        window minus the shadow margins GTK draws around it (``_GTK_FRAME_EXTENTS``), on
        screen."""
        left, right, top, bottom = self.x11.frame_extents(info.id)
        r = info.rect
        visible = Rect(r.left + left, r.top + top, r.width - left - right, r.height - top - bottom)
        region = visible.intersect(self.screen_rect)
        if region is None:
            raise NoGameError(f"the {self.ui.name} window is entirely off screen")
        self.window, self.region = info, region
        if self.capture is None or self.capture is self.screen:
            self.capture = self.backend.capture(info)
        else:
            self.capture.follow(info)

    def focus(self) -> None:
        if self.window is not None and not self.x11.has_focus(self.window.id):
            self.x11.focus(self.window.id)

    def _check_window(self) -> bool:
        """Re-validate the window before clicking. True if the geometry changed (re-read!).

        The full check (geometry, focus, stacking: several X round trips) runs only when X
        reported a change to the window or to the top-level windows since the last check.
        """
        if self.window is None:
            return self._board_moved()
        if not self.x11.changed() and self._verified:
            return False
        rect = self.x11.rect(self.window.id)
        if rect is None:
            again = None if self._window_id is not None else self.ui.find(self.x11)
            if again is None:
                raise NoGameError(f"the {self.ui.name} window closed; stopped without clicking")
            self.window, rect = again, again.rect
            changed = True
        else:
            changed = rect != self.window.rect
        if changed:
            info = self.x11.info(self.window.id) or self.window
            self.x11.watch(info.id)
            self._follow(info)
        self.focus()
        changed = self._check_not_covered() or changed
        self.x11.changed()   # our own focus/raise requests answer with events: drop them
        self._verified = self.reading is not None
        if changed:
            # The last reading no longer describes the screen: forget it, so that parking
            # (which avoids the board as read) uses the window's margin until the next read.
            self.reading = None
            self._forget_grid()
        return changed

    def _board_moved(self) -> bool:
        """Without a window to watch (the whole screen, native Wayland): the board is no longer
        where or what it was, by the ring of pixels just around it in a fresh grab. Then the
        last reading is forgotten (True): read again, never click on it."""
        if self.reading is None or self.frame is None:
            return False
        if self.ring_same(self.frame, self.reading.board_px):
            return False
        self.reading = None
        self._forget_grid()
        return True

    def ring_same(self, before: np.ndarray, px, inside: bool = False) -> bool:
        """``ring_unchanged`` against a fresh grab of just the board and its ring."""
        x0, y0, x1, y1 = ring_box(px, before.shape)
        r = self.region
        now = self.capture.grab(Rect(r.left + x0, r.top + y0, x1 - x0, y1 - y0))
        inner = (px[0] - x0, px[1] - y0, px[2] - x0, px[3] - y0)
        return ring_unchanged(before[y0:y1, x0:x1], now, inner, inside=inside)

    def await_board_change(self, frame: np.ndarray, px, timeout: float) -> bool:
        """Whether the board ``px`` (and the ring around it) stops looking as in ``frame``
        within ``timeout`` seconds (for a ``GameUI`` where windows cannot be listed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.ring_same(frame, px, inside=True):
                return True
            time.sleep(0.01)
        return False

    def _covering(self) -> list:
        """Windows (not the game's own dialogs) stacked above the game and lying on the board."""
        board = self._board_rect()
        found = []
        for wid in self.x11.stacked_above(self.window.id):
            info = self.x11.info(wid)
            if info is None or info.transient_for == self.window.id:
                continue   # gone, or our own dialog (handled by _close_dialogs)
            if info.rect.intersect(board) is not None:
                found.append(info)
        return found

    def _check_not_covered(self) -> bool:
        """Raise the game over any window lying on the board; if it stays covered (a window
        the WM keeps on top, or an override-redirect menu), wait up to ``cover_wait``
        seconds for it to go, then stop. Never clicks a covered board.

        Returns True when the board was covered: the caller must read it again before
        clicking, since the last frame may not show what is now on top.
        """
        if self.window is None or self.reading is None:
            return False
        covering = self._covering()
        if not covering:
            return False
        self.x11.focus(self.window.id)   # asks the WM (or X) to raise our window
        deadline = time.monotonic() + self.cover_wait
        while covering and time.monotonic() < deadline:
            time.sleep(0.05)
            covering = self._covering()
        if covering:
            raise NoGameError(f"the board is covered by another window ({covering[0].title!r}) "
                              f"for {self.cover_wait:g} s; stopped without clicking")
        return True

    def _dialogs(self) -> list:
        return self.ui.dialogs(self)

    def refocus(self) -> None:
        """Give the game its keyboard focus back (after a dialog had it)."""
        if self.window is not None:
            self.x11.focus(self.window.id)
        elif self.x11 is not None:
            self.x11.focus_pointer_root()   # the game under the parked pointer has focus again

    def _close_dialogs(self) -> bool:
        """Close the game's own dialogs (see ``GameUI.close_dialogs``); True if there were any."""
        return self.ui.close_dialogs(self)

    def key(self, combo: str) -> None:
        self.focus()
        self.backend.key(combo)

    # -- geometry of the last reading ------------------------------------------------------
    def _board_rect(self):
        from ..desktop import Rect
        left, top, right, bottom = self.reading.board_px
        return Rect(self.region.left + left, self.region.top + top, right - left, bottom - top)

    def _bounds(self) -> tuple[int, int, int, int]:
        b = self._board_rect()
        return b.left, b.top, b.right, b.bottom

    def _cell_point(self, cell: tuple[int, int]) -> tuple[float, float]:
        x0, y0, x1, y1 = self.reading.cell_rects[cell]
        return self.region.left + (x0 + x1 - 1) / 2, self.region.top + (y0 + y1 - 1) / 2

    def park(self, margin: bool = False) -> None:
        """Pointer inside the window (or region) but off the board: no hovered cell.

        ``margin``: ignore the last reading and use the window's left margin (after a read
        that may have been spoiled by a pointer over the board).
        """
        x, y, bounds = self._park_point(margin)
        self.pointer.move(x, y, bounds)

    def _park_point(self, margin: bool = False) -> tuple[int, int, tuple[int, int, int, int]]:
        region = self.region
        if self.reading is None or margin:
            x, y = region.left + 3, region.top + region.height // 2
        else:
            board = self._board_rect()
            # A few pixels off the board on its roomiest side: inside the window's margin, so
            # the pointer never leaves the game (with focus-follows-pointer that would pause it).
            mid_x, mid_y = board.left + board.width // 2, board.top + board.height // 2
            gaps = [  # (room, x, y) candidates around the board, inside the region
                (board.left - region.left, board.left - min(PARK_OFFSET, (board.left - region.left) // 2), mid_y),
                (region.right - board.right, board.right - 1 + min(PARK_OFFSET, (region.right - board.right) // 2), mid_y),
                (region.bottom - board.bottom, mid_x, board.bottom - 1 + min(PARK_OFFSET, (region.bottom - board.bottom) // 2)),
                (board.top - region.top, mid_x, board.top - min(PARK_OFFSET, (board.top - region.top) // 2)),
            ]
            room, x, y = max(gaps)
            if room < 2:
                raise NoGameError("no room off the board to park the pointer")
        return x, y, (region.left, region.top, region.right, region.bottom)

    # -- observe -----------------------------------------------------------------------------
    def grab(self) -> np.ndarray:
        return self.capture.grab(self.region)

    def _next_frame(self, timeout: float = 0.05) -> None:
        """Until the screen may have changed: a capture fed by a stream (mutter's screen cast)
        says when its next frame comes, at no cost; a grabbing one is polled every 1 ms."""
        wait = getattr(self.capture, "wait_next", None)
        if wait is None:
            time.sleep(0.001)
        else:
            wait(timeout)

    def observe(self) -> Board:
        return self._observe(expect=None)

    def _observe(self, expect=None) -> Board:
        """Capture and read until a clean, settled read (and, with ``expect``, a plausible one)."""
        from ..vision.reader import NoBoardError, UnmatchedCellsError
        last_error: Exception | None = None
        # A game that draws a message over the board after a win or loss (KMines) gets that
        # long, from the first read that failed, to clear it before the reads give up.
        patience: float | None = None
        attempt = -1
        while (attempt := attempt + 1) <= self.rereads or (
                patience is not None and time.monotonic() < patience):
            if attempt == 1:
                patience = time.monotonic() + self.ui.end_popup_seconds
            if attempt > self.rereads:
                time.sleep(0.25)
            if attempt:
                self._forget_grid()
                self._close_dialogs()
                self._check_window()
            self.park(margin=attempt >= 2)
            frame = self._settled(None)
            try:
                reading = self.reader.read(frame)
            except NoBoardError as exc:
                last_error = exc
                if self._close_dialogs():
                    continue
                if exc.state is GameState.PAUSED:
                    self.ui.resume(self)
                else:
                    time.sleep(0.05)
                continue
            except UnmatchedCellsError as exc:
                last_error = exc
                if self._close_dialogs():
                    continue
                time.sleep(0.03)
                continue
            if reading.suspect and not _won_beyond_doubt(reading, self.mines_hint):
                # Hovered or pressed cells pass; a cell that stays doubtful is never acted on.
                last_error = ScreenMismatchError(
                    "cell(s) could not be read with confidence (row,col): "
                    + ", ".join(f"{r},{c}" for r, c in reading.suspect[:8]))
                time.sleep(0.02)
                continue
            board = self._with_mines(reading, frame)
            if self.expected_shape is not None and board.shape != self.expected_shape:
                last_error = ScreenMismatchError(self._shape_problem(board))
                time.sleep(0.02)
                continue
            if expect is not None:
                problem = expect(board)
                if problem:
                    last_error = ScreenMismatchError(problem)
                    if self._close_dialogs():
                        continue
                    time.sleep(0.02)
                    continue
            self._accept(frame, reading)
            return board
        self.frame = frame
        saved = self.save_frame("unreadable")
        raise type(last_error)(f"{last_error} (after {attempt} reads; frame saved "
                               f"to {saved})") if isinstance(last_error, ScreenMismatchError) \
            else NoGameError(f"could not read the board: {last_error}; frame saved to {saved}")

    def _settled(self, before: np.ndarray | None, cells: Sequence[tuple[int, int]] = ()) -> np.ndarray:
        """A frame taken after the screen reacted to our clicks and stopped changing.

        With ``before`` and ``cells``: first wait until every clicked cell looks different from
        ``before`` (a reveal shows ~10 ms after the button comes up). Then grab until two
        consecutive frames agree on the board area (the clock is outside it).
        """
        deadline = time.monotonic() + self.settle_timeout
        frame = self.grab()
        if before is not None and cells and self.reading is not None and before.shape == frame.shape:
            rects = [self.reading.cell_rects[c] for c in cells]
            clicked_at = time.monotonic()
            while time.monotonic() < deadline:
                changed = all(not np.array_equal(frame[y0:y1, x0:x1], before[y0:y1, x0:x1])
                              for x0, y0, x1, y1 in rects)
                # Right after the button comes up the cell may still show the hover or pressed
                # colour (the reveal follows ~10 ms later): not the result yet.
                if changed and (time.monotonic() - clicked_at > self.hover_grace or
                                not any(self.ui.looks_transient(frame[y0:y1, x0:x1]) for x0, y0, x1, y1 in rects)):
                    if os.environ.get("MINEBOT_DEBUG"):
                        print(f"minebot: {len(rects)} cell(s) changed after "
                              f"{1000 * (time.monotonic() - clicked_at):.1f} ms", file=sys.stderr)
                    break
                self._next_frame()
                frame = self.grab()
            # GTK may paint a change in several pieces: one more grab a few ms later must
            # agree on the whole board before the frame is read.
            quiet = 0.004
        else:
            quiet = 0.012
        area = self.reading.board_px if self.reading is not None else None

        def key(f):
            if area is None or f.shape != frame.shape:
                return f
            return f[area[1]:area[3], area[0]:area[2]]
        while time.monotonic() < deadline:
            time.sleep(quiet)
            nxt = self.grab()
            if nxt.shape == frame.shape and np.array_equal(key(nxt), key(frame)):
                return nxt
            frame = nxt
        return frame

    # -- act ---------------------------------------------------------------------------------
    def act(self, moves: Sequence[Move]) -> Board:
        if self.reading is None:
            self.observe()
        board = self.reading.board
        if board.is_over:
            return board
        if self._check_window():
            board = self.observe()   # moved or resized: read again before any click
        moves = list(moves)
        if self.recorder is not None and self._frame_index is not None:
            self.recorder.add_moves(self._frame_index, moves)
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
        before = self.frame
        bounds = self._bounds()
        clicked: list[tuple[int, int]] = []
        points: list[tuple[float, float, str]] = []
        starts: dict[int, int] = {}   # first point of each move -> number of moves before it
        played: list[Move] = []
        for move in moves:
            r, c = move.cell
            if not (0 <= r < board.rows and 0 <= c < board.cols):
                raise MinebotError(f"move {move} is outside the {board.cols}x{board.rows} board")
            buttons = clicks_for(move, int(board.cells[move.cell]), self.question_marks)
            if not buttons:
                continue
            x, y = self._cell_point(move.cell)
            starts[len(points)] = len(played)
            points += [(x, y, button) for button in buttons]
            clicked.append(move.cell)
            played.append(move)
        if not clicked:
            return board
        lost: set[int] = set()   # moves (paced play) that never showed on screen
        check = self._click_check(starts, played, before, lost)
        # the window's geometry is checked again with each click, in the same server step
        hold = (self.window.id, self.window.rect) if self.window is not None else None
        made = self.pointer.click_many(points, bounds, park=self._park_point(), check=check,
                                       hold=hold)
        self.clicks += len(made)
        if len(made) < len(points):
            # The window moved during the batch: it stopped at a move boundary. Read the
            # window where it is now and let the solver plan the rest on that reading.
            # (a move of two clicks stopped between them counts as not done: its cell is read)
            done = starts[max(k for k in starts if k <= len(made))]
            if os.environ.get("MINEBOT_DEBUG"):
                print(f"minebot: window moved; batch stopped after {done} of {len(played)} "
                      "moves", file=sys.stderr)
            self._check_window()
            return self._observe(expect=expectation(board, played[:done], self.drops_clicks))
        if self.paced and before is not None:
            if not self._await_move(played[-1], before):
                lost.add(len(played) - 1)
            if lost:
                # The WM swallowed these clicks (see PACED_WMS): their cells are judged by
                # what the screen shows, never assumed; the solver plans them again.
                if os.environ.get("MINEBOT_DEBUG"):
                    print(f"minebot: {len(lost)} click(s) lost by the window manager",
                          file=sys.stderr)
                played = [m for j, m in enumerate(played) if j not in lost]
                clicked = [m.cell for m in played]
        expect = expectation(board, played, self.drops_clicks)
        if before is None:
            return self._observe(expect=expect)
        # The settled frame is read first; re-reads (if needed) capture again.
        return self._observe_with_frame(self._settled(before, clicked), expect)

    def _click_check(self, starts: dict[int, int], moves: list[Move], before: np.ndarray | None,
                     lost: set[int]):
        """The ``check`` run before each click of a batch (see ``Pointer.click_many``).

        Before the first click of every move: the window must still have the geometry the
        batch was planned on (one X round trip), else the batch stops. With ``paced`` (window
        managers that lose clicks sent too soon after the previous one, see ``PACED_WMS``)
        the previous click must first show its result on screen; a move that never shows
        is added to ``lost``.
        """
        planned = self.window.rect if self.window is not None else None
        watched = self.frame if self.window is None and self.reading is not None else None
        px = self.reading.board_px if watched is not None else None
        region = self.region
        last = (region.left, region.top, region.right, region.bottom)

        def check(i: int):
            nonlocal last
            if self.paced and i > 0 and before is not None:
                # the previous click must show first (also between the two right-clicks of
                # one move: the cell shows the first one's mark before the second is sent)
                owner = max(k for k in starts if k <= i - 1)
                if not self._await_move(moves[starts[owner]], before):
                    lost.add(starts[owner])
            if i not in starts:
                return last   # the second click of one move goes with the first
            if planned is not None:
                now = self.x11.rect(self.window.id)
                if now != planned:
                    return None
                last = (now.left, now.top, now.right, now.bottom)
            elif watched is not None and not self.ring_same(watched, px):
                return None   # no window to ask: the board itself moved or got covered
            return last
        return check

    def _await_move(self, move: Move, before: np.ndarray, timeout: float = 0.3) -> bool:
        """Whether ``move`` showed on screen within ``timeout``: its cell (for a chord, its 3x3
        block: a chord leaves its own number as it was) looks different from ``before`` and
        not hovered or pressed."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._move_shows(move, before, self.grab()):
                return True
            self._next_frame()
        return False

    def _move_shows(self, move: Move, before: np.ndarray, frame: np.ndarray) -> bool:
        """Whether ``frame`` shows ``move`` done: its cell (for a chord, its 3x3 block: a chord
        leaves its own number as it was) differs from ``before`` and is not hovered or
        pressed."""
        rects = self.reading.cell_rects
        rows, cols = rects.shape[:2]
        r, c = move.cell
        reach = 1 if move.action is Action.CHORD else 0
        first = rects[max(r - reach, 0), max(c - reach, 0)]
        last = rects[min(r + reach, rows - 1), min(c + reach, cols - 1)]
        x0, y0, x1, y1 = first[0], first[1], last[2], last[3]
        cx0, cy0, cx1, cy1 = rects[r, c]
        old, crop = before[y0:y1, x0:x1], frame[y0:y1, x0:x1]
        return crop.shape == old.shape and not np.array_equal(crop, old) and \
            not self.ui.looks_transient(frame[cy0:cy1, cx0:cx1])

    def _observe_with_frame(self, frame: np.ndarray, expect) -> Board:
        """Read the settled frame; on a surprise look for a dialog first, then re-read."""
        from ..vision.reader import NoBoardError, UnmatchedCellsError
        for attempt in range(2):
            problem = None
            try:
                reading = self.reader.read(frame)
            except (NoBoardError, UnmatchedCellsError) as exc:
                problem = str(exc)
            else:
                board = self._with_mines(reading, frame)
                problem = (f"cells looked hovered or pressed: {reading.suspect[:4]}"
                           if reading.suspect else expect(board))
                if problem is None and self.expected_shape not in (None, board.shape):
                    problem = self._shape_problem(board)
            if problem is None:
                self._accept(frame, reading)
                return board
            if os.environ.get("MINEBOT_DEBUG"):
                print("minebot: re-reading after:", problem[:200], file=sys.stderr)
            self._forget_grid()
            if not self._close_dialogs():
                break
            frame = self._settled(None)   # the board under the closed dialog, redrawn
        return self._observe(expect=expect)

    def _forget_grid(self) -> None:
        """Make the reader locate the grid afresh on the next read.

        A doubtful read may come from a cached grid that no longer fits (the Reader re-checks
        its cache only by sampling); after any surprise we want a full locate, on the whole
        screen again where the capture was focused on the board (see ``_accept``).
        """
        self.reader.forget()
        focus = getattr(self.capture, "focus", None)
        if focus is not None:
            focus(None)

    def _shape_problem(self, board: Board) -> str:
        rows, cols = self.expected_shape
        return f"read a {board.cols}x{board.rows} board where the game is {cols}x{rows}"

    def _with_mines(self, reading, frame: np.ndarray | None = None) -> Board:
        """The reading's board with the mine total filled in when the counter gave none, its
        unsure numbers settled by the rules or shown as ``#`` (never acted on as read), and the
        game's own verdict (xdemineur's smiley) when it shows the game over."""
        board = reading.board
        if frame is not None and board.state in (GameState.PLAYING, None):
            verdict = self.ui.shown_state(frame, reading.board_px)
            if verdict in (GameState.WON, GameState.LOST):
                board = board.replace(state=verdict)
        if board.mines is None:
            mines = self.mines_hint if self.mines_hint is not None else self.ui.standard_mines(board.shape)
            if mines is not None:
                board = board.replace(mines=mines)
        if reading.unsure:
            from ..solver.doubts import settle
            board, _ = settle(board, reading.unsure, board.mines)
        reading.board = board
        return board

    def _accept(self, frame: np.ndarray, reading) -> None:
        self.frame, self.reading = frame, reading
        focus = getattr(self.capture, "focus", None)
        if focus is not None:   # a capture that can watch less than the screen (mutter)
            focus(self._board_rect())
        if reading.board.state is GameState.WON:   # what a dialog over it would hide
            self.won_board, self.won_frame, self.won_px = reading.board, frame, reading.board_px
        if self.learner is not None:
            self.learner.observe(frame, reading)
            if reading.board.is_over and self.learner.finish(reading.board):
                self.reader.reload_templates()   # the next game reads what this one taught
        if self.recorder is not None:
            self._frame_index = self.recorder.add_frame(frame, reading)

    # -- games -------------------------------------------------------------------------------
    def start(self) -> Board:
        """Bring the window to the requested level (or keep its size) with a fresh board."""
        self._close_dialogs()
        self.focus()
        self.expected_shape = None
        return self.ui.start(self, self.level, self.custom)

    def settled_frame(self) -> np.ndarray:
        """A frame of the window once it stopped changing (for a ``GameUI`` to look at)."""
        return self._settled(None)

    def wait_fresh(self, before: Board | None = None, timeout: float | None = None) -> Board:
        """Read until the new game's board shows (only that frame is recorded).

        ``before``: the board shown when the new game was asked for (a game that opens an
        area by itself is fresh once the board differs from it). From then on every read of
        this game must have the same size (``expected_shape``): a read of another size is a
        misread, read again, never acted on.
        """
        if timeout is None:
            timeout = 5.0 + self.ui.end_popup_seconds
        deadline = time.monotonic() + timeout
        while True:
            recorder, self.recorder = self.recorder, None
            try:
                board = self.observe()
            except NoGameError:
                board = None
                if time.monotonic() > deadline:
                    raise
            finally:
                self.recorder = recorder
            if board is not None and self.ui.is_fresh(board, before):
                self.clicks = 0
                if self.learner is not None:
                    self.learner.forget()   # looks of an abandoned game prove nothing
                self.expected_shape = board.shape
                if recorder is not None:
                    self._frame_index = recorder.add_frame(self.frame, self.reading)
                return board
            if time.monotonic() > deadline:
                raise NoGameError(f"no fresh board appeared after starting a new {self.ui.name} game")
            time.sleep(0.05)

    def new_game(self) -> Board:
        """A new game of the same size, by the game's own interface."""
        self._close_dialogs()
        self.focus()
        board = self.reading.board if self.reading is not None else None
        if board is not None and self.clicks == 0 and self.ui.is_fresh(board):
            return board   # already fresh
        self.ui.request_new_game(self, board)
        self.reading = None
        if self.recorder is not None:
            self.recorder.next_game()
        return self.wait_fresh(before=board)

    def save_frame(self, what: str) -> Path | None:
        """Write the last frame as a PNG (for error reports); returns its path."""
        if self.frame is None:
            return None
        import cv2
        self.frames_dir.mkdir(parents=True, exist_ok=True)
        path = self.frames_dir / f"minebot-{what}-{time.strftime('%Y%m%d-%H%M%S')}.png"
        cv2.imwrite(str(path), self.frame)
        return path

    def close(self) -> None:
        """Idempotent: the pointer log, the capture and the X connection."""
        self.pointer.close()
        capture, self.capture = self.capture, None
        if capture is not None:
            capture.close()
        self.backend.close()
