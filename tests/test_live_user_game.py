"""Live: a game minebot has no code for, played from a profile file and one calibration (marked
live).

The game is xdemineur under a private Xvfb, treated as unknown exactly as in
``test_calibrate_unknown_game``: a profile file ``my-mines.toml`` in the user's config folder
(its window class, its lattice, its rules, its counter, and ``[play] flags_to_win``: it declares
a win only once every mine is flagged), and a template set taught by ``minebot calibrate`` from
ONE screenshot. Then ``minebot play --game my-mines`` plays the game the window shows to its end
with no stop, every click inside the board. The file gives no new-game key (xdemineur has none:
its smiley starts one), so one game is played, and asking for a second says why not.

The board is 12x10 with 10 mines: one screenshot teaches the numbers it shows (0-4 here), and a
5-8 the set never saw stops a game with its crop saved (never a guess; ``calibrate --base``
adds it). At this density a 5 is rare (about 2 boards in 100); on 16x16/40 the first run met one.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from test_calibrate_unknown_game import PROFILE as UNKNOWN_GAME_PROFILE

from minebot.cli import main
from minebot.games.xdemineur.launcher import XDEMINEUR

pytestmark = [pytest.mark.live,
              pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs xvfb"),
              pytest.mark.skipif(not os.access(XDEMINEUR, os.X_OK), reason="needs xdemineur")]

TEACH = Path(__file__).resolve().parents[1] / "fixtures" / "xdemineur" / "xdemineur-30x16-100-lost"

PROFILE = UNKNOWN_GAME_PROFILE + """
[play]
flags_to_win = true
"""


def test_a_user_game_is_played_live(tmp_path, monkeypatch):
    from minebot.games.xdemineur.launcher import Xdemineur
    from minebot.sandbox.xvfb import Xvfb
    config, sets = tmp_path / "config", tmp_path / "sets"
    (config / "minebot" / "games").mkdir(parents=True)
    (config / "minebot" / "games" / "my-mines.toml").write_text(PROFILE)
    sets.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.delenv("MINEBOT_GAMES", raising=False)
    monkeypatch.setenv("MINEBOT_TEMPLATES", str(sets))
    monkeypatch.chdir(tmp_path)
    assert main(["calibrate", "my-mines", "--game", "my-mines", "--out", str(sets), "--example",
                 str(TEACH.with_suffix(".png")), str(TEACH.with_suffix(".board"))]) == 0
    server = Xvfb(1280, 1024).start()
    try:
        with Xdemineur(server, cols=12, rows=10, mines=10):
            log = tmp_path / "games.jsonl"
            clicks = tmp_path / "clicks.jsonl"
            assert main(["play", "--game", "my-mines", "--display", server.display, "--games", "1",
                         "--log", str(log), "--click-log", str(clicks), "--json"]) == 0
            played = [json.loads(line) for line in log.read_text().splitlines()]
            assert len(played) == 1 and played[0]["result"] in ("won", "lost"), played
            assert clicks.read_text().strip()
            for line in clicks.read_text().splitlines():
                click = json.loads(line)
                left, top, right, bottom = click["bounds"]
                assert left <= click["x"] < right and top <= click["y"] < bottom, click
            # a second game needs a way to start it: the file gives none, and minebot says so
            assert main(["play", "--game", "my-mines", "--display", server.display, "--games", "2",
                         "--log", ""]) == 2
    finally:
        server.stop()
