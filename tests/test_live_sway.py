"""Live play under headless sway, the real GNOME Mines a native Wayland client (marked live).

No X server and no screen cast: the bot sees the game only through wlr-screencopy and plays
it only through its own virtual pointer and keyboard (``minebot.backends.wlroots``). The final
screen is read through a Wayland connection of the test's own; every click must lie inside
the board read.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
from test_live import (
    a_board_that_went_away_is_never_clicked,
    assert_clicks_inside,
    cli_plays_a_game_it_did_not_start,
    play_and_check,
    stopped_by_fail_safe,
)
from test_live_desktops import play  # noqa: F401  (the fixture, on this module's desktop)

from minebot.sandbox.session import available

pytestmark = [pytest.mark.live,
              pytest.mark.skipif(not available("sway"),
                                 reason="needs sway (bash .ci/setup installs it)")]


@pytest.fixture(scope="module")
def desktop():
    from minebot.sandbox.session import open_desktop
    with open_desktop("sway") as desk:
        yield desk


def test_the_wlroots_backend_is_picked_and_sees_no_x(desktop, play):  # noqa: F811 - play is the fixture
    assert desktop.display is None
    _, game = play("beginner", (590, 460))
    assert game.backend.name == "wlroots" and game.backend.wm == "sway"
    assert game.x11 is None and game.window is None
    assert game.region == game.backend.screen_rect   # the whole output: no window to grab
    board = game.start()
    assert board.shape == (8, 8)
    # the game is known by sway's window list, and has the focus (so it gets minebot's keys)
    assert game.window_game == "gnome-mines"
    assert game.guard.listed is not None and game.guard.listed.app_id in ("gnome-mines",
                                                                          "org.gnome.Mines")
    (shown,) = [w for w in game.backend.window_list.windows() if w.id == game.guard.listed.id]
    assert shown.focused


def test_beginner_and_expert(play):  # noqa: F811 - play is the fixture
    from minebot.solver import Solver
    mines, game = play("beginner", (810, 656))
    results = play_and_check(game, Solver(), 2)
    assert all(r.final.shape == (8, 8) for r in results)
    game.close()
    mines.stop()
    _, game = play("expert", (1290, 760), theme="default")
    (result,) = play_and_check(game, Solver(), 1, max_stops=3)
    assert result.final.shape == (16, 30)


def test_a_board_that_went_away_is_never_clicked(play):  # noqa: F811 - play is the fixture
    """Between the read and the click the board goes: never clicked (see the helper)."""
    _, game = play("beginner", (810, 656))
    a_board_that_went_away_is_never_clicked(game)

def test_the_pointer_in_a_corner_stops_the_run(desktop, play):  # noqa: F811 - play is the fixture
    """The fail-safe: a second virtual pointer (a person's mouse, on a connection of its own)
    throws the pointer into the bottom-right corner again and again while the bot plays
    expert games; the run stops with the fail-safe's ``Interrupted`` (exit 130), every click
    made inside the board."""
    from minebot.backends.wlroots.client import Connection
    from minebot.backends.wlroots.devices import VirtualPointer
    from minebot.backends.wlroots.protocol import WL_SEAT
    _, game = play("expert", (1290, 760))
    game.start()

    def hand(stop) -> None:
        with Connection(desktop.env()) as conn:
            mouse = VirtualPointer(conn, conn.bind(WL_SEAT, 1), conn.outputs[0])
            stop.wait(1.5)   # the bot is playing by then
            while not stop.is_set():
                mouse.move(desktop.width - 1, desktop.height - 1)
                conn.roundtrip()
                stop.wait(0.05)
            # out of the corner again: in a corner, the next run would stop at once (as on X11)
            mouse.move(desktop.width // 2, desktop.height // 2)
            conn.roundtrip()
    stopped_by_fail_safe(game, hand, "bottom-right corner")


def test_minebot_play_finds_a_game_it_did_not_start(desktop, tmp_path):
    """`minebot play` in the desktop's environment (WAYLAND_DISPLAY, SWAYSOCK, no DISPLAY)
    picks the wlroots backend by itself, finds the board and plays one game."""
    cli_plays_a_game_it_did_not_start(desktop, tmp_path, "wlroots")


def test_with_no_game_open_minebot_play_says_what_sway_lists(desktop, tmp_path):
    """No game window in sway's window list and no board on the screen: one line naming the
    list it looked in, exit 4, no click."""
    from minebot.errors import EXIT_NO_GAME
    out = subprocess.run([sys.executable, "-m", "minebot", "play", "--games", "1"],
                         env=desktop.env(), capture_output=True, text=True, timeout=120,
                         cwd=tmp_path)
    assert out.returncode == EXIT_NO_GAME, out.stderr
    assert "no GNOME Mines window in sway's window list" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr



def test_hint_draws_its_marks_on_the_overlay_layer_and_clicks_reach_the_game(desktop, tmp_path):
    """`minebot hint` on sway: a layer-shell surface shows the solver's marks on the cells it
    proves (checked on screen copies of a connection of the test's own, at the edge pixels of
    every tile), a person's click on a mark pixel of a safe cell reaches the game and opens
    it, and after Ctrl-C no mark pixel is left on the screen. `--once --text` still works."""
    import signal
    import time

    from test_hint_live import frame_colour_ok, wait_for

    from minebot.backends.frames import FrameSource
    from minebot.backends.pointer import Button
    from minebot.backends.readings import read_once
    from minebot.backends.wlroots.backend import WlrootsBackend
    from minebot.backends.wlroots.devices import VirtualPointer
    from minebot.hint import LAYERS, advise_board
    from minebot.sandbox.mines import GnomeMines
    from minebot.vision import Reader

    env = desktop.env()
    mines_total = 10
    with GnomeMines(desktop, level="beginner", window=(810, 656)), \
            WlrootsBackend(env) as backend:
        frames = FrameSource(backend.screen(), backend.screen_rect)
        reader = Reader(mines=mines_total)
        mouse = VirtualPointer(backend.conn, backend.seat, backend.output)

        def read():
            return read_once(frames, reader.read)[1]

        def click(x: int, y: int) -> None:
            mouse.move(x, y)
            mouse.button(Button.LEFT, True)
            mouse.button(Button.LEFT, False)
            backend.conn.roundtrip()

        def park(reading) -> None:   # off the board (a hovered tile looks different)
            left, top, right, bottom = reading.board_px
            mouse.move(min(right + 40, backend.screen_rect.right - 2), (top + bottom) // 2)
            backend.conn.roundtrip()

        # Open a first cell (GNOME Mines opens a zero area); a new game until a cell is proven.
        for _attempt in range(5):
            reading = read()
            x0, y0, x1, y1 = (int(v) for v in reading.cell_rects[4, 4])
            click((x0 + x1) // 2, (y0 + y1) // 2)
            park(reading)
            time.sleep(0.5)
            reading = read()
            expected, _ = advise_board(reading.board, mines=mines_total)
            if expected.ok and expected.safe:
                break
            backend.key("ctrl+n")
            time.sleep(0.5)
        assert expected.ok and expected.safe, "no certain cell after 5 openings"
        before = frames.grab()
        origin = (0, 0)   # frames are of the whole output, at the layout's origin
        assert backend.screen_rect.left == 0 and backend.screen_rect.top == 0
        marked = set(expected.safe) | set(expected.mines)
        unmarked = [(r, c) for r in range(reading.board.rows) for c in range(reading.board.cols)
                    if (r, c) not in marked and (r, c) != expected.guess]

        left, top, right, bottom = reading.board_px
        caption = (slice(bottom + 2, bottom + 6), slice(left + 2, left + 6))
        assert not (before[caption] == 40).all()

        def marks_shown():
            """The screen, when it shows every proven mark and the caption's dark box under
            the board (the marks and the caption are two commits: both, not one of them)."""
            shot = frames.grab()
            ok = bool((shot[caption] == 40).all())
            ok &= all(frame_colour_ok(shot, reading.cell_rects[c], origin, LAYERS["safe"])
                     for c in expected.safe)
            ok &= all(frame_colour_ok(shot, reading.cell_rects[c], origin, LAYERS["mine"])
                      for c in expected.mines)
            return shot if ok else None

        hint = subprocess.Popen([sys.executable, "-m", "minebot", "hint", "--mines",
                                 str(mines_total)], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            shot = wait_for(marks_shown, 30, 0.1)
            assert shot is not None, "the hint's marks never showed on the proven cells"
            # no mark on a cell the solver did not prove (nor on the guess, absent here)
            for cell in unmarked:
                for colour in (LAYERS["safe"], LAYERS["mine"]):
                    assert not frame_colour_ok(shot, reading.cell_rects[cell], origin, colour), cell
            # how often a screen copy shows the marks (each read hides them for a moment)
            seen = sum(marks_shown() is not None for _ in range(60))
            print(f"marks on {seen} of 60 screen copies")
            assert seen >= 48
            # a click on the mark's own pixel (the left edge of a safe tile) opens that tile
            target = expected.safe[0]
            x0, y0, x1, y1 = (int(v) for v in reading.cell_rects[target])
            assert frame_colour_ok(shot, reading.cell_rects[target], origin, LAYERS["safe"])
            click(x0 + 1, (y0 + y1) // 2)
            park(reading)
            time.sleep(2.0)   # a few of the hint's reads of the changed board
            assert hint.poll() is None, hint.stderr.read() if hint.stderr else ""
        finally:
            hint.send_signal(signal.SIGINT)
            try:
                _, err = hint.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                hint.kill()
                _, err = hint.communicate()
        assert "Traceback" not in err, err
        assert "drawing on the overlay layer" in err, err
        assert hint.returncode == 130, err   # interrupted, as any command on Ctrl-C
        # nothing left: the tiles' edges and the caption area show the game again
        time.sleep(0.3)
        after = frames.grab()
        for cell in marked:
            for colour in (LAYERS["safe"], LAYERS["mine"]):
                assert not frame_colour_ok(after, reading.cell_rects[cell], origin, colour), cell
        assert (after[caption] == before[caption]).all()
        now = read()
        assert not now.board.unknown[target], "the click through the overlay did not open the cell"
        # the hint read the changed board through its own marks (taken off each screen copy):
        # its last summary is the one of the board read now with no overlay on the screen
        summaries = [line for line in err.splitlines() if not line.startswith("minebot hint")]
        assert summaries and summaries[-1] == advise_board(now.board, mines=mines_total)[0].summary(), err
        text = subprocess.run([sys.executable, "-m", "minebot", "hint", "--once", "--text"],
                              env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert text.returncode == 0 and text.stdout.count("\n") >= 8, text.stderr


def test_the_layer_overlay_is_seen_but_not_read_and_closes_cleanly(desktop):
    """``LayerOverlay`` on its own: a green square shown over the screen is in a plain screen
    copy, not in one through ``HiddenLayerCapture`` (and is back after it); ``close()`` twice
    leaves the screen as it was."""
    import time

    import numpy as np

    from minebot.backends.wlroots.backend import WlrootsBackend
    from minebot.backends.wlroots.overlay import HiddenLayerCapture, LayerOverlay
    from minebot.backends.x11.window import Rect
    green = (0, 200, 0)
    with WlrootsBackend(desktop.env()) as backend:
        assert backend.draws_overlay
        screen = backend.screen()
        square = Rect(100, 120, 64, 48)
        before = screen.grab(square)
        assert not (before == green).all(axis=2).any()
        overlay = LayerOverlay(backend.conn, backend.output, {"safe": green})
        try:
            overlay.show({"safe": np.ones((48, 64), bool)}, (100, 120))
            assert (screen.grab(square) == green).all()
            hidden = HiddenLayerCapture(screen, overlay)
            took = []
            for _ in range(10):
                start = time.monotonic()
                shot = hidden.grab(square)
                took.append(time.monotonic() - start)
                assert (shot == before).all()
            print(f"a read with the marks off: median {sorted(took)[5] * 1000:.0f} ms")
            assert (screen.grab(square) == green).all()   # shown again
            overlay.hide()
            assert (screen.grab(square) == before).all()
            overlay.show({"safe": np.ones((48, 64), bool)}, (100, 120))
            assert (screen.grab(square) == green).all()
        finally:
            overlay.close()
            overlay.close()
        assert (screen.grab(square) == before).all()


def kmines_on_wayland() -> bool:
    """KMines and its Qt's Wayland platform plugin (qtwayland5, or qt6-wayland) are installed."""
    import glob
    import os

    from minebot.games.kmines.launcher import KMINES
    return os.access(KMINES, os.X_OK) and bool(
        glob.glob("/usr/lib/*/qt[56]/plugins/platforms/libqwayland-generic.so"))


@pytest.mark.skipif(not kmines_on_wayland(), reason="needs kmines and its Qt's Wayland plugin "
                                                      "(bash .ci/setup installs them)")
def test_kmines_native_is_recognised_by_sways_list_and_played(desktop):
    """KMines Easy as a native Wayland client (Classic theme): minebot knows it is KMines from
    sway's window list alone (so Ctrl+N for a new game, and its High Scores window closed
    through the list), plays two games to the end, every number read is what the finished
    game proves, and every click is inside the board."""
    import tempfile

    from minebot.backends.backend import open_backend
    from minebot.game.live import LiveGame
    from minebot.games.kmines.launcher import KMines
    from minebot.loop import play_game
    from minebot.solver import Solver
    from minebot.truth import misreads
    with KMines(desktop, level="easy", theme="classic"):
        game = LiveGame(backend=open_backend(env=desktop.env()), mines=10,
                        frames_dir=tempfile.mkdtemp(prefix="minebot-test-frames-"))
        try:
            assert game.window_game == "kmines" and game.listed is not None
            for n in range(2):
                game.start() if n == 0 else game.new_game()
                since = len(game.pointer.log)
                seen: list = []
                result = play_game(game, Solver(), on_step=lambda board, moves: seen.append(board))
                assert result.final.state.name in ("WON", "LOST") and result.final.shape == (9, 9)
                assert misreads(seen, result.final) == []
                assert_clicks_inside(game, since)
        finally:
            game.close()


def test_hint_stops_when_the_game_closes(desktop):
    """The overlay on sway ends by itself (exit 0) once the game's window has left sway's
    window list, as on X11 when the window is destroyed."""
    import signal

    from test_hint_live import wait_for

    from minebot.sandbox.mines import GnomeMines

    game = GnomeMines(desktop, level="beginner", window=(810, 656)).start()
    hint = subprocess.Popen([sys.executable, "-m", "minebot", "hint"], env=desktop.env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(hint.stderr), daemon=True)
    reader.start()
    try:
        # the hint read the board once (a summary line): it knows the game's window
        assert wait_for(lambda: any(not line.startswith("minebot hint") for line in lines) or None,
                        30), "".join(lines)
        game.stop()
        assert hint.wait(15) == 0, "".join(lines)
        reader.join(5)
        err = "".join(lines)
        assert "closed" in err and "Traceback" not in err, err
    finally:
        game.stop()
        if hint.poll() is None:
            os.killpg(hint.pid, signal.SIGKILL)
            hint.wait(5)
