"""No-guess boards: the generator keeps only logic-solvable layouts, and the strategy wins them all."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.game.engine import EngineGame
from minebot.game.layouts import Layout
from minebot.loop import play_game
from minebot.solver import Solver
from minebot.solver.noguess import no_guess_layouts, solvable_without_guessing


def test_a_forced_fifty_fifty_is_rejected():
    # 2x3, one mine at (0,2), first click (0,0): (0,2) and (1,2) stay a 50/50 for ever.
    mask = np.zeros((2, 3), bool)
    mask[0, 2] = True
    assert not solvable_without_guessing(Layout.from_mask(mask, (0, 0)), "zero", (0, 0))
    # The mine in the corner's opposite row is provable once (1,1) and (0,1) are seen... and
    # a board whose opening reveals everything is trivially solvable.
    mask = np.zeros((3, 6), bool)
    mask[:, 5] = True
    assert solvable_without_guessing(Layout.from_mask(mask, (1, 1)), "zero", (1, 1))


@pytest.mark.parametrize("size,mines,rules,first", [
    ((8, 8), 10, "zero", (2, 2)),
    ((9, 9), 10, "safe", (0, 0)),
    ((16, 16), 40, "zero", (2, 2)),
])
def test_strategy_wins_every_no_guess_board(size, mines, rules, first):
    rows, cols = size
    layouts = list(no_guess_layouts(rows, cols, mines, rules, first, 12, seed=21))
    assert len(layouts) == 12
    assert len({lay.mines for lay in layouts}) == 12
    solver = Solver()
    for layout in layouts:
        assert len(layout.mines) == mines
        game = EngineGame(rows, cols, mines, rules=rules, layout=layout)
        result = play_game(game, solver)
        assert result.won, layout
        assert result.guesses == 0


def test_generator_rejects_boards_that_need_a_guess():
    # Expert-density boards are rarely logic-solvable: the generator must skip most draws.
    from minebot.rules import place_mines
    rng = np.random.default_rng(4)
    verdicts = [solvable_without_guessing(Layout.from_mask(place_mines(rng, 8, 8, 14, "safe", (0, 0)),
                                                           (0, 0)), "safe", (0, 0)) for _ in range(30)]
    assert 0 < sum(verdicts) < 30
