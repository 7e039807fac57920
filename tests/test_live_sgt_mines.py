"""``minebot play``, with no option naming the game, plays Simon Tatham's Mines under a private
Xvfb (marked live): beginner 9x9/10, intermediate 16x16/40 and expert 30x16/99, each at the
game's own window size and at a larger one (its tiles follow the window).

What must hold: every game ends, and is won (the game deals only boards that logic solves from
the first opening, and minebot's certain moves are complete, so a loss is a misread or a
solver fault); the command names no game, so it found the window and the board as Simon
Tatham's itself; every number read during a game is what the won board proves (every mine
flagged: ``minebot.truth``); every click fell inside the board read from the frame before it.
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

from minebot.board import Board, Cell, GameState
from minebot.games.sgt_mines.launcher import SGT_MINES

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.live, pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs xvfb"),
              pytest.mark.skipif(not os.access(SGT_MINES, os.X_OK), reason="needs sgt-puzzles")]


def recorded_games(folder: Path) -> dict[int, list[tuple[Board, list[int]]]]:
    """The boards read in each game of a ``--record`` folder, with each frame's board_px."""
    games: dict[int, list[tuple[Board, list[int]]]] = {}
    for line in (folder / "steps.jsonl").read_text().splitlines():
        step = json.loads(line)
        if step["type"] != "frame":
            continue
        header = {"mines": step["mines"], "state": step["state"]}
        board = Board.parse(json.dumps(header) + "\n" + "\n".join(step["board"]) + "\n")
        games.setdefault(step["game"], []).append((board, step["board_px"]))
    return games


@pytest.mark.parametrize("cols, rows, mines, window, games", [
    (9, 9, 10, None, 3), (9, 9, 10, (480, 542), 3),
    (16, 16, 40, None, 2), (16, 16, 40, (600, 660), 2),
    (30, 16, 99, None, 1), (30, 16, 99, (1100, 700), 1),
])
def test_play_names_no_game_and_wins_every_board(xvfb, tmp_path, cols, rows, mines, window, games):
    from minebot.games.sgt_mines.launcher import SgtMines
    from minebot.truth import misreads
    record, clicks = tmp_path / "rec", tmp_path / "clicks.jsonl"
    with SgtMines(xvfb, cols=cols, rows=rows, mines=mines, window=window) as game:
        rect = game.refresh().rect
        out = subprocess.run(
            [sys.executable, "-m", "minebot", "play", "--games", str(games), "--json",
             "--log", str(tmp_path / "games.jsonl"), "--record", str(record),
             "--click-log", str(clicks), "--no-learn"],
            env=dict(xvfb.env(), PYTHONPATH=str(ROOT)), capture_output=True, text=True,
            cwd=tmp_path, timeout=120 + 90 * games)
    assert out.returncode == 0, out.stderr[-2000:]
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert (summary["games"], summary["wins"]) == (games, games), out.stdout
    logged = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [(g["cols"], g["rows"], g["mines"]) for g in logged] == [(cols, rows, mines)] * games
    played = recorded_games(record)
    assert len(played) == games
    for seen in played.values():
        boards = [b for b, _ in seen]
        final = boards[-1]
        assert final.state is GameState.WON and final.shape == (rows, cols)
        assert int((final.cells == Cell.FLAG).sum()) == mines
        assert misreads(boards, final) == []
    # every click inside the board read: the window keeps its place and size, so every frame
    # shows the board at one place, found within the pixel a bevel's edge leaves open (a plain
    # board's lattice and a played one's may differ by it); clicks must be inside all of them
    boxes = np.array([px for seen in played.values() for _, px in seen])
    assert (boxes.max(axis=0) - boxes.min(axis=0)).max() <= 1
    left, top = boxes[:, :2].max(axis=0)
    right, bottom = boxes[:, 2:].min(axis=0)
    sent = [json.loads(line) for line in clicks.read_text().splitlines()]
    assert sent
    for click in sent:
        x, y = click["x"] - rect.left, click["y"] - rect.top
        assert left <= x < right and top <= y < bottom, click


def read_window(game):
    """The board the game's window shows now, read by a fresh reader, once the flash of a
    game's end is over (mines.c: three frames of 0.13 s, the middle one in the normal colours,
    so a game may be seen lost, and the bot stop, before the flash ends)."""
    import time

    from minebot.backends.x11.capture import WindowCapture
    from minebot.vision import Reader
    time.sleep(0.6)
    with WindowCapture(game.display, game.window) as capture:
        return Reader().read(capture.grab(game.refresh().rect)).board


def solve_from_the_menu(xvfb, game) -> None:
    """Game > Solve (no key does it): after a death the game shows every mine."""
    import time
    rect = game.refresh().rect
    env = xvfb.env()
    subprocess.run(["xdotool", "mousemove", str(rect.left + 25), str(rect.top + 12), "click", "1"],
                   env=env, check=True)
    time.sleep(0.4)
    subprocess.run(["xdotool", "key", "Up", "Up", "Return", "mousemove", "1270", "1010"],
                   env=env, check=True)
    time.sleep(0.6)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="needs xdotool")
def test_a_loss_is_reported_and_never_undone(xvfb, tmp_path):
    """Boards dealt with "Ensure solubility" off (``9x9n35a``) need guesses and are often lost:
    the loss is reported, the window still shows the death afterwards (no Undo), and the numbers
    read in that game are what the game's Solve then shows (every mine)."""
    from minebot.games.sgt_mines.launcher import SgtMines
    from minebot.truth import misreads
    with SgtMines(xvfb, cols=9, rows=9, mines=35, unique=False) as game:
        for attempt in range(8):
            record = tmp_path / f"rec{attempt}"
            out = subprocess.run(
                [sys.executable, "-m", "minebot", "play", "--games", "1", "--json", "--log", "",
                 "--record", str(record), "--no-learn"],
                env=dict(xvfb.env(), PYTHONPATH=str(ROOT)), capture_output=True, text=True,
                cwd=tmp_path, timeout=120)
            assert out.returncode == 0, out.stderr[-2000:]
            if json.loads(out.stdout.strip().splitlines()[-1])["wins"] == 0:
                break
            subprocess.run(["xdotool", "key", "--window", str(game.window.id), "n"],
                           env=xvfb.env(), check=True)
        else:
            pytest.skip("8 dense boards in a row were won")
        boards = [b for b, _ in recorded_games(record)[0]]
        final = boards[-1]
        assert final.state is GameState.LOST
        assert int((final.cells == Cell.EXPLODED).sum()) == 1
        shown = read_window(game)
        assert shown.rows_text() == final.rows_text()       # still dead: nothing undone
        solve_from_the_menu(xvfb, game)
        solved = read_window(game)
    assert solved.state is GameState.LOST
    assert int(np.isin(solved.cells, (Cell.MINE, Cell.EXPLODED, Cell.FLAG)).sum()) == 35
    assert misreads(boards, solved) == []
