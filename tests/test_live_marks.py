"""Live: a "?" a player left on the board never stops the bot (marked live).

The bot never places a "?" itself, but it meets them: a player's half-played game, or a game
that cycles flag -> "?" on a right-click. Here the test plays the player: once the game shows
its fresh board it puts "?" marks with plain X input (xdotool, as a person's mouse would) on
the cell the bot opens first and on a far corner (xdemineur, which opens an area by itself: on
a cell next to that area instead), then the bot plays the game to its end.

What is checked: the first board read carries the "?" marks where they were put (a "?" is a
covered cell with a mark: ``Cell.QUESTION``); the game ends won or lost, with no stop; every
number read is what the finished game proves; every click fell inside the board. How the bot
opens a "?" cell (``Solver._open``: one right-click clears it, then a left-click opens it) is
what every one of these games accepts: each cycles its marks flag -> "?" -> none.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import numpy as np
import pytest

from minebot.board import Cell, GameState
from minebot.games.kmines.launcher import KMINES
from minebot.games.xdemineur.launcher import XDEMINEUR
from minebot.sandbox.mines import GNOME_MINES

pytestmark = [pytest.mark.live,
              pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
                                 reason="needs xvfb and xdotool")]


def _mark_cells(board, first) -> list[tuple[int, int]]:
    """Where the player puts "?": the bot's first cell and the far corner on a fresh board; on
    a board the game opened itself, a covered cell next to the opening and a far covered one."""
    rows, cols = board.shape
    covered = board.cells == Cell.COVERED
    if covered.all():
        return [first, (rows - 1, cols - 1)] if first != (rows - 1, cols - 1) else [first, (0, 0)]
    from minebot.board import neighbour_count
    near = np.argwhere(covered & (neighbour_count(~covered) > 0))
    far = np.argwhere(covered & (neighbour_count(~covered) == 0))
    out = [tuple(int(v) for v in near[len(near) // 2])]
    if len(far):
        out.append(tuple(int(v) for v in far[-1]))
    return out


def _right_click_twice(display: str, x: int, y: int, park: tuple[int, int]) -> None:
    """Two right-clicks at (x, y) through the X server, as a player would (flag, then "?"),
    then the pointer put back where the bot had left it. Half a second apart: GNOME Mines 48
    and later (GTK 4) drop a press that comes as the second of a double click (GTK's default
    double-click time is 400 ms), as a player who clicked that fast would find."""
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "3", "sleep", "0.5",
                    "click", "3", "sleep", "0.15", "mousemove", str(park[0]), str(park[1])],
                   env=env, check=True, capture_output=True)


def play_with_question_marks(proc, rules_first) -> None:
    from minebot.game.live import LiveGame
    from minebot.games.interfaces import ui_for
    from minebot.loop import play_game
    from minebot.solver import Solver
    from minebot.solver.solver import default_first_click
    from minebot.truth import misreads
    profile = proc.profile if isinstance(proc.profile, str) else proc.profile.name
    game = LiveGame(proc.display, window_id=proc.window.id, ui=ui_for(profile),
                    mines=proc.board[2] if proc.board is not None else None,
                    frames_dir=tempfile.mkdtemp(prefix="minebot-test-frames-"))
    try:
        fresh = game.start()
        rows, cols = fresh.shape
        first = default_first_click(rows, cols, rules_first) or (rows // 2, cols // 2)
        marks = _mark_cells(fresh, first)
        region, rects = game.region, game.reading.cell_rects
        park = (region.left + 2, region.top + 2)
        for r, c in marks:
            x0, y0, x1, y1 = (int(v) for v in rects[r, c])
            _right_click_twice(game.display, region.left + (x0 + x1) // 2,
                               region.top + (y0 + y1) // 2, park)
        game.forget_grid()
        shown = game.observe()
        assert [tuple(int(v) for v in rc) for rc in np.argwhere(shown.cells == Cell.QUESTION)] \
            == sorted(marks), shown.to_text()
        since = len(game.pointer.log)
        seen: list = []
        result = play_game(game, Solver(), on_step=lambda board, moves: seen.append(board))
        final = result.final
        assert final.state in (GameState.WON, GameState.LOST)
        assert misreads(seen, final) == []
        assert any((b.cells == Cell.QUESTION).any() for b in seen)
        left, top, right, bottom = game.reading.board_px
        box = (region.left + left, region.top + top, region.left + right, region.top + bottom)
        for click in game.pointer.log[since:]:
            assert box[0] <= click.x < box[2] and box[1] <= click.y < box[3], (click, box)
    finally:
        game.close()


@pytest.fixture(scope="module")
def screen():
    from minebot.sandbox.xvfb import Xvfb
    server = Xvfb(1280, 1024).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.skipif(not os.access(XDEMINEUR, os.X_OK), reason="needs xdemineur")
def test_xdemineur_plays_past_question_marks(screen):
    from minebot.games.xdemineur.launcher import Xdemineur
    from minebot.rules import Rules
    with Xdemineur(screen, cols=16, rows=16, mines=40) as proc:
        play_with_question_marks(proc, Rules.PREOPENED)


@pytest.mark.skipif(not os.access(KMINES, os.X_OK), reason="needs kmines")
@pytest.mark.parametrize("theme", ["classic", "default"])
def test_kmines_plays_past_question_marks(screen, theme):
    from minebot.games.kmines.launcher import KMines
    from minebot.rules import Rules
    with KMines(screen, level="easy", theme=theme, window=(640, 480)) as proc:
        play_with_question_marks(proc, Rules.ZERO)


@pytest.mark.skipif(not os.access(GNOME_MINES, os.X_OK), reason="needs gnome-mines")
@pytest.mark.parametrize("theme", ["classic", "default"])
def test_gnome_mines_plays_past_question_marks(screen, theme):
    """GNOME Mines with its "use question marks" preference on (the private game's default)."""
    from minebot.rules import Rules
    from minebot.sandbox.mines import GnomeMines
    with GnomeMines(screen, theme=theme, level="beginner", window=(810, 656),
                    question_marks=True) as proc:
        play_with_question_marks(proc, Rules.ZERO)
