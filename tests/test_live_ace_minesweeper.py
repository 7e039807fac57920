"""``minebot play``, with no option naming the game, plays Ace of Penguins' minesweeper under a
private Xvfb (marked live), on two of its boards: 8x8/6 (48 px cells) and 11x11/20 (36 px).

What must hold: every game ends; the command names no game, so it found the window (by its
title: the game sets no WM_CLASS) and the board itself; every number read during a game is
what the finished board proves (a loss shows every mine, a win has every mine flagged:
``minebot.truth``); a won game has exactly its mines flagged (the game needs them to win);
every click fell inside the board read from the frame. What need not hold: a win. The game
places its mines before the first click, so the first click loses as often as a cell is a
mine (6/64 and 20/121) and later guesses can lose too; the test reports the results.
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
from test_live_sgt_mines import recorded_games

from minebot.board import Cell, GameState
from minebot.games.ace_minesweeper.launcher import ACE_MINESWEEPER
from minebot.games.ace_minesweeper.profile import BOARDS

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.live, pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs xvfb"),
              pytest.mark.skipif(not os.access(ACE_MINESWEEPER, os.X_OK), reason="needs ace-of-penguins")]


@pytest.mark.parametrize("key, games", [("1", 5), ("2", 5)])
def test_play_names_no_game_and_every_read_is_proven(xvfb, tmp_path, key, games):
    from minebot.games.ace_minesweeper.launcher import AceMinesweeper
    from minebot.truth import misreads
    size, mines, pitch = BOARDS[key]
    record, clicks = tmp_path / "rec", tmp_path / "clicks.jsonl"
    with AceMinesweeper(xvfb, key=key) as game:
        rect = game.refresh().rect
        out = subprocess.run(
            [sys.executable, "-m", "minebot", "play", "--games", str(games), "--json",
             "--log", str(tmp_path / "games.jsonl"), "--record", str(record),
             "--click-log", str(clicks), "--no-learn"],
            env=dict(xvfb.env(), PYTHONPATH=str(ROOT)), capture_output=True, text=True,
            cwd=tmp_path, timeout=120 + 60 * games)
    assert out.returncode == 0, out.stderr[-2000:]
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["games"] == games, out.stdout
    logged = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [(g["cols"], g["rows"], g["mines"]) for g in logged] == [(size, size, mines)] * games
    played = recorded_games(record)
    assert len(played) == games
    for (_, seen), log in zip(sorted(played.items()), logged):
        boards = [b for b, _ in seen]
        final = boards[-1]
        assert final.shape == (size, size)
        assert final.state is GameState[log["result"].upper()]
        if final.state is GameState.WON:
            assert int((final.cells == Cell.FLAG).sum()) == mines
            assert not (final.cells == Cell.COVERED).any()
        else:
            assert final.state is GameState.LOST
        assert misreads(boards, final) == []
    first_click_losses = sum(1 for g in logged if g["result"] == "lost" and g["clicks"] == 1)
    print(f"ace {size}x{size}/{mines}: {summary['wins']}/{games} won, {first_click_losses} lost "
          "on the first click")
    # every click inside the board read (the window is fixed: one board place for all frames)
    boxes = np.array([px for seen in played.values() for _, px in seen])
    assert (boxes.max(axis=0) - boxes.min(axis=0)).max() == 0
    left, top, right, bottom = boxes[0]
    assert (right - left, bottom - top) == (size * pitch, size * pitch)
    sent = [json.loads(line) for line in clicks.read_text().splitlines()]
    assert sent
    for click in sent:
        x, y = click["x"] - rect.left, click["y"] - rect.top
        assert left <= x < right and top <= y < bottom, click
