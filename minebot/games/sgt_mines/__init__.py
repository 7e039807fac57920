"""Simon Tatham's Mines: ``profile`` (its window, scaled bevelled lattice, looks, no-guess rules,
"Marked: F / T" status bar), ``ui`` (its keys and its end of a game). Its template set is
``templates/sgt-mines``; the private copy the tests and ``demo`` start is
its ``launcher`` (``SgtMines``, on the sandbox side: the sandbox stays out of production code)."""

from .profile import PROFILE

__all__ = ["PROFILE"]
