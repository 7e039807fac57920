"""Live play under GNOME on Wayland: headless mutter with no XWayland (``gnome-wayland``) and
real GNOME Shell (``gnome-shell-wayland``), the real GNOME Mines a native Wayland client
(marked live).

There is no window list and no X server: the bot sees the game only through mutter's
ScreenCast stream and plays it only through RemoteDesktop (``minebot.backends.mutter``). The
final screen is read from a screen cast of the test's own; every click must lie inside the
board read.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_hint_live import wait_for
from test_live import (
    a_board_that_went_away_is_never_clicked,
    cli_plays_a_game_it_did_not_start,
    hint_has_no_overlay_and_once_works,
    one_game_played_inside_the_board,
    play_and_check,
    stopped_by_fail_safe,
    win_a_game,
)
from test_live_desktops import play  # noqa: F401  (the fixture, on this module's desktop)

from minebot.move import Action
from minebot.sandbox.session import available

pytestmark = [pytest.mark.live,
              pytest.mark.skipif(not available("gnome-wayland"),
                                 reason="needs mutter, pipewire, wireplumber and GStreamer's "
                                        "pipewiresrc (bash .ci/setup installs them)")]

WAYLAND_DESKTOPS = ("gnome-wayland", "gnome-shell-wayland")


@pytest.fixture(scope="module", params=WAYLAND_DESKTOPS)
def desktop(request):
    from minebot.sandbox.session import open_desktop
    if not available(request.param):
        pytest.fail(f"{request.param} is not installed: bash .ci/setup installs it")
    with open_desktop(request.param) as desk:
        yield desk


def test_the_mutter_backend_is_picked_and_sees_no_x(desktop, play):  # noqa: F811 - play is the fixture
    assert desktop.display is None
    _, game = play("beginner", (590, 460))
    assert game.backend.name == "mutter"
    assert game.x11 is None and game.window is None
    assert game.region == game.backend.screen_rect   # the whole monitor: no window to find
    board = game.start()
    assert board.shape == (8, 8)


def test_beginner_and_expert_two_themes(play):  # noqa: F811 - play is the fixture
    from minebot.solver import Solver
    mines, game = play("beginner", (810, 656))
    results = play_and_check(game, Solver(), 2)
    assert all(r.final.shape == (8, 8) for r in results)
    game.close()
    mines.stop()
    _, game = play("expert", (1290, 760), theme="default")
    (result,) = play_and_check(game, Solver(), 1, max_stops=3)
    assert result.final.shape == (16, 30)


def test_a_board_that_went_away_is_never_clicked(desktop, play):  # noqa: F811 - play is the fixture
    """Between the read and the click the board goes: never clicked (see the helper)."""
    _, game = play("beginner", (810, 656))
    a_board_that_went_away_is_never_clicked(game)

def test_moving_the_mouse_stops_the_run(desktop, play):  # noqa: F811 - play is the fixture
    """The fail-safe on Wayland: a second input device (another RemoteDesktop session, as a
    person's mouse) throws the pointer into the bottom-right corner and keeps it there while
    the bot plays expert games; the run stops with the fail-safe's ``Interrupted`` (exit 130),
    every click made inside the board. (Not the top-left corner: GNOME Shell opens its
    overview there, which would leave the next test's game a thumbnail.)"""
    from minebot.backends.mutter.session import MutterSession
    _, game = play("expert", (1290, 760))
    game.start()

    def hand(stop) -> None:
        with MutterSession(desktop.bus, cast=False) as mouse:
            stop.wait(1.5)   # the bot is playing by then
            while not stop.is_set():
                mouse.move_by(4000, 4000)
                mouse.flush()
                stop.wait(0.03)
    stopped_by_fail_safe(game, hand, "fail-safe")


def test_minebot_play_finds_a_game_it_did_not_start(desktop, tmp_path):
    """`minebot play` in the desktop's environment (WAYLAND_DISPLAY, its session bus, no
    DISPLAY) detects mutter, finds the board on the screen cast and plays one game."""
    cli_plays_a_game_it_did_not_start(desktop, tmp_path, "mutter")


def test_another_level_right_after_a_win(desktop, play):  # noqa: F811 - play is the fixture
    """The demo's order on Wayland, where no window list exists: a beginner game is won (GNOME
    Mines 50 may then draw "Congratulations!" inside its window) and the same live game is
    switched to expert. The expert board must come and stay: in GNOME Mines 50 an Escape
    meant for that dialog, sent while the new board was still being laid out, went to the
    game as "back to the chooser" (its Escape shortcut on a board with nothing opened)."""
    from minebot.game.ui import all_covered
    _, game = play("beginner", (1290, 760))   # room for the expert board
    win_a_game(game)
    game.switch_level("expert")
    board = game.start()
    assert board.shape == (16, 30) and all_covered(board)
    assert board.mines == 99   # the expert count, not the beginner's left over
    assert game.observe().shape == (16, 30)   # still the expert board, not the chooser


def test_demo_on_a_private_gnome_wayland(tmp_path):
    """`minebot demo --wayland`: its own headless mutter, the game a native Wayland client;
    the same summary and screenshots as the Xvfb demo."""
    env = {k: v for k, v in __import__("os").environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}
    out_dir = tmp_path / "out"
    out = subprocess.run([sys.executable, "-m", "minebot", "demo", "--wayland", "--beginner", "1",
                          "--expert", "0", "--window", "810x656", "--out", str(out_dir),
                          "--no-learn"], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["desktop"] == "gnome-wayland"
    assert summary["games"] + summary["stopped"] >= 1 and summary["games"] == 1
    assert len(list(out_dir.glob("game-*.png"))) == 1


def test_hint_says_there_is_no_overlay_and_once_works(desktop, tmp_path):
    """GNOME on Wayland lets no client draw over another: `minebot hint` says so (exit 5) and
    names what works; `hint --once --text` and `--once --png` read the game from the cast."""
    hint_has_no_overlay_and_once_works(desktop, tmp_path, "no overlay")


def _gnome_mines_48_or_later() -> bool:
    from minebot.sandbox.mines import installed_version
    version = installed_version()
    return version is not None and version[0] >= 48


class _LastBatch(Exception):
    """The solver's batch that wins the game: its cells, to be clicked by the test."""

    def __init__(self, cells: list[tuple[int, int]]) -> None:
        super().__init__(cells)
        self.cells = cells


def win_with_the_last_clicks_unread(game, tries: int = 10) -> bool:
    """Play games until the solver's batch would open every safe cell left; click that batch
    straight through the backend, as a person's last clicks, and read nothing after it. (The
    play loop reads the board after every batch: where "Congratulations!" comes before that
    read, as GNOME Mines 48.1 draws it under headless mutter, the loop meets it and closes it.)
    True once a game was won so."""
    from minebot.backends.pointer import Button
    from minebot.board import Cell
    from minebot.loop import play_game
    from minebot.solver import Solver

    def stop_before_the_win(board, moves) -> None:
        opens = {m.cell for m in moves if m.action is Action.OPEN and not m.is_guess
                 and board.cells[m.cell] == Cell.COVERED}
        covered = int((board.cells == Cell.COVERED).sum())
        if moves and board.mines is not None and len(opens) == len(moves) \
                and covered - board.mines == len(opens):
            raise _LastBatch(sorted(opens))

    for attempt in range(tries):
        game.new_game() if attempt else game.start()
        try:
            play_game(game, Solver(), on_step=stop_before_the_win)
        except _LastBatch as last:
            aim = game.on_screen()
            game.pointer.click_many([(*aim.cell_point(c), Button.LEFT) for c in last.cells],
                                    aim.bounds, park=aim.park_point())
            return True
    return False


@pytest.mark.skipif(not _gnome_mines_48_or_later(),
                    reason="GNOME Mines 48 and 50 draw Congratulations! over the board (50 inside "
                           "its window, 48 as the scores dialog); 40.1's is a GTK 3 window "
                           "of its own, which the X11 tests cover")
def test_minebot_play_right_after_a_win_with_congratulations_open(desktop, play, tmp_path):  # noqa: F811
    """A user starts `minebot play` right after winning a game: a beginner game is won, GNOME
    Mines draws "Congratulations!" over the board (50: inside its window over the dimmed board,
    with a "New Game" pill; 48: the scores dialog with "Done" in its header; a first win is
    always a top-10 time; the winning clicks are the test's, so no read of the bot closes it),
    the LiveGame that won is dropped with the dialog open, and a fresh `minebot play` (its own
    process, nothing known of the last game) must see the dialog on the screen, close it and
    play a new game, every click inside the board it read."""
    import cv2

    from minebot.games.gnome_mines.ui import GnomeMinesUI
    _, game = play("beginner", (810, 656))
    assert win_with_the_last_clicks_unread(game), "no game won in 10"
    ui = GnomeMinesUI()
    shown = wait_for(lambda: True if ui.shows_hiding_dialog(game.grab()) else None, 5)
    frame = game.grab()
    cv2.imwrite(str(tmp_path / "congratulations.png"), frame)
    game.close()
    assert shown, "no \"Congratulations!\" over the won board"
    log = tmp_path / "games.jsonl"
    clicks = tmp_path / "clicks.jsonl"
    out = subprocess.run(
        [sys.executable, "-m", "minebot", "play", "--games", "1", "--log", str(log),
         "--click-log", str(clicks)],
        env=desktop.env(), capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    one_game_played_inside_the_board(log, clicks)
