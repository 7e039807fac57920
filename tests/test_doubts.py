"""Doubtful numbers, against brute-force enumeration of every mine layout.

A board with a number replaced by ``#`` (open, unread) must give certain cells that are
certain whatever the number was; ``settle`` may fix a doubt only to the value every layout of
the rest of the board agrees with.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from minebot.board import Board, Cell, GameState, neighbour_count
from minebot.solver import Solver
from minebot.solver.doubts import settle


def random_position(rng, rows=4, cols=5, mines=5):
    """A mid-game position of a random layout: a few zero floods and numbers opened."""
    layout = np.zeros(rows * cols, bool)
    layout[rng.choice(rows * cols, mines, replace=False)] = True
    layout = layout.reshape(rows, cols)
    numbers = neighbour_count(layout)
    shown = np.zeros_like(layout)
    for _ in range(3):
        safe = np.argwhere(~layout)
        r, c = safe[rng.integers(len(safe))]
        stack = [(r, c)]
        while stack:
            r, c = stack.pop()
            if shown[r, c]:
                continue
            shown[r, c] = True
            if numbers[r, c] == 0:
                stack += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                          if 0 <= r + dr < rows and 0 <= c + dc < cols and not layout[r + dr, c + dc]]
    cells = np.where(shown, numbers, Cell.COVERED).astype(np.int8)
    return Board(cells, mines, GameState.PLAYING), layout


def layouts(board: Board):
    """Every mine layout (boolean grid) agreeing with the board's numbers and total."""
    unknown = np.argwhere(board.unknown)
    numbers = np.argwhere(board.revealed)
    for chosen in itertools.combinations(range(len(unknown)), board.mines):
        grid = np.zeros(board.shape, bool)
        for i in chosen:
            grid[tuple(unknown[i])] = True
        counts = neighbour_count(grid)
        if all(counts[r, c] == board.cells[r, c] for r, c in numbers):
            yield grid


@pytest.mark.parametrize("seed", range(15))
def test_conclusions_hold_for_every_candidate(seed):
    rng = np.random.default_rng(seed)
    board, layout = random_position(rng)
    inside = np.argwhere((board.cells >= 1) & (board.cells <= 8) & (neighbour_count(board.unknown) > 0))
    if len(inside) == 0:
        pytest.skip("no number next to a covered cell")
    cell = tuple(int(v) for v in inside[rng.integers(len(inside))])
    truth = int(board.cells[cell])
    candidates = tuple(sorted({truth, max(1, truth - 1), min(8, truth + 1)}))
    doubtful = board.with_cells({cell: Cell.OPEN})
    found = Solver().analyse(doubtful)
    for k in candidates:
        variant = board.with_cells({cell: k})
        fits = list(layouts(variant))
        for safe in found.safe:
            assert not any(g[safe] for g in fits), (cell, k, safe)
        for mine in found.mines:
            assert all(g[mine] for g in fits), (cell, k, mine)
    settled, left = settle(board, {cell: candidates})
    possible = [k for k in candidates if any(True for _ in layouts(board.with_cells({cell: k})))]
    if len(possible) == 1:
        assert settled.cells[cell] == truth and left == {}
    else:
        assert settled.cells[cell] == Cell.OPEN and set(left[cell]) == set(possible)
    assert truth in possible


def test_text_format_keeps_an_unread_cell():
    board = Board.parse("01-\n#1-\n11-\n")
    assert board.cells[1, 0] == Cell.OPEN
    assert board.opened[1, 0] and not board.revealed[1, 0] and not board.unknown[1, 0]
    assert Board.parse("\n".join(board.rows_text())).rows_text() == board.rows_text()
