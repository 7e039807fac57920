"""The two-guess look-ahead at close calls against an enumeration of every layout.

For each value a guess can show, the group of layouts showing it; in a group with a cell that
is safe in all of its layouts the next move is free (1); otherwise the next guess is the cell
with the best one-step value in that group, P(it is safe and so is the safest cell after its
own value). The enumeration knows nothing of counting, constraints or pruning."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.board import neighbours
from minebot.solver import GuessKind, Solver
from minebot.solver.constraints import build_constraints
from minebot.solver.lookahead import StepBudget
from minebot.solver.probability import CountCache, count_position
from minebot.solver.strategy import Guesser
from minebot.solver.two_guess import two_guess_survival
from tests.test_solver_bruteforce import brute_force, random_position


def _groups(group: np.ndarray, j: int, around: list[int]) -> list[np.ndarray]:
    """The layouts of ``group`` where cell j is safe, split by the number it shows."""
    alive = group[~group[:, j]]
    values = alive[:, around].sum(axis=1)
    return [alive[values == v] for v in np.unique(values)]


class Enumeration:
    """Survival values computed from the explicit layout matrix (layout x unknown cell)."""

    def __init__(self, board):
        unknown, layouts = brute_force(board, board.mines)
        self.unknown = unknown
        self.layouts = layouts.astype(bool)
        self.around = [[unknown.index(x) for x in neighbours(board.rows, board.cols, *cell) if x in unknown]
                       for cell in unknown]

    def _open(self, opened: set[int]) -> list[int]:
        return [j for j in range(len(self.unknown)) if j not in opened]

    def free(self, group: np.ndarray, opened: set[int]) -> bool:
        """A cell safe in every layout, or nothing left but mines (won)."""
        rest = self._open(opened)
        return any(not group[:, j].any() for j in rest) or all(group[:, j].all() for j in rest)

    def safest(self, group: np.ndarray, opened: set[int]) -> float:
        return max(1.0 - group[:, j].mean() for j in self._open(opened))

    def one_step(self, group: np.ndarray, opened: set[int]) -> float:
        """The best P(guess safe and the safest next cell safe) in this group."""
        best = 0.0
        for j in self._open(opened):
            if group[:, j].all():
                continue
            value = 0.0
            for sub in _groups(group, j, self.around[j]):
                after = opened | {j}
                value += len(sub) / len(group) * (1.0 if self.free(sub, after) else self.safest(sub, after))
            best = max(best, value)
        return best

    def two_guess(self, cell) -> float:
        k = self.unknown.index(cell)
        total = 0.0
        for sub in _groups(self.layouts, k, self.around[k]):
            nxt = 1.0 if self.free(sub, {k}) else self.one_step(sub, {k})
            total += len(sub) / len(self.layouts) * nxt
        return total


def _positions(seed: int, wanted: int):
    """Tiny random positions with no background (every unknown cell next to a number): there
    the guesser's candidates, with a margin of 1 and no cap, are all the cells that can be safe."""
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(20000):
        board, _layout = random_position(rng, max_unknown=12)
        cons = build_constraints(board, board.mines)
        if cons.background or len(cons.cells) < 3:
            continue
        analysis = Solver().analyse(board, board.mines)
        if analysis.safe or len(analysis.mines) == int(board.unknown.sum()):
            continue              # a guess position: no certain safe cell, not won already
        yield board, cons
        found += 1
        if found >= wanted:
            return


def test_two_guess_survival_matches_enumeration():
    guesser = Guesser(CountCache(), candidates=100, margin=1.0)
    checked = deeper = 0
    for board, cons in _positions(3, 600):
        counts = count_position(cons)
        truth = Enumeration(board)
        for v, cell in enumerate(cons.cells):
            safe = 1.0 - counts.mine_weight[v] / counts.layouts
            if safe == 0:
                continue
            got = two_guess_survival(guesser, cons, cell, counts.layouts, safe, -1.0, StepBudget(10 ** 9))
            want = truth.two_guess(cell)
            assert got == pytest.approx(want, abs=1e-9), (str(board), cell)
            one_step = guesser.look_ahead(cons, counts, cell).survive
            assert got <= one_step + 1e-12          # one more guess can only cost
            checked += 1
            deeper += got < one_step - 1e-9
    # Most tiny positions leave a certain cell after any value, where both depths agree: the
    # test also has to see a good number where the second guess matters.
    assert checked >= 200 and deeper >= 10


def test_close_calls_choose_the_best_two_guess_cell():
    """With every cell a close call, the choice is a cell whose two-guess survival is the best
    any cell has, by enumeration."""
    guesser = Guesser(CountCache(), candidates=100, margin=1.0, endgame_layouts=0,
                      close_margin=1.0, close_candidates=100, close_budget=10 ** 9)
    chosen = 0
    for board, cons in _positions(5, 25):
        counts = count_position(cons)
        choice = guesser.choose(cons, counts)
        if choice.kind is not GuessKind.TWO_GUESS:
            continue                           # a forced 50/50, or one candidate only
        truth = Enumeration(board)
        best = max(truth.two_guess(cell) for v, cell in enumerate(cons.cells)
                   if counts.mine_weight[v] < counts.layouts)
        assert choice.score == pytest.approx(best, abs=1e-9)
        assert truth.two_guess(choice.cell) == pytest.approx(best, abs=1e-9)
        chosen += 1
    assert chosen >= 10


def test_an_exhausted_close_call_budget_keeps_the_one_step_choice():
    plain = Guesser(CountCache(), endgame_layouts=0)
    starved = Guesser(CountCache(), endgame_layouts=0, close_margin=1.0, close_budget=1)
    for _board, cons in _positions(6, 15):
        counts = count_position(cons)
        assert starved.choose(cons, counts).cell == plain.choose(cons, counts).cell


def test_close_call_options_are_checked():
    for bad in ({"close_margin": -0.1}, {"close_candidates": 1}, {"close_budget": 0}):
        with pytest.raises(ValueError):
            Solver(**bad)
