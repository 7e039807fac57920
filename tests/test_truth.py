"""The truth a finished game proves, checked on real finished screenshots (their numbers were
checked by hand and by ``logic_problems``) and on boards changed to be wrong."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from minebot.board import Board, GameState
from minebot.truth import misreads, true_numbers

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
FINISHED = sorted(p for p in FIXTURES.glob("*.board") if "-lost" in p.name or "-won" in p.name)


@pytest.mark.parametrize("path", FINISHED, ids=lambda p: p.stem)
def test_numbers_of_a_finished_game_are_its_truth(path: Path):
    final = Board.load(path)
    truth = true_numbers(final)
    shown = final.cells <= 8
    known = shown & (truth >= 0)
    assert known.sum() > 0.9 * shown.sum()
    assert np.array_equal(truth[known], final.cells[known])
    assert misreads([final], final) == []


def test_a_wrong_read_during_the_game_is_caught():
    final = Board.load(FINISHED[0])
    r, c = map(int, np.argwhere((final.cells >= 1) & (final.cells <= 7))[0])
    cells = final.cells.copy()
    cells[r, c] += 1
    seen = Board(cells, final.mines, GameState.PLAYING)
    assert misreads([final, seen], final) == [(1, r, c, int(final.cells[r, c]) + 1, int(final.cells[r, c]))]


def test_a_game_still_playing_proves_nothing():
    final = Board.load(FINISHED[0])
    assert true_numbers(final.replace(state=GameState.PLAYING)) is None
