"""Live play of xdemineur and KMines under a private Xvfb (marked live).

What live play must do on the other games: games play to the end with no stop; every
number read during a game is what the finished game proves (``minebot.truth``: a lost game
shows every mine, a won one flags them all); the result the bot reports is what the final
screen shows, read again independently; no click fell outside the board read; an xdemineur
win has every mine flagged (it declares a win only then).

xdemineur is played on 12x8 with 4 mines (a win by flagging every mine) and on 30x16/99, whose
boards show 5s: its blocky bitmap 5 is further from the font-rendered digit bank than any font's.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import numpy as np
import pytest

from minebot.board import Cell, GameState
from minebot.games.kmines.launcher import KMINES
from minebot.games.xdemineur.launcher import XDEMINEUR

pytestmark = [pytest.mark.live, pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs xvfb")]


def read_again(game, reader):
    """The board on screen now, read by ``reader`` from a fresh capture; reads that fail are
    retried while the game may still show a message over the board."""
    import time

    from minebot.backends.x11.capture import WindowCapture
    from minebot.errors import MinebotError
    deadline = time.monotonic() + game.ui.end_popup_seconds + 1
    with WindowCapture(game.display, game.window) as capture:
        while True:
            try:
                return reader.read(capture.grab(game.region)).board
            except MinebotError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.25)


def play_and_check(launcher, games: int, enough=None) -> list:
    """Start ``launcher``, play ``games`` games on it with the bot, check each one; with
    ``enough`` (a test of the results so far), stop early once it holds."""
    from minebot.game.live import LiveGame
    from minebot.games.interfaces import ui_for
    from minebot.loop import play_game
    from minebot.solver import Solver
    from minebot.truth import misreads
    from minebot.vision import Reader
    results = []
    with launcher as proc:
        game = LiveGame(proc.display, window_id=proc.window.id, ui=ui_for(proc.profile),
                        mines=proc.board[2], frames_dir=tempfile.mkdtemp(prefix="minebot-test-frames-"))
        solver = Solver()
        try:
            for n in range(games):
                game.start() if n == 0 else game.new_game()
                since = len(game.pointer.log)
                seen = []
                result = play_game(game, solver, on_step=lambda board, moves: seen.append(board))
                final = result.final
                assert final.state in (GameState.WON, GameState.LOST)
                assert final.shape == proc.board[:2]
                assert misreads(seen, final) == []
                # the final screen, captured and read again by a fresh reader (once the game's
                # own end message over the board, KMines' popup, is gone)
                again = read_again(game, Reader(game=proc.profile))
                differ = [(int(r), int(c), int(final.cells[r, c]), int(again.cells[r, c]))
                          for r, c in np.argwhere(again.cells != final.cells)]
                assert not differ, f"(row, col, played, read again): {differ}"
                left, top, right, bottom = game.reading.board_px
                box = (game.region.left + left, game.region.top + top,
                       game.region.left + right, game.region.top + bottom)
                for click in game.pointer.log[since:]:
                    assert box[0] <= click.x < box[2] and box[1] <= click.y < box[3], (click, box)
                if result.won:
                    mines = proc.board[2]
                    assert int((final.cells == Cell.FLAG).sum()) == mines
                results.append((result, seen))
                if enough is not None and enough(results):
                    break
        finally:
            game.close()
    return results


@pytest.mark.skipif(not os.access(XDEMINEUR, os.X_OK), reason="needs xdemineur")
def test_xdemineur_won_by_flagging_every_mine(xvfb):
    """A board whose own opening leaves only mines covered (12x8 with 4 mines: often): the
    bot wins by flagging them, the game shows the win (its face), and a new game starts by the
    smiley. Boards with numbers 5-8 are left to the reading of those digits."""
    from minebot.games.xdemineur.launcher import Xdemineur
    results = play_and_check(Xdemineur(xvfb, cols=12, rows=8, mines=4), 4)
    assert any(r.won for r, _ in results)


def _shows(boards, number: int) -> bool:
    return any((b.cells == number).any() for b in boards)


@pytest.mark.skipif(not os.access(XDEMINEUR, os.X_OK), reason="needs xdemineur")
def test_xdemineur_expert_reads_its_fives(xvfb):
    """30x16/99 until a game has shown a 5 (most do; at most 6 games): every number read,
    the 5s included, is what the finished game proves, and no game stops unread."""
    from minebot.games.xdemineur.launcher import Xdemineur
    results = play_and_check(Xdemineur(xvfb, cols=30, rows=16, mines=99), 6,
                             enough=lambda done: any(_shows(seen, 5) for _, seen in done))
    assert any(_shows(seen, 5) for _, seen in results), "no 5 in 6 expert games"


@pytest.mark.skipif(not os.access(KMINES, os.X_OK), reason="needs kmines")
@pytest.mark.parametrize("level, window, games", [("easy", (640, 480), 3), ("medium", (1000, 800), 2)])
def test_kmines_classic_plays_to_the_end(xvfb, level, window, games):
    from minebot.games.kmines.launcher import KMines
    play_and_check(KMines(xvfb, level=level, theme="classic", window=window), games)
