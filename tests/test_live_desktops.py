"""Live play under the desktops people use: X window managers and XWayland (marked live).

Each environment is a private desktop (``minebot.sandbox.session``) with the real GNOME Mines;
the bot must finish games whose result the final screen confirms, with every click inside the
board read. The bare Xvfb case is tests/test_live.py. The fault test moves the window while a
batch is being clicked (a fault of docs/architecture.md, "Faults and bad inputs").
"""

from __future__ import annotations

import subprocess
import threading
import time

import pytest
from test_live import live_game, map_cover, play_and_check

from minebot.sandbox.session import available

KINDS = ["openbox", "metacity", "weston", "mutter"]
MOVES = 30
pytestmark = pytest.mark.live


@pytest.fixture(scope="module", params=KINDS)
def desktop(request):
    from minebot.sandbox.session import open_desktop
    if not available(request.param) or not available("xvfb"):
        pytest.skip(f"{request.param} is not installed (bash .ci/setup installs it)")
    with open_desktop(request.param) as desk:
        yield desk


@pytest.fixture
def play(desktop):
    """``play(level, window, theme, font) -> (mines, game)``; both are stopped after the test."""
    from minebot.sandbox.mines import GnomeMines
    made = []

    def make(level: str, window: tuple[int, int], theme: str = "bgcolors", font: str | None = None,
             **kw):
        mines = GnomeMines(desktop, level=level, window=window, theme=theme, font=font).start()
        made.append(mines)
        game = live_game(mines, level=level, **kw)
        made.append(game)
        return mines, game
    try:
        yield make
    finally:
        for thing in reversed(made):
            thing.close() if hasattr(thing, "close") else thing.stop()


def test_backend_is_detected(desktop, play):
    from minebot.solver import Solver
    _, game = play("beginner", (590, 460))
    expected = "xwayland" if desktop.kind in ("weston", "mutter") else "x11"
    assert game.backend.name == expected
    assert game.backend.wm is not None
    # Keys reach the game while the bot plays: the window has the X focus or, where the X
    # focus follows the pointer (weston 14's window manager leaves it PointerRoot and ignores
    # activation requests; weston 10's focused the window), the bot's pointer is over it.
    play_and_check(game, Solver(), 1)
    assert game.x11.has_focus(game.window.id)


def test_beginner_and_expert(play):
    from minebot.solver import Solver
    mines, game = play("beginner", (810, 656))
    results = play_and_check(game, Solver(), 2)
    assert all(r.final.shape == (8, 8) for r in results)
    game.close()
    mines.stop()
    # a stranger's desktop: the theme that reads digits by shape, in Debian's default font
    _, game = play("expert", (1290, 760), theme="default", font="DejaVu Sans Mono")
    (result,) = play_and_check(game, Solver(), 1, max_stops=3)
    assert result.final.shape == (16, 30)


def test_window_moved_during_batches_never_clicks_off_the_board(desktop, play, tmp_path):
    """A storm of window moves while the bot clicks batches.

    A mover moves the window (``xdotool windowmove``, through the WM) every ~0.15 s, MOVES times
    (more, up to 4x, until 5 clicks fell among them) while the bot plays; it records when each
    move has taken effect. Every click is logged with the window geometry
    checked just before it: each must lie inside the board at that geometry, and no click may
    come after a move took effect while carrying the geometry from before it.
    """
    if desktop.kind == "weston":
        pytest.skip("weston's X window manager does not honour client move requests")
    from minebot.backends.x11.window import X11
    from minebot.errors import MinebotError
    from minebot.loop import play_game
    from minebot.solver import Solver
    mines, game = play("expert", (1290, 760), click_log=str(tmp_path / "clicks.jsonl"))
    game.start()
    moves: list[tuple[float, tuple[int, int]]] = []   # (time the move showed, window origin)
    stop = threading.Event()
    failures: list[bytes] = []

    def mover() -> None:
        with X11(desktop.display) as x:
            wid = mines.window.id
            spots = [(60, 40), (200, 90), (120, 150), (20, 20)]
            i = 0
            while not stop.is_set() and not game.pointer.log:
                time.sleep(0.01)   # the storm starts once the bot clicks
            while not stop.is_set() and (len(moves) < MOVES or len(moves) < 4 * MOVES and sum(
                    c.t >= moves[0][0] for c in game.pointer.log) < 5):
                target = spots[i % len(spots)]
                i += 1
                before = x.rect(wid)
                out = subprocess.run(["xdotool", "windowmove", str(wid), str(target[0]),
                                      str(target[1])], env=desktop.env(), capture_output=True)
                if out.returncode:
                    failures.append(out.stderr[-200:])
                now, deadline = x.rect(wid), time.monotonic() + 0.5
                while now == before and time.monotonic() < deadline:
                    time.sleep(0.0005)
                    now = x.rect(wid)
                if now is not None and now != before:
                    moves.append((time.time(), (now.left, now.top)))
                time.sleep(0.15)

    thread = threading.Thread(target=mover, daemon=True)
    games = 0
    thread.start()
    try:
        deadline = time.monotonic() + 40
        while (thread.is_alive() or games < 1) and time.monotonic() < deadline:
            try:
                play_game(game, Solver())
                games += 1
            except MinebotError:
                game.reading = None   # a stop is allowed; a stray click is not
            game.new_game()
    finally:
        stop.set()
        thread.join(5)
    assert len(moves) >= MOVES, f"only {len(moves)} moves took effect; xdotool: {failures[:2]}"
    clicks = [c for c in game.pointer.log if c.window is not None]
    assert clicks, "no click was made while the window moved"
    during = [c for c in clicks if moves[0][0] <= c.t <= moves[-1][0]]
    assert during, "no click fell inside the storm of moves"
    for click in clicks:
        left, top, right, bottom = click.window
        assert left <= click.x < right and top <= click.y < bottom, click
        b = click.bounds
        assert b[0] <= click.x < b[2] and b[1] <= click.y < b[3], click
    # No click after a move showed may carry the window position from before that move: it
    # must be that move's position, or the next one's (moved again, not yet seen by the mover).
    # Also: the board where the window really was (by the mover's record) must hold the click.
    times = [t for t, _ in moves]
    stale, outside = [], []
    for click in during:
        k = max(i for i, t in enumerate(times) if t <= click.t)
        allowed = {moves[k][1]} | ({moves[k + 1][1]} if k + 1 < len(moves) else set())
        if (click.window[0], click.window[1]) not in allowed and click.t - times[k] > 0.002:
            stale.append((click, moves[k]))
        left, top, right, bottom = click.bounds   # the board, at the logged window origin
        if not any(left + dx <= click.x < right + dx and top + dy <= click.y < bottom + dy
                   for dx, dy in ((ox - click.window[0], oy - click.window[1])
                                  for ox, oy in allowed)):
            outside.append(click)
    assert not stale, f"{len(stale)} click(s) used a window position older than a move: {stale[:3]}"
    assert not outside, f"{len(outside)} click(s) outside the board where the window was"
    print(f"\n{desktop.kind}: {len(moves)} moves, {len(clicks)} clicks ({len(during)} during the "
          f"moves), {games} game(s) finished, 0 outside the board")


def test_covered_board_is_raised_or_never_clicked(desktop, play):
    """An override-redirect window (a menu, a notification) over the board: the bot raises the
    game and reads again before clicking, or, where it cannot raise it, stops without a click."""
    from minebot.backends.x11.window import open_display
    from minebot.errors import NoGameError
    from minebot.move import Action, Move
    _, game = play("beginner", (810, 656))
    other = open_display(desktop.display)
    try:
        game.start()
        b = game.on_screen().rect
        cover = map_cover(other, b)
        time.sleep(0.2)
        assert cover.id in game.x11.stacked_above(game.window.id)
        try:
            after = game.act([Move(Action.OPEN, (4, 4))])
        except NoGameError as exc:
            assert "covered" in str(exc)
            assert game.pointer.log == []
            return
        assert cover.id not in game.x11.stacked_above(game.window.id)
        assert after.cells[4, 4] <= 8 or after.is_over
        assert all(b.left <= c.x < b.right and b.top <= c.y < b.bottom for c in game.pointer.log)
    finally:
        other.close()


def test_a_cover_kept_on_top_is_waited_for_never_clicked_through(desktop, play):
    """A window that stays on top of the board (re-raised every 10 ms, as an always-on-top
    window is) for ~1 s: the bot waits, and its first click comes after the window is gone."""
    from Xlib import X

    from minebot.backends.x11.window import open_display
    from minebot.move import Action, Move
    _, game = play("beginner", (810, 656))
    game.start()
    other = open_display(desktop.display)
    gone_at: list[float] = []
    try:
        cover = map_cover(other, game.on_screen().rect)

        def keep_on_top() -> None:
            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                cover.configure(stack_mode=X.Above)
                other.sync()
                time.sleep(0.01)
            cover.unmap()
            other.sync()
            gone_at.append(time.time())
        thread = threading.Thread(target=keep_on_top, daemon=True)
        thread.start()
        time.sleep(0.1)
        after = game.act([Move(Action.OPEN, (4, 4))])
        thread.join(5)
    finally:
        other.close()
    assert gone_at and game.pointer.log, "no click after the cover went"
    assert all(c.t >= gone_at[0] for c in game.pointer.log), (game.pointer.log[0].t, gone_at)
    assert after.cells[4, 4] <= 8 or after.is_over
