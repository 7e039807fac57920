"""Each game's own interface (``minebot.game.ui_*``): which window is whose, what a fresh board
is, where xdemineur's smiley is; on the real games (marked live): the smiley click starts a new
game, and a running game is recognised by its window."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.board import Board
from minebot.errors import BadInputError
from minebot.games.gnome_mines.ui import GnomeMinesUI
from minebot.games.interfaces import detect, ui_for
from minebot.games.kmines.ui import KMinesUI
from minebot.games.xdemineur.ui import XdemineurUI, find_smiley

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "xdemineur"


def test_every_game_has_its_ui_with_the_rules_of_its_profile():
    assert isinstance(ui_for("gnome-mines"), GnomeMinesUI)
    xd, km = ui_for("xdemineur"), ui_for("kmines")
    assert isinstance(xd, XdemineurUI) and isinstance(km, KMinesUI)
    assert (xd.rules, xd.flags_to_win) == ("preopened", True)
    assert (km.rules, km.flags_to_win) == ("zero", False)
    assert km.standard_mines((16, 16)) == 40 and km.standard_mines((9, 9)) == 10
    with pytest.raises(BadInputError, match="unknown game"):
        ui_for("winmine")


def test_window_matches():
    xd, km, gm = ui_for("xdemineur"), ui_for("kmines"), ui_for("gnome-mines")
    # as python-xlib hands them over (xdemineur's Latin-1 "é" does not decode as UTF-8)
    xd_class = ("/usr/games/xdemineur", "XD\ufffdmineur")
    assert xd.window.matches("xd\xe9mineur", xd_class)
    assert not km.window.matches("xd\xe9mineur", xd_class) and not gm.window.matches("xd\xe9mineur", xd_class)
    assert km.window.matches("KMines", ("kmines", "kmines"))
    assert gm.window.matches("Mines", ("gnome-mines", "Gnome-mines"))
    assert not gm.window.matches("Reset? \u2014 KMines", ("kmines", "kmines"))


def test_a_fresh_xdemineur_board_is_opened_by_the_game_and_unmarked():
    ui = XdemineurUI()
    fresh = Board.parse("0001-\n0012-\n0001-\n")
    assert ui.is_fresh(fresh)
    assert not ui.is_fresh(Board.parse("-----\n-----\n-----\n"))      # the game opens an area
    assert not ui.is_fresh(Board.parse("0001F\n0012-\n0001-\n"))      # a flag: played on
    assert not ui.is_fresh(fresh, before=fresh)                       # the old board still shows
    assert ui.is_fresh(fresh, before=Board.parse("-1000\n-2100\n-1000\n"))


@pytest.mark.parametrize("stem", ["xdemineur-30x16-100-mid", "xdemineur-12x10-15-lost",
                                  "xdemineur-12x8-4-won", "xdemineur-12x10-15-fresh"])
def test_the_smiley_is_found_above_the_board_in_every_mood(stem):
    """Truth (fixtures/CLONES.md): the smiley is centred on the window's width at y ~40, in the
    panel above the board."""
    image = cv2.imread(str(FIXTURES / f"{stem}.png"))
    meta = json.loads((FIXTURES / f"{stem}.json").read_text())
    board = meta["board_rect_in_image"]
    box = find_smiley(image, tuple(board))
    assert box is not None
    x0, y0, x1, y1 = box
    assert abs((x0 + x1) / 2 - image.shape[1] / 2) <= 2 and abs((y0 + y1) / 2 - 40) <= 3
    assert y1 <= board[1] and 20 <= x1 - x0 <= 40


@pytest.mark.parametrize("scale", [1, 2])
def test_the_smiley_tells_how_the_game_stands(scale):
    """Truth: each fixture's state (a lost game is proven by its shown mines, the won one by its
    flags; fixtures/CLONES.md). Also at twice the size: the mood is read from shapes."""
    from minebot.board import GameState
    ui = XdemineurUI()
    seen = set()
    for png in sorted(FIXTURES.glob("*.png")):
        meta = json.loads(png.with_suffix(".json").read_text())
        image = cv2.imread(str(png))
        board = tuple(v * scale for v in meta["board_rect_in_image"])
        if scale != 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
        want = GameState(meta["state"])
        assert ui.shown_state(image, board) == (None if want is GameState.PLAYING else want), png.name
        seen.add(want)
    assert seen == {GameState.PLAYING, GameState.WON, GameState.LOST}


def test_no_smiley_is_found_where_there_is_none():
    image = np.full((300, 300, 3), 0xB3, np.uint8)
    assert find_smiley(image, (16, 81, 268, 291)) is None


# -- on the real games -------------------------------------------------------------------------

def _skip_without(path: str) -> None:
    if not os.access(path, os.X_OK):
        pytest.skip(f"needs {path}")


@pytest.mark.live
def test_the_smiley_click_starts_a_new_xdemineur_game():
    """The box find_smiley gives, clicked at its centre through the guarded pointer, starts a new
    game: the game's own opening differs, and the clock restarts."""
    from minebot.backends.x11.capture import Screen
    from minebot.backends.x11.pointer import Pointer
    from minebot.games.xdemineur.launcher import XDEMINEUR, Xdemineur
    from minebot.sandbox.xvfb import Xvfb
    _skip_without(XDEMINEUR)
    with Xvfb(1024, 768) as xvfb, Xdemineur(xvfb, cols=16, rows=16, mines=40) as game, \
            Screen(xvfb.display) as screen:
        rect = game.window.rect
        board = (16, 81, 16 + 21 * 16, 81 + 21 * 16)   # fixtures/CLONES.md geometry
        time.sleep(2.2)   # let the clock count
        before = screen.grab(rect)
        box = find_smiley(before, board)
        assert box is not None
        x0, y0, x1, y1 = box
        pointer = Pointer(xvfb.display)
        try:
            pointer.click(rect.left + (x0 + x1 - 1) / 2, rect.top + (y0 + y1 - 1) / 2, "left",
                          (rect.left + x0, rect.top + y0, rect.left + x1, rect.top + y1))
            pointer.move(rect.left + 2, rect.top + 2, (rect.left, rect.top, rect.right, rect.bottom))
        finally:
            pointer.close()
        time.sleep(0.5)
        after = screen.grab(rect)
        bl, t, br, b = board
        assert not np.array_equal(after[t:b, bl:br], before[t:b, bl:br])   # another opening
        # the timer (right of the smiley) shows fewer seconds: its red segments changed
        assert not np.array_equal(after[20:60, x1 + 10:], before[20:60, x1 + 10:])


@pytest.mark.live
def test_a_running_game_is_recognised_by_its_window():
    from minebot.backends.x11.window import X11
    from minebot.games.kmines.launcher import KMINES, KMines
    from minebot.games.xdemineur.launcher import XDEMINEUR, Xdemineur
    from minebot.sandbox.xvfb import Xvfb
    _skip_without(XDEMINEUR)
    _skip_without(KMINES)
    with Xvfb(1024, 768) as xvfb, X11(xvfb.display) as x11:
        assert detect(x11) is None
        with Xdemineur(xvfb, cols=12, rows=8, mines=10) as xd:
            assert isinstance(detect(x11), XdemineurUI)
            assert isinstance(detect(x11, xd.window.id), XdemineurUI)
        with KMines(xvfb, level="easy") as km:
            assert isinstance(detect(x11), KMinesUI)
            assert isinstance(detect(x11, km.window.id), KMinesUI)


@pytest.mark.live
def test_kmines_new_game_by_its_own_shortcut_through_a_live_game():
    """A LiveGame on KMines (found by its window, no board read needed) asks for a new game
    the KMines way: the opened board turns back into the fresh one."""
    from minebot.backends.x11.capture import Screen
    from minebot.backends.x11.pointer import Pointer
    from minebot.game.live import LiveGame
    from minebot.games.kmines.launcher import KMINES, KMines
    from minebot.sandbox.xvfb import Xvfb
    _skip_without(KMINES)
    with Xvfb(1024, 768) as xvfb, KMines(xvfb, level="easy", window=(640, 480)) as km, \
            Screen(xvfb.display) as screen:
        rect = km.window.rect
        # the game view (everything between the 56 px of menu and tool bar and the status bar)
        view = (0, 60, rect.width, rect.height - 40)
        time.sleep(0.5)
        fresh = screen.grab(rect)
        pointer = Pointer(xvfb.display)
        try:   # the first click (centre of the centred board) opens an area
            pointer.click(rect.left + rect.width // 2, rect.top + 56 + (rect.height - 87) // 2,
                          "left", (rect.left, rect.top, rect.right, rect.bottom))
            pointer.move(rect.left + 3, rect.top + 70, (rect.left, rect.top, rect.right, rect.bottom))
        finally:
            pointer.close()
        time.sleep(0.5)
        vl, t, vr, b = view
        opened = screen.grab(rect)
        assert not np.array_equal(opened[t:b, vl:vr], fresh[t:b, vl:vr])
        live = LiveGame(xvfb.display, ui=KMinesUI(), window_id=km.window.id)
        try:
            assert live.rules == "zero"
            live.ui.request_new_game(live, None)
            time.sleep(0.5)
            again = screen.grab(rect)
        finally:
            live.close()
        assert np.abs(again[t:b, vl:vr].astype(int) - fresh[t:b, vl:vr].astype(int)).mean() < 1.0


def _xdemineur_face_held() -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]] | None:
    """One private xdemineur: (a calm frame, a frame while the left button is held on the board,
    the board box), or None when two presses changed nothing.

    xdemineur redraws its face when it gets to the press: the face itself is waited for (the
    pressed cell may be drawn first) rather than a fixed time, which a busy machine can outlast.
    About one fresh xdemineur in ten (bare Xvfb; once in four under metacity), with its window
    mapped, its face drawn and ButtonPress selected, showed no other face for every press of
    this kind over 14 s (seen in full test runs and in loops of these steps; in one such window
    a press a second later did change the frame), so the caller starts another instead of
    waiting on this one."""
    from Xlib import X
    from Xlib.ext import xtest

    from minebot.backends.x11.capture import Screen
    from minebot.backends.x11.window import X11
    from minebot.games.xdemineur.launcher import Xdemineur
    from minebot.sandbox.xvfb import Xvfb
    with Xvfb(1024, 768) as xvfb, Xdemineur(xvfb, cols=16, rows=16, mines=40) as game, \
            Screen(xvfb.display) as screen, X11(xvfb.display) as x11:
        board = (16, 81, 16 + 21 * 16, 81 + 21 * 16)
        for _attempt in range(2):
            rect = game.refresh().rect
            deadline = time.monotonic() + 5.0
            calm = screen.grab(rect)
            face = find_smiley(calm, board)
            while face is None and time.monotonic() < deadline:
                time.sleep(0.1)
                calm = screen.grab(rect)
                face = find_smiley(calm, board)
            assert face is not None
            x0, y0, x1, y1 = face
            xtest.fake_input(x11.d, X.MotionNotify, x=rect.left + 16 + 10, y=rect.top + 81 + 10)
            xtest.fake_input(x11.d, X.ButtonPress, 1)
            x11.d.sync()
            deadline = time.monotonic() + 3.0
            held = screen.grab(rect)
            while np.array_equal(held[y0:y1, x0:x1], calm[y0:y1, x0:x1]) and time.monotonic() < deadline:
                time.sleep(0.05)
                held = screen.grab(rect)
            xtest.fake_input(x11.d, X.MotionNotify, x=rect.right + 50, y=rect.bottom + 50)
            xtest.fake_input(x11.d, X.ButtonRelease, 1)
            x11.d.sync()
            if not np.array_equal(held[y0:y1, x0:x1], calm[y0:y1, x0:x1]):
                return calm, held, board
            time.sleep(0.3)
    return None


@pytest.mark.live
def test_the_face_shown_while_a_button_is_held_gives_no_verdict():
    """While the left button is held on the board xdemineur shows another face; the bot must not
    take it for a win or a loss. Released off the board, the press opens nothing."""
    from minebot.games.xdemineur.launcher import XDEMINEUR
    _skip_without(XDEMINEUR)
    ui = XdemineurUI()
    for _game in range(4):                 # a fresh xdemineur when one did not react (see above)
        found = _xdemineur_face_held()
        if found is not None:
            break
    assert found is not None, "four fresh xdemineur windows showed no other face while the button was held"
    calm, held, board = found
    box = find_smiley(held, board)
    assert box is not None
    x0, y0, x1, y1 = box
    assert not np.array_equal(held[y0:y1, x0:x1], calm[y0:y1, x0:x1])   # another face
    assert ui.shown_state(held, board) is None and ui.shown_state(calm, board) is None
