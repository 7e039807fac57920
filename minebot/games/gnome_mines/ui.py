"""GNOME Mines (40.1 to 50) through its own interface: level chooser, custom size dialog, Play
Again, "start a new game?" confirmation, "Congratulations!" dialog and pause.

Where the dialogs are: 40.1 and 48 open them as windows of their own (listed on X11, unseen on
Wayland); 50 (libadwaita dialogs) draws them inside the game's window. A dialog that no window
list shows is found by what it does to the screen, whatever the version, so no version is asked.

Why keyboard only: every one of these has a shortcut (Ctrl+N the chooser, 1-4 its buttons,
Ctrl+R Play Again, Tab/Return in the confirmation, Pause), and a key never lands on a cell,
so none of them can be a blind click.
"""

from __future__ import annotations

import time

import numpy as np

from ...board import Board, GameState
from ...errors import MinebotError, NoGameError
from ...game.ui import GameHost, GameUI, all_covered, forget_last_game
from ...levels import LEVELS
from .profile import GTK4_CLASS, custom_mines_roundtrip

CHOOSER_KEYS = {"beginner": "1", "intermediate": "2", "expert": "3"}

UNLISTED_DIALOG_WAIT = 0.8
"""Seconds a won game is watched for the "Congratulations!" dialog where it cannot be listed
(it shows when the time makes the top 10: within a few frames of the win on an idle machine;
50 reads its scores first, and showed it after more than 0.4 s on a loaded one)."""

CHOOSER_WAIT = 1.5
"""Seconds given to the level chooser to show, and to go once its key was pressed."""

CHOOSER_TRIES = 3
"""Presses of a level's key while the chooser still shows (``GnomeMinesUI._pick_level``)."""

PAUSE_WAIT = 2.0
"""Seconds the resumed board is given to show after Pause was pressed."""

UNLISTED_TRIES = 3
"""Ctrl+R presses for a new game where windows cannot be listed (a late "Congratulations!"
window swallows one)."""

_TRANSIENT_BGR = np.array([[0xCF, 0xD7, 0xD3], [0x85, 0x8A, 0x88]], dtype=np.uint8)
"""GNOME Mines' hover (#d3d7cf) and pressed (#888a85) tile colours, as BGR."""


ADWAITA_ACCENTS_BGR = np.array([
    [0xE4, 0x84, 0x35], [0xA4, 0x90, 0x21], [0x4A, 0x94, 0x3A], [0x00, 0x88, 0xC8],
    [0x00, 0x5B, 0xED], [0x42, 0x2D, 0xE6], [0x99, 0x61, 0xD5], [0xAC, 0x41, 0x91],
    [0x83, 0x83, 0x6F]], dtype=np.int16)
"""libadwaita's accent colours (blue, the default, then teal, green, yellow, orange, red, pink,
purple, slate), as BGR: the fill of a dialog's suggested button ("New Game")."""

ACCENT_TOLERANCE = 16
"""Largest channel difference of a pixel counted as an accent colour (the pill's fill came
through mutter's cast exactly; its anti-aliased rim does not count)."""


def suggested_pill(frame: np.ndarray) -> tuple[int, int, int, int] | None:
    """The box (x, y, w, h) of a libadwaita dialog's suggested button on ``frame``, or None.

    Why this is what a "Congratulations!" over the board is known by: GNOME Mines 48 and 50
    draw it over the board (50 as libadwaita's floating dialog inside its window, 48 as the
    scores dialog on top of it), which then no longer reads; its button ("New Game" in 50,
    "Done" in 48's header) is filled with the desktop's accent colour, which nothing of the
    game's own window (tiles, counter, header bar, chooser cards) is drawn in. The button:
    one blob of one accent colour, 20 px tall or more, one and a half to six times as wide as
    tall (a pill, or a rounded box round a short word) and mostly filled (its label is the
    hole), with an even band of the dialog's own background just above it or beside it (48's
    header leaves only a few pixels above its button)."""
    import cv2
    # every 4th pixel of every 4th row first: a pill (480 px or more) leaves 20 or more there
    sample = frame[::4, ::4, :3].astype(np.int16)
    near = np.abs(sample[:, :, None, :] - ADWAITA_ACCENTS_BGR).max(axis=3) <= ACCENT_TOLERANCE
    present = ADWAITA_ACCENTS_BGR[near.sum(axis=(0, 1)) >= 20]
    if not len(present):
        return None
    img = frame[:, :, :3].astype(np.int16)
    for accent in present:
        mask = (np.abs(img - accent).max(axis=2) <= ACCENT_TOLERANCE).astype(np.uint8)
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for x, y, w, h, area in stats[1:count]:
            if h < 20 or not 3 * h <= 2 * w <= 12 * h or area < 0.6 * w * h:
                continue
            beside = (img[max(0, y - h // 2):max(0, y - 4), x:x + w],      # above
                      img[y:y + h, max(0, x - h):max(0, x - 4)],            # left
                      img[y:y + h, x + w + 4:x + w + h])                     # right
            if any(_even(band, w * 4) for band in beside):
                return int(x), int(y), int(w), int(h)
    return None


def _even(band: np.ndarray, least: int) -> bool:
    """At least ``least`` pixels, nine in ten of them of one colour (a dialog's background)."""
    pixels = band.reshape(-1, 3).astype(np.int32)
    if len(pixels) < least:
        return False
    keys = (pixels[:, 0] << 16) | (pixels[:, 1] << 8) | pixels[:, 2]
    return bool(np.unique(keys, return_counts=True)[1].max() >= 0.9 * len(keys))


class GnomeMinesUI(GameUI):
    """GNOME Mines (the game once called Gnomine)."""

    game = "gnome-mines"
    levels = {name: (lv.rows, lv.cols, lv.mines) for name, lv in LEVELS.items()}

    def looks_transient(self, crop: np.ndarray) -> bool:
        """Mostly the hover or pressed colour: a cell between states."""
        if crop.size == 0:
            return False
        inner = crop[crop.shape[0] // 4: -crop.shape[0] // 4 or None,
                     crop.shape[1] // 4: -crop.shape[1] // 4 or None]
        flat = inner.reshape(-1, 3)
        hits = (flat[:, None, :] == _TRANSIENT_BGR[None, :, :]).all(axis=2).any(axis=1)
        return bool(hits.mean() > 0.9)

    def shows_hiding_dialog(self, frame: np.ndarray) -> bool:
        """A libadwaita dialog of the game over its board (``suggested_pill``): GNOME Mines 50's
        "Congratulations!" left open after a win, or its "start a new game?"; Escape (the
        ``close_keys``) closes either."""
        return suggested_pill(frame) is not None

    # -- games --------------------------------------------------------------------------
    def start(self, live: GameHost, level: str | None,
              custom: tuple[int, int, int] | None) -> Board:
        """Bring the window to ``level``/``custom`` with a fresh board, through the chooser."""
        if level is None and custom is None:
            return super().start(live, level, custom)
        self.close_dialogs(live)
        live.focus()
        want = self.levels[level][:2] if level else custom[:2]
        try:
            board = live.observe()
        except NoGameError:
            board = None
        if board is not None and board.state is GameState.WON:
            # a game won just before, by this LiveGame or another run: its dialog may be late
            self._await_win_dialog(live)
        if board is not None and board.shape == want and all_covered(board):
            live.expected_shape = board.shape
            return board
        if board is not None and board.shape == want:
            return live.new_game()
        self._to_chooser(live, board)
        if level:
            self._pick_level(live, level)
        else:
            self._custom_dialog(live, custom)
        forget_last_game(live)
        # The size asked for is the only one the new board may have: GNOME Mines 50 showed a
        # frame of a 27-column board while laying out a 30-column one, which, taken as the
        # fresh board, made every true read after it a "wrong size"
        live.expected_shape = want
        return live.wait_fresh()

    @staticmethod
    def _chooser_showing(live: GameHost) -> bool | None:
        """True: the chooser reads; False: a board reads; None: neither (mid-change)."""
        from ...vision.reader import NoBoardError
        try:
            live.read(live.grab())
        except NoBoardError as exc:
            return True if exc.state is GameState.CHOOSER else None
        except MinebotError:
            return None
        return False

    def _pick_level(self, live: GameHost, level: str) -> None:
        """Press the level's key once the chooser shows, and again while it still shows.

        Why: on native Wayland GNOME Mines 50 lost a level key sent while its chooser was
        still coming in (the chooser stayed, with its first card focused). The first press
        goes after at most ``CHOOSER_WAIT`` whatever shows (as before: a digit does nothing on
        a board); a press again only while the chooser reads as the chooser.
        """
        deadline = time.monotonic() + CHOOSER_WAIT
        while self._chooser_showing(live) is not True and time.monotonic() < deadline:
            time.sleep(0.05)
        for attempt in range(CHOOSER_TRIES):
            if attempt and self._chooser_showing(live) is not True:
                return   # a board (or something else): wait_fresh takes it from here
            live.key(CHOOSER_KEYS[level])
            gone = time.monotonic() + CHOOSER_WAIT
            while time.monotonic() < gone:
                time.sleep(0.1)
                if self._chooser_showing(live) is False:
                    return

    def _to_chooser(self, live: GameHost, board: Board | None) -> None:
        from ...vision.reader import NoBoardError
        if board is None:
            try:
                live.read(live.grab())
            except NoBoardError as exc:
                if exc.state is GameState.CHOOSER:
                    return
            if self._may_hide_dialogs(live):
                # Nothing reads: perhaps a dialog left by an earlier run (a "Congratulations!"
                # whose name entry would take the keys below). Escape closes it, and where
                # there is none it only opens the chooser from a board with nothing opened.
                live.key("Escape")
                time.sleep(0.2)
        live.key("ctrl+n")
        time.sleep(0.15)
        self._confirm_new_game(live)
        time.sleep(0.2)

    def _confirm_new_game(self, live: GameHost) -> None:
        """Answer "Do you want to start a new game?" with Start New Game (keyboard only)."""
        dialogs = self.dialogs(live)
        if not dialogs:
            self._confirm_unlisted(live)
            return
        self.answer(live, dialogs, ["Tab", "Return"], timeout=2.0)

    def _confirm_unlisted(self, live: GameHost) -> None:
        """No window list: the question is only asked of a game in progress, and shows as the
        board turning to "Paused" (or hidden by the question); only then do the keys go (to
        the question, which has the focus). Never to the level chooser: Return there would
        pick a level."""
        from ...vision.reader import NoBoardError
        board = live.reading.board if live.reading is not None else None
        if board is None or board.is_over or all_covered(board) or live.frame is None:
            return
        if not live.await_board_change(live.frame, live.reading.board_px, 1.0):
            return
        time.sleep(0.1)
        try:
            live.read(live.grab())
            return   # a board reads: no question over it
        except NoBoardError as exc:
            if exc.state is GameState.CHOOSER:
                return
        except MinebotError:
            pass
        for combo in ("Tab", "Return"):
            live.send_key(combo)

    def close_dialogs(self, live: GameHost) -> bool:
        """The dialogs a window list shows (40.1 and 48 on X11), else one drawn over the board
        inside the game's window (50's "Congratulations!", seen on X11 and Wayland alike)."""
        return super().close_dialogs(live) or (live.x11 is not None and self._may_hide_dialogs(live)
                                                and self.close_unlisted_dialogs(live))

    def close_unlisted_dialogs(self, live: GameHost) -> bool:
        """After a win GNOME Mines may open its modal "Congratulations!" window over the board.
        When the last board read had cells opened (Escape on a board before its first reveal
        would go back to the level chooser) and the screen no longer shows it (the won board
        changed, or no board reads at all), press Escape, which closes that window and does
        nothing to an opened board, and wait for the board to show again."""
        from ...vision.reader import NoBoardError, UnmatchedCellsError
        board = live.reading.board if live.reading is not None else live.won_board
        if board is None or all_covered(board) or board.state in (GameState.LOST, GameState.PAUSED):
            return False
        frame = live.grab()
        won = board.state is GameState.WON and live.won_frame is not None
        if won and live.ring_same(live.won_frame, live.won_px, inside=True):
            return False   # the won board shows as it was: nothing over it
        try:
            shown = live.read(frame).board
            # A board reads: no dialog over it, unless it is still the won board, changed
            # around (a dialog beside it, with the focus)
            if not (won and shown.shape == board.shape and (shown.cells == board.cells).all()):
                return False
        except NoBoardError as exc:
            if exc.state is not GameState.NONE:
                return False
        except UnmatchedCellsError:
            pass
        live.send_key("Escape")
        live.dialogs_closed += 1
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            time.sleep(0.02)
            try:
                live.read(live.grab())
                break
            except (NoBoardError, UnmatchedCellsError):
                continue
        return True

    def _custom_dialog(self, live: GameHost, custom: tuple[int, int, int]) -> None:
        """Chooser -> Custom: type width, height and mine percentage, then Play Game.

        The dialog opens with nothing focused; Tab enters Width, and each further Tab moves
        to the next number (Height, Percent mines). The game turns the whole percentage back
        into a count, so the mines played may differ from the request (see mines_hint).
        """
        rows, cols, mines = custom
        live.key("4")
        time.sleep(0.3)
        percent = max(1, round(mines * 100 / (rows * cols)))
        live.key("Tab")
        for value in (cols, rows, percent):
            live.key("ctrl+a")
            for ch in str(value):
                live.key(ch)
            live.key("Tab")
        live.key("alt+p")
        time.sleep(0.3)
        live.mines_hint = custom_mines_roundtrip(rows, cols, mines)

    def request_new_game(self, live: GameHost, board: Board | None) -> None:
        """Play Again (Ctrl+R), confirming when a game is in progress."""
        in_progress = board is not None and not board.is_over
        if live.x11 is None:
            self._new_game_unlisted(live, board, in_progress)
            return
        self._await_win_dialog(live)
        live.key("ctrl+r")
        if in_progress or board is None:
            # Mid-game (or unknown) GNOME Mines asks "start a new game?": answer it.
            deadline = time.monotonic() + 0.3
            while time.monotonic() < deadline and not self.dialogs(live):
                time.sleep(0.01)
            self._confirm_new_game(live)

    def resume(self, live: GameHost) -> None:
        """"Paused" covers the board: focus the game; if it stays paused, press Pause (a
        toggle, so only ever pressed while the screen shows the pause)."""
        from ...vision.reader import NoBoardError
        live.focus()
        time.sleep(0.05)
        try:
            live.read(live.settled_frame())
        except NoBoardError as exc:
            if exc.state is GameState.PAUSED:
                live.key("Pause")
                self._await_unpaused(live)
        except MinebotError:
            pass

    @staticmethod
    def _await_unpaused(live: GameHost) -> None:
        """Wait (up to ``PAUSE_WAIT``) until the pause no longer shows. Why: Pause is a toggle,
        and a screen slow to draw the resumed board (GNOME Mines 50 under mutter 50: half a
        second and more) still showed "Paused" when it was looked at again, so a second press
        paused the game again, and so on, ten times."""
        from ...vision.reader import NoBoardError
        deadline = time.monotonic() + PAUSE_WAIT
        while time.monotonic() < deadline:
            time.sleep(0.05)
            try:
                live.read(live.grab())
                return
            except NoBoardError as exc:
                if exc.state is not GameState.PAUSED:
                    return
            except MinebotError:
                return

    @staticmethod
    def _may_hide_dialogs(live: GameHost) -> bool:
        """Whether a dialog of this game may be on screen with no window list showing it: on
        Wayland, for GNOME Mines 48 and later (told by its window class) on X11, and where the
        game's window is not known (the whole screen is read)."""
        return live.x11 is None or live.window is None or GTK4_CLASS in live.window.wm_class

    def _await_win_dialog(self, live: GameHost) -> None:
        """After a win, give "Congratulations!" the time to show (and close it) before a key
        goes to the game: a key sent while it shows lands in its name entry (50 draws it inside
        the game's window, 48 as a window of its own; on Wayland neither is listed). Only
        where the dialog cannot be listed at once: GNOME Mines 40.1 on X11 does not wait."""
        board = live.reading.board if live.reading is not None else live.won_board
        if board is None or board.state is not GameState.WON or live.won_frame is None:
            return
        if not self._may_hide_dialogs(live):
            return
        if live.await_board_change(live.won_frame, live.won_px, UNLISTED_DIALOG_WAIT):
            self.close_dialogs(live)

    def _new_game_unlisted(self, live: GameHost, board: Board | None, in_progress: bool) -> None:
        """Ctrl+R where windows cannot be listed. A won game may still get its
        "Congratulations!" window (it would swallow Ctrl+R): give it time to show and close it
        first; and when the board does not change after Ctrl+R, close what covers it and press
        again."""
        frame = live.frame
        px = live.reading.board_px if live.reading is not None else None
        self._await_win_dialog(live)
        for _ in range(UNLISTED_TRIES):
            live.key("ctrl+r")
            if in_progress:
                self._confirm_new_game(live)
            if frame is None or px is None or live.await_board_change(frame, px, 2.0):
                return
            self.close_dialogs(live)
