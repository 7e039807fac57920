"""Dead cells (their number is already known) against enumeration of layouts, and the look-ahead
that leaves them out of the next move (``Guesser(living=True)``)."""

from __future__ import annotations

from itertools import islice

import numpy as np

from minebot.board import neighbours
from minebot.solver.constraints import with_revealed
from minebot.solver.dead_cells import dead_cells
from minebot.solver.probability import CountCache, count_position
from minebot.solver.strategy import Guesser
from tests.test_solver_bruteforce import enumerated_positions


def test_dead_cells_show_one_number_in_every_layout_where_they_are_safe():
    """Every cell dead_cells names shows the same number in all listed layouts where it is
    safe; and the test is not empty: it meets dead cells, living ones, and undecided dead ones."""
    found = undecided = living = 0
    for board, cons, counts, unknown, layouts in islice(enumerated_positions(5), 800):
        dead = dead_cells(cons, counts)
        for cell in cons.cells:
            k = unknown.index(cell)
            safe = layouts[~layouts[:, k]]
            if not len(safe):
                continue
            around = [unknown.index(x) for x in neighbours(board.rows, board.cols, *cell) if x in unknown]
            shows = np.unique(safe[:, around].sum(axis=1))
            if cell in dead:
                assert len(shows) == 1, (board.to_text(), cell)
                found += 1
                undecided += 0 < layouts[:, k].sum() < len(layouts)
            else:
                living += len(shows) > 1
    assert found >= 30 and undecided >= 10 and living >= 30, (found, undecided, living)


def test_living_look_ahead_leaves_dead_cells_out_of_the_next_move():
    """With ``living``, the look-ahead's next-move safety is that of the safest cell that is not
    dead (dead_cells of the position after the reveal), against enumeration of layouts."""
    guesser = Guesser(CountCache(), living=True)
    checked = differs = 0
    for board, cons, counts, unknown, layouts in islice(enumerated_positions(8, max_unknown=12), 3000):
        if checked >= 100 and differs >= 4:
            break
        for cell in cons.cells[:4]:
            k = unknown.index(cell)
            if layouts[:, k].all():
                continue
            around = [unknown.index(x) for x in neighbours(board.rows, board.cols, *cell) if x in unknown]
            alive = layouts[~layouts[:, k]]
            values = alive[:, around].sum(axis=1)
            want = 0.0
            for value in np.unique(values):
                group = alive[values == value]
                nxt = with_revealed(cons, cell, int(value))
                dead = dead_cells(nxt, count_position(nxt))
                safety = {j: 1.0 - group[:, j].mean() for j, x in enumerate(unknown) if j != k and not group[:, j].all()}
                pool = [j for j in safety if unknown[j] not in dead] or list(safety)
                best = max((safety[j] for j in pool), default=1.0)
                want += len(group) / len(layouts) * best
                differs += bool(safety) and best < max(safety.values())
            score = guesser.look_ahead(cons, counts, cell).survive
            assert abs(score - want) < 1e-9, (board.to_text(), cell)
            checked += 1
    assert checked >= 100 and differs >= 4, (checked, differs)
