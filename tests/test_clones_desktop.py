"""The private launchers of xdemineur, KMines and Simon Tatham's Mines (each game folder's ``launcher``) on a real Xvfb
(marked live): the window each one shows, the settings KMines was given, and that exactly the
processes they started are gone afterwards."""

from __future__ import annotations

import os

import pytest
from test_desktop import _alive  # the same check: is any process of that group left?

from minebot.errors import DesktopError
from minebot.games.kmines.launcher import KMINES, KMines
from minebot.games.sgt_mines.launcher import SGT_MINES, SgtMines
from minebot.games.xdemineur.launcher import XDEMINEUR, Xdemineur
from minebot.sandbox.xvfb import Xvfb


def test_bad_boards_are_refused_before_anything_starts():
    with pytest.raises(DesktopError, match="at least 12 columns"):
        Xdemineur(":0", cols=8, rows=8, mines=10)
    with pytest.raises(DesktopError, match="unknown KMines theme"):
        KMines(":0", theme="oxygen")
    with pytest.raises(DesktopError, match="unknown KMines level"):
        KMines(":0", level="expert")
    with pytest.raises(DesktopError, match="up to cells - 9"):
        SgtMines(":0", cols=9, rows=9, mines=73)


def test_sgt_mines_board_is_its_argument():
    assert SgtMines(":0", cols=30, rows=16, mines=99).argv()[1:] == ["30x16n99"]
    assert SgtMines(":0", cols=9, rows=9, mines=10, unique=False).argv()[1:] == ["9x9n10a"]


def test_kminesrc_holds_the_keys_kmines_reads():
    text = KMines(":0", level="medium", theme="classic").kminesrc()
    assert "[General]\nkmines_reset=false" in text
    assert "[KgDifficulty]\nLevel=Medium" in text
    assert "[KgTheme]\nTheme=themes/classic.desktop" in text
    custom = KMines(":0", theme="green", custom=(12, 10, 20)).kminesrc()
    assert "Level=Custom" in custom and "custom width=10\ncustom height=12\ncustom mines=20" in custom


@pytest.mark.parametrize("cols, rows", [(30, 16), (16, 16)])
@pytest.mark.live
@pytest.mark.skipif(not os.access(XDEMINEUR, os.X_OK), reason="needs xdemineur")
def test_xdemineur_window_has_the_size_of_its_board(cols, rows):
    with Xvfb(1280, 1024) as xvfb:
        game = Xdemineur(xvfb, cols=cols, rows=rows, mines=40)
        with game:
            pid = game.proc.pid
            rect = game.window.rect
            # fixed size: 31 + 21 per column, 96 + 21 per row (fixtures/CLONES.md)
            assert (rect.width, rect.height) == (31 + 21 * cols, 96 + 21 * rows)
            assert game.running
        assert not _alive(pid) and game.home is None
        game.stop()   # idempotent


@pytest.mark.live
@pytest.mark.skipif(not os.access(KMINES, os.X_OK), reason="needs kmines")
def test_kmines_runs_privately_at_the_size_asked():
    with Xvfb(1024, 768) as xvfb:
        game = KMines(xvfb, level="easy", theme="classic", window=(640, 480))
        with game:
            pid = game.proc.pid
            home = game.home
            assert (game.window.rect.width, game.window.rect.height) == (640, 480)
            # it read our settings file (it writes its window geometry back into it)
            assert "Theme=themes/classic.desktop" in (home / "config" / "kminesrc").read_text()
            assert game.window.title == "KMines"
        assert not _alive(pid) and not home.exists()


@pytest.mark.live
@pytest.mark.skipif(not os.access(SGT_MINES, os.X_OK), reason="needs sgt-puzzles")
@pytest.mark.parametrize("window, tile", [(None, 20), ((760, 822), 40)])
def test_sgt_mines_tiles_follow_the_window(window, tile):
    """Its own window gives 20 px tiles (mines.c PREFERRED_TILE_SIZE); a window sized for 40 px
    tiles gets them, read from the board it shows (every cell covered, the size its argument
    says, and the status bar's total)."""
    import numpy as np

    from minebot.backends.x11.capture import WindowCapture
    from minebot.vision import Reader
    with Xvfb(1280, 1024) as xvfb:
        # 40 px: the board and 1.5 tiles all round, 19 tiles, plus 62 px of menu and status bar
        game = SgtMines(xvfb, cols=16, rows=16, mines=40, window=window)
        with game:
            pid, home = game.proc.pid, game.home
            assert game.window.title == "Mines" and game.window.wm_class[0] == "sgt-mines"
            with WindowCapture(game.display, game.window) as capture:
                reading = Reader().read(capture.grab(game.refresh().rect))
            assert reading.game == "sgt-mines"
            assert reading.board.shape == (16, 16) and reading.board.mines == 40
            assert int(np.median(reading.cell_rects[..., 2] - reading.cell_rects[..., 0])) == tile
        assert not _alive(pid) and not home.exists()
