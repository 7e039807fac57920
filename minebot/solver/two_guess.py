"""A second guess of look-ahead, for close calls between the one-step look-ahead's best cells.

The one-step look-ahead scores a guess c by P(c is safe and so is the best next move), where
the best next move after each value v that c can show is the safest cell of that position (or
a certain cell). When two candidates score within a hair of each other that figure cannot
tell them apart well: what follows a value that leaves no certain cell is itself a guess, and
a guess is worth more than its bare safety when it is likely to open things up.

So at such close calls each of the top candidates is scored one level deeper:

    sum over v of P(v) * next(v),
    next(v) = 1                                      when v makes some cell certain,
            = max over the next position's candidates c' of
              P(c' is safe and so is the best move after it)   otherwise,

that is, the next position's guess is chosen by its own one-step look-ahead and counted at its
one-step value instead of its plain safety. Every count is exact (the counting DP over the
position with c revealed as v, then with c' revealed as v'), so the score is an exact
probability of the same kind as the one-step one, one guess longer; tests check it against an
enumeration of layouts. The work is counted in the same steps as the one-step look-ahead and
bounded by its own budget; if the budget runs out before every close candidate is scored, the
one-step choice stands (a partial comparison would favour whichever cell came first).
"""

from __future__ import annotations

from typing import Protocol

from ..board import neighbours
from .backbone import any_certain_safe
from .constraints import Constraints, Reveal
from .lookahead import StepBudget, evaluation_steps, revealed_position, two_best_safeties
from .probability import CountCache, Counts

Coord = tuple[int, int]


class OneStepGuesser(Protocol):
    """What the two-guess look-ahead needs of the one-step look-ahead (``strategy.Guesser``
    is one): its candidates in a position, its bounded score of one of them, and its count
    cache (shared, so positions both look at are counted once)."""

    cache: CountCache

    def candidate_pool(self, cons: Constraints, counts: Counts) -> tuple[list[Coord], dict[Coord, float]]: ...

    def bounded_look_ahead(self, cons: Constraints, cell: Coord, layouts: int, safe: float = 1.0,
                           floor: float = -1.0, budget: StepBudget | None = None,
                           fifty: float = 1.0) -> tuple[float, ...] | None: ...


class OutOfSteps(Exception):
    """The two-guess budget ran out: the comparison is incomplete and must not be used."""


def best_one_step(guesser: OneStepGuesser, cons: Constraints, counts: Counts, budget: StepBudget) -> float:
    """The best one-step look-ahead value among the guesser's candidates in this position.

    Raises OutOfSteps when the budget runs out first. A position whose unknown cells are all
    mines is won: 1."""
    if two_best_safeties(counts, cons)[0] == 1.0:
        return 1.0
    pool, safety = guesser.candidate_pool(cons, counts)
    best = 0.0
    for cell in sorted(pool, key=lambda c: -safety[c]):
        if safety[cell] <= best + 1e-12:
            break                      # sorted by safety: no later cell can score more
        found = guesser.bounded_look_ahead(cons, cell, counts.layouts, safety[cell], best, budget)
        if budget.spent:
            raise OutOfSteps
        if found is not None:
            best = max(best, found[0])
    return best


def two_guess_survival(guesser: OneStepGuesser, cons: Constraints, cell: Coord, layouts: int, safe: float,
                       floor: float, budget: StepBudget) -> float | None:
    """P(``cell`` is safe and so are the next guesses, each chosen by the one-step look-ahead),
    counting a value that leaves a certain cell as survival (see the module docstring).

    None as soon as it provably stays below ``floor``; raises OutOfSteps when the budget ends.
    ``layouts`` is the position's total weight and ``safe`` the cell's safety."""
    survive = seen = 0.0
    reveal = Reveal(cons, cell)
    for value in range(len(list(neighbours(*cons.shape, *cell))) + 1):
        if survive + (safe - seen) < floor - 1e-12:
            return None
        found = revealed_position(reveal, value, guesser.cache)
        if found is None:
            continue
        nxt, counts = found
        budget.spend(evaluation_steps(nxt, counts))
        if budget.spent:
            raise OutOfSteps
        p_value = counts.layouts / layouts
        seen += p_value
        survive += p_value * (1.0 if any_certain_safe(nxt) else best_one_step(guesser, nxt, counts, budget))
    return survive


def rescore_close_calls(guesser: OneStepGuesser, cons: Constraints, close: list[tuple[float, Coord]],
                        safety: dict[Coord, float], layouts: int,
                        budget: StepBudget) -> tuple[Coord, float] | None:
    """(cell, two-guess survival) of the best of ``close`` ((one-step score, cell), best first),
    or None when the budget ran out before all of them were compared."""
    best_cell, best = None, -1.0
    try:
        for _score, cell in close:
            found = two_guess_survival(guesser, cons, cell, layouts, safety[cell], best, budget)
            if found is not None and found > best + 1e-12:
                best_cell, best = cell, found
    except OutOfSteps:
        return None
    return None if best_cell is None else (best_cell, best)
