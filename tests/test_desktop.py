"""The desktop harness against a real Xvfb and the real GNOME Mines (marked live).

Each test starts its own X server on a free display and its own game, and checks afterwards
that exactly those processes are gone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import numpy as np
import pytest

from minebot.backends.x11.capture import Screen
from minebot.backends.x11.window import X11, Rect
from minebot.errors import DesktopError
from minebot.games import PROFILES
from minebot.games.gnome_mines.profile import custom_mines_roundtrip
from minebot.sandbox.mines import MIN_WINDOW, GnomeMines
from minebot.sandbox.xvfb import Xvfb

GNOME_MINES = PROFILES["gnome-mines"]
HAVE_X = shutil.which("Xvfb") is not None and os.access("/usr/games/gnome-mines", os.X_OK)
live = [pytest.mark.live, pytest.mark.skipif(not HAVE_X, reason="needs xvfb and gnome-mines")]


def _alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
        return True
    except ProcessLookupError:
        return False


def test_no_display_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(DesktopError, match="no X display"):
        X11()


def test_rect_geometry():
    r = Rect(10, 20, 30, 40)
    assert (r.right, r.bottom) == (40, 60)
    assert r.contains(10, 20) and not r.contains(40, 20) and not r.contains(39, 60)
    assert r.intersect(Rect(0, 0, 15, 25)) == Rect(10, 20, 5, 5)
    assert r.intersect(Rect(100, 100, 5, 5)) is None


def test_custom_mines_roundtrip():
    assert custom_mines_roundtrip(12, 20, 48) == 48
    assert custom_mines_roundtrip(9, 12, 20) == 20


@pytest.fixture(scope="module")
def xvfb():
    if not HAVE_X:
        pytest.skip("needs xvfb and gnome-mines")
    server = Xvfb(1280, 1024).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.live
@pytest.mark.skipif(not HAVE_X, reason="needs xvfb")
def test_xvfb_picks_a_free_display_and_stops_by_pid():
    with Xvfb(640, 480) as a, Xvfb(640, 480) as b:
        assert a.display != b.display
        pid = a.proc.pid
        with Screen(a.display) as screen:
            assert screen.rect == Rect(0, 0, 640, 480)
            assert screen.grab().shape == (480, 640, 3)
    assert not _alive(pid)
    assert not os.path.exists(f"/tmp/.X11-unix/X{a.display[1:]}")


@pytest.mark.live
@pytest.mark.skipif(not HAVE_X, reason="needs xvfb and gnome-mines")
def test_private_game_window_focus_capture_and_clean_stop(xvfb):
    game = GnomeMines(xvfb, theme="classic", window=(810, 656), level="beginner")
    with game:
        pid = game.proc.pid
        home = game.home
        assert game.keyfile.read_text().count("theme='classic'") == 1
        win = game.window
        # 40.1's class is gnome-mines, 48's org.gnome.Mines: the game's profile knows both
        assert win.title == "Mines" and GNOME_MINES.window.matches(win.title, win.wm_class)
        assert (win.rect.width, win.rect.height) == (810, 656)
        assert game.x11.focused() == win.id
        with Screen(xvfb.display) as screen:
            frame = screen.grab(win.rect)
        assert frame.shape == (656, 810, 3) and frame.dtype == np.uint8
        # Covered cells in every theme are #babdb6 (BGR b6 bd ba) before the first click.
        covered = np.all(frame == (0xb6, 0xbd, 0xba), axis=2).mean()
        assert covered > 0.3
        # A new window size by X11 configure is honoured (no window manager needed).
        info = game.move_resize(37, 21, window=(900, 700))
        assert info.rect == Rect(37, 21, 900, 700)
    assert not _alive(pid)
    assert not home.exists()
    leftover = subprocess.run(["pgrep", "-f", str(home)], capture_output=True, text=True).stdout
    assert leftover.strip() == ""


@pytest.mark.live
@pytest.mark.skipif(not HAVE_X, reason="needs xvfb and gnome-mines")
def test_pointer_clicks_reach_the_game_and_never_leave_bounds(xvfb):
    from minebot.backends.pointer import UnsafeClickError
    from minebot.backends.x11.pointer import Pointer
    with GnomeMines(xvfb, theme="bgcolors", window=MIN_WINDOW, level="beginner") as game:
        rect = game.window.rect
        bounds = (rect.left, rect.top, rect.right, rect.bottom)
        pointer = Pointer(xvfb.display)
        with Screen(xvfb.display) as screen:
            before = screen.grab(rect)
            with pytest.raises(UnsafeClickError):
                pointer.click(rect.right + 5, rect.top + 5, "left", bounds)
            assert pointer.log == []
            # The middle of the board area (left part of the window) is a cell.
            pointer.click(rect.left + rect.width * 0.35, rect.top + rect.height * 0.55, "left", bounds)
            pointer.move(rect.left + 3, rect.top + 60, bounds)
            # The first click opens a zero area: revealed cells appear (zero colour #dededc).
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                after = screen.grab(rect)
                if np.all(after == (0xdc, 0xde, 0xde), axis=2).sum() > 100:
                    break
                time.sleep(0.01)
        assert len(pointer.log) == 1 and pointer.log[0].button == "left"
        assert np.all(before == (0xdc, 0xde, 0xde), axis=2).sum() == 0
        assert np.all(after == (0xdc, 0xde, 0xde), axis=2).sum() > 100


@pytest.mark.live
def test_connecting_prints_no_xauthority_warning(xvfb, capfd, monkeypatch, tmp_path):
    """Xvfb needs no cookie; python-xlib's warning about the empty Xauthority must not litter
    every run of the bot (it used to print once per connection)."""
    from minebot.backends.x11.window import X11
    empty = tmp_path / "Xauthority"
    empty.write_bytes(b"")
    monkeypatch.setenv("XAUTHORITY", str(empty))
    with X11(xvfb.display) as x:
        assert x.root is not None
    out, err = capfd.readouterr()
    assert "xauthority" not in (out + err).lower()
