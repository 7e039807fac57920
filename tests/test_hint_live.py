"""``minebot hint`` over the real GNOME Mines under Xvfb: the marks appear on the screen on the
cells the solver proves, a click on a marked cell still opens it in the game, the overlay
follows a moved window, and Ctrl-C removes it. Every process started here is ended by PID."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from minebot.backends.x11.capture import CompositeCapture, Screen
from minebot.backends.x11.window import X11
from minebot.hint import LAYERS, advise_board
from minebot.hint.overlay import WINDOW_CLASS
from minebot.sandbox.mines import GnomeMines
from minebot.sandbox.xvfb import Xvfb

HAVE_X = (shutil.which("Xvfb") is not None and shutil.which("xdotool") is not None
          and os.access("/usr/games/gnome-mines", os.X_OK))
pytestmark = [pytest.mark.live, pytest.mark.skipif(not HAVE_X, reason="needs xvfb, xdotool, gnome-mines")]

MINES = 10


def xdo(env, *args: str) -> None:
    subprocess.run(["xdotool", *args], env=env, check=True, timeout=10)


def read_game(display: str, wid: int, reader, game: GnomeMines | None = None):
    """The board as the game drew it (its own pixels: our overlay is not in them).

    GNOME Mines pauses when it loses the focus, which a busy machine's X server now and then
    lets happen around a click: with ``game`` a paused board is resumed as the bot resumes it
    (focus; if still paused, the Pause key, a toggle pressed only while "Paused" shows)."""
    from minebot.board import GameState
    from minebot.vision.reader import NoBoardError
    with X11(display) as x:
        pixels = CompositeCapture(display, x.info(wid))
    try:
        deadline = time.monotonic() + 5
        paused = 0
        while True:
            try:
                return reader.read(pixels.grab())
            except NoBoardError as exc:
                if time.monotonic() > deadline:
                    raise
                if game is not None and exc.state is GameState.PAUSED:
                    paused += 1
                    if paused == 1:
                        game.focus()
                    elif paused == 4:   # still paused 0.3 s after the focus: press once
                        game.key("Pause")
                time.sleep(0.1)
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        pixels.close()


def frame_colour_ok(shot: np.ndarray, rect, origin, colour) -> bool:
    """Are the tile's edge pixels (left, right, top, bottom middles) all ``colour``?"""
    x0, y0, x1, y1 = (int(v) for v in rect)
    ox, oy = origin
    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
    points = [(x0 + 1, my), (x1 - 2, my), (mx, y0 + 1), (mx, y1 - 2)]
    return all((shot[oy + y, ox + x] == np.array(colour, np.uint8)).all() for x, y in points)


def wait_for(predicate, timeout: float, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value is not None:
            return value
        time.sleep(step)
    return predicate()


def overlay_windows(x: X11) -> list[int]:
    found = []
    for child in x.root.query_tree().children:
        try:
            cls = child.get_wm_class()
            mapped = child.get_attributes().map_state != 0
        except Exception:  # noqa: BLE001 - a window that went away while listed is skipped
            continue
        if cls and tuple(cls) == WINDOW_CLASS and mapped:
            found.append(child.id)
    return found


def test_overlay_marks_cells_lets_clicks_through_and_follows_the_window():
    from minebot.vision import Reader

    hint = None
    with Xvfb(1280, 1024) as xv, GnomeMines(xv, level="beginner", window=(600, 500)) as game:
        env = xv.env()
        try:
            reader = Reader(mines=MINES)
            wid = game.window.id
            rect = game.refresh().rect
            park = (rect.left + rect.width - 30, rect.top + rect.height - 15)  # side panel
            # Open a first cell (a zero area in GNOME Mines); retry with a new game until
            # the numbers prove at least one cell safe.
            for _attempt in range(5):
                # GNOME Mines pauses when it loses the focus (a busy machine's window manager
                # can leave it unfocused at start): focus it before each reading.
                game.focus()
                time.sleep(0.2)
                reading = read_game(xv.display, wid, reader, game)
                x0, y0, x1, y1 = reading.cell_rects[4, 4]
                xdo(env, "mousemove", str(rect.left + (x0 + x1) // 2), str(rect.top + (y0 + y1) // 2),
                    "click", "1", "mousemove", str(park[0]), str(park[1]))
                time.sleep(0.3)
                reading = read_game(xv.display, wid, reader, game)
                expected, _ = advise_board(reading.board, mines=MINES)
                if expected.ok and expected.safe:
                    break
                game.focus()
                game.key("ctrl+n")
                time.sleep(0.5)
            assert expected.ok and expected.safe, "no certain cell after 5 openings"

            hint = subprocess.Popen(
                [sys.executable, "-m", "minebot", "hint", "--mines", str(MINES), "--explain", "pointer"],
                env=env,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)

            def marks_shown(origin=(rect.left, rect.top), rects=reading.cell_rects, hints=expected):
                with Screen(xv.display) as screen:
                    shot = screen.grab()
                ok = all(frame_colour_ok(shot, rects[c], origin, LAYERS["safe"]) for c in hints.safe)
                ok &= all(frame_colour_ok(shot, rects[c], origin, LAYERS["mine"]) for c in hints.mines)
                return shot if ok else None

            shot = wait_for(marks_shown, 15)
            assert shot is not None, "the overlay did not show the expected marks"
            # Nothing marked where nothing is certain.
            certain = set(expected.safe) | set(expected.mines) | set(expected.wrong_flags)
            for r in range(reading.board.rows):
                for c in range(reading.board.cols):
                    if (r, c) in certain or (r, c) == expected.guess:
                        continue
                    for colour in (LAYERS["safe"], LAYERS["mine"]):
                        assert not frame_colour_ok(shot, reading.cell_rects[r, c],
                                                   (rect.left, rect.top), colour), (r, c)

            # A click on a marked safe cell goes through the overlay to the game: aimed at
            # the frame itself (inside the tile), where the overlay window is drawn.
            target = expected.safe[0]
            x0, y0, x1, y1 = reading.cell_rects[target]
            assert frame_colour_ok(shot, reading.cell_rects[target], (rect.left, rect.top),
                                   LAYERS["safe"])
            clicked_at = time.monotonic()
            xdo(env, "mousemove", str(rect.left + x0 + 1), str(rect.top + (y0 + y1) // 2),
                "click", "1", "mousemove", str(park[0]), str(park[1]))
            after = wait_for(lambda: (lambda rd: rd if rd.board.revealed[target] else None)(
                read_game(xv.display, wid, reader, game)), 5)
            assert after is not None and after.board.revealed[target], "the click did not open the cell"
            # The overlay catches up with the new board.
            new_hints, _ = advise_board(after.board, mines=MINES)
            if new_hints.ok and (new_hints.safe or new_hints.mines):
                assert wait_for(lambda: marks_shown(rects=after.cell_rects, hints=new_hints), 5) is not None
                print(f"overlay updated {time.monotonic() - clicked_at:.2f} s after the click")

            # Move the window: the marks follow.
            moved = game.move_resize(x=150, y=120)
            game.focus()
            hints_now, _ = advise_board(after.board, mines=MINES)
            if hints_now.ok and (hints_now.safe or hints_now.mines):
                assert wait_for(lambda: marks_shown(origin=(moved.rect.left, moved.rect.top),
                                                    rects=after.cell_rects, hints=hints_now), 5) is not None

            # Resize the window: the board is laid out anew and the marks follow the tiles.
            resized = game.move_resize(window=(700, 580))
            game.focus()
            board_now = read_game(xv.display, wid, reader, game)
            assert board_now.cell_rects[0, 0, 2] - board_now.cell_rects[0, 0, 0] != \
                after.cell_rects[0, 0, 2] - after.cell_rects[0, 0, 0], "the tiles did not change size"
            if hints_now.ok and (hints_now.safe or hints_now.mines):
                assert wait_for(lambda: marks_shown(origin=(resized.rect.left, resized.rect.top),
                                                    rects=board_now.cell_rects, hints=hints_now), 5) is not None
            moved = resized

            # --explain pointer: hovering a certain cell frames the numbers that prove it.
            hints_now, _ = advise_board(board_now.board, mines=MINES)
            certain = [*hints_now.safe, *hints_now.mines]
            explained = [(c, advise_board(board_now.board, mines=MINES, explain=c)[1])
                         for c in certain[:6]]
            explained = [(c, e) for c, e in explained if e is not None and e.numbers]
            if hints_now.ok and explained:
                cell, expl = explained[0]
                origin = (moved.rect.left, moved.rect.top)
                x0, y0, x1, y1 = board_now.cell_rects[cell]
                xdo(env, "mousemove", str(origin[0] + (x0 + x1) // 2), str(origin[1] + (y0 + y1) // 2))

                def proof_shown():
                    with Screen(xv.display) as screen:
                        shot = screen.grab()
                    ok = all(frame_colour_ok(shot, board_now.cell_rects[n], origin, LAYERS["proof"])
                             for n in expl.numbers)
                    return True if ok else None
                assert expl.numbers and wait_for(proof_shown, 5), "no proof frames under the pointer"
                xdo(env, "mousemove", str(moved.rect.right - 30), str(moved.rect.bottom - 15))

            # Ctrl-C: the overlay windows go away and the process ends.
            with X11(xv.display) as x:
                assert overlay_windows(x)
                hint.send_signal(signal.SIGINT)
                assert hint.wait(10) == 130
                assert wait_for(lambda: (not overlay_windows(x)) or None, 3)
            out, err = hint.communicate(timeout=5)
            assert "Traceback" not in err
        finally:
            if hint is not None and hint.poll() is None:
                os.killpg(hint.pid, signal.SIGKILL)
                hint.wait(5)


def test_overlay_stops_when_the_game_closes():
    hint = None
    with Xvfb(1024, 768) as xv:
        game = GnomeMines(xv, level="beginner", window=(600, 500)).start()
        try:
            hint = subprocess.Popen([sys.executable, "-m", "minebot", "hint"], env=xv.env(),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    start_new_session=True)
            with X11(xv.display) as x:
                assert wait_for(lambda: overlay_windows(x) or None, 15), "no overlay appeared"
            game.stop()
            assert hint.wait(10) == 0
            assert "closed" in hint.stderr.read()
        finally:
            game.stop()
            if hint is not None and hint.poll() is None:
                os.killpg(hint.pid, signal.SIGKILL)
                hint.wait(5)
