"""The counting DP's number paths agree, and large positions keep the probabilities coherent."""

from __future__ import annotations

import numpy as np

from minebot.board import Board, Cell, neighbour_count
from minebot.game.engine import EngineGame
from minebot.move import Action, Move
from minebot.solver import analyse
from minebot.solver.counting import _count, _order, count_component
from minebot.solver.constraints import build_constraints


def _expert_position(seed: int) -> Board:
    game = EngineGame(16, 30, 99, rules="zero", seed=seed)
    return game.act([Move(Action.OPEN, (8, 15))])


def test_int64_float64_and_python_int_paths_agree():
    checked = 0
    for seed in range(30):
        board = _expert_position(seed)
        cons = build_constraints(board, board.mines)
        for comp in cons.components:
            numbers = [(cons.numbers[j].vars, cons.numbers[j].need) for j in comp.numbers]
            if len(comp.vars) < 12:
                continue
            order = _order(comp.vars, numbers)
            a = _count(order, numbers, np.int64)
            b = _count(order, numbers, np.float64)
            c = _count(order, numbers, object)
            assert a.total == b.total == c.total
            assert a.mine == b.mine == c.mine
            checked += 1
    assert checked >= 10


def test_probabilities_sum_to_the_mines_left_on_expert_openings():
    for seed in range(10):
        board = _expert_position(seed)
        result = analyse(board, board.mines)
        prob = result.probability[board.unknown]
        assert abs(prob.sum() - board.mines) < 1e-6
        assert ((prob >= 0) & (prob <= 1)).all()
        # Certain cells from the backbone are exactly the 0/1 cells of the counts.
        fr = result.constraints
        zero = sorted(c for v, c in enumerate(fr.cells) if result.counts.mine_weight[v] == 0)
        assert [c for c in result.safe if c in fr.index] == zero


def test_component_without_layouts_is_none():
    # Two cells, one number needing 2 and one needing 0 over the same pair (after dedupe the
    # solver would catch it; the DP must too).
    assert count_component([0, 1], [((0, 1), 2), ((0,), 0)]) is None
