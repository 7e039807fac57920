"""The 50/50 patterns (pairs and 2x2 boxes) against enumeration of layouts: the tallies, the
board scan's enablers, and the claim the whole module rests on, that a pattern held the counted
way can never be resolved (swapping its mines gives a layout no number, now or later, can tell
from it)."""

from __future__ import annotations

from itertools import islice

import numpy as np

from minebot.board import neighbours
from minebot.solver.constraints import build_constraints
from minebot.solver.fifty_fifty import FiftyFifties, boxes_through, every_pattern, pairs_through
from minebot.solver.probability import count_position
from tests.test_solver_bruteforce import enumerated_positions


def _held(pattern, missing, unknown, layouts):
    """The enumerated layouts with ``missing`` and the pattern's mines mines, its safe cells safe."""
    keep = np.ones(len(layouts), bool)
    for x in [*missing, *pattern.mines]:
        keep &= layouts[:, unknown.index(x)]
    for x in pattern.safe:
        keep &= ~layouts[:, unknown.index(x)]
    return layouts[keep]


def test_pattern_tallies_match_enumeration_and_the_patterns_are_unresolvable():
    """Each tally is the number of enumerated layouts holding the pattern; in every such layout
    the swapped layout is consistent too, and every cell that is not a mine in it shows the
    same number in both (so no future reveal can tell them apart)."""
    seen_pairs = seen_boxes = 0
    for board, cons, counts, unknown, layouts in islice(enumerated_positions(11), 1500):
        fifties = FiftyFifties(cons, counts)
        rows, cols = board.shape
        as_set = {row.tobytes() for row in layouts}
        for pattern in every_pattern(board.shape):
            if any(not (0 <= r < rows and 0 <= c < cols) for r, c in pattern.cells):
                continue
            missing = fifties.missing(pattern)
            tally = fifties.tally(pattern, 8)
            if missing is None:
                assert tally == 0
                continue
            held = _held(pattern, missing, unknown, layouts)
            assert tally == len(held), (board.to_text(), pattern)
            for layout in held:
                swapped = layout.copy()
                for x in pattern.mines:
                    swapped[unknown.index(x)] = False
                for x in pattern.safe:
                    swapped[unknown.index(x)] = True
                assert swapped.tobytes() in as_set
                mine = np.zeros(board.shape, bool)
                mine2 = np.zeros(board.shape, bool)
                for j, x in enumerate(unknown):
                    mine[x], mine2[x] = layout[j], swapped[j]
                for r in range(rows):
                    for c in range(cols):
                        if not mine[r, c] and not mine2[r, c] and (r, c) not in pattern.cells:
                            around = list(neighbours(rows, cols, r, c))
                            assert sum(mine[x] for x in around) == sum(mine2[x] for x in around)
            if len(held):
                seen_pairs += len(pattern.mines) == 1
                seen_boxes += len(pattern.mines) == 2
    assert seen_pairs >= 50 and seen_boxes >= 5, (seen_pairs, seen_boxes)


def test_influence_and_enablers_add_up_the_patterns_by_enumeration():
    """A cell's influence: the pairs through it, the likeliest box through it and the likely
    patterns it would complete (found by scanning every pattern here, in the test), capped at
    its mine and safe layouts, all counted from the enumerated layouts."""
    enabled = boxed = 0
    for board, cons, counts, unknown, layouts in islice(enumerated_positions(12), 1200):
        fifties = FiftyFifties(cons, counts)
        rows, cols = board.shape
        total = len(layouts)

        def count(pattern, limit):
            if any(not (0 <= r < rows and 0 <= c < cols) for r, c in pattern.cells):
                return 0
            missing = fifties.missing(pattern)
            if missing is None or len(missing) > limit:
                return 0
            if cons.mines_left is not None and len(missing) + len(pattern.mines) > cons.mines_left:
                return 0
            return len(_held(pattern, missing, unknown, layouts))

        enablers: dict = {}
        for pattern in every_pattern(board.shape):
            limit = 1 if len(pattern.mines) == 1 else 2
            n = count(pattern, limit)
            missing = fifties.missing(pattern)
            if missing and len(missing) <= limit and 2 * n > 0.025 * total:
                for x in missing:
                    enablers[x] = enablers.get(x, 0) + n
        for cell in cons.cells:
            k = unknown.index(cell)
            mine = int(layouts[:, k].sum())
            plain = sum(count(p, 3) for p in pairs_through(cell))
            box = max(count(p, 3) for p in boxes_through(cell))
            want = min(plain + box + enablers.get(cell, 0), mine, total - mine)
            assert fifties.influence(cell, boxes=True) == want, (board.to_text(), cell)
            assert fifties.influence(cell) == min(plain, mine, total - mine)
            enabled += enablers.get(cell, 0) > 0 and 0 < want
            boxed += box > 0 and 0 < want
    assert enabled >= 10 and boxed >= 3, (enabled, boxed)


def test_a_box_is_a_pseudo_fifty_fifty_only_when_boxes_are_looked_at():
    """Mines on one diagonal of the top-left 2x2 or the other, the far corner a certain mine:
    no number can ever tell the two apart, though no two cells form a pair."""
    from minebot.board import Board
    from minebot.solver.fifty_fifty import potential_fifty_fifty, pseudo_fifty_fifty
    board = Board.parse('{"mines": 3}\n--1\n--2\n12-\n')
    cons = build_constraints(board, 3)
    counts = count_position(cons)
    assert counts.layouts == 2
    assert pseudo_fifty_fifty(cons, counts) is None
    assert pseudo_fifty_fifty(cons, counts, boxes=True) in {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert potential_fifty_fifty(cons, counts, (0, 0)) == 0
    assert potential_fifty_fifty(cons, counts, (0, 0), boxes=True) == 1
