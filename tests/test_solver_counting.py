"""The counting DP's number paths agree, and large positions keep the probabilities coherent."""

from __future__ import annotations

from minebot.board import Board
from minebot.game.engine import EngineGame
from minebot.move import Action, Move
from minebot.solver import analyse
from minebot.solver.constraints import build_constraints
from minebot.solver.counting import count_component


def _expert_position(seed: int) -> Board:
    game = EngineGame(16, 30, 99, rules="zero", seed=seed)
    return game.act([Move(Action.OPEN, (8, 15))])


def test_packing_keeps_every_coefficient():
    from minebot.solver.counting import field_bits, unpack
    for n in (3, 62, 63, 140):
        bits = field_bits(n)
        # Coefficients near the field's top, all below 2**64 (wide fields take a numpy path
        # then), and one wide coefficient among small ones.
        for coeffs in ([(1 << n) - 1 - k for k in range(n + 1)],
                       [(1 << min(n, 64)) - 1 - k for k in range(n + 1)],
                       [k * 1000 for k in range(n)] + [(1 << n) - 1]):
            packed = sum(c << (bits * k) for k, c in enumerate(coeffs))
            got = unpack(packed, n + 1, bits)
            assert got == coeffs and all(type(x) is int for x in got)


def test_large_components_match_a_plain_enumeration_of_their_totals():
    # Chains of 1s along a revealed row: each component count is a Fibonacci-like number that
    # a simple transfer-matrix recurrence gives independently.
    for length in (10, 70, 130):
        board = Board.parse("1" * length + "\n" + "-" * length + "\n")
        cons = build_constraints(board, None)
        assert len(cons.components) == 1
        numbers = [(nb.vars, nb.need) for nb in cons.numbers]
        counts = count_component(cons.components[0].vars, numbers)
        # Independent: cells below a row of 1s; each window of 3 (2 at the ends) has one mine.
        # Transfer over positions with state (mine at i-1, mine at i).
        ways = {(0, 0): 1, (0, 1): 1, (1, 0): 0, (1, 1): 0}
        ways = {(a, b): 1 for a in (0, 1) for b in (0, 1) if a + b == 1}  # first number: cells 0,1
        for _ in range(2, length):
            nxt = {}
            for (a, b), w in ways.items():
                for c in (0, 1):
                    if a + b + c == 1:
                        nxt[(b, c)] = nxt.get((b, c), 0) + w
            ways = nxt
        expect = sum(w for (a, b), w in ways.items() if a + b == 1)
        assert counts.layouts == expect
        assert sum(counts.mine[i][k] for i in range(length) for k in range(length + 1)) == \
            sum(k * t for k, t in enumerate(counts.total))


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
