"""Live play under headless sway, the real GNOME Mines a native Wayland client (marked live).

No X server and no screen cast: the bot sees the game only through wlr-screencopy and plays
it only through its own virtual pointer and keyboard (``minebot.backends.wlroots``). The final
screen is read through a Wayland connection of the test's own; every click must lie inside
the board read.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from test_live import (
    a_board_that_went_away_is_never_clicked,
    assert_clicks_inside,
    cli_plays_a_game_it_did_not_start,
    hint_has_no_overlay_and_once_works,
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



def test_hint_says_there_is_no_overlay_yet_and_once_works(desktop, tmp_path):
    """No overlay on sway yet: `minebot hint` says so in one line (exit 5) and names what works;
    `hint --once --text` and `--once --png` read the game from the screen copies."""
    hint_has_no_overlay_and_once_works(desktop, tmp_path, "no overlay on sway")

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
