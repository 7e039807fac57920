"""The live game: the real GNOME Mines window, read from the screen and played with the mouse.

Why it is built this way:

- The window is found through X11 (title ``Mines``, class ``gnome-mines``) so the capture is
  exactly its rectangle; when no such window exists the whole screen is captured and the
  board located in it. Before every batch of clicks the window's geometry, focus and stacking
  are checked again: a moved, resized, covered or closed window is re-located or the run
  stops, it is never clicked blind.
- GNOME Mines pauses when it loses focus, so focus is re-asserted whenever it is lost.
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
from ..errors import MinebotError, NoGameError, UnreadableGameError
from ..levels import LEVELS
from ..move import Action, Move
from ..desktop.watch import ring_box, ring_unchanged
from ..desktop.window import Rect
from .base import Game
from .plan import clicks_for, expectation

STANDARD_MINES = {(lv.rows, lv.cols): lv.mines for lv in LEVELS.values()}
CHOOSER_KEYS = {"beginner": "1", "intermediate": "2", "expert": "3"}


UNLISTED_DIALOG_WAIT = 0.4
"""Seconds a won game is watched for GNOME Mines' "Congratulations!" window where windows
cannot be listed (it shows within a few frames of the win, when the time makes the top 10)."""

PARK_OFFSET = 8
"""Pixels between the board's edge and the parked pointer."""

HOVER_GRACE = 0.06
"""Seconds after a click during which a cell in hover/pressed colour is not yet its result."""

_TRANSIENT_BGR = np.array([[0xCF, 0xD7, 0xD3], [0x85, 0x8A, 0x88]], dtype=np.uint8)


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


def _looks_transient(crop: np.ndarray) -> bool:
    """Mostly the hover (#d3d7cf) or pressed (#888a85) colour: a cell between states."""
    if crop.size == 0:
        return False
    inner = crop[crop.shape[0] // 4: -crop.shape[0] // 4 or None, crop.shape[1] // 4: -crop.shape[1] // 4 or None]
    flat = inner.reshape(-1, 3)
    hits = (flat[:, None, :] == _TRANSIENT_BGR[None, :, :]).all(axis=2).any(axis=1)
    return bool(hits.mean() > 0.9)


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


def _fresh(board: Board) -> bool:
    """Every cell covered: a new game nobody has clicked yet."""
    return bool((board.cells == Cell.COVERED).all())


class ScreenMismatchError(UnreadableGameError):
    """The screen did not show what the moves should have produced; ``frame`` is saved."""


class LiveGame(Game):
    """A GNOME Mines window on an X display (``$DISPLAY`` by default).

    ``level`` (beginner/intermediate/expert) or ``custom=(rows, cols, mines)`` makes
    ``start()``/``new_game()`` switch the window to that size; with neither, whatever board the
    window shows is played, and new games repeat its size. ``recorder`` (a
    ``minebot.game.replay.Recording``) keeps every frame read and every move made; ``learner``
    (a ``minebot.vision.learn.Learner``) learns the looks a game was unsure of when it ends.
    """

    rules = "zero"   # GNOME Mines: the first click always opens a zero area
    first_click = None

    def __init__(self, display: str | None = None, *, reader=None, templates: str | None = None,
                 level: str | None = None, custom: tuple[int, int, int] | None = None,
                 mines: int | None = None, click_log: str | None = None, recorder=None,
                 rereads: int = 4, settle_timeout: float = 2.0,
                 question_marks: bool = True, frames_dir: str | Path | None = None,
                 window_id: int | None = None, use_window: bool = True,
                 cover_wait: float = 3.0, learner=None, backend=None) -> None:
        from ..desktop.backend import open_backend
        if level is not None and level not in LEVELS:
            raise MinebotError(f"unknown level {level!r}: expected one of {', '.join(LEVELS)}")
        # ``backend``: an open desktop backend handed over (closed with the game), else detected.
        self.backend = backend if backend is not None else open_backend(display)
        self.x11 = self.backend.x11   # None where clients cannot list windows (native Wayland)
        self.display = self.backend.display
        self.screen_rect = self.backend.screen_rect
        self.capture = None         # WindowCapture of the game window, or the whole Screen
        self.screen = None          # the whole Screen when playing without the window
        self.pointer = self.backend.pointer(click_log)
        if reader is None:
            from ..vision import Reader
            reader = Reader(templates)
        self.reader = reader
        self.level, self.custom = level, custom
        self.expected_shape: tuple[int, int] | None = None   # set once a game's board is known
        self.mines_hint = mines if mines is not None else (
            LEVELS[level].mines if level else (custom[2] if custom else None))
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
        self._won = self._won_frame = self._won_px = None   # the last won board, its frame
        self._verified = False
        self._window_id = window_id
        self.use_window = use_window
        self.cover_wait = cover_wait   # seconds to wait for a window that covers the board
        self.locate()
        # Some window managers drop a click that comes too soon after the previous one (see
        # PACED_WMS): there, each move waits until the previous one shows on screen.
        self.paced = self.backend.wm in PACED_WMS
        # How long a hovered/pressed look may be the click's result still to come: longer
        # where input and frames pass through a compositor's queues (mutter's D-Bus APIs).
        self.hover_grace = getattr(self.backend, "hover_grace", HOVER_GRACE)
        # Where a click can be dropped on its way (mutter's virtual pointer), a move whose cell
        # never changed is planned again instead of stopping the game.
        self.drops_clicks = getattr(self.backend, "drops_clicks", False)

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
            info = self.x11.find_window()
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
            where = ("window search off" if not self.use_window else "no GNOME Mines window"
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
            raise NoGameError("the GNOME Mines window is entirely off screen")
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
            again = None if self._window_id is not None else self.x11.find_window()
            if again is None:
                raise NoGameError("the GNOME Mines window closed; stopped without clicking")
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
        if self._ring_same(self.frame, self.reading.board_px):
            return False
        self.reading = None
        self._forget_grid()
        return True

    def _ring_same(self, before: np.ndarray, px, inside: bool = False) -> bool:
        """``ring_unchanged`` against a fresh grab of just the board and its ring."""
        x0, y0, x1, y1 = ring_box(px, before.shape)
        r = self.region
        now = self.capture.grab(Rect(r.left + x0, r.top + y0, x1 - x0, y1 - y0))
        inner = (px[0] - x0, px[1] - y0, px[2] - x0, px[3] - y0)
        return ring_unchanged(before[y0:y1, x0:x1], now, inner, inside=inside)

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
        """The game's dialogs on screen: windows transient for it (for any GNOME Mines
        window when playing the whole screen)."""
        if self.window is not None:
            return self.x11.dialogs_of(self.window.id)
        if self.x11 is None:
            return []   # no window list: see _close_unlisted_dialog
        return [w for w in self.x11.windows() if w.viewable and w.transient_for is not None
                and any(c.lower() == "gnome-mines" for c in w.wm_class)]

    def _refocus(self) -> None:
        if self.window is not None:
            self.x11.focus(self.window.id)
        elif self.x11 is not None:
            self.x11.focus_pointer_root()   # the game under the parked pointer has focus again

    def _close_dialogs(self) -> bool:
        """Close the "Congratulations!" (or any) dialog of the game with Escape.

        Returns once the game has repainted the area the dialog covered: with no compositor
        the stale dialog pixels stay on screen until then.
        """
        if self.x11 is None:
            return self._close_unlisted_dialog()
        dialogs = self._dialogs()
        if not dialogs:
            return False
        covered = [d.rect.intersect(self.region) for d in dialogs]
        shot = self.grab()
        self._answer(dialogs, ["Escape"], timeout=3.0)
        self.dialogs_closed += len(dialogs)
        boxes = [(r.left - self.region.left, r.top - self.region.top, r.right - self.region.left,
                  r.bottom - self.region.top) for r in covered if r is not None]
        deadline = time.monotonic() + 1.0
        while boxes and time.monotonic() < deadline:
            now = self.grab()
            if now.shape != shot.shape or all(
                    not np.array_equal(now[t:b, l:r], shot[t:b, l:r]) for l, t, r, b in boxes):
                break
            time.sleep(0.003)
        return True

    def _close_unlisted_dialog(self) -> bool:
        """Where windows cannot be listed: after a win GNOME Mines may open its modal
        "Congratulations!" window over the board. When the last board read had cells opened
        (Escape on a board before its first reveal would go back to the level chooser) and the
        screen no longer shows it (the won board changed, or no board reads at all), press
        Escape, which closes that window and does nothing to an opened board, and wait for
        the board to show again."""
        from ..vision.reader import NoBoardError, UnmatchedCellsError
        last = self.reading if self.reading is not None else None
        board = last.board if last is not None else self._won
        if board is None or _fresh(board) or board.state in (GameState.LOST, GameState.PAUSED):
            return False
        frame = self.grab()
        if board.state is GameState.WON and self._won_frame is not None:
            if self._ring_same(self._won_frame, self._won_px, inside=True):
                return False
        else:
            try:
                self.reader.read(frame)
                return False
            except NoBoardError as exc:
                if exc.state is not GameState.NONE:
                    return False
            except UnmatchedCellsError:
                pass
        self.backend.key("Escape")
        self.dialogs_closed += 1
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            time.sleep(0.02)
            try:
                self.reader.read(self.grab())
                break
            except (NoBoardError, UnmatchedCellsError):
                continue
        return True

    def _resume(self) -> None:
        """"Paused" covers the board: focus the game; if it stays paused, press Pause (a toggle,
        so only ever pressed while the screen shows the pause)."""
        from ..vision.reader import NoBoardError
        self.focus()
        time.sleep(0.05)
        try:
            self.reader.read(self._settled(None))
        except NoBoardError as exc:
            if exc.state is GameState.PAUSED:
                self.key("Pause")
                time.sleep(0.1)
        except MinebotError:
            pass

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
        for attempt in range(self.rereads + 1):
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
                    self._resume()
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
            board = self._with_mines(reading)
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
        raise type(last_error)(f"{last_error} (after {self.rereads + 1} reads; frame saved "
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
                                not any(_looks_transient(frame[y0:y1, x0:x1]) for x0, y0, x1, y1 in rects)):
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
        made = self.pointer.click_many(points, bounds, park=self._park_point(), check=check)
        self.clicks += len(made)
        if len(made) < len(points):
            # The window moved during the batch: it stopped at a move boundary. Read the
            # window where it is now and let the solver plan the rest on that reading.
            done = starts.get(len(made), len(played))
            if os.environ.get("MINEBOT_DEBUG"):
                print(f"minebot: window moved; batch stopped after {done} of {len(played)} "
                      "moves", file=sys.stderr)
            self._check_window()
            return self._observe(expect=expectation(board, played[:done]))
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
        expect = expectation(board, played)
        if before is None:
            return self._observe(expect=expect)
        # The settled frame is read first; re-reads (if needed) capture again.
        frame = self._settled(before, clicked)
        if self.drops_clicks:
            shown = [m for m in played if self._move_shows(m, before, frame)]
            if len(shown) < len(played):
                # A click the compositor dropped changed nothing: judged by the screen, never
                # assumed; the solver plans it again.
                if os.environ.get("MINEBOT_DEBUG"):
                    print(f"minebot: {len(played) - len(shown)} click(s) showed nothing",
                          file=sys.stderr)
                expect = expectation(board, shown)
        return self._observe_with_frame(frame, expect)

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
            elif watched is not None and not self._ring_same(watched, px):
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
            not _looks_transient(frame[cy0:cy1, cx0:cx1])

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
                board = self._with_mines(reading)
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
        its cache only by sampling); after any surprise we want a full locate.
        """
        self.reader.forget()

    def _shape_problem(self, board: Board) -> str:
        rows, cols = self.expected_shape
        return f"read a {board.cols}x{board.rows} board where the game is {cols}x{rows}"

    def _with_mines(self, reading) -> Board:
        """The reading's board with the mine total filled in when the counter gave none, and
        its unsure numbers settled by the rules or shown as ``#`` (never acted on as read)."""
        board = reading.board
        if board.mines is None:
            mines = self.mines_hint if self.mines_hint is not None else STANDARD_MINES.get(board.shape)
            if mines is not None:
                board = board.replace(mines=mines)
        if reading.unsure:
            from ..solver.doubts import settle
            board, _ = settle(board, reading.unsure, board.mines)
        reading.board = board
        return board

    def _accept(self, frame: np.ndarray, reading) -> None:
        self.frame, self.reading = frame, reading
        if reading.board.state is GameState.WON:   # what a dialog over it would hide
            self._won, self._won_frame, self._won_px = reading.board, frame, reading.board_px
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
        if self.level is None and self.custom is None:
            board = self.observe()
            self.expected_shape = board.shape
            if board.is_over:   # a finished game on screen: play a new one of its size
                return self.new_game()
            return board
        want = (LEVELS[self.level].rows, LEVELS[self.level].cols) if self.level else self.custom[:2]
        try:
            board = self.observe()
        except NoGameError:
            board = None
        if board is not None and board.shape == want and _fresh(board):
            self.expected_shape = board.shape
            return board
        if board is not None and board.shape == want:
            return self.new_game()
        self._to_chooser(board)
        if self.level:
            self.key(CHOOSER_KEYS[self.level])
        else:
            self._custom_dialog()
        self.reading = None
        return self._wait_fresh()

    def _to_chooser(self, board: Board | None) -> None:
        from ..vision.reader import NoBoardError
        if board is None:
            try:
                self.reader.read(self.grab())
            except NoBoardError as exc:
                if exc.state is GameState.CHOOSER:
                    return
        self.key("ctrl+n")
        time.sleep(0.15)
        self._confirm_new_game()
        time.sleep(0.2)

    def _confirm_new_game(self) -> None:
        """Answer "Do you want to start a new game?" with Start New Game (keyboard only)."""
        if self.x11 is None:
            self._confirm_unlisted()
            return
        self._answer(self._dialogs(), ["Tab", "Return"], timeout=2.0)

    def _confirm_unlisted(self) -> None:
        """No window list: the question is only asked of a game in progress, and shows as the
        board turning to "Paused" (or hidden by the question); only then do the keys go (to
        the question, which has the focus). Never to the level chooser: Return there would
        pick a level."""
        from ..vision.reader import NoBoardError
        board = self.reading.board if self.reading is not None else None
        if board is None or board.is_over or _fresh(board) or self.frame is None:
            return
        if not self._await_board_change(self.frame, self.reading.board_px, 1.0):
            return
        time.sleep(0.1)
        try:
            self.reader.read(self.grab())
            return   # a board reads: no question over it
        except NoBoardError as exc:
            if exc.state is GameState.CHOOSER:
                return
        except MinebotError:
            pass
        for combo in ("Tab", "Return"):
            self.backend.key(combo)

    def _await_board_change(self, frame: np.ndarray, px, timeout: float) -> bool:
        """Whether the board ``px`` (and the ring around it) stops looking as in ``frame``
        within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self._ring_same(frame, px, inside=True):
                return True
            time.sleep(0.01)
        return False

    def _answer(self, dialogs: list, keys: Sequence[str], timeout: float) -> None:
        """Press ``keys`` in each dialog, wait (up to ``timeout``) until none is left, and give
        the game its focus back."""
        for dialog in dialogs:
            self.x11.focus(dialog.id)
            for combo in keys:
                self.backend.key(combo)
        deadline = time.monotonic() + timeout
        while self._dialogs() and time.monotonic() < deadline:
            time.sleep(0.002)
        self._refocus()

    def _custom_dialog(self) -> None:
        """Chooser -> Custom: type width, height and mine percentage, then Play Game.

        The dialog opens with nothing focused; Tab enters Width, and each further Tab moves
        to the next number (Height, Percent mines). The game turns the whole percentage back
        into a count, so the mines played may differ from the request (see mines_hint).
        """
        from ..desktop.mines import custom_mines_roundtrip
        rows, cols, mines = self.custom
        self.key("4")
        time.sleep(0.3)
        percent = max(1, round(mines * 100 / (rows * cols)))
        self.key("Tab")
        for value in (cols, rows, percent):
            self.key("ctrl+a")
            for ch in str(value):
                self.key(ch)
            self.key("Tab")
        self.key("alt+p")
        time.sleep(0.3)
        self.mines_hint = custom_mines_roundtrip(rows, cols, mines)

    def _wait_fresh(self, timeout: float = 5.0) -> Board:
        """Read until the new game's all-covered board shows (only that frame is recorded).

        From then on every read of this game must have the same size (``expected_shape``):
        a read of another size is a misread, read again, never acted on.
        """
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
            if board is not None and _fresh(board):
                self.clicks = 0
                if self.learner is not None:
                    self.learner.forget()   # looks of an abandoned game prove nothing
                self.expected_shape = board.shape
                if recorder is not None:
                    self._frame_index = recorder.add_frame(self.frame, self.reading)
                return board
            if time.monotonic() > deadline:
                raise NoGameError("no fresh board appeared after starting a new game")
            time.sleep(0.05)

    def new_game(self) -> Board:
        """Play Again: the same size (Ctrl+R), confirming if a game is in progress."""
        if self.x11 is None and self._won_frame is not None and self.reading is not None \
                and self.reading.board.state is GameState.WON:
            # No window list: give a "Congratulations!" window time to show over the board
            # (it would swallow Ctrl+R), then close it.
            self._await_board_change(self._won_frame, self._won_px, UNLISTED_DIALOG_WAIT)
        self._close_dialogs()
        self.focus()
        board = self.reading.board if self.reading is not None else None
        if board is not None and _fresh(board):
            return board   # already fresh
        in_progress = board is not None and not board.is_over
        if self.x11 is None:
            return self._new_game_unlisted(in_progress)
        self.key("ctrl+r")
        if in_progress or self.reading is None:
            # Mid-game (or unknown) GNOME Mines asks "start a new game?": answer it.
            deadline = time.monotonic() + 0.3
            while time.monotonic() < deadline and not self._dialogs():
                time.sleep(0.01)
            self._confirm_new_game()
        self.reading = None
        if self.recorder is not None:
            self.recorder.next_game()
        return self._wait_fresh()

    def _new_game_unlisted(self, in_progress: bool, tries: int = 3) -> Board:
        """Ctrl+R where windows cannot be listed: a "Congratulations!" window that showed
        late swallows the keys, so when no fresh board comes, close what covers the board
        and press again."""
        if self.recorder is not None:
            self.recorder.next_game()
        for attempt in range(tries):
            self.key("ctrl+r")
            if in_progress:
                self._confirm_new_game()
            self.reading = None
            try:
                board = self._wait_fresh(timeout=2.0)
            except NoGameError:
                if attempt == tries - 1:
                    raise
                self._close_dialogs()
                continue
            return board
        raise AssertionError("unreachable")

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
