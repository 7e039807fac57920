"""The window/board guard of live play: find the game, follow it, and never let a click go to
a board that is no longer where or what it was read.

Why its own module: which window is the game, where its visible pixels are, whether it moved,
closed, lost focus or got covered, is the same question for every game and every move, and
the answer decides whether a click may be sent at all. On X11 and XWayland it is asked of the
X server (geometry, focus, stacking; only when X reported a change since the last check);
where there is no window list (GNOME on Wayland, the whole-screen fallback) it is asked of the
pixels: the ring around the board in a fresh grab (``FrameSource.ring_same``).

The guard owns the game's ``FrameSource``: frames of the window's visible part (the X window
minus the shadow margins GTK draws around it, ``_GTK_FRAME_EXTENTS``), or of the whole screen.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np

from ..backends.capture import ScreenCapture
from ..backends.frames import FrameSource
from ..backends.listed import ListedWindow
from ..backends.x11.window import Rect, WindowInfo
from ..errors import NoGameError
from ..games.interfaces import game_windows
from .points import board_rect
from .saved_frames import save_frame

DIALOG_CLOSE_WAIT = 3.0
"""Seconds a dialog that hid the board is given to go once its close keys were pressed."""


class WindowGuard:
    """The game window of ``ui`` on ``backend`` (``window_id`` names it; ``use_window`` False:
    play the board found on the whole screen), its frames, and the checks before a click.

    ``cover_wait``: seconds a window lying on the board may stay before play stops.
    ``frames_dir``: where the frame is saved when a dialog hides the board for good.
    ``close()`` closes the frames (idempotent); the backend belongs to the caller.
    """

    def __init__(self, backend, ui, *, window_id: int | None = None, use_window: bool = True,
                 cover_wait: float = 3.0, settle_timeout: float = 2.0,
                 frames_dir: Path | None = None) -> None:
        self.backend, self.ui = backend, ui
        self.x11 = backend.x11          # None where clients cannot list windows
        self.window_id, self.use_window = window_id, use_window
        self.cover_wait, self.settle_timeout = cover_wait, settle_timeout
        self.frames_dir = frames_dir    # where a frame that stops play is saved
        self.window: WindowInfo | None = None   # None when playing the whole screen
        self.frames: FrameSource | None = None
        self.screen: ScreenCapture | None = None   # the whole screen's capture, without a window
        self.verified = False           # checked since X last reported a change
        self.listed: ListedWindow | None = None   # the game in the compositor's own list

    def locate(self, read: Callable[[np.ndarray], object]) -> None:
        """Find the game window (X11), or fall back to the whole screen, where ``read`` (a
        frame's reader) must find a board."""
        x11 = self.x11
        if not self.use_window or x11 is None:
            info = None
        elif self.window_id is not None:
            info = x11.info(self.window_id)
            if info is None or not info.viewable:
                raise NoGameError(f"window 0x{self.window_id:x} is gone")
        else:
            info = self.ui.find(x11)
        if info is not None:
            self.follow(info)
            x11.watch(info.id)
            self.focus()
            self.verified = False
            return
        self.window = None
        listed = self.find_listed()
        if self.frames is not None:
            self.frames.close()
        self.screen = self.backend.screen()
        self.frames = FrameSource(self.screen, self.screen.rect, self.settle_timeout)
        from ..vision.reader import UnmatchedCellsError
        frame = self.frames.grab()
        try:
            read(frame)
        except UnmatchedCellsError:
            pass   # a board is there (read again, with retries, by observe)
        except NoGameError as exc:
            # keys only where they reach the game: no X server to send them to another window
            if x11 is None and self.ui.shows_hiding_dialog(frame):
                self.close_hiding_dialog(read, frame)
                return
            listing = self.backend.window_list
            where = ("window search off" if not self.use_window else f"no {self.ui.name} window"
                     if x11 is not None else
                     f"no {self.ui.name} window in {listing.source}" if listing is not None and
                     listed is None else
                     f"the {self.ui.name} window shows no board" if listed is not None else
                     f"no window list ({self.backend.name}: the compositor offers clients none)")
            raise self._stop(frame, "no-board",
                             f"{where} on display {self.backend.display}, and no board on the "
                             f"whole screen either ({exc}). Start the game first, or run "
                             "`minebot demo` for a private one.") from None

    def close_hiding_dialog(self, read: Callable[[np.ndarray], object], frame: np.ndarray) -> None:
        """The whole screen shows the game's own dialog over its board (``GameUI.
        shows_hiding_dialog``: GNOME Mines 50's "Congratulations!" left open by the game just
        won): press the game's ``close_keys`` (keys only: the board under the dialog was never
        read, so nothing may be clicked) and wait up to ``DIALOG_CLOSE_WAIT`` seconds for a
        board to read. Where none comes, stop, the frame with the dialog saved."""
        from ..vision.reader import UnmatchedCellsError
        for combo in self.ui.close_keys:
            self.backend.key(combo)
        deadline = time.monotonic() + DIALOG_CLOSE_WAIT
        last, problem = frame, "no board"
        while time.monotonic() < deadline:
            time.sleep(0.1)
            last = self.frames.grab()
            try:
                read(last)
                return
            except UnmatchedCellsError:
                return   # a board is there (read again, with retries, by observe)
            except NoGameError as exc:
                problem = str(exc)
        stays = self.ui.shows_hiding_dialog(last)
        what = (f"a {self.ui.name} dialog hides its board and did not close on "
                f"{'+'.join(self.ui.close_keys)}: close it and run again" if stays else
                f"a {self.ui.name} dialog over its board was closed, and then no board showed "
                f"on the whole screen ({problem}): start a game and run again")
        raise self._stop(last, "dialog", what)

    def _stop(self, frame: np.ndarray, what: str, message: str) -> NoGameError:
        """The error that ends play on ``frame``, the frame saved (as ``what``) where frames
        go, and the message naming it."""
        saved = save_frame(frame, self.frames_dir, what) if self.frames_dir else None
        return NoGameError(message + (f" (frame saved to {saved})" if saved else ""), saved)

    def find_listed(self) -> ListedWindow | None:
        """Where the compositor lists windows (sway) and there is no X11 window to play: the
        game's window in that list, given the focus so that the game gets minebot's keys; None
        when the list shows none of the game's windows (or there is no list)."""
        listing = self.backend.window_list if self.use_window else None
        found = game_windows(self.ui.profile, listing.windows()) if listing is not None else []
        self.listed = found[0] if found else None
        if listing is not None and self.listed is not None and not self.listed.focused:
            listing.focus(self.listed)
        return self.listed

    def follow(self, info: WindowInfo) -> None:
        """Play ``info``: frames of its own pixels, in its visible part, on screen."""
        left, right, top, bottom = self.x11.frame_extents(info.id)
        r = info.rect
        visible = Rect(r.left + left, r.top + top, r.width - left - right, r.height - top - bottom)
        region = visible.intersect(self.backend.screen_rect)
        if region is None:
            raise NoGameError(f"the {self.ui.name} window is entirely off screen")
        self.window = info
        if self.frames is None or self.frames.capture is self.screen:
            if self.frames is not None:
                self.frames.close()
            self.frames = FrameSource(self.backend.capture(info), region, self.settle_timeout)
        else:
            self.frames.follow(region, info)

    def focus(self) -> None:
        if self.window is not None and not self.x11.has_focus(self.window.id):
            self.x11.focus(self.window.id)

    def refocus(self) -> None:
        """Give the game its keyboard focus back (after a dialog had it)."""
        if self.window is not None:
            self.x11.focus(self.window.id)
        elif self.x11 is not None:
            self.x11.focus_pointer_root()   # the game under the parked pointer has focus again
        elif self.listed is not None:
            self.find_listed()

    def check(self, reading, frame: np.ndarray | None) -> bool:
        """Before clicking on ``reading`` (read from ``frame``): True when the board may no
        longer be where or what it was (moved, resized, covered): read it again first.

        With a window, the full check (geometry, focus, stacking: several X round trips) runs
        only when X reported a change to the window or to the top-level windows since the
        last check; a closed window stops play. Without one, the ring around the board.
        """
        if self.window is None:
            return self.board_moved(reading, frame)
        x11 = self.x11
        if not x11.changed() and self.verified:
            return False
        rect = x11.rect(self.window.id)
        if rect is None:
            again = None if self.window_id is not None else self.ui.find(x11)
            if again is None:
                raise NoGameError(f"the {self.ui.name} window closed; stopped without clicking")
            self.window, rect = again, again.rect
            changed = True
        else:
            changed = rect != self.window.rect
        if changed:
            info = x11.info(self.window.id) or self.window
            x11.watch(info.id)
            self.follow(info)
        self.focus()
        if reading is not None:
            changed = self.wait_uncovered(board_rect(self.frames.region, reading.board_px)) \
                or changed
        x11.changed()   # our own focus/raise requests answer with events: drop them
        self.verified = reading is not None
        return changed

    def board_moved(self, reading, frame: np.ndarray | None) -> bool:
        """Without a window to watch: whether the ring of pixels just around the board looks
        different in a fresh grab from ``frame`` (then read again, never click on it)."""
        if reading is None or frame is None:
            return False
        return not self.frames.ring_same(frame, reading.board_px)

    def covering(self, board: Rect) -> list[WindowInfo]:
        """Windows (not the game's own dialogs) stacked above the game and lying on ``board``."""
        found = []
        for wid in self.x11.stacked_above(self.window.id):
            info = self.x11.info(wid)
            if info is None or info.transient_for == self.window.id:
                continue   # gone, or our own dialog (closed by the game's UI)
            if info.rect.intersect(board) is not None:
                found.append(info)
        return found

    def wait_uncovered(self, board: Rect) -> bool:
        """Raise the game over any window lying on ``board``; if it stays covered (a window
        the WM keeps on top, or an override-redirect menu), wait up to ``cover_wait`` seconds
        for it to go, then stop. Never clicks a covered board.

        True when the board was covered: the caller must read it again before clicking, since
        the last frame may not show what is now on top.
        """
        covering = self.covering(board)
        if not covering:
            return False
        self.x11.focus(self.window.id)   # asks the WM (or X) to raise our window
        deadline = time.monotonic() + self.cover_wait
        while covering and time.monotonic() < deadline:
            time.sleep(0.05)
            covering = self.covering(board)
        if covering:
            raise NoGameError(f"the board is covered by another window ({covering[0].title!r}) "
                              f"for {self.cover_wait:g} s; stopped without clicking")
        return True

    def close(self) -> None:
        frames, self.frames = self.frames, None
        if frames is not None:
            frames.close()
