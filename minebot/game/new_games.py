"""New games on the live window: bring it to the level asked for, start the next game, and
wait until the fresh board shows.

Why apart: how a game is asked for is the game's own (``GameUI.start``,
``GameUI.request_new_game``); what follows is the same for every game: its dialogs closed
first, then reads until a board the ``GameUI`` calls fresh, whose size every later read of the
game must have (a read of another size is a misread). Only that fresh frame is recorded.
Functions of the ``LiveGame`` they act on, like the ``GameUI`` methods; what they use of it
is ``Restartable``, so this module does not depend on ``live`` (which imports it).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Protocol

from ..board import Board
from ..errors import NoGameError
from .ui import GameHost, GameUI, forget_last_game

if TYPE_CHECKING:   # pragma: no cover
    from ..vision.learn import Learner
    from .replay import Recording


class Restartable(GameHost, Protocol):
    """What starting games needs of the live game (``LiveGame`` is one): its ``GameUI`` (which
    acts on it as a ``GameHost``), the level asked for, and the per-game state a new game
    resets (clicks, the recorder's game, what the learner saw)."""

    ui: GameUI
    level: str | None
    custom: tuple[int, int, int] | None
    clicks: int
    frame_index: int | None
    learner: "Learner | None"
    recorder: "Recording | None"

    def close_dialogs(self) -> bool: ...


def start(live: Restartable) -> Board:
    """Bring the window to the requested level (or keep its size) with a fresh board."""
    live.close_dialogs()
    live.focus()
    live.expected_shape = None
    return live.ui.start(live, live.level, live.custom)


def wait_fresh(live: Restartable, before: Board | None = None, timeout: float | None = None) -> Board:
    """Read until the new game's board shows (only that frame is recorded).

    ``before``: the board shown when the new game was asked for (a game that opens an
    area by itself is fresh once the board differs from it). From then on every read of
    this game must have the same size (``expected_shape``): a read of another size is a
    misread, read again, never acted on.
    """
    if timeout is None:
        timeout = 5.0 + live.ui.end_popup_seconds
    deadline = time.monotonic() + timeout
    while True:
        recorder, live.recorder = live.recorder, None
        try:
            board = live.observe()
        except NoGameError:
            board = None
            if time.monotonic() > deadline:
                raise
        finally:
            live.recorder = recorder
        if board is not None and live.ui.is_fresh(board, before):
            live.clicks = 0
            if live.learner is not None:
                live.learner.forget()   # looks of an abandoned game prove nothing
            live.expected_shape = board.shape
            if recorder is not None:
                live.frame_index = recorder.add_frame(live.frame, live.reading)
            return board
        if time.monotonic() > deadline:
            raise NoGameError(f"no fresh board appeared after starting a new {live.ui.name} game")
        time.sleep(0.05)


def new_game(live: Restartable) -> Board:
    """A new game of the same size, by the game's own interface."""
    live.close_dialogs()
    live.focus()
    board = live.reading.board if live.reading is not None else None
    if board is not None and live.clicks == 0 and live.ui.is_fresh(board):
        return board   # already fresh
    live.ui.request_new_game(live, board)
    forget_last_game(live)
    if live.recorder is not None:
        live.recorder.next_game()
    return wait_fresh(live, before=board)
