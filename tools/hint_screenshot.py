"""Make the README's overlay screenshot: a private Xvfb, a private GNOME Mines, one opening
click, ``minebot hint`` on top, one capture of the window and its caption.

    .venv/bin/python tools/hint_screenshot.py fixtures/hint/overlay.png [--level intermediate] [-p]

Everything started here (X server, game, hint process) is stopped by PID before exiting.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

import numpy as np


def make_screenshot(out: str, level: str = "intermediate", window=(810, 656),
                    probabilities: bool = True, clicks: int = 1) -> str:
    import cv2

    from minebot.backends.x11.capture import CompositeCapture, Screen
    from minebot.hint.advise import advise
    from minebot.levels import LEVELS
    from minebot.sandbox.mines import GnomeMines
    from minebot.sandbox.xvfb import Xvfb
    from minebot.solver.doubts import sure_board
    from minebot.vision import Reader

    mines = LEVELS[level].mines
    with Xvfb(1280, 1024) as xv, GnomeMines(xv, level=level, window=window) as game:
        env = xv.env()
        rect = game.refresh().rect
        park = (rect.left + rect.width - 30, rect.top + rect.height - 15)
        reader = Reader(mines=mines)
        pixels = CompositeCapture(xv.display, game.window)
        try:
            reading = reader.read(pixels.grab())
            rows, cols = reading.board.shape
            cell = (rows // 2, cols // 2)
            for _ in range(clicks):
                x0, y0, x1, y1 = reading.cell_rects[cell]
                subprocess.run(["xdotool", "mousemove", str(rect.left + (x0 + x1) // 2),
                                str(rect.top + (y0 + y1) // 2), "click", "1", "mousemove",
                                str(park[0]), str(park[1])], env=env, check=True, timeout=10)
                time.sleep(0.4)
                reading = reader.read(pixels.grab())
                hints, _ = advise(sure_board(reading.board, reading.unsure), mines=mines)
                if not hints.safe:
                    break
                cell = hints.safe[len(hints.safe) // 2]
        finally:
            pixels.close()
        argv = [sys.executable, "-m", "minebot", "hint", "--mines", str(mines)]
        if probabilities:
            argv.append("-p")
        hint = subprocess.Popen(argv, env=env, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(2.0)
            with Screen(xv.display) as screen:
                shot = screen.grab()
        finally:
            if hint.poll() is None:
                hint.send_signal(signal.SIGINT)
                try:
                    hint.wait(5)
                except subprocess.TimeoutExpired:
                    os.killpg(hint.pid, signal.SIGKILL)
                    hint.wait(5)
        # The window plus the caption below it (the caption is about 30-70 px high).
        bottom = min(shot.shape[0], rect.bottom + 80)
        crop = shot[rect.top:bottom, rect.left:rect.right]
        rows_used = np.nonzero((crop != 0).any(axis=(1, 2)))[0]
        crop = crop[: rows_used[-1] + 1]
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        cv2.imwrite(out, crop)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--level", default="intermediate",
                        choices=("beginner", "intermediate", "expert"))
    parser.add_argument("-p", "--probabilities", action="store_true")
    parser.add_argument("--clicks", type=int, default=1,
                        help="safe cells to open after the first (more marks, later game)")
    args = parser.parse_args(argv)
    windows = {"beginner": (600, 500), "intermediate": (810, 656), "expert": (1290, 760)}
    print(make_screenshot(args.out, args.level, windows[args.level], args.probabilities,
                          args.clicks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
