"""Endgame search: its layouts equal brute force, and its win probabilities are right on cases
worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.board import Board, neighbour_count
from minebot.solver.constraints import build_constraints
from minebot.solver.endgame import Endgame, enumerate_layouts
from tests.test_solver_bruteforce import brute_force, random_position


def _endgame(board: Board) -> Endgame:
    cons = build_constraints(board, board.mines)
    layouts = enumerate_layouts(cons, 10_000)
    revealed = frozenset(map(tuple, np.argwhere(~board.unknown).tolist()))
    return Endgame(board.shape, revealed, layouts, budget=100_000)


def test_layouts_are_exactly_the_brute_force_ones():
    rng = np.random.default_rng(8)
    for _ in range(60):
        board, _ = random_position(rng, max_unknown=14)
        cons = build_constraints(board, board.mines)
        got = enumerate_layouts(cons, 100_000)
        unknown, rows = brute_force(board, board.mines)
        expect = {frozenset(c for c, bit in zip(unknown, row) if bit) for row in rows}
        assert got is not None and len(got) == len(expect) and set(got) == expect


def test_limit_is_respected():
    board = Board.parse('{"mines": 5}\n0---------\n')
    assert enumerate_layouts(build_constraints(board, 5), 10) is None


def test_fifty_fifty_wins_half():
    board = Board.parse('{"mines": 1}\n01-\n01-\n')
    cell, win = _endgame(board).best()
    assert win == pytest.approx(0.5) and cell in {(0, 2), (1, 2)}


def test_no_information_square_wins_a_third():
    # (0,0) shows 1 over three cells; any click that survives shows 1 again, then a 50/50.
    board = Board.parse('{"mines": 1}\n1-\n--\n')
    cell, win = _endgame(board).best()
    assert win == pytest.approx(1 / 3)


def _naive_win(board: Board, layouts: list[set]) -> float:
    """Independent game-tree value: plain recursion over board copies, no memo, no pruning."""
    if not layouts:
        return 1.0
    unknown = [tuple(x) for x in np.argwhere(board.unknown).tolist()]
    safe_cells = [c for c in unknown if any(c not in lay for lay in layouts)]
    if not safe_cells or len(layouts) == 1:
        return 1.0
    return max(_naive_cell_win(board, layouts, cell) for cell in safe_cells)


def _naive_cell_win(board: Board, layouts: list[set], cell: tuple[int, int]) -> float:
    """The naive tree's win probability when ``cell`` is opened now and play is best after."""
    outcomes: dict[bytes, tuple[Board, list]] = {}
    for lay in layouts:
        if cell in lay:
            continue
        cells = board.cells.copy()
        todo = [cell]
        while todo:
            x = todo.pop()
            if cells[x] <= 8:
                continue
            value = sum(1 for y in board.neighbours(*x) if y in lay)
            cells[x] = value
            if value == 0:
                todo.extend(y for y in board.neighbours(*x) if cells[y] > 8)
        key = cells.tobytes()
        outcomes.setdefault(key, (board.replace(cells=cells), []))[1].append(lay)
    return sum(len(group) / len(layouts) * _naive_win(nxt, group) for nxt, group in outcomes.values())


@pytest.mark.parametrize("seed, max_unknown, min_layouts, cases", [(17, 7, 2, 25), (29, 9, 3, 20)])
def test_win_probability_matches_a_naive_game_tree(seed, max_unknown, min_layouts, cases):
    """Random positions, the larger ones with guesses that show 0 and open an area and with
    unknown cells that are certain mines (the search drops them): the naive tree's value."""
    rng = np.random.default_rng(seed)
    checked = zeros = 0
    while checked < cases:
        board, layout = random_position(rng, max_unknown=max_unknown)
        cons = build_constraints(board, board.mines)
        layouts = enumerate_layouts(cons, 1000)
        if len(layouts) < min_layouts:
            continue
        zeros += int(((neighbour_count(layout) == 0) & board.unknown & ~layout).any())
        search = _endgame(board)
        cell, win = search.best()
        assert win == pytest.approx(_naive_win(board, [set(x) for x in layouts]))
        other = tuple(map(int, np.argwhere(board.unknown)[checked % int(board.unknown.sum())]))
        assert search.win_probability(other) == pytest.approx(
            _naive_cell_win(board, [set(x) for x in layouts], other) if any(other not in x for x in layouts) else 0.0)
        assert cell is not None and board.unknown[cell] and any(cell not in lay for lay in layouts)
        checked += 1
    assert zeros >= 3     # the cases did include guesses that open an area


def test_row_groups_match_numpy_unique_over_rows():
    """The base-9 grouping gives np.unique's own groups, in its order, for short and long rows."""
    import numpy as np

    from minebot.solver.endgame import row_groups
    rng = np.random.default_rng(1)
    for k in (1, 2, 5, 19, 20, 30):
        values = rng.integers(0, 9, size=(200, k)).astype(np.int8)
        values[100:] = values[:100] if k < 3 else values[100:]
        want = np.unique(values, axis=0, return_inverse=True)[1].ravel()
        assert (row_groups(values) == want).all()


def test_guess_within_endgame_limit_wins_as_often_as_the_naive_tree():
    """The Solver's guess, on positions with few layouts, is a cell the naive game tree rates best,
    also where only one cell is close to the safest (the look-ahead's pool then has a single
    candidate, and the safest cell is not always the one that wins most)."""
    from minebot.solver import Solver
    from minebot.solver.analysis import analyse
    rng = np.random.default_rng(41)
    checked = single = 0
    solver = Solver()
    while checked < 80:
        board, _ = random_position(rng, max_unknown=9)
        result = analyse(board, board.mines)
        if result.safe or result.counts is None or not result.counts.mines_known:
            continue
        layouts = enumerate_layouts(result.constraints, 1000)
        if not layouts or len(layouts) < 3:
            continue
        pool, _ = solver.guesser.candidate_pool(result.constraints, result.counts)
        single += len(pool) == 1
        choice = solver.guess(result)
        as_sets = [set(x) for x in layouts]
        assert _naive_cell_win(board, as_sets, choice.cell) == pytest.approx(_naive_win(board, as_sets))
        checked += 1
    assert single >= 3      # the one-candidate case was among them
