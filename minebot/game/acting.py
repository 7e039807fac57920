"""Acting on the live game: send the clicks of a batch of moves, each checked just before it
is sent, and say which moves were made.

Why its own module: the guarantees of a click live here. Every click goes to the centre of a
cell of the board just read, through the backend's ``Pointer``, which refuses any point outside
that board's rectangle; before the first click of every move the window must still have the
geometry the batch was planned on (on X11 checked and sent in one server step: ``hold``), or,
without a window list, the ring around the board must look as it did; a batch that stops
there counts the move it stopped in as not done. What the screen must then show is the
caller's (``minebot.game.plan.expectation``).
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ..board import Board
from ..move import Move
from ..timing import Phase, phase
from .plan import Batch, move_of, move_shows, plan_batch
from .points import BoardOnScreen, bounds
from .window_guard import WindowGuard

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


def _debug(message: str) -> None:
    if os.environ.get("MINEBOT_DEBUG"):
        print(f"minebot: {message}", file=sys.stderr)


@dataclass(frozen=True)
class Sent:
    """What a batch did: ``played`` the moves whose clicks were sent (and, paced, showed on
    screen), ``clicks`` how many clicks went out, ``complete`` False when the batch stopped
    early because the board moved (then read the window afresh, not a settled frame);
    ``lost`` (paced) the moves whose clicks went out but had not shown when looked for: they
    may still be drawn late, so they are looked at again before the solver may plan them
    again (``LiveGame``)."""

    played: list[Move]
    clicks: int
    complete: bool
    lost: list[Move] = field(default_factory=list)


class Clicker:
    """Sends batches of moves to the game ``guard`` watches, through ``pointer``.

    ``paced``: each click waits until the previous one shows on screen (``PACED_WMS``, a game
    that drops fast clicks); a move that never shows is left out of ``Sent.played``.
    ``question_marks``: the game cycles flag -> "?" -> none (``plan.clicks_for``).
    ``clicks_on`` counts the clicks planned on each cell, game-long, so that each click on a
    cell lands beside the last one there (``points.cell_point``): GTK 4 drops a press within
    5 px and the double-click time of the last press of the same button, and a flag's click
    and the next batch's two clicks to take it off can all come within that time.
    """

    def __init__(self, pointer, guard: WindowGuard, ui, *, paced: bool,
                 question_marks: bool = True) -> None:
        self.pointer, self.guard, self.ui = pointer, guard, ui
        self.paced, self.question_marks = paced, question_marks
        self.clicks_on: Counter[tuple[int, int]] = Counter()

    def _spread(self, aim: BoardOnScreen) -> Callable[[tuple[int, int]], tuple[float, float]]:
        """``plan_batch``'s point: each click on a cell beside the one before it there."""
        def point(cell: tuple[int, int]) -> tuple[float, float]:
            self.clicks_on[cell] += 1
            return aim.cell_point(cell, self.clicks_on[cell] - 1)
        return point

    def send(self, board: Board, reading, frame: np.ndarray | None,
             moves: Sequence[Move]) -> Sent | None:
        """Click ``moves`` on ``board`` as ``reading`` (of ``frame``) shows it; None when no
        move needs a click."""
        with phase(Phase.PLAN):
            aim = BoardOnScreen.of(self.guard.frames.region, reading)
            batch = plan_batch(board, moves, self._spread(aim), self.question_marks)
        if not batch.played:
            return None
        played = batch.played
        lost: set[int] = set()   # moves (paced play) that never showed on screen
        window = self.guard.window
        # Where the pointer holds every click to the window's planned geometry in the same
        # server step (X11's grab), a check of that geometry before each move adds only round
        # trips, each waiting behind the game's drawing; unless paced, there is then nothing
        # to check between clicks and the batch goes out at once (each click still held).
        held = window is not None and self.pointer.holds_window
        check = None if held and not self.paced else self._check(batch, reading, frame, lost)
        # the window's geometry is checked again with each click, in the same server step
        hold = (window.id, window.rect) if window is not None else None
        with phase(Phase.SEND):
            made = self.pointer.click_many(batch.points, aim.bounds, park=aim.park_point(),
                                           check=check, hold=hold)
        if len(made) < len(batch.points):
            # The window moved during the batch: it stopped at a move boundary (a move of two
            # clicks stopped between them counts as not done: its cell is read).
            done = move_of(batch.starts, len(made))
            _debug(f"window moved; batch stopped after {done} of {len(played)} moves")
            return Sent(played[:done], len(made), False)
        if self.paced and frame is not None:
            if not self.await_move(played[-1], frame, reading):
                lost.add(len(played) - 1)
            if lost:
                # The WM swallowed these clicks (see PACED_WMS): their cells are judged by
                # what the screen shows, never assumed; the solver plans them again.
                _debug(f"{len(lost)} click(s) lost by the window manager")
                missing = [m for j, m in enumerate(played) if j in lost]
                played = [m for j, m in enumerate(played) if j not in lost]
                return Sent(played, len(made), True, missing)
        return Sent(played, len(made), True)

    def _check(self, batch: Batch, reading, before: np.ndarray | None, lost: set[int]):
        """The ``check`` run before each click of a batch (see ``Pointer.click_many``).

        Before the first click of every move: the window must still have the geometry the
        batch was planned on (asked of X, unless the pointer holds each click to it: then it
        is only logged), or without a window the ring around the
        board must look as in ``before``; else the batch stops. With ``paced`` the previous
        click must first show its result on screen; a move that never shows is added to
        ``lost``.
        """
        guard, starts, moves = self.guard, batch.starts, batch.played
        window = guard.window
        planned = window.rect if window is not None else None
        # the pointer checks the geometry with each click itself (see ``send``)
        held = planned is not None and self.pointer.holds_window
        watched = before if window is None else None
        last = bounds(guard.frames.region)

        def check(i: int):
            nonlocal last
            if self.paced and i > 0 and before is not None:
                # the previous click must show first (also between the two right-clicks of
                # one move: the cell shows the first one's mark before the second is sent)
                owner = move_of(starts, i - 1)
                if not self.await_move(moves[owner], before, reading):
                    lost.add(owner)
            if i not in starts:
                return last   # the second click of one move goes with the first
            if held:
                return bounds(planned)
            if planned is not None:
                now = guard.x11.rect(window.id)
                if now != planned:
                    return None
                last = bounds(now)
            elif watched is not None and not guard.frames.ring_same(watched, reading.board_px):
                return None   # no window to ask: the board itself moved or got covered
            return last
        return check

    def await_move(self, move: Move, before: np.ndarray, reading, timeout: float = 0.3) -> bool:
        """Whether ``move`` showed on screen within ``timeout`` (``plan.move_shows``)."""
        frames = self.guard.frames
        deadline = time.monotonic() + timeout
        with phase(Phase.DRAW):
            while time.monotonic() < deadline:
                if move_shows(move, before, frames.grab(), reading.cell_rects, self.ui.looks_transient):
                    return True
                frames.wait_next()
        return False
