"""Dead cells (their number is already known) against enumeration of layouts, and the look-ahead
that leaves them out of the next move (``Guesser(living=True)``)."""

from __future__ import annotations

from itertools import islice

import numpy as np

from minebot.board import neighbours
from minebot.solver.constraints import with_revealed
from minebot.solver.dead_cells import dead_cells
from minebot.solver.probability import CountCache, count_position
from minebot.solver.strategy import Guesser, GuessKind
from tests.test_solver_bruteforce import enumerated_positions


def _numbers_if_safe(board, unknown, layouts, k: int) -> np.ndarray:
    """The number unknown cell ``k`` shows in each listed layout where it is safe."""
    around = [unknown.index(x) for x in neighbours(board.rows, board.cols, *unknown[k]) if x in unknown]
    return layouts[~layouts[:, k]][:, around].sum(axis=1)


def test_dead_cells_show_one_number_in_every_layout_where_they_are_safe():
    """Every cell dead_cells names shows the same number in all listed layouts where it is
    safe; and the test is not empty: it meets dead cells, living ones, and undecided dead ones."""
    found = undecided = living = 0
    for board, cons, counts, unknown, layouts in islice(enumerated_positions(5), 800):
        dead = dead_cells(cons, counts)
        for cell in cons.cells:
            k = unknown.index(cell)
            if layouts[:, k].all():
                continue
            shows = np.unique(_numbers_if_safe(board, unknown, layouts, k))
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


def _dead_by_enumeration(board, unknown, layouts) -> set:
    """Cells that are neither safe nor a mine in every layout and show one number in every
    layout where they are safe: opening one tells nothing but that it was safe."""
    return {cell for k, cell in enumerate(unknown)
            if 0 < layouts[:, k].sum() < len(layouts)
            and len(np.unique(_numbers_if_safe(board, unknown, layouts, k))) == 1}


def test_opening_a_dead_cell_first_never_wins_more_than_some_other_cell():
    """Why ``defer_dead`` is sound, from the exact game tree (endgame search over every layout):
    where a cell other than a dead one can still be safe, some such cell wins at least as often
    as opening the dead cell now."""
    from minebot.solver.endgame import Endgame
    checked = 0
    for board, cons, _counts, unknown, layouts in islice(enumerated_positions(31, max_unknown=10), 4000):
        if checked >= 200:
            break
        dead = _dead_by_enumeration(board, unknown, layouts)
        others = [x for k, x in enumerate(unknown) if x not in dead and not layouts[:, k].all()]
        if not dead or not others:
            continue
        search = Endgame.of_position(cons, 10 ** 6, 10 ** 7)
        best_other = max(search.win_probability(x) for x in others)
        for cell in dead:
            assert search.win_probability(cell) <= best_other + 1e-12, (board.to_text(), cell)
            checked += 1
    assert checked >= 200, checked


def test_defer_dead_guesses_a_living_cell_where_the_plain_look_ahead_takes_a_dead_one():
    """With ``defer_dead`` the look-ahead plays a dead cell (found here by enumeration) only if
    every cell it scored is dead; on the same positions the plain look-ahead does take dead
    cells (rarely in such small positions: a few in a hundred guesses), so the option is what
    makes the difference."""
    options = dict(candidates=20, margin=1.0, background_reps=4, endgame_layouts=0, step_budget=10 ** 6)
    plain = Guesser(CountCache(), **options)
    deferring = Guesser(CountCache(), defer_dead=True, **options)
    took_dead = 0
    for board, cons, counts, unknown, layouts in islice(enumerated_positions(37, max_unknown=12), 20000):
        if took_dead >= 4:
            break
        if any(counts.mine_weight[v] == 0 for v in range(len(cons.cells))):
            continue    # certain cells are played before any guess
        dead = _dead_by_enumeration(board, unknown, layouts)
        if not dead:
            continue
        pool, _ = deferring.candidate_pool(cons, counts)
        if not any(x not in dead for x in pool) or len(pool) < 2:
            continue
        choice = deferring.choose(cons, counts)
        if choice.kind is not GuessKind.LOOKAHEAD:
            continue
        assert choice.cell not in dead, (board.to_text(), choice.cell)
        took_dead += plain.choose(cons, counts).cell in dead
    assert took_dead >= 4, took_dead
