"""Unavoidable 50/50s, held against enumeration: every set found must hold its mines in exactly
two equally likely ways that no cell outside it could ever tell apart."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from minebot.board import Board, Cell, neighbour_count
from minebot.solver import GuessKind, Solver
from minebot.solver.analysis import analyse
from minebot.solver.constraints import build_constraints
from minebot.solver.probability import count_position
from minebot.solver.unavoidable import unavoidable_fifty_fifty
from tests.test_solver_bruteforce import brute_force, enumerated_positions

# A chain of four down the left wall, a 1 between its two halves: either (0,0) and (3,0) are
# the mines or (1,0) and (4,0), and every revealed cell shows the same number both ways.
CHAIN = '{"mines": 2}\n-10\n-10\n110\n-10\n-10\n'


def assert_indistinguishable(board: Board, cells: list[tuple[int, int]]) -> None:
    """Enumeration: the layouts hold the mines of ``cells`` in two complementary ways of equal
    size; swapping one way for the other gives a layout again; and every cell outside that is
    not a mine counts as many mines around it either way."""
    unknown, layouts = brute_force(board, board.mines)
    layouts = layouts.astype(bool)
    at = [unknown.index(c) for c in cells]
    ways = {tuple(row[at]) for row in layouts}
    assert len(ways) == 2, ways
    one, other = (np.array(w) for w in ways)
    assert (one ^ other).all() and one.sum() == other.sum()
    known = {tuple(row) for row in layouts}
    rows, cols = board.shape
    inside = set(cells)
    for row in layouts:
        swapped = row.copy()
        swapped[at] = ~row[at]
        assert tuple(swapped) in known
        grid, grid2 = np.zeros((rows, cols), bool), np.zeros((rows, cols), bool)
        for cell, mine, mine2 in zip(unknown, row, swapped):
            grid[cell], grid2[cell] = mine, mine2
        for y in itertools.product(range(rows), range(cols)):
            if y in inside or grid[y]:
                continue
            around = [x for x in board.neighbours(*y)]
            assert sum(grid[x] for x in around) == sum(grid2[x] for x in around), (y, row)


def find(board: Board):
    cons = build_constraints(board, board.mines)
    return unavoidable_fifty_fifty(cons, count_position(cons))


def test_a_closed_chain_of_four_is_found_and_is_truly_unavoidable():
    board = Board.parse(CHAIN)
    found = find(board)
    assert found == [(0, 0), (1, 0), (3, 0), (4, 0)]
    assert_indistinguishable(board, found)


def test_a_chain_with_an_open_end_is_not_unavoidable():
    # A sixth row below the chain, with a third mine: (5,0) is unknown and may be safe, and it
    # sees (4,0) but not (3,0), so its number could tell the two ways apart.
    board = Board.parse('{"mines": 3}\n-10\n-10\n110\n-10\n-21\n--1\n')
    assert find(board) is None
    with pytest.raises(AssertionError):
        assert_indistinguishable(board, [(0, 0), (1, 0), (3, 0), (4, 0)])


def test_every_set_found_in_random_positions_is_unavoidable():
    found = 0
    for board, cons, counts, _unknown, _layouts in itertools.islice(enumerated_positions(5), 2000):
        cells = unavoidable_fifty_fifty(cons, counts)
        if cells is not None:
            assert_indistinguishable(board, cells)
            found += 1
    assert found >= 8        # the check above must have had something to check


def test_the_solver_guesses_inside_the_set_at_once():
    solver = Solver(endgame_layouts=0)     # a position this small is otherwise the endgame search's
    move = solver.next_moves(Board.parse(CHAIN))[0]
    assert move.cell in {(0, 0), (1, 0), (3, 0), (4, 0)} and move.p_mine == 0.5
    assert solver.last_kind is GuessKind.FORCED_FIFTY


def guess_positions(rng, rows=5, cols=6, mines=8):
    """Positions of real play where no cell is certain: a random layout, opened from a safe cell
    and by every cell the solver proves safe; at each stop a random safe cell is opened."""
    while True:
        layout = np.zeros(rows * cols, bool)
        layout[rng.choice(rows * cols, mines, replace=False)] = True
        layout = layout.reshape(rows, cols)
        numbers = neighbour_count(layout)
        cells = np.full((rows, cols), Cell.COVERED, np.int8)
        def open_(cell):
            todo = [cell]
            while todo:
                r, c = todo.pop()
                if cells[r, c] != Cell.COVERED:
                    continue
                cells[r, c] = numbers[r, c]
                if numbers[r, c] == 0:
                    todo += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                             if 0 <= r + dr < rows and 0 <= c + dc < cols]
        safe = np.argwhere(~layout)
        open_(tuple(safe[rng.integers(len(safe))]))
        while True:
            board = Board(cells.copy(), mines)
            covered_safe = np.argwhere((cells == Cell.COVERED) & ~layout)
            if not len(covered_safe):
                break
            found = analyse(board, mines)
            if found.safe:
                for cell in found.safe:
                    open_(cell)
                continue
            yield board
            open_(tuple(covered_safe[rng.integers(len(covered_safe))]))


def test_guessing_inside_the_set_first_gives_nothing_away():
    """The exact game tree: in positions of real play with an unavoidable 50/50, some cell of
    the set wins as often as the best cell anywhere (so taking it first never costs a win)."""
    from minebot.solver.endgame import Endgame
    checked = 0
    for board in itertools.islice(guess_positions(np.random.default_rng(11)), 3000):
        cons = build_constraints(board, board.mines)
        counts = count_position(cons)
        cells = unavoidable_fifty_fifty(cons, counts)
        search = None if cells is None else Endgame.of_position(cons, 1000, 10 ** 7)
        if search is None:
            continue
        _cell, best = search.best()
        assert max(search.win_probability(c) for c in cells) >= best - 1e-12, board.to_text()
        checked += 1
        if checked == 40:
            break
    assert checked == 40, checked
