"""The private launchers of xdemineur and KMines (``minebot.sandbox.clones``) on a real Xvfb
(marked live): the window each one shows, the settings KMines was given, and that exactly the
processes they started are gone afterwards."""

from __future__ import annotations

import os

import pytest
from test_desktop import _alive  # the same check: is any process of that group left?

from minebot.errors import DesktopError
from minebot.sandbox.clones import KMINES, XDEMINEUR, KMines, Xdemineur
from minebot.sandbox.xvfb import Xvfb


def test_bad_boards_are_refused_before_anything_starts():
    with pytest.raises(DesktopError, match="at least 12 columns"):
        Xdemineur(":0", cols=8, rows=8, mines=10)
    with pytest.raises(DesktopError, match="unknown KMines theme"):
        KMines(":0", theme="oxygen")
    with pytest.raises(DesktopError, match="unknown KMines level"):
        KMines(":0", level="expert")


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
