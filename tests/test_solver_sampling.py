"""The layout sampler against brute force: every draw is a consistent layout, and the draws are
uniform over the enumerated layouts (a chi-square test that the two plausible wrong samplers,
shown here, fail)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from minebot.board import Board, Cell, neighbour_count
from minebot.errors import BadInputError, InconsistentBoardError
from minebot.game.engine import EngineGame
from minebot.move import Action, Move
from minebot.solver import analyse
from minebot.solver.constraints import build_constraints
from minebot.solver.sampling import LayoutSampler, below, pick
from tests.test_solver_bruteforce import brute_force, random_position

DRAWS_PER_LAYOUT = 30


def positions(seed: int, count: int, max_layouts: int = 60):
    """Small random positions with a mine total and 2..max_layouts layouts, with their layouts
    (rows: unknown cells as in ``brute_force``)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        board, _ = random_position(rng, max_unknown=12)
        unknown, layouts = brute_force(board, board.mines)
        if 2 <= len(layouts) <= max_layouts:
            out.append((board, unknown, layouts))
    return out


def chi_square_z(counts: list[np.ndarray]) -> float:
    """The pooled chi-square statistic of observed counts against uniform, as a z-score
    (Wilson-Hilferty: (X/k)^(1/3) is close to normal): about N(0, 1) for a uniform sampler."""
    stat, dof = 0.0, 0
    for observed in counts:
        expected = observed.sum() / len(observed)
        stat += float(((observed - expected) ** 2 / expected).sum())
        dof += len(observed) - 1
    a = 2.0 / (9 * dof)
    return ((stat / dof) ** (1 / 3) - (1 - a)) / math.sqrt(a)


def layout_index(layouts: np.ndarray, unknown, drawn: np.ndarray) -> int:
    """Which enumerated layout a drawn board is; -1 when none (an inconsistent draw)."""
    row = np.array([drawn[c] for c in unknown], dtype=layouts.dtype)
    hit = np.flatnonzero((layouts == row).all(axis=1))
    return int(hit[0]) if hit.size else -1


def tally(cases, draw) -> list[np.ndarray]:
    """Per position, how often ``draw(board, unknown, layouts, rng)`` returned each layout."""
    rng = np.random.default_rng(7)
    out = []
    for board, unknown, layouts in cases:
        seen = np.zeros(len(layouts), dtype=np.int64)
        for _ in range(DRAWS_PER_LAYOUT * len(layouts)):
            seen[draw(board, unknown, layouts, rng)] += 1
        out.append(seen)
    return out


CASES = positions(2024, 60)


def test_sampler_counts_the_layouts_and_draws_only_consistent_ones():
    rng = np.random.default_rng(3)
    for board, unknown, layouts in CASES:
        sampler = LayoutSampler(build_constraints(board, board.mines))
        assert sampler.layouts == len(layouts)
        for _ in range(20):
            drawn = sampler.draw(rng)
            assert drawn.sum() == board.mines
            assert not (drawn & ~board.unknown).any()
            assert layout_index(layouts, unknown, drawn) >= 0


def test_sampler_is_uniform_over_the_layouts():
    samplers = {id(board): LayoutSampler(analyse(board, board.mines).constraints) for board, _, _ in CASES}

    def draw(board, unknown, layouts, rng):
        return layout_index(layouts, unknown, samplers[id(board)].draw(rng))

    assert abs(chi_square_z(tally(CASES, draw))) < 4.0


def _background_mines(board: Board, unknown, layouts: np.ndarray) -> np.ndarray:
    """Mines of each layout in the background (unknown cells next to no number)."""
    background = [i for i, cell in enumerate(unknown)
                  if not any(board.revealed[x] for x in board.neighbours(*cell))]
    return layouts[:, background].sum(axis=1), len(background)


def test_the_uniformity_test_fails_a_sampler_that_ignores_the_background_weight():
    """A sampler that draws the mine counts by the frontier's layouts alone (no C(U, M - k)) and
    then the background uniformly gives each layout a weight 1 / C(U, background mines)."""
    def draw(board, unknown, layouts, rng):
        k, u = _background_mines(board, unknown, layouts)
        weight = np.array([1.0 / math.comb(u, int(x)) for x in k])
        return int(rng.choice(len(layouts), p=weight / weight.sum()))

    assert chi_square_z(tally(CASES, draw)) > 8.0


def test_the_uniformity_test_fails_a_sampler_by_independent_marginals():
    """Each cell a mine with its exact marginal probability, independently, redrawn until the
    layout fits: every draw is consistent, but layouts are weighted by their marginals' product."""
    def draw(board, unknown, layouts, rng):
        p = layouts.mean(axis=0)
        while True:
            found = layout_index(layouts, unknown, dict(zip(unknown, rng.random(len(unknown)) < p)))
            if found >= 0:
                return found

    assert chi_square_z(tally(CASES, draw)) > 8.0


def test_big_positions_draw_exact_counts_with_the_right_total():
    """An expert-sized position: counts beyond 64 bits, every draw has the mine total and
    agrees with every number."""
    rng = np.random.default_rng(5)
    game = EngineGame(16, 30, 99, rules="zero", seed=12)
    board = game.act([Move(Action.OPEN, (3, 3))])
    sampler = LayoutSampler(build_constraints(board, 99))
    assert sampler.layouts > 1 << 64
    for _ in range(50):
        drawn = sampler.draw(rng)
        assert drawn.sum() == 99
        shown = board.revealed
        assert (neighbour_count(drawn)[shown] == board.cells[shown]).all()


def test_no_total_and_no_layout_are_refused():
    cells = np.full((3, 3), Cell.COVERED, np.int8)
    cells[1, 1] = 1
    with pytest.raises(BadInputError):
        LayoutSampler(build_constraints(Board(cells, None), None))
    cells[0, 0] = 0          # the 1 sees 7 cells, the 0 clears 3 of them: fine; now break it
    cells[0, 1] = 3
    with pytest.raises(InconsistentBoardError):
        LayoutSampler(build_constraints(Board(cells, 3), 3))


def test_exact_draws_of_huge_integers_are_uniform():
    rng = np.random.default_rng(11)
    n = 3 << 70                               # beyond int64: the byte path
    draws = [below(rng, n) for _ in range(3000)]
    assert all(0 <= x < n for x in draws)
    thirds = np.bincount([x // (1 << 70) for x in draws], minlength=3)
    assert (abs(thirds - 1000) < 120).all()
    weights = [1 << 80, 0, 3 << 80]
    picked = np.bincount([pick(rng, weights) for _ in range(4000)], minlength=3)
    assert picked[1] == 0 and abs(picked[0] - 1000) < 120
