"""The real game with other fonts, themes, window sizes and GDK_SCALE=2 (marked live).

GNOME Mines draws its numbers as "Monospace" bold text, so the font the machine resolves that
name to decides the digits' shapes. Each case forces one font for the game alone (a private
FONTCONFIG_FILE), plays whole games and checks every number the bot read during a game
against the finished game's truth: a loss shows every mine and a win flags them all, so the
true number of every revealed cell is known (``logic_problems`` on the final board) and a
revealed cell never changes afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import numpy as np
import pytest
from test_vision_truth import logic_problems

from minebot.board import GameState

HAVE_X = shutil.which("Xvfb") is not None and os.access("/usr/games/gnome-mines", os.X_OK)
pytestmark = [pytest.mark.live, pytest.mark.skipif(not HAVE_X, reason="needs xvfb and gnome-mines")]


def _installed(family: str) -> bool:
    out = subprocess.run(["fc-list", f":family={family}", "family"], capture_output=True, text=True)
    return bool(out.stdout.strip())


# (font, theme, window, level, scale): every font and theme, the smallest and a large window,
# the window the default theme once refused a 4 at, and GDK_SCALE=2
CASES = [
    ("DejaVu Sans Mono", "default", (590, 460), "beginner", 1),
    ("DejaVu Sans Mono", "classic", (1700, 1000), "expert", 1),
    ("DejaVu Sans Mono", "bgcolors", (590, 460), "beginner", 2),
    ("Liberation Mono", "default", (1100, 800), "expert", 1),
    ("Liberation Mono", "bgcolors", (900, 700), "beginner", 1),
    ("Hack", "classic", (590, 460), "beginner", 1),
    ("Hack", "default", (590, 460), "beginner", 2),
    ("JetBrains Mono", "default", (900, 700), "beginner", 1),
    ("JetBrains Mono", "bgcolors", (1100, 800), "expert", 1),
    ("Noto Sans Mono", "default", (900, 700), "intermediate", 1),
]


@pytest.fixture(scope="module")
def big_xvfb():
    from minebot.sandbox.xvfb import Xvfb
    server = Xvfb(1920, 1200).start()
    try:
        yield server
    finally:
        server.stop()


def reads_against_final(boards: list, final) -> list[str]:
    """Problems of the finished game's truth, and every read number that disagrees with it."""
    from minebot.truth import misreads
    return logic_problems(final, final.mines) + [
        f"step {step}: read {read} at {r},{c}, the finished game proves {true}"
        for step, r, c, read, true in misreads(boards, final)]


@pytest.mark.parametrize("font,theme,window,level,scale", CASES,
                         ids=[f"{f.split()[0]}-{t}-{w[0]}x{w[1]}-{lv}-x{s}" for f, t, w, lv, s in CASES])
def test_plays_and_reads_every_number_right(big_xvfb, font, theme, window, level, scale):
    from minebot.game.live import LiveGame
    from minebot.loop import play_game
    from minebot.sandbox.mines import GnomeMines
    from minebot.solver import Solver
    if not _installed(font):
        pytest.skip(f"font {font!r} is not installed (bash .ci/setup installs it)")
    mines = GnomeMines(big_xvfb, theme=theme, window=window, level=level, font=font,
                       scale=scale).start()
    game = LiveGame(mines.display, window_id=mines.window.id, level=level,
                    frames_dir=tempfile.mkdtemp(prefix="minebot-test-frames-"))
    try:
        game.start()
        boards: list = []
        result = play_game(game, Solver(), on_step=lambda board, moves: boards.append(board))
    finally:
        game.close()
        mines.stop()
    assert result.final.state in (GameState.WON, GameState.LOST)
    assert len(boards) >= 1
    assert reads_against_final(boards, result.final) == []


def test_plays_through_doubt_without_acting_on_it(big_xvfb, monkeypatch):
    """Every digit read by shape made doubtful (all close digits kept as candidates): the game
    is still played to its end, each doubt settled by the rules or left as "#", and a loss
    can only come from a guess, never from a "certain" cell that a doubtful digit implied."""
    from minebot.game.live import LiveGame
    from minebot.loop import play_game
    from minebot.sandbox.mines import GnomeMines
    from minebot.solver import Solver
    from minebot.vision import numbers
    monkeypatch.setattr(numbers, "SURE_MARGIN", float("inf"))
    monkeypatch.setattr(numbers, "CANDIDATE_MARGIN", 0.3)
    from minebot.solver import doubts as doubts_module
    seen: list[int] = []
    real_settle = doubts_module.settle

    def counting_settle(board, unsure, mines=None):
        seen.append(len(unsure))
        return real_settle(board, unsure, mines)
    monkeypatch.setattr(doubts_module, "settle", counting_settle)
    mines = GnomeMines(big_xvfb, theme="default", window=(810, 656), level="beginner",
                       font="DejaVu Sans Mono").start()
    game = LiveGame(mines.display, window_id=mines.window.id, level="beginner",
                    frames_dir=tempfile.mkdtemp(prefix="minebot-test-frames-"))
    steps: list = []
    unread = 0
    try:
        for i in range(3):
            game.start() if i == 0 else game.new_game()
            result = play_game(game, Solver(), on_step=lambda b, m: steps.append((b, m)))
            assert result.final.state in (GameState.WON, GameState.LOST)
            unread += sum(int((b.cells == 15).sum()) for b, _ in steps)
            if result.final.state is GameState.LOST:
                exploded = tuple(int(v) for v in np.argwhere(result.final.cells == 13)[0])
                fatal = [m for _, moves in steps for m in moves if m.cell == exploded]
                assert fatal and all(m.p_mine > 0 for m in fatal), fatal
            assert reads_against_final([b for b, _ in steps], result.final) == []
            steps.clear()
    finally:
        game.close()
        mines.stop()
    assert sum(seen) > 0, "no doubtful digit was seen: the test did not test anything"
    print(f"doubtful digits settled: {sum(seen)} over {len(seen)} reads; '#' cells seen: {unread}")
