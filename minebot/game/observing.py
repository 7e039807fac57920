"""Reading the live game until a reading can be played on: the read side of ``LiveGame``.

Why this way: a frame can be read wrong for many passing reasons (a half-drawn change, the
pointer's hover, a dialog, a pause, a message over the board), and a wrong reading must never
be acted on. So a read is taken from a settled frame (``FrameSource.settled``) through the one
capture -> read loop (``minebot.backends.readings``), with the pointer parked off the board,
and must pass ``read_checks`` and what the last moves should have produced
(``plan.expectation``); else the way is cleared (dialogs closed, the window checked) and the
game is read again, up to ``live.rereads`` times, then play stops with the frame saved.

These are functions of the ``LiveGame`` they read, like the ``GameUI`` methods: it holds the
reader, the last reading and what was learned of this game. What they use of it is
``ObservedGame``, so this module does not depend on ``live`` (which imports it).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Sequence

import numpy as np

from ..backends.frames import FrameSource
from ..backends.readings import readings
from ..board import Board, GameState
from ..errors import NoGameError
from .read_checks import (
    ScreenMismatchError,
    complete_board,
    game_problem,
    shape_problem,
    won_beyond_doubt,
)
from .ui import GameHost, GameUI

if TYPE_CHECKING:   # pragma: no cover
    from ..vision.learn import Learner
    from ..vision.reader import Reader
    from .replay import Recording


class ObservedGame(GameHost, Protocol):
    """What reading the live game needs of it (``LiveGame`` is one): besides what its
    ``GameUI`` may use (a paused game is resumed through it), where accepted readings go (the
    learner, the recorder) and the ways to clear the view before a read again."""

    ui: GameUI
    reader: "Reader"
    frame_index: int | None
    rereads: int
    window_game: str | None
    hover_grace: float
    stalls_casts: bool
    learner: "Learner | None"
    recorder: "Recording | None"

    @property
    def frames(self) -> FrameSource: ...

    def forget_grid(self) -> None: ...

    def close_dialogs(self) -> bool: ...

    def check_window(self) -> bool: ...

    def park(self, margin: bool = False, shift: int = 0) -> None: ...

    def nudge(self) -> None: ...

    def watch_board(self) -> None: ...

    def save_frame(self, what: str) -> Path | None: ...


def observe(live: ObservedGame, expect=None) -> Board:
    """Capture and read until a clean, settled read (and, with ``expect``, a plausible one)."""
    from ..vision.reader import NoBoardError, UnmatchedCellsError
    last_error: Exception | None = None
    # A game that draws a message over the board after a win or loss (KMines) gets that
    # long, from the first read that failed, to clear it before the reads give up.
    patience: float | None = None
    reads = 0

    def before(attempt: int) -> bool:
        """Before each read: give up after ``rereads`` (and the patience), else clear the
        way (dialogs, a moved window) and park the pointer off the board."""
        nonlocal patience, reads
        if attempt > live.rereads and (patience is None or time.monotonic() >= patience):
            return False
        if attempt == 1:
            patience = time.monotonic() + live.ui.end_popup_seconds
        if attempt > live.rereads:
            time.sleep(0.25)
        if attempt:
            live.forget_grid()
            live.close_dialogs()
            live.check_window()
        live.park(margin=attempt >= 2)
        reads = attempt + 1
        return True

    frame = None
    for seen in readings(live.frames, live.reader.read, before=before,
                         area=lambda _last: live.reading.board_px if live.reading else None):
        frame, reading, exc = seen.frame, seen.reading, seen.error
        if isinstance(exc, NoBoardError):
            last_error = exc
            if live.close_dialogs():
                continue
            if exc.state is GameState.PAUSED:
                live.ui.resume(live)
            else:
                time.sleep(0.05)
            continue
        if isinstance(exc, UnmatchedCellsError):
            last_error = exc
            if live.close_dialogs():
                continue
            time.sleep(0.03)
            continue
        if exc is not None:
            raise exc
        if reading.suspect and not won_beyond_doubt(reading, live.mines_hint):
            # Hovered or pressed cells pass; a cell that stays doubtful is never acted on.
            last_error = ScreenMismatchError(
                "cell(s) could not be read with confidence (row,col): "
                + ", ".join(f"{r},{c}" for r, c in reading.suspect[:8]))
            time.sleep(0.02)
            continue
        board = complete_board(reading, frame, live.ui, live.mines_hint)
        problem = game_problem(reading, live.window_game) or shape_problem(board, live.expected_shape)
        if problem is not None:
            last_error = ScreenMismatchError(problem)
            time.sleep(0.02)
            continue
        if expect is not None:
            problem = expect(board)
            if problem:
                last_error = ScreenMismatchError(problem)
                if live.close_dialogs():
                    continue
                time.sleep(0.02)
                continue
        accept(live, frame, reading)
        return board
    live.frame = frame
    saved = live.save_frame("unreadable")
    raise type(last_error)(f"{last_error} (after {reads} reads; frame saved "
                           f"to {saved})", saved) if isinstance(last_error, ScreenMismatchError) \
        else NoGameError(f"could not read the board: {last_error}; frame saved to {saved}", saved)


def observe_frame(live: ObservedGame, frame: np.ndarray, expect) -> Board:
    """Read the settled frame; on a surprise look for a dialog first, then re-read."""
    from ..vision.reader import NoBoardError, UnmatchedCellsError
    if not live.reader.fits(frame) and live.close_dialogs():
        # A dialog over the board (a win's scores): closed before the read, the board read
        # last is where it was and reads as every turn's does, not found afresh.
        frame = settled(live, None)
    for _attempt in range(2):
        problem = None
        try:
            reading = live.reader.read(frame)
        except (NoBoardError, UnmatchedCellsError) as exc:
            problem = str(exc)
        else:
            board = complete_board(reading, frame, live.ui, live.mines_hint)
            problem = (f"cells looked hovered or pressed: {reading.suspect[:4]}"
                       if reading.suspect else expect(board)) or \
                shape_problem(board, live.expected_shape)
        if problem is None:
            accept(live, frame, reading)
            return board
        if os.environ.get("MINEBOT_DEBUG"):
            print("minebot: re-reading after:", problem[:200], file=sys.stderr)
        live.forget_grid()
        if not live.close_dialogs():
            break
        frame = settled(live, None)   # the board under the closed dialog, redrawn
    return observe(live, expect)


def settled(live: ObservedGame, before: np.ndarray | None, cells: Sequence[tuple[int, int]] = ()) -> np.ndarray:
    """A frame taken after the screen reacted to our clicks (``cells`` look different
    from ``before``) and stopped changing on the board (``FrameSource.settled``)."""
    reading = live.reading
    changed = [tuple(reading.cell_rects[c]) for c in cells] if reading is not None else []
    return live.frames.settled(reading.board_px if reading is not None else None,
                               before=before, changed=changed, transient=live.ui.looks_transient,
                               hover_grace=live.hover_grace,
                               nudge=live.nudge if live.stalls_casts and reading is not None else None)


def accept(live: ObservedGame, frame: np.ndarray, reading) -> None:
    """Take ``reading`` of ``frame`` as the game's board: kept as the last won board (what
    a dialog over it would hide), shown to the learner and the recorder."""
    live.frame, live.reading = frame, reading
    live.watch_board()
    if reading.board.state is GameState.WON:   # what a dialog over it would hide
        live.won_board, live.won_frame, live.won_px = reading.board, frame, reading.board_px
    if live.learner is not None:
        live.learner.observe(frame, reading)
        # the next game reads what this one taught; a game that taught nothing new (a set
        # named with 0 looks added) leaves the loaded sets as they are
        if reading.board.is_over and any(live.learner.finish(reading.board).values()):
            live.reader.reload_templates()
    if live.recorder is not None:
        live.frame_index = live.recorder.add_frame(frame, reading)
