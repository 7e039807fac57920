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


def test_unpacking_many_at_once_is_unpacking_each():
    from minebot.solver.counting import field_bits, unpack, unpack_many
    for n in (3, 62, 63, 140):
        bits = field_bits(n)
        small = [sum((k * 7 + j) << (bits * k) for k in range(n + 1)) for j in range(5)]
        wide = [sum(((1 << n) - 1 - k) << (bits * k) for k in range(n + 1))]
        for values in (small, small + wide, wide + small, [0, 0], []):
            got = unpack_many(values, n + 1, bits)
            assert got == [unpack(v, n + 1, bits) for v in values]
            assert all(type(x) is int for row in got for x in row)


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


def _greedy_order(cells: list[int], numbers: tuple[tuple[int, ...], ...]) -> list[int]:
    """The counting order as its rule reads, each key worked out afresh at every step: first the
    cell in fewest numbers, then the unplaced cell in the most open numbers (ties: closing most
    open numbers, then opening fewest, then the lowest variable), among the cells of an open
    number while there are any."""
    placed: list[int] = []
    def is_open(vs):
        return any(v in placed for v in vs)
    first = min(cells, key=lambda v: (sum(v in vs for vs in numbers), v))
    placed.append(first)
    while len(placed) < len(cells):
        rest = [v for v in cells if v not in placed]
        touching = [v for v in rest if any(is_open(vs) and v in vs for vs in numbers)]

        def key(v):
            mine = [vs for vs in numbers if v in vs]
            in_open = sum(is_open(vs) for vs in mine)
            closing = sum(is_open(vs) and sum(x not in placed for x in vs) == 1 for vs in mine)
            unopened = sum(not is_open(vs) for vs in mine)
            return (in_open, closing, -unopened, -v)
        placed.append(max(touching or rest, key=key))
    return placed


def test_counting_order_follows_its_rule():
    """The incremental order (its packed keys) is the greedy rule worked out from scratch, on
    the components of real expert openings and of positions with fixed cells."""
    from minebot.solver.constraints import with_fixed
    from minebot.solver.counting import _plan
    checked = 0
    for seed in range(6):
        cons = build_constraints(_expert_position(seed), 99)
        variants = [cons, with_fixed(cons, [cons.cells[0]], [cons.cells[-1]])] if cons.cells else [cons]
        for position in variants:
            for comp in position.components:
                shape = tuple(position.numbers[j].vars for j in comp.numbers)
                assert list(_plan(tuple(comp.vars), shape)[0]) == _greedy_order(comp.vars, shape)
                checked += 1
    assert checked > 10


def test_narrow_fields_unpack_like_wide_ones():
    # A bound on the layouts lets the counting pack into fields of 8 to 56 bits as well.
    from minebot.solver.counting import unpack, unpack_many
    for bits in range(8, 72, 8):
        top = (1 << (bits - 1)) - 1
        rows = [[top - k for k in range(9)], [k * 3 for k in range(9)], [0] * 9]
        packed = [sum(c << (bits * k) for k, c in enumerate(row)) for row in rows]
        assert [unpack(v, 9, bits) for v in packed] == rows
        assert unpack_many(packed, 9, bits) == rows
        assert all(type(x) is int for row in unpack_many(packed, 9, bits) for x in row)


def test_layout_bound_holds_on_expert_components():
    # The field width rests on the bound: no component may have more layouts than it says,
    # whatever its needs. Checked on the components of real expert positions.
    from minebot.solver.counting import layout_bound
    for seed in range(6):
        cons = build_constraints(_expert_position(seed), 99)
        for comp in cons.components:
            numbers = [(cons.numbers[j].vars, cons.numbers[j].need) for j in comp.numbers]
            counts = count_component(comp.vars, numbers)
            shape = tuple(vs for vs, _ in numbers)
            assert counts is not None and counts.layouts <= layout_bound(len(comp.vars), shape)
