"""The solver: certain cells by SAT backbone, exact probabilities, and the move to play.

Public API (SAT details stay inside this package)::

    from minebot.solver import Solver, Analysis
    solver = Solver()                       # or Solver("binomial"), Solver(flag=True)
    result = solver.analyse(board, mines=None)
    result.safe, result.mines               # proved cells, sorted (row, col)
    result.wrong_flags                      # flags on cells proved safe
    result.probability                      # rows x cols float, NaN where not unknown
    result.fraction(cell)                   # exact Fraction (None where undefined)
    result.layouts, result.mines_known      # how many layouts the probabilities count
    result.explain(cell)                    # smallest set of numbers proving a certain cell
    result.explanation(cell)                # (numbers, whether the mine total is needed)
    result.describe(cell)                   # one line: how the cell's probability was found
    moves = solver.next_moves(board, mines=None, rules=None, first_click=None)
    solver.last_reason                      # why those moves (for the overlay and logs)
    choice = solver.guess(result)           # a guess alone: Choice(cell, p_mine, score, reason, kind)

``analyse`` raises ``InconsistentBoardError`` (exit code 3) naming the smallest set of
contradicting numbers it finds (``err.cells``; ``err.uses_total`` when the mine total is part
of the contradiction). ``next_moves`` returns every certain safe cell in one batch, or exactly
one guess (a Move whose ``p_mine`` is its exact mine probability); flags only with
``Solver(flag=True)``. ``noguess.no_guess_layouts`` draws boards logic alone can solve;
``sampling.LayoutSampler(result.constraints).draw(rng)`` draws a whole mine layout uniformly
among those that agree with a position and its mine total (exact counts, no rejection), for
rollouts that play a guess out on many layouts.
"""

from .analysis import Analysis, analyse, check_rules
from .solver import DEFAULT_GUESSING, PRESETS, MoveKind, Solver
from .strategy import Choice, GuessKind

__all__ = ["Analysis", "Choice", "GuessKind", "MoveKind", "DEFAULT_GUESSING", "PRESETS", "Solver", "analyse",
           "check_rules"]
