"""The wait for the game's drawing on X11 (``DamageWatch``, behind ``WindowCapture.wait_next``),
on a real Xvfb: it sleeps while nothing is drawn on the window and wakes when something is.

A plain X window stands in for the game; another client draws on it, as the game would.
"""

from __future__ import annotations

import shutil
import threading
import time

import pytest

pytestmark = [pytest.mark.live,
              pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")]


def test_the_wait_sleeps_until_the_window_is_drawn_on(xvfb):
    from minebot.backends.x11.capture import WindowCapture
    from minebot.backends.x11.damage import DamageWatch
    from minebot.backends.x11.window import X11, close_display, open_display

    d = open_display(xvfb.display)
    root = d.screen().root
    win = root.create_window(10, 10, 200, 100, 0, d.screen().root_depth,
                             background_pixel=d.screen().white_pixel)
    win.map()
    d.sync()
    gc = win.create_gc(foreground=d.screen().black_pixel)
    try:
        watch = DamageWatch(xvfb.display, win.id)
        assert watch.available
        watch.wait(0.2)                      # whatever mapping the window drew
        started = time.monotonic()
        watch.wait(0.3)
        assert time.monotonic() - started >= 0.25    # nothing drawn: it slept

        def draw(x: int = 20) -> None:
            time.sleep(0.05)
            win.fill_rectangle(gc, x, 20, 30, 30)
            d.flush()
        threading.Thread(target=draw).start()
        started = time.monotonic()
        watch.wait(2.0)
        woke = time.monotonic() - started
        assert 0.04 <= woke < 1.0, woke           # woken by the drawing, not the timeout
        watch.close()
        watch.close()

        # the capture's wait is this one, capped so a missed report costs little
        with X11(xvfb.display) as x:
            info = x.info(win.id)
        with WindowCapture(xvfb.display, info) as capture:
            capture.wait_next(1.0)
            started = time.monotonic()
            capture.wait_next(1.0)
            assert time.monotonic() - started < 0.1
            before = capture.grab()
            threading.Thread(target=draw, args=(100,)).start()   # new pixels this time
            deadline = time.monotonic() + 2.0
            capture.wait_next(1.0)
            while (capture.grab() == before).all() and time.monotonic() < deadline:
                capture.wait_next(1.0)
            assert not (capture.grab() == before).all()
    finally:
        win.destroy()
        close_display(d)
