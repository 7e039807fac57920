"""Live play against the real GNOME Mines under a private Xvfb (marked live).

Each test asserts what live play must do: games finish, the result the bot reports
is what the final screen shows (read again, independently, after the game), and no click
fell outside the board read. Safety tests move, cover and close the real window between a
read and the clicks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minebot.board import GameState
from minebot.move import Action, Move

HAVE_X = shutil.which("Xvfb") is not None and os.access("/usr/games/gnome-mines", os.X_OK)
pytestmark = [pytest.mark.live, pytest.mark.skipif(not HAVE_X, reason="needs xvfb and gnome-mines")]


@pytest.fixture(scope="module")
def xvfb():
    from minebot.sandbox.xvfb import Xvfb
    server = Xvfb(1600, 1024).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mines_factory(xvfb):
    from minebot.sandbox.mines import GnomeMines
    started = []

    def make(**kw):
        game = GnomeMines(xvfb, **kw).start()
        started.append(game)
        return game
    try:
        yield make
    finally:
        for game in started:
            game.stop()


@pytest.fixture
def live_factory(mines_factory):
    """``make(theme, window, level, play=None, **LiveGame options) -> (mines, game)``: a GNOME
    Mines window at ``level`` and a LiveGame on it that plays ``play`` (default the same level).
    Every game is closed after the test, before its window is stopped."""
    games = []

    def make(theme="bgcolors", window=(810, 656), level="beginner", play=None, **kw):
        mines = mines_factory(theme=theme, window=window, level=level)
        game = live_game(mines, level=play or level, **kw)
        games.append(game)
        return mines, game
    try:
        yield make
    finally:
        for game in games:
            game.close()


def live_game(mines, **kw):
    """A LiveGame on ``mines``' window; frames it saves go to a temp folder, not the cwd."""
    import tempfile

    from minebot.game.live import LiveGame
    kw.setdefault("frames_dir", tempfile.mkdtemp(prefix="minebot-test-frames-"))
    if mines.display is None:   # a native Wayland game: no window; the backend its desktop offers
        from minebot.backends.backend import open_backend
        return LiveGame(backend=open_backend(env=mines.xvfb.env()), **kw)
    return LiveGame(mines.display, window_id=mines.window.id, **kw)


def final_screen(game):
    """The board as a fresh capture and a fresh reader see it now (independent of the bot)."""
    game.close_dialogs()
    if game.backend.name in ("mutter", "wlroots", "portal"):
        return _final_screen_wayland(game)
    return _read_again(game, _x11_grab(game))


def _x11_grab(game):
    """A grab of the game's window (its own pixels: XWayland's screen reads black), or of the
    screen where no window is known, through a connection of the test's own."""
    if game.window is not None:
        from minebot.backends.x11.capture import WindowCapture
        capture = WindowCapture(game.display, game.window)
    else:
        from minebot.backends.x11.capture import Screen
        capture = Screen(game.display)

    def grab():
        return capture.grab(game.region)
    grab.close = capture.close
    return grab


def _read_again(game, grab, timeout: float = 3.0):
    """Read a fresh grab with a fresh Reader; a frame that does not read is read again after
    closing the game's dialogs as the bot does, until ``timeout``. Why: a "Congratulations!"
    may show late over the board, and GNOME Mines 50 draws it inside its window, dimming the
    board under it (and GNOME Shell fades a window back in when its dialog goes): such a
    frame matches no template."""
    import time

    from minebot.errors import NoGameError
    from minebot.vision import Reader
    from minebot.vision.reader import UnmatchedCellsError
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                return Reader().read(grab()).board
            except (NoGameError, UnmatchedCellsError):
                if time.monotonic() > deadline:
                    raise
                game.close_dialogs()
                time.sleep(0.1)
    finally:
        grab.close()


def _final_screen_wayland(game):
    """Native Wayland: a screen cast (mutter, or a portal session with the bot's approval)
    or screen copy (wlroots) of its own connection, not the bot's."""
    from minebot.backends.mutter.backend import MutterBackend
    from minebot.backends.portal.backend import PortalBackend
    from minebot.backends.wlroots.backend import WlrootsBackend
    own = (WlrootsBackend(game.backend.env) if game.backend.name == "wlroots"
           else PortalBackend(game.backend.bus, game.backend.session.tokens)
           if game.backend.name == "portal" else MutterBackend(game.backend.bus))

    def grab():
        return own.screen().grab(game.region)
    grab.close = own.close
    return _read_again(game, grab)


def a_board_that_went_away_is_never_clicked(game) -> None:
    """No window to ask whether the game is still there: between the read and the click the
    board goes (Ctrl+N: the game is switched back to its level chooser). The ring around the
    board read no longer matches, the bot reads again, finds no board and stops without a
    click."""
    import time

    from minebot.errors import NoGameError
    game.start()
    before = game.frame.copy()
    game.backend.key("ctrl+n")   # a fresh board: straight back to the level chooser
    deadline = time.monotonic() + 5
    while game.ring_same(before, game.reading.board_px) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not game.ring_same(before, game.reading.board_px), "ctrl+n did not reach the game"
    with pytest.raises(NoGameError):
        game.act([Move(Action.OPEN, (4, 4))])
    assert game.pointer.log == []


def hint_has_no_overlay_and_once_works(desktop, tmp_path, why: str) -> None:
    """Native Wayland: `minebot hint` says in one line why there is no overlay (``why``) and
    what works (exit 5); `hint --once --text` and `--once --png` read the game from the
    screen."""
    from minebot.errors import EXIT_UNSUPPORTED
    from minebot.sandbox.mines import GnomeMines
    env = desktop.env()
    with GnomeMines(desktop, level="beginner", window=(810, 656)):
        def run(*args: str):
            return subprocess.run([sys.executable, "-m", "minebot", "hint", *args], env=env,
                                  capture_output=True, text=True, timeout=120, cwd=tmp_path)
        out = run()
        assert out.returncode == EXIT_UNSUPPORTED, out.stderr
        assert why in out.stderr and "--once --png" in out.stderr
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
        text = run("--once", "--text")
        assert text.returncode == 0, text.stderr
        assert text.stdout.count("\n") >= 8
        png = run("--once", "--png", str(tmp_path / "hint.png"))
        assert png.returncode == 0, png.stderr
        assert (tmp_path / "hint.png").stat().st_size > 1000


def stopped_by_fail_safe(game, hand, match: str) -> None:
    """Expert games on ``game`` while ``hand(stop)`` (a thread: a person's mouse) works the
    pointer until the ``stop`` event is set: the run must stop with the fail-safe's
    ``Interrupted`` (``match`` in its message, exit 130) after a click, every click made inside
    the board."""
    import threading

    from minebot.errors import EXIT_INTERRUPTED, Interrupted
    from minebot.loop import play_game
    from minebot.solver import Solver
    stop = threading.Event()
    mover = threading.Thread(target=hand, args=(stop,), daemon=True)
    mover.start()
    try:
        with pytest.raises(Interrupted, match=match) as stopped:
            for _ in range(10):
                game.new_game()
                play_game(game, Solver())
    finally:
        stop.set()
        mover.join(10)
    assert stopped.value.exit_code == EXIT_INTERRUPTED
    assert game.pointer.log, "no click was made before the mouse moved"
    for c in game.pointer.log:
        left, top, right, bottom = c.bounds
        assert left <= c.x < right and top <= c.y < bottom, c


def cli_plays_a_game_it_did_not_start(desktop, tmp_path, backend: str) -> None:
    """`minebot play` in ``desktop``'s environment, with a GNOME Mines it did not start: the
    ``backend`` is picked by itself, one game is played and logged, every click inside the
    board."""
    from minebot.sandbox.mines import GnomeMines
    log = tmp_path / "games.jsonl"
    clicks = tmp_path / "clicks.jsonl"
    with GnomeMines(desktop, level="beginner", window=(810, 656)):
        out = subprocess.run(
            [sys.executable, "-m", "minebot", "play", "--games", "1", "--log", str(log),
             "--click-log", str(clicks)],
            env=desktop.env(), capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert f"{backend} backend" in out.stderr, out.stderr
    one_game_played_inside_the_board(log, clicks)


def one_game_played_inside_the_board(log, clicks) -> None:
    """``minebot play --games 1 --log LOG --click-log CLICKS`` played one game to its end, and
    every click it logged lies inside the bounds (the board as read) logged with it."""
    (record,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["result"] in ("won", "lost")
    made = [json.loads(line) for line in clicks.read_text().splitlines()]
    assert made
    for c in made:
        left, top, right, bottom = c["bounds"]
        assert left <= c["x"] < right and top <= c["y"] < bottom, c


def assert_clicks_inside(game, since: int = 0):
    """Every click since ``since`` lies inside the board as read (screen coordinates)."""
    left, top, right, bottom = game.reading.board_px
    box = (game.region.left + left, game.region.top + top,
           game.region.left + right, game.region.top + bottom)
    clicks = game.pointer.log[since:]
    assert clicks, "no click was made"
    for click in clicks:
        assert box[0] <= click.x < box[2] and box[1] <= click.y < box[3], (click, box)
        b = click.bounds
        assert b[0] <= click.x < b[2] and b[1] <= click.y < b[3], click


def map_cover(display, board):
    """A black override-redirect window (as a menu or a notification is) over part of the
    ``board`` rectangle, mapped on the python-xlib ``display``; returns it."""
    from Xlib import X
    screen = display.screen()
    cover = screen.root.create_window(board.left + 20, board.top + 20, 200, 150, 0,
                                      screen.root_depth, X.InputOutput, X.CopyFromParent,
                                      background_pixel=screen.black_pixel, override_redirect=True)
    cover.map()
    display.sync()
    return cover


def play_and_check(game, solver, games: int, max_stops: int = 2) -> list:
    """Play until ``games`` games finished; check each against the screen and the click log.

    A game the bot stops because a cell cannot be read with confidence (or the read breaks
    the rules) is the required safe behaviour, not a pass: it must stop cleanly (frame saved,
    no click outside the board) and at most ``max_stops`` such games are tolerated.
    """
    from minebot.errors import MinebotError
    from minebot.loop import play_game
    results, stops = [], []
    first = True
    while len(results) < games:
        game.start() if first else game.new_game()
        first = False
        since = len(game.pointer.log)
        try:
            result = play_game(game, solver)
        except MinebotError as exc:
            stops.append(str(exc))
            assert len(stops) <= max_stops, f"the bot stopped {len(stops)} times: {stops}"
            assert "frame saved" in str(exc) or "no mine layout" in str(exc), exc
            if len(game.pointer.log) > since:
                assert_clicks_inside(game, since)
            game.reading = None
            continue
        assert result.final.state in (GameState.WON, GameState.LOST)
        screen = final_screen(game)
        assert screen.state == result.final.state
        assert np.array_equal(screen.cells, result.final.cells)
        # every click minebot counts as sent was logged by the pointer (the loop's own count,
        # ``result.clicks``, is of moves planned: those after a move that ended the game are
        # never sent)
        assert game.clicks <= len(game.pointer.log) - since
        assert game.clicks <= result.clicks
        assert_clicks_inside(game, since)
        results.append(result)
    return results


def test_beginner_bgcolors_smallest_window(live_factory):
    from minebot.solver import Solver
    _, game = live_factory(window=(590, 460))
    results = play_and_check(game, Solver(), 3)
    assert all(r.final.shape == (8, 8) for r in results)


def test_expert_large_window(live_factory):
    from minebot.solver import Solver
    _, game = live_factory(window=(1290, 760), level="expert")
    (result,) = play_and_check(game, Solver(), 1, max_stops=3)
    assert result.final.shape == (16, 30)
    assert result.final.mines == 99


def test_whole_screen_fallback_without_the_window(mines_factory, tmp_path):
    """Window search off: the board is located on the whole screen and played from there."""
    from minebot.game.live import LiveGame
    from minebot.solver import Solver
    mines = mines_factory(theme="bgcolors", window=(810, 656), level="beginner")
    mines.move_resize(211, 137)
    game = LiveGame(mines.display, level="beginner", use_window=False, frames_dir=str(tmp_path))
    try:
        assert game.window is None and game.region == game.screen.rect
        (result,) = play_and_check(game, Solver(), 1)
    finally:
        game.close()
    left, top, right, bottom = game.reading.board_px
    win = mines.refresh().rect
    assert win.left < left and right < win.right and win.top < top and bottom < win.bottom


def test_level_switch_and_default_theme(live_factory):
    """Start at beginner, let the bot switch the window to intermediate through the chooser."""
    from minebot.solver import Solver
    _, game = live_factory(theme="default", play="intermediate")
    (result,) = play_and_check(game, Solver(), 1)
    assert result.final.shape == (16, 16)


def win_a_game(game, tries: int = 10, again: bool = False) -> None:
    """Play games on ``game`` until one is won (the test is skipped when none of ``tries`` is);
    ``again``: ``game`` has been played already, so the first of them is a new game too."""
    from minebot.loop import play_game
    from minebot.solver import Solver
    for attempt in range(tries):
        game.new_game() if attempt or again else game.start()
        if play_game(game, Solver()).final.state is GameState.WON:
            return
    pytest.skip(f"no game won in {tries}")


def test_a_flag_is_taken_off_with_two_right_clicks(live_factory):
    """With question marks on (GNOME Mines' own default, kept in the test's game), a flag comes
    off with two right-clicks (flag -> "?" -> none). GNOME Mines 48 and later (GTK 4) drop a
    press that counts as the second of a double click, so the second click goes a few pixels
    beside the first (``points.REPEAT_STEP``): the cell must show covered again, not "?"."""
    from minebot.board import Cell
    _, game = live_factory()
    board = game.start()
    for cell in ((0, 0), (board.rows - 1, board.cols - 1), (0, board.cols - 1)):
        board = game.act([Move(Action.FLAG, cell)])
        assert board.cells[cell] == Cell.FLAG
        board = game.act([Move(Action.UNFLAG, cell)])
        assert board.cells[cell] == Cell.COVERED, f"{cell} shows {Cell(board.cells[cell])!r}"


def test_another_level_right_after_a_win_gets_past_the_congratulations(live_factory):
    """The demo's order: a game is won with a new best time, so GNOME Mines shows
    "Congratulations!" (a window of its own up to 48, drawn inside the game's window from 50 on,
    with a name entry that takes keys), and at once another LiveGame on the same window asks
    for another level. The dialog must go first: in GNOME Mines 50 the chooser's key went into
    its name entry and no expert board ever came."""
    from minebot.game.ui import all_covered
    mines, game = live_factory(window=(1290, 760))   # room for the expert board
    win_a_game(game)
    other = live_game(mines, level="expert")
    try:
        board = other.start()
        assert board.shape == (16, 30) and all_covered(board)
    finally:
        other.close()


@pytest.mark.parametrize("resize", [None, (900, 700)], ids=["moved", "moved-and-resized"])
def test_window_moved_between_read_and_click(live_factory, resize):
    """The window moves (and grows) after the board was read: read again, click the new place."""
    mines, game = live_factory()
    board = game.start()
    old = game.reading.board_px
    old_region = game.region
    mines.move_resize(73, 41, window=resize)
    after = game.act([Move(Action.OPEN, (4, 4))])
    assert (game.region.left, game.region.top) == (old_region.left + 73, old_region.top + 41)
    if resize is None:
        assert game.reading.board_px == old
    else:
        assert (game.region.width, game.region.height) == resize
        assert game.reading.board_px != old
    assert after.cells[4, 4] <= 8 or after.state is GameState.LOST
    assert_clicks_inside(game)
    assert board.shape == after.shape


def test_paused_game_is_resumed_before_clicking(live_factory):
    mines, game = live_factory()
    game.start()
    board = game.act([Move(Action.OPEN, (4, 4))])
    if board.is_over:
        pytest.skip("the first click ended the game")
    since = len(game.pointer.log)
    mines.focus()
    mines.key("Pause")          # the user pauses: "Paused" covers the board
    import time
    time.sleep(0.3)
    from minebot.vision import Reader
    from minebot.vision.reader import NoBoardError
    with pytest.raises(NoBoardError) as shown:
        Reader().read(game.grab())
    assert shown.value.state is GameState.PAUSED
    again = game.observe()      # the bot resumes the game before reading it
    assert np.array_equal(again.cells, board.cells)
    assert len(game.pointer.log) == since


def test_window_closed_stops_without_clicking(live_factory):
    from minebot.errors import NoGameError
    mines, game = live_factory()
    game.start()
    mines.x11._window(mines.window.id).unmap()
    mines.x11.d.sync()
    with pytest.raises(NoGameError, match="closed"):
        game.act([Move(Action.OPEN, (4, 4))])
    assert game.pointer.log == []


def test_covered_board_is_raised_and_read_again_before_clicking(live_factory, xvfb):
    """Another window over the board: the bot raises the game, reads again, then clicks."""
    from Xlib import display as xdisplay
    _, game = live_factory(theme="classic")
    other = xdisplay.Display(xvfb.display)
    try:
        game.start()
        frames_before = game.frame
        map_cover(other, game.on_screen().rect)
        after = game.act([Move(Action.OPEN, (4, 4))])
        assert game.x11.stacked_above(game.window.id) == []
        assert game.frame is not frames_before
        assert after.cells[4, 4] <= 8 or after.state is GameState.LOST
        assert_clicks_inside(game)
    finally:
        other.close()


def test_inconsistent_read_stops_and_saves_the_frame(live_factory, tmp_path):
    """A reader that reports an impossible number: the bot re-reads, then stops, clicks nothing."""
    from minebot.cli.play import Session, play_session
    from minebot.errors import InconsistentBoardError, StoppedGameError
    from minebot.solver import Solver
    from minebot.vision import Reader

    class ImpossibleReader(Reader):
        """Reads truly, then turns an open cell whose neighbours are all open into an 8."""

        def read(self, frame):
            reading = super().read(frame)
            board = reading.board
            from minebot.board import neighbour_count
            inside = board.revealed & (neighbour_count(board.revealed) == neighbour_count(
                np.ones(board.shape, bool)))
            if inside.any():
                cells = board.cells.copy()
                cells[tuple(np.argwhere(inside)[0])] = 8
                reading.board = board.replace(cells=cells)
            return reading

    _, game = live_factory(reader=ImpossibleReader(), frames_dir=tmp_path)
    with pytest.raises(StoppedGameError, match="saved to") as stopped:
        play_session(game, Solver(), 1, Session(tmp_path / "games.jsonl"), "beginner")
    assert isinstance(stopped.value.cause, InconsistentBoardError)
    assert stopped.value.exit_code == InconsistentBoardError.exit_code
    # Only the first click (on a fresh board) was made; nothing after the impossible read.
    assert len(game.pointer.log) == 1
    assert list(tmp_path.glob("minebot-inconsistent-*.png"))
    assert not (tmp_path / "games.jsonl").exists()


def test_record_then_replay_matches(mines_factory, tmp_path):
    from minebot.errors import MinebotError
    from minebot.game.replay import Recording, ReplayGame, load_recording, split_games
    from minebot.loop import play_game
    from minebot.solver import Solver
    from minebot.vision import Reader
    mines = mines_factory(theme="bgcolors", window=(590, 460), level="beginner")
    for attempt in range(3):   # a game stopped on an unreadable cell is not a recording to test
        folder = tmp_path / f"rec{attempt}"
        rec = Recording(folder)
        game = live_game(mines, level="beginner", recorder=rec)
        try:
            game.start() if attempt == 0 else game.new_game()
            live = play_game(game, Solver())
            break
        except MinebotError:
            continue
        finally:
            game.close()
            rec.close()
    else:
        pytest.fail("no game finished in 3 tries")
    steps = load_recording(folder)
    assert len(steps) >= 2 and steps[-1].board.state == live.final.state
    recorded = split_games(steps)[-1]
    replay = ReplayGame(recorded, Reader())
    again = play_game(replay, Solver())
    assert replay.differences == []
    assert again.final.state == live.final.state
    assert again.clicks == live.clicks


def test_cli_play_json_and_log(mines_factory, xvfb, tmp_path):
    mines_factory(theme="bgcolors", window=(810, 656), level="beginner")
    log = tmp_path / "games.jsonl"
    clicks = tmp_path / "clicks.jsonl"
    out = subprocess.run(
        [sys.executable, "-m", "minebot", "play", "--games", "2", "--json", "--log", str(log),
         "--keep-going",
         "--click-log", str(clicks), "--screenshots", str(tmp_path / "shots")],
        env=dict(xvfb.env(), PYTHONPATH=str(Path(__file__).resolve().parents[1])),
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    summary = json.loads(lines[-1])
    assert set(summary) == {"games", "wins", "win_rate", "median_seconds", "clicks", "guesses"}
    assert summary["games"] == 2
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    games = [g for g in logged if g["result"] != "stopped"]
    assert len(games) == 2 and sum(g["result"] == "won" for g in games) == summary["wins"]
    assert len(logged) - len(games) <= 2
    assert sum(g["clicks"] for g in games) == summary["clicks"]
    assert len(clicks.read_text().splitlines()) >= summary["clicks"]
    for line in clicks.read_text().splitlines():
        c = json.loads(line)
        assert c["bounds"][0] <= c["x"] < c["bounds"][2] and c["bounds"][1] <= c["y"] < c["bounds"][3]
    assert len(list((tmp_path / "shots").glob("game-*.png"))) == 2


def _start_cli_play(xvfb, tmp_path, games: int = 50):
    log = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "minebot", "play", "--games", str(games), "--log", str(log),
         "--keep-going"],
        env=dict(xvfb.env(), PYTHONPATH=str(Path(__file__).resolve().parents[1])),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    return proc, log


def _wait_for_games(log: Path, proc, count: int = 1, timeout: float = 40.0) -> None:
    import time
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and sum('"result": "stopped"' not in line
                                for line in log.read_text().splitlines()) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"no finished game logged in {timeout} s; stderr: "
                         f"{proc.stderr.read() if proc.poll() is not None else ''}")


def _buttons_up(display: str) -> bool:
    from Xlib import X
    from Xlib import display as xdisplay
    d = xdisplay.Display(display)
    try:
        mask = d.screen().root.query_pointer().mask
    finally:
        d.close()
    return not mask & (X.Button1Mask | X.Button2Mask | X.Button3Mask)


def test_ctrl_c_stops_at_once_and_keeps_finished_games(mines_factory, xvfb, tmp_path):
    import signal
    import time
    mines_factory(theme="bgcolors", window=(810, 656), level="beginner")
    proc, log = _start_cli_play(xvfb, tmp_path)
    try:
        _wait_for_games(log, proc)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert took < 2.0
    assert "interrupted" in err and "Traceback" not in err
    finished = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(g["result"] in ("won", "lost") for g in finished)
    assert _buttons_up(xvfb.display)


def test_a_game_that_gets_no_click_stops_the_bot(mines_factory, xvfb, tmp_path):
    """Where a dropped click is planned again (``drops_clicks``: mutter's virtual pointer,
    KMines), a game that gets none of them must not be clicked until the turn limit: another
    X client holds the pointer grab, so every click goes to it and the board never changes.
    The bot stops after UNANSWERED_TURNS unanswered turns, the frame saved, a few seconds in."""
    import time

    from Xlib import X
    from Xlib import display as xdisplay

    from minebot.errors import UnresponsiveGameError
    from minebot.game.live import UNANSWERED_TURNS
    from minebot.loop import play_game
    from minebot.solver import Solver
    mines = mines_factory(theme="bgcolors", window=(810, 656), level="beginner")
    game = live_game(mines, level="beginner", frames_dir=str(tmp_path))
    game.drops_clicks = True   # as on mutter: an unchanged clicked cell is planned again
    grabber = xdisplay.Display(xvfb.display)
    try:
        game.start()
        status = grabber.screen().root.grab_pointer(
            False, X.ButtonPressMask | X.ButtonReleaseMask, X.GrabModeAsync, X.GrabModeAsync,
            X.NONE, X.NONE, X.CurrentTime)
        assert status == X.GrabSuccess
        grabber.sync()
        started = time.monotonic()
        with pytest.raises(UnresponsiveGameError, match="did not react") as stopped:
            play_game(game, Solver())
        assert time.monotonic() - started < 20 * UNANSWERED_TURNS
        assert game.unanswered == UNANSWERED_TURNS
        assert stopped.value.frame is not None and stopped.value.frame.exists()
        assert stopped.value.exit_code == 4
    finally:
        grabber.ungrab_pointer(X.CurrentTime)
        grabber.close()
        game.close()


def test_failsafe_corner_stops_the_bot(mines_factory, xvfb, tmp_path):
    import time

    from Xlib import X
    from Xlib import display as xdisplay
    from Xlib.ext.xtest import fake_input
    mines_factory(theme="bgcolors", window=(810, 656), level="beginner")
    proc, log = _start_cli_play(xvfb, tmp_path)
    d = xdisplay.Display(xvfb.display)
    try:
        _wait_for_games(log, proc)
        deadline = time.monotonic() + 10
        while proc.poll() is None and time.monotonic() < deadline:
            fake_input(d, X.MotionNotify, x=0, y=0)   # the user throws the mouse into a corner
            d.sync()
            time.sleep(0.005)
        out, err = proc.communicate(timeout=10)
    finally:
        d.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "fail-safe" in err and "Traceback" not in err
    assert _buttons_up(xvfb.display)
