"""What a live game does through the game's own interface, apart from clicking cells.

Why a protocol: the live loop (follow the window, read, click inside the board, wait for the
screen to settle) is the same for every Minesweeper; what differs is how a game is found on
the desktop, how a new game starts (GNOME Mines' keyboard shortcuts and level chooser,
xdemineur's smiley, KMines' Ctrl+N), which dialogs the game opens and how to close them, and
what a fresh board looks like (xdemineur opens an area by itself). Each game answers these in
its own ``GameUI`` (``minebot.games.NAME.ui``); ``LiveGame`` calls
them and knows no game by name.

The UI acts through the ``LiveGame`` it is given (its window, keys, captures and pointer
bounds), so every safety rule of the live game (never a click outside what was just read,
never a covered window) holds for these actions too. A UI keeps no state of the game itself:
everything it needs is passed in. What it may use of the live game is ``GameHost``, so this
module does not depend on ``live`` (which imports it).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Sequence

import numpy as np

from .. import games
from ..backends.x11.keys import send_keys
from ..backends.x11.window import X11, Rect, WindowInfo, find_game_window
from ..board import Board, Cell, GameState
from ..errors import BadInputError
from ..rules import Rules

if TYPE_CHECKING:   # pragma: no cover
    from ..backends.listed import ListedWindow, WindowList
    from ..games.profile import GameProfile, WindowMatch
    from ..vision.reader import Reading

Box = tuple[int, int, int, int]


class GameHost(Protocol):
    """What a ``GameUI`` may use of the live game it acts on (``LiveGame`` is one).

    Reads, keys and clicks go through it, so the live game's safety rules hold for the UI's
    actions too: a UI gets no backend, pointer or reader of its own, only the calls below (a
    frame read with the game's reader, a key to the game or to the dialog that has the focus,
    one bounded click on a control outside the board). The few fields a UI writes are the ones
    its game decides (the board size it expects, the mine total of a custom board, the dialogs
    it closed).
    """

    x11: X11 | None
    reading: "Reading | None"
    frame: np.ndarray | None
    won_board: Board | None
    won_frame: np.ndarray | None
    won_px: Box | None
    expected_shape: tuple[int, int] | None
    mines_hint: int | None
    dialogs_closed: int

    @property
    def window(self) -> WindowInfo | None: ...

    @property
    def listed(self) -> "ListedWindow | None": ...

    @property
    def region(self) -> Rect | None: ...

    @property
    def window_list(self) -> "WindowList | None": ...

    def grab(self) -> np.ndarray: ...

    def read(self, frame: np.ndarray) -> "Reading": ...

    def send_key(self, combo: str) -> None: ...

    def click_control(self, x: float, y: float, bounds: Box) -> None: ...

    def settled_frame(self) -> np.ndarray: ...

    def focus(self) -> None: ...

    def refocus(self) -> None: ...

    def key(self, combo: str) -> None: ...

    def observe(self) -> Board: ...

    def new_game(self) -> Board: ...

    def wait_fresh(self, before: Board | None = None, timeout: float | None = None) -> Board: ...

    def await_board_change(self, frame: np.ndarray, px: Box, timeout: float) -> bool: ...

    def ring_same(self, before: np.ndarray, px: Box, inside: bool = False) -> bool: ...

    def save_frame(self, what: str) -> Path | None: ...


def forget_last_game(live: "GameHost") -> None:
    """Once a new game has been asked for, the last reading and the last won board belong to
    the game before and must no longer steer anything: a won board kept made a fresh board
    still being laid out look like one under a "Congratulations!" dialog, and the Escape sent
    for it took GNOME Mines 50 back to its level chooser."""
    live.reading = None
    live.won_board, live.won_frame, live.won_px = None, None, None


def all_covered(board: Board) -> bool:
    """Every cell covered: a new game nobody has clicked yet."""
    return bool((board.cells == Cell.COVERED).all())


class GameUI(ABC):
    """One game's own interface, as the live game needs it.

    What the game *is* (its window, its rules, its name) comes from its ``GameProfile``
    (``minebot.games``, named by ``game``); the class attributes below add what only play
    needs; methods act on a ``LiveGame``.
    """

    game: str = ""
    """The name of the game's profile in ``minebot.games``."""
    flags_to_win: bool = False
    """The game declares a win only once every mine is flagged (xdemineur)."""
    end_popup_seconds: float = 0.0
    """How long a message drawn over the board after a win or loss may hide cells (KMines' "You
    have lost." fades after 4 s): reads that fail are retried for this long."""
    end_message_seconds: float = 0.0
    """How long the game shows a message over the board once a game ends (KMines: 4 s and its
    fade): the final board is read again after that long."""
    paced: bool = False
    """Each click waits until the previous one shows on screen, and a click that never shows
    is planned again from what the screen shows (KMines drops some clicks sent in a burst)."""
    levels: dict[str, tuple[int, int, int]] = {}
    """The game's named levels: name -> (rows, cols, mines) (GNOME Mines switches to one;
    the others must be started at it)."""

    def __init__(self, profile: "GameProfile | None" = None) -> None:
        self.profile = profile if profile is not None else games.get(self.game)

    @property
    def name(self) -> str:
        """Shown in messages ("the xdemineur window closed")."""
        return self.profile.title

    @property
    def window(self) -> "WindowMatch":
        return self.profile.window

    @property
    def rules(self) -> Rules:
        """The rule set of ``minebot.rules`` the game follows (where mines may lie)."""
        return self.profile.rules

    # -- finding ------------------------------------------------------------------------
    def find(self, x11: "X11") -> "WindowInfo | None":
        return find_game_window(x11, self.window)

    # -- boards -------------------------------------------------------------------------
    def is_fresh(self, board: Board, before: Board | None = None) -> bool:
        """A new game nobody has played yet (``before``: the board shown before the new game
        was asked for, for games whose fresh board is not all covered)."""
        return all_covered(board)

    def standard_mines(self, shape: tuple[int, int]) -> int | None:
        """The mine total of a board of this size when the game shows no counter we read."""
        for rows, cols, mines in self.levels.values():
            if (rows, cols) == shape:
                return mines
        return None

    def shown_state(self, frame: np.ndarray, board_px: tuple[int, int, int, int]) -> "GameState | None":
        """What the game itself shows about the game's end outside the board (a face, a
        message), or None when it shows nothing the board does not (the default)."""
        return None

    def looks_transient(self, crop: np.ndarray) -> bool:
        """A cell caught between two states (hovered, pressed): not its result yet."""
        return False

    # -- games --------------------------------------------------------------------------
    def start(self, live: GameHost, level: str | None,
              custom: tuple[int, int, int] | None) -> Board:
        """Bring the game to ``level`` (or ``custom``, or the size it shows) with a fresh board.

        The default, for a game whose size is chosen when it starts: play what it shows (a
        finished game is replaced by a new one of the same size); a level or size asked for
        must be the one shown.
        """
        self.close_dialogs(live)
        board = live.observe()
        want = self.levels[level][:2] if level else (custom[:2] if custom else None)
        if want is not None and board.shape != want:
            rows, cols = want
            raise BadInputError(f"{self.name} shows a {board.cols}x{board.rows} board, not "
                                f"{cols}x{rows}; minebot cannot change its size: start it with "
                                "the size wanted")
        live.expected_shape = board.shape
        return live.new_game() if board.is_over else board

    @abstractmethod
    def request_new_game(self, live: GameHost, board: Board | None) -> None:
        """Ask the game for a new game of the same size (``board``: what it shows now, or
        None if unknown). ``LiveGame.new_game`` then waits for the fresh board."""

    # -- dialogs and pauses ---------------------------------------------------------------
    close_keys: Sequence[str] = ("Escape",)
    """Keys that close any dialog of the game."""

    def dialogs(self, live: GameHost) -> list:
        """The game's dialogs on screen: windows transient for its window (none can be seen
        where windows cannot be listed: see ``close_unlisted_dialogs``)."""
        if live.x11 is None:
            return []
        if live.window is not None:
            return live.x11.dialogs_of(live.window.id)
        return [w for w in live.x11.windows()
                if w.viewable and w.transient_for is not None
                and self.window.class_matches(w.wm_class)]

    def close_dialogs(self, live: GameHost) -> bool:
        """Close the game's dialogs (a win's "Congratulations!", a high-score table).

        Returns once the game has repainted the area a dialog covered (with no compositor the
        stale dialog pixels stay on screen until then); False if there was none.
        """
        if live.x11 is None:
            listing = live.window_list
            if listing is not None and live.listed is not None:
                return self.close_listed_dialogs(live, listing, live.listed)
            return self.close_unlisted_dialogs(live)
        dialogs = self.dialogs(live)
        if not dialogs:
            return False
        region = live.region
        covered = [d.rect.intersect(region) for d in dialogs]
        shot = live.grab()
        self.answer(live, dialogs, self.close_keys, timeout=3.0)
        live.dialogs_closed += len(dialogs)
        boxes = [(r.left - region.left, r.top - region.top, r.right - region.left,
                  r.bottom - region.top) for r in covered if r is not None]
        deadline = time.monotonic() + 1.0
        while boxes and time.monotonic() < deadline:
            now = live.grab()
            if now.shape != shot.shape or all(
                    not np.array_equal(now[t:b, x0:x1], shot[t:b, x0:x1]) for x0, t, x1, b in boxes):
                break
            time.sleep(0.003)
        return True

    def close_listed_dialogs(self, live: GameHost, listing: "WindowList",
                             main: "ListedWindow", timeout: float = 3.0) -> bool:
        """Where the compositor lists windows but X11 cannot be asked (sway): every other shown
        window of the game's app_id (a "High Scores" or "Congratulations!" window) is given the
        focus and sent ``close_keys``; once they are gone (at most ``timeout`` seconds) the
        game has the focus again. True if there was one."""
        def dialogs() -> list["ListedWindow"]:
            return [w for w in listing.windows() if w.visible and w.id != main.id
                    and self.window.class_matches((w.app_id,))]
        found = dialogs()
        if not found:
            return False
        for dialog in found:
            listing.focus(dialog)
            for combo in self.close_keys:
                live.send_key(combo)
        deadline = time.monotonic() + timeout
        while dialogs() and time.monotonic() < deadline:
            time.sleep(0.02)
        live.dialogs_closed += len(found)
        listing.focus(main)
        return True

    def shows_hiding_dialog(self, frame: np.ndarray) -> bool:
        """Whether ``frame``, on which no board was found, shows one of the game's own dialogs
        drawn over its board (closed by ``close_keys``). Why: where windows cannot be listed
        a new run knows the game only by its board, and a dialog left open by the game before
        hides it. Default: the game draws none."""
        return False

    def close_unlisted_dialogs(self, live: GameHost) -> bool:
        """Where windows cannot be listed (native Wayland): close a dialog known only by what
        it does to the screen; True if one was closed. Default: the game has none."""
        return False

    def answer(self, live: GameHost, dialogs: list, keys: Sequence[str], timeout: float) -> None:
        """Press ``keys`` in each dialog, wait (up to ``timeout``) until none is left, and give
        the game its focus back."""
        for dialog in dialogs:
            live.x11.focus(dialog.id)
            for combo in keys:
                send_keys(live.x11, combo)
        deadline = time.monotonic() + timeout
        while self.dialogs(live) and time.monotonic() < deadline:
            time.sleep(0.002)
        live.refocus()

    def resume(self, live: GameHost) -> None:
        """The board is hidden by a pause: bring the game back (default: give it focus)."""
        live.focus()
