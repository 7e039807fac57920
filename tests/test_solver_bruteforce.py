"""The solver against brute force: every layout of the unknown cells, enumerated with numpy.

Certain cells, exact probabilities (compared as fractions), both backbone encodings,
explanations (they alone must prove the cell, and be minimal), inconsistency reports and the
incremental re-count used by the look-ahead all have to agree with plain enumeration.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from minebot.board import Board, Cell, neighbour_count
from minebot.errors import InconsistentBoardError
from minebot.solver import Solver, analyse
from minebot.solver.constraints import Reveal, build_constraints, with_revealed
from minebot.solver.probability import CountCache, count_position


def random_position(rng: np.random.Generator, max_unknown: int = 16):
    """A real position: a random layout with some safe cells revealed, maybe some flags."""
    while True:
        rows, cols = int(rng.integers(3, 7)), int(rng.integers(3, 7))
        n = rows * cols
        mines = int(rng.integers(1, max(2, n // 3)))
        layout = np.zeros(n, bool)
        layout[rng.choice(n, mines, replace=False)] = True
        layout = layout.reshape(rows, cols)
        counts = neighbour_count(layout)
        cells = np.full((rows, cols), Cell.COVERED, np.int8)
        safe = np.argwhere(~layout)
        k = int(rng.integers(1, len(safe) + 1)) if len(safe) else 0
        for r, c in safe[rng.choice(len(safe), k, replace=False)] if k else []:
            cells[r, c] = counts[r, c]
        unknown = cells == Cell.COVERED
        if unknown.sum() > max_unknown or unknown.sum() == 0:
            continue
        # A few flags, right or wrong: the solver must not trust them.
        for r, c in np.argwhere(unknown):
            if rng.random() < 0.15:
                cells[r, c] = Cell.FLAG if rng.random() < 0.8 else Cell.QUESTION
        return Board(cells, mines), layout


def brute_force(board: Board, mines: int | None, numbers: list[tuple[int, int]] | None = None,
                use_total: bool = True):
    """Enumerate layouts. Returns (unknown cells, list of layouts as bool rows)."""
    unknown = [tuple(map(int, x)) for x in np.argwhere(board.unknown)]
    revealed = board.revealed
    if numbers is None:
        numbers = [tuple(map(int, x)) for x in np.argwhere(revealed)]
    index = {c: i for i, c in enumerate(unknown)}
    if mines is None:
        # Without the total only frontier cells are decided; the background stays open.
        frontier = [c for c in unknown if any(revealed[x] for x in board.neighbours(*c))]
        unknown = frontier
        index = {c: i for i, c in enumerate(unknown)}
    u = len(unknown)
    assign = ((np.arange(2 ** u)[:, None] >> np.arange(u)) & 1).astype(np.int8)
    ok = np.ones(len(assign), bool)
    for r, c in numbers:
        cols = [index[x] for x in board.neighbours(r, c) if x in index]
        ok &= assign[:, cols].sum(axis=1) == int(board.cells[r, c])
    if mines is not None and use_total:
        ok &= assign.sum(axis=1) == mines
    return unknown, assign[ok]


def enumerated_positions(seed: int, max_unknown: int = 14):
    """Endless random positions with a mine total: (board, constraints, exact counts, unknown
    cells, every layout as a bool row), for tests that hold a solver's figure against enumeration."""
    rng = np.random.default_rng(seed)
    while True:
        board, _ = random_position(rng, max_unknown=max_unknown)
        if board.mines is None:
            continue
        cons = build_constraints(board, board.mines)
        counts = count_position(cons)
        if counts is None or counts.layouts == 0:
            continue
        unknown, layouts = brute_force(board, board.mines)
        yield board, cons, counts, unknown, layouts.astype(bool)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("with_total", [True, False])
def test_certain_cells_and_probabilities_match_brute_force(seed, with_total):
    rng = np.random.default_rng(1000 + seed * 7 + with_total)
    for _ in range(40):
        board, _layout = random_position(rng)
        mines = board.mines if with_total else None
        board = board.replace(mines=mines)
        unknown, layouts = brute_force(board, mines)
        result = analyse(board, mines)
        total = len(layouts)
        assert total > 0
        counts = layouts.sum(axis=0)
        expect_safe = sorted(c for c, k in zip(unknown, counts) if k == 0)
        expect_mines = sorted(c for c, k in zip(unknown, counts) if k == total)
        assert result.safe == expect_safe, board
        assert result.mines == expect_mines, board
        for cell, k in zip(unknown, counts):
            assert result.fraction(cell) == Fraction(int(k), total), (board, cell)
            assert result.probability[cell] == pytest.approx(k / total, abs=1e-12)
        if with_total:
            assert result.layouts == total
        else:
            for cell in map(tuple, np.argwhere(board.unknown)):
                if cell not in unknown:
                    assert result.fraction(cell) is None and np.isnan(result.probability[cell])
        assert np.isnan(result.probability[board.revealed]).all()
        flags = {tuple(map(int, x)) for x in np.argwhere(board.flags)}
        assert result.wrong_flags == sorted(flags & set(expect_safe))


@pytest.mark.parametrize("seed", range(4))
def test_both_encodings_give_the_same_backbone(seed):
    rng = np.random.default_rng(50 + seed)
    for _ in range(40):
        board, _ = random_position(rng, max_unknown=24)
        for mines in (board.mines, None):
            native = Solver("native").analyse(board, mines)
            binomial = Solver("binomial").analyse(board, mines)
            assert (native.safe, native.mines) == (binomial.safe, binomial.mines)


def _proves(board: Board, mines: int | None, numbers, use_total, cell, is_safe) -> bool:
    unknown, layouts = brute_force(board, mines, numbers, use_total)
    k = unknown.index(cell)
    return bool(len(layouts)) and bool((layouts[:, k] == (0 if is_safe else 1)).all()) \
        or not len(layouts)


@pytest.mark.parametrize("seed", range(3))
def test_explanations_prove_the_cell_and_are_minimal(seed):
    rng = np.random.default_rng(300 + seed)
    checked = 0
    while checked < 40:
        board, _ = random_position(rng, max_unknown=14)
        result = analyse(board, board.mines)
        for cell in (result.safe + result.mines)[:3]:
            is_safe = cell in result.safe
            numbers, use_total = result.explanation(cell)
            assert numbers or use_total
            assert all(board.revealed[x] for x in numbers)
            assert _proves(board, board.mines, numbers, use_total, cell, is_safe)
            for drop in range(len(numbers)):
                fewer = numbers[:drop] + numbers[drop + 1:]
                assert not _proves(board, board.mines, fewer, use_total, cell, is_safe)
            if use_total:
                assert not _proves(board, board.mines, numbers, False, cell, is_safe)
            checked += 1


def test_inconsistent_boards_report_a_minimal_contradiction():
    rng = np.random.default_rng(77)
    found = 0
    for _ in range(400):
        board, _ = random_position(rng, max_unknown=12)
        revealed = np.argwhere(board.revealed & (neighbour_count(board.unknown) > 0))
        if not len(revealed):
            continue
        r, c = revealed[rng.integers(len(revealed))]
        cells = board.cells.copy()
        cells[r, c] = (cells[r, c] + int(rng.integers(1, 3))) % 9
        bad = board.replace(cells=cells)
        unknown, layouts = brute_force(bad, bad.mines)
        if len(layouts):
            assert analyse(bad, bad.mines).layouts == len(layouts)
            continue
        found += 1
        with pytest.raises(InconsistentBoardError) as info:
            analyse(bad, bad.mines)
        core = info.value.cells
        uses_total = info.value.uses_total
        assert all(bad.revealed[x] for x in core)
        assert len(brute_force(bad, bad.mines, core, use_total=uses_total)[1]) == 0
        for drop in range(len(core)):
            fewer = core[:drop] + core[drop + 1:]
            assert len(brute_force(bad, bad.mines, fewer, use_total=uses_total)[1]) > 0
        if uses_total:
            assert len(brute_force(bad, bad.mines, core, use_total=False)[1]) > 0
    assert found > 20


def positions_with_a_safe_cell(rng, tries: int = 60):
    """(board, constraints, cell): random positions, each with one of its safe covered
    cells (what the look-ahead reveals), for up to ``tries`` positions."""
    for _ in range(tries):
        board, layout = random_position(rng, max_unknown=16)
        cons = build_constraints(board, board.mines)
        choices = [tuple(map(int, x)) for x in np.argwhere(board.unknown & ~layout)]
        if choices:
            yield board, cons, choices[rng.integers(len(choices))]


def test_lookahead_recount_matches_a_rebuilt_board():
    rng = np.random.default_rng(11)
    for board, cons, cell in positions_with_a_safe_cell(rng):
        # One Reveal serves every value (the look-ahead's use): in a shuffled order, each value
        # twice, all positions kept and counted at the end, so a position built for one value
        # must not leak into another's.
        shared = Reveal(cons, cell)
        kept = []
        for value in [int(v) for v in rng.permutation(18) % 9]:
            cells = board.cells.copy()
            cells[cell] = value
            rebuilt = board.replace(cells=cells)
            truth = len(brute_force(rebuilt, board.mines)[1])
            kept += [(value, truth, with_revealed(cons, cell, value)), (value, truth, shared.show(value))]
        for _value, truth, nxt in kept:
            if nxt is None:
                assert truth == 0
                continue
            counts = count_position(nxt, CountCache())
            assert (counts.layouts if counts else 0) == truth


def test_counts_with_fixed_cells_match_enumeration():
    """with_fixed (cells taken as mines or safe, nothing revealed) counts exactly the layouts
    that agree, frontier and background cells alike."""
    from minebot.solver.constraints import with_fixed
    rng = np.random.default_rng(17)
    checked = 0
    for _ in range(80):
        board, _layout = random_position(rng, max_unknown=14)
        unknown, layouts = brute_force(board, board.mines)
        cons = build_constraints(board, board.mines)
        picks = rng.permutation(len(unknown))[: int(rng.integers(1, min(4, len(unknown)) + 1))]
        split = int(rng.integers(0, len(picks) + 1))
        mines, safe = [unknown[i] for i in picks[:split]], [unknown[i] for i in picks[split:]]
        want = layouts.astype(bool)
        keep = want[:, picks[:split]].all(axis=1) & ~want[:, picks[split:]].any(axis=1)
        counts = count_position(with_fixed(cons, mines, safe), CountCache())
        assert (counts.layouts if counts is not None else 0) == int(keep.sum())
        checked += any(x in cons.background for x in mines + safe)
    assert checked >= 10          # background cells were fixed too, not only frontier ones


def test_count_of_a_tangled_component_matches_enumeration():
    # A 6x6 board whose every other cell is revealed: one large, densely linked component.
    rng = np.random.default_rng(5)
    for _ in range(5):
        layout = rng.random((6, 6)) < 0.3
        counts = neighbour_count(layout)
        cells = np.full((6, 6), Cell.COVERED, np.int8)
        mask = (np.add.outer(np.arange(6), np.arange(6)) % 2 == 0) & ~layout
        cells[mask] = counts[mask]
        board = Board(cells, int(layout.sum()))
        if board.unknown.sum() > 20:
            continue
        unknown, layouts = brute_force(board, board.mines)
        result = analyse(board, board.mines)
        for cell, k in zip(unknown, layouts.sum(axis=0)):
            assert result.fraction(cell) == Fraction(int(k), len(layouts))


def test_any_certain_safe_agrees_with_the_backbone():
    from minebot.solver.backbone import any_certain_safe
    rng = np.random.default_rng(99)
    for _ in range(150):
        board, _ = random_position(rng, max_unknown=16)
        for mines in (board.mines, None):
            cons = build_constraints(board, mines)
            result = analyse(board, mines)
            assert any_certain_safe(cons) == any(c in cons.index for c in result.safe)


def test_backbone_mine_range_lies_within_the_layouts_and_settles_the_background():
    """The backbone search's fewest and most frontier mines are mine counts of real layouts,
    and the background's certainty worked out from them is the one a fresh SAT call finds."""
    from minebot.solver.analysis import background_certainty
    from minebot.solver.backbone import backbone_search
    rng = np.random.default_rng(123)
    settled = 0
    for _ in range(300):
        board, _ = random_position(rng, max_unknown=14)
        cons = build_constraints(board, board.mines)
        found = backbone_search(cons)
        if found is None or not cons.frontier_size:
            continue
        unknown, layouts = brute_force(board, board.mines)
        frontier = [unknown.index(cell) for cell in cons.cells]
        per_layout = layouts[:, frontier].sum(axis=1)
        assert per_layout.min() <= found.fewest <= found.most <= per_layout.max()
        assert background_certainty(cons, found) == background_certainty(cons)
        settled += background_certainty(cons) is not None
    assert settled > 0      # the positions include backgrounds the total settles


def test_cells_proved_safe_by_pairs_of_numbers_are_safe_in_every_layout():
    """The look-ahead's shortcut (pair_rules) may miss safe cells but never name a mine, and it
    finds the cells plain enumeration shows a lone number or a pair proves."""
    from minebot.solver.pair_rules import pair_safe_cells, two_certain_safe
    found = 0
    positions = enumerated_positions(7)
    for _ in range(300):
        _board, cons, _counts, unknown, layouts = next(positions)
        column = {cell: unknown.index(cell) for cell in cons.cells}
        safe = pair_safe_cells(cons)
        for v in safe:
            assert not layouts[:, column[cons.cells[v]]].any(), (cons.cells[v], _board)
        assert two_certain_safe(cons) == (len(safe) >= 2)
        found += len(safe)
    assert found > 50


def test_pairs_a_reveal_changed_find_what_all_pairs_find():
    """After a reveal, the pairs with a changed number (Reveal.changed) find every cell the
    pairs of all numbers find, when the position before had none: the look-ahead's case."""
    from minebot.solver.pair_rules import pair_safe_cells
    compared = found = 0
    positions = enumerated_positions(11)
    while compared < 400:
        _board, cons, _counts, _unknown, _layouts = next(positions)
        if pair_safe_cells(cons):
            continue
        for cell in cons.cells + cons.background[:2]:
            reveal = Reveal(cons, cell)
            for value in range(9):
                nxt = reveal.show(value)
                if nxt is None:
                    continue
                everything = pair_safe_cells(nxt)
                assert pair_safe_cells(nxt, among=reveal.changed) == everything, (cell, value, _board)
                compared += 1
                found += bool(everything)
    assert found > 20


def test_components_are_the_cells_linked_through_shared_numbers():
    """Each component is one connected group of the cells-and-numbers graph (found here by a
    plain search), listed by its first cell, with its cells and numbers in order."""
    positions = enumerated_positions(21)
    for _ in range(200):
        _board, cons, _counts, _unknown, _layouts = next(positions)
        holders: dict[int, list[int]] = {}
        for j, number in enumerate(cons.numbers):
            for v in number.vars:
                holders.setdefault(v, []).append(j)
        expect, seen = [], set()
        for start in range(cons.frontier_size):
            if start in seen:
                continue
            group, todo = {start}, [start]
            while todo:
                for j in holders.get(todo.pop(), []):
                    for w in cons.numbers[j].vars:
                        if w not in group:
                            group.add(w)
                            todo.append(w)
            seen |= group
            expect.append((sorted(group), [j for j, n in enumerate(cons.numbers) if n.vars[0] in group]))
        assert [(c.vars, c.numbers) for c in cons.components] == expect


@pytest.mark.parametrize("seed", range(3))
def test_mine_hints_never_change_the_backbone(seed):
    # The play loop hands the backbone the mines its last move proved. A hint is only tried: the
    # right mines, cells that are not mines, cells off the frontier and a mix of them all must
    # give the brute force's certain cells, exactly as no hint does.
    rng = np.random.default_rng(400 + seed)
    for _ in range(40):
        board, layout = random_position(rng)
        mines = board.mines
        unknown, layouts = brute_force(board, mines)
        counts = layouts.sum(axis=0)
        expect_safe = sorted(c for c, k in zip(unknown, counts) if k == 0)
        expect_mines = sorted(c for c, k in zip(unknown, counts) if k == len(layouts))
        cells = [tuple(map(int, x)) for x in np.argwhere(board.unknown)]
        real = [tuple(map(int, x)) for x in np.argwhere(layout & board.unknown)]
        some = [c for c in cells if rng.random() < 0.5]
        for hints in (expect_mines, real, cells, some, expect_mines + expect_safe, [(99, 99)]):
            result = analyse(board, mines, likely_mines=hints)
            assert (result.safe, result.mines) == (expect_safe, expect_mines), (board, hints)


def test_forward_pass_reuse_between_needs_counts_as_a_fresh_pass():
    # The counting keeps each structure's last forward pass and starts the next one where the
    # needs first differ (the look-ahead's values of one guess). Every value, in a shuffled
    # order and each twice, must count what a pass with nothing kept counts, with the same work
    # (the look-ahead's step budget is spent by it).
    from minebot.solver import counting
    rng = np.random.default_rng(23)
    for _board, cons, cell in positions_with_a_safe_cell(rng):
        reveal = Reveal(cons, cell)
        for value in [int(v) for v in rng.permutation(18) % 9]:
            nxt = reveal.show(value)
            if nxt is None:
                continue
            for comp in nxt.components:
                numbers = [(nxt.numbers[j].vars, nxt.numbers[j].need) for j in comp.numbers]
                kept = counting.count_component(comp.vars, numbers)
                counting.forget_last_passes()
                fresh = counting.count_component(comp.vars, numbers)
                if fresh is None:
                    assert kept is None
                    continue
                assert kept is not None
                assert (kept.cells, kept.total, kept.mine, kept.work) == \
                    (fresh.cells, fresh.total, fresh.mine, fresh.work)


@pytest.mark.parametrize("text", ["-----\n-3-4-\n--4--\n-4-3-\n-----\n",
                                  "------\n-4--4-\n--44--\n-4--4-\n------\n"])
def test_components_with_many_layouts_match_brute_force(text):
    # Numbers apart, each with many covered neighbours: one component with hundreds or thousands of
    # layouts, so the counting's packed fields must be wide enough for them (their width comes
    # from a bound on the layouts, not from the number of cells).
    board = Board.parse(text)
    unknown, layouts = brute_force(board, None)
    result = analyse(board, None)
    assert result.layouts == len(layouts) > 200
    for cell, k in zip(unknown, layouts.sum(axis=0)):
        assert result.fraction(cell) == Fraction(int(k), len(layouts))
