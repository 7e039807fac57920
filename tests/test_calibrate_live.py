"""``minebot calibrate --live`` against the real GNOME Mines window under a private Xvfb.

The user's path from nothing: a window on screen, ``calibrate --live`` grabs the screen,
groups the cells' looks and asks for labels, and the new set then reads that window. Here
``--ask-all`` makes it ask for every look, and the "user" answers each prompt with what the
shipped classic set reads at the cell the prompt names.
"""

from __future__ import annotations

import os
import re
import subprocess
import time

import pytest

pytestmark = pytest.mark.live


@pytest.fixture
def mines():
    from minebot.desktop.mines import GnomeMines
    from minebot.desktop.xvfb import Xvfb
    xvfb = Xvfb(1280, 1024).start()
    game = None
    try:
        game = GnomeMines(xvfb, theme="classic", window=(810, 656), level="beginner").start()
        yield xvfb, game
    finally:
        if game is not None:
            game.stop()
        xvfb.stop()


def test_calibrate_live_then_read(mines, tmp_path, monkeypatch):
    from minebot.cli import main
    from minebot.desktop.capture import Screen
    from minebot.vision import Reader
    from minebot.vision.locate import locate

    xvfb, game = mines
    env = xvfb.env(dict(os.environ))
    screen = Screen(xvfb.display)
    rect = game.window.rect
    park = ["xdotool", "mousemove", str(rect.left + 8), str(rect.top + rect.height - 8)]
    subprocess.run(park, env=env, check=True)
    time.sleep(0.4)
    grid = locate(screen.grab(), min_cells=4)
    cx = (grid.x0[4] + grid.x1[4]) // 2
    cy = (grid.y0[4] + grid.y1[4]) // 2
    subprocess.run(["xdotool", "mousemove", str(cx), str(cy), "click", "1"], env=env, check=True)
    subprocess.run(park, env=env, check=True)
    time.sleep(0.5)
    truth = Reader("gnome-mines-classic").read(screen.grab()).board.rows_text()

    monkeypatch.setenv("DISPLAY", xvfb.display)
    asked = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        m = re.search(r"row (\d+) col (\d+)", prompt)
        return truth[int(m.group(1))][int(m.group(2))]

    monkeypatch.setattr("builtins.input", answer)
    assert main(["calibrate", "live-set", "--live", "--ask-all", "--out", str(tmp_path)]) == 0
    assert asked, "calibration asked nothing"
    reading = Reader(str(tmp_path / "live-set")).read(screen.grab())
    assert reading.board.rows_text() == truth
