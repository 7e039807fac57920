"""minebot: a bot that reads the real Minesweeper window, reasons about it and plays it.

The public surface is small: ``Board`` (the position and its text format), ``Move``, and the
``Game`` interface. Heavy parts (opencv, SAT, X11, D-Bus) are imported only by the
modules that need them, so ``import minebot`` works on a machine with no display.
"""

from .board import Board, Cell, GameState
from .move import Action, Move

__version__ = "0.1.0"
__all__ = ["Board", "Cell", "GameState", "Action", "Move", "__version__"]
