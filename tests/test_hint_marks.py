"""The hint's decisions (what to mark, what to say), checked against brute-force enumeration
of every mine layout on small boards: no display, the real solver."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from minebot.board import Board, GameState
from minebot.hint import advise_board, compute_hints, explain_cell, format_percent
from minebot.hint.marks import best_guess, short_percent
from minebot.solver import Solver


def layouts(board: Board, mines: int | None):
    """Every mine set over the unknown cells that satisfies every revealed number."""
    unknown = [tuple(map(int, rc)) for rc in zip(*np.nonzero(board.unknown))]
    numbers = [tuple(map(int, rc)) for rc in zip(*np.nonzero(board.revealed))]
    sizes = [mines] if mines is not None else range(len(unknown) + 1)
    for k in sizes:
        for combo in itertools.combinations(unknown, k):
            chosen = set(combo)
            if all(sum((n in chosen) for n in board.neighbours(*cell)) == board.cells[cell]
                   for cell in numbers):
                yield chosen


def truth(board: Board, mines: int | None):
    """(always safe, always mine, mine fraction per cell) over all layouts."""
    found = list(layouts(board, mines))
    assert found, "test board must be consistent"
    unknown = [tuple(map(int, rc)) for rc in zip(*np.nonzero(board.unknown))]
    count = {c: sum(c in lay for lay in found) for c in unknown}
    safe = {c for c in unknown if count[c] == 0}
    mine = {c for c in unknown if count[c] == len(found)}
    frac = {c: Fraction(count[c], len(found)) for c in unknown}
    return safe, mine, frac, len(found)


BOARD = Board.parse("""{"mines": 4}
--F--
-21--
-1---
-1100
-----
""")


def test_marks_match_brute_force():
    solver = Solver()
    analysis = solver.analyse(BOARD)
    hints = compute_hints(BOARD, analysis)
    safe, mine, _, _ = truth(BOARD, 4)
    flags = {tuple(map(int, rc)) for rc in zip(*np.nonzero(BOARD.flags))}
    assert set(hints.safe) == safe - flags
    assert set(hints.mines) == mine - flags
    assert set(hints.wrong_flags) == safe & flags
    assert hints.ok
    # nothing is marked twice and only unknown cells are marked
    marked = list(hints.safe) + list(hints.mines) + list(hints.wrong_flags)
    assert len(marked) == len(set(marked))
    assert all(BOARD.unknown[c] for c in marked)


def test_wrong_flag_is_marked_not_trusted():
    # The 1 at (0,0) has exactly one unknown neighbour left besides the flag... make the flag
    # provably wrong: the 1 at (1,1)'s only mine must be (2,2) because of the 1 at (2,3)... use
    # a plain case: a 0 next to a flag proves the flag wrong.
    board = Board.parse("""{"mines": 1}
0F--
11--
----
""")
    hints = compute_hints(board, Solver().analyse(board))
    assert hints.wrong_flags == ((0, 1),)
    assert (0, 1) not in hints.safe
    expl = explain_cell(board, Solver().analyse(board), (0, 1))
    assert expl.kind == "safe" and "flag there is wrong" in expl.sentence


def test_correct_flag_needs_no_mark_but_unflagged_mine_does():
    board = Board.parse("""{"mines": 1}
1F-
11-
---
""")
    analysis = Solver().analyse(board)
    hints = compute_hints(board, analysis)
    assert (0, 1) in analysis.mines
    assert (0, 1) not in hints.mines and (0, 1) not in hints.wrong_flags


def test_guess_only_when_nothing_is_safe_and_is_least_likely():
    board = Board.parse("""{"mines": 4}
1---
----
----
----
""")
    solver = Solver()
    analysis = solver.analyse(board)
    safe, mine, frac, _ = truth(board, 4)
    assert not safe
    hints = compute_hints(board, analysis)
    assert hints.guess is not None
    candidates = {c: f for c, f in frac.items() if c not in mine}
    assert frac[hints.guess] == min(candidates.values())
    assert hints.guess_p == pytest.approx(float(frac[hints.guess]))
    # with a certain safe cell there is no guess
    board3 = Board.parse('{"mines": 1}\n0F--\n11--\n----\n')
    assert compute_hints(board3, solver.analyse(board3)).guess is None
    # Through the solver's own guess too (advise): the probability shown is the exact one.
    hints2, _ = advise_board(board, solver)
    if hints2.guess is not None:
        assert hints2.guess_p == pytest.approx(float(frac[hints2.guess]))


def test_best_guess_ignores_flags_and_certain_cells():
    board = Board.parse("F--\n---\n")
    prob = np.array([[0.0, 0.5, 0.2], [0.3, 0.2, 0.9]])
    assert best_guess(board, prob, {(0, 2)}) == ((1, 1), 0.2)
    assert best_guess(board, prob, set()) == ((0, 2), 0.2)


def test_inconsistent_board_shows_no_hints_and_names_numbers():
    board = Board.parse("""{"mines": 5}
3--
-0-
---
""")
    hints, expl = advise_board(board, explain=(0, 1))
    assert not hints.ok
    assert "inconsistent" in hints.problem
    assert hints.safe == () and hints.mines == () and hints.guess is None
    assert expl is None
    assert set(hints.problem_cells) <= {(0, 0), (1, 1)} and hints.problem_cells


@pytest.mark.parametrize("state", [GameState.LOST, GameState.WON, GameState.PAUSED])
def test_finished_or_paused_game_gets_no_hints(state):
    board = Board.parse("1-\n--\n").replace(state=state, mines=1)
    hints, _ = advise_board(board)
    assert not hints.ok and hints.safe == () and hints.guess is None


def test_fresh_board_notes_first_click():
    hints, _ = advise_board(Board.covered(8, 8, 10))
    assert hints.ok and hints.safe == () and hints.guess is None
    assert "first click" in hints.summary()


def _forced_by(board: Board, numbers, cell, mines_total=None) -> bool:
    """Brute force: with only ``numbers`` as constraints, is ``cell``'s content forced?"""
    scope = sorted({n for num in numbers for n in board.neighbours(*num) if board.unknown[n]}
                   | {cell})
    values = set()
    for bits in itertools.product((0, 1), repeat=len(scope)):
        lay = {c for c, b in zip(scope, bits) if b}
        if all(sum(n in lay for n in board.neighbours(*num)) == board.cells[num] for num in numbers):
            values.add(cell in lay)
    return len(values) == 1


EXPLAIN_BOARD = Board.parse("""{"mines": 5}
12--1-
-2---1
--11-0
0----1
-01---
""")


def test_explanations_of_certain_cells_are_proofs():
    solver = Solver()
    analysis = solver.analyse(EXPLAIN_BOARD)
    safe, mine, _, _ = truth(EXPLAIN_BOARD, 5)
    assert safe | mine, "the board must have certain cells"
    for cell in sorted(safe | mine):
        expl = explain_cell(EXPLAIN_BOARD, analysis, cell)
        assert expl.kind == ("safe" if cell in safe else "mine")
        for number in expl.numbers:
            assert EXPLAIN_BOARD.revealed[number]
            assert f"the {EXPLAIN_BOARD.cells[number]} at ({number[0]},{number[1]})" in expl.sentence
        if not expl.uses_total:
            assert _forced_by(EXPLAIN_BOARD, expl.numbers, cell)
        assert len(expl.steps) >= len(expl.numbers)


def test_guess_explanation_gives_exact_fraction_and_layout_count():
    board = Board.parse("""{"mines": 3}
-1---
-1---
-----
""")
    solver = Solver()
    analysis = solver.analyse(board)
    _, _, frac, n_layouts = truth(board, 3)
    cell = (0, 0)
    expl = explain_cell(board, analysis, cell, without_total=solver.analyse(board.replace(mines=None)))
    assert expl.kind == "guess"
    assert expl.probability == pytest.approx(float(frac[cell]))
    assert f"of the {n_layouts} mine layouts" in expl.sentence
    with_mine = frac[cell] * n_layouts
    assert expl.sentence.split(";")[1].strip().startswith(f"{with_mine}")
    assert format_percent(float(frac[cell])) in expl.sentence
    # how the total weighed in: the frontier-only figure is stated too
    assert any("numbers alone give" in s for s in expl.steps)


def test_explain_revealed_and_unknown_total():
    board = Board.parse("-1-\n---\n")
    analysis = Solver().analyse(board)
    assert explain_cell(board, analysis, (0, 1)).kind == "revealed"
    # no number touches (1,... all touch here); a background cell without a total:
    board2 = Board.parse("-1---\n-----\n")
    expl = explain_cell(board2, Solver().analyse(board2), (0, 4))
    assert expl.kind == "unknown" and expl.probability is None
    with pytest.raises(ValueError):
        explain_cell(board, analysis, (5, 5))


def test_percent_formats_never_round_to_certainty():
    assert format_percent(0.004) == "0.4%"
    assert format_percent(0.996) == "99.6%"
    assert format_percent(0.5) == "50%"
    assert short_percent(0.001) == "1" and short_percent(0.999) == "99"
    assert short_percent(0.3333) == "33"
