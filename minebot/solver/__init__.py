"""The solver: certain cells by SAT backbone, exact probabilities, and the move to play.

Public API: ``Solver`` (``analyse``, ``next_moves``) and ``Analysis``. SAT details stay inside
this package.
"""

from .analysis import Analysis, analyse
from .solver import Solver

__all__ = ["Analysis", "Solver", "analyse"]
