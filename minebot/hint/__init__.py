"""Hints for a human player: what is certain, what is likely, and why.

``compute_hints(board, analysis)`` decides the marks (pure, no display); ``explain_cell`` says
why a cell is certain or how likely it is; ``draw_hints`` paints the marks on a screenshot,
``render_text`` prints them, and ``minebot.hint.overlay`` shows them over the live game with
shaped X windows (python-xlib, imported only there).
"""

from .advise import advise as advise_board
from .draw import LAYERS, DrawOptions, draw_hints, hint_layers, paint
from .explain import Explanation, explain_cell
from .marks import Hints, Mark, compute_hints, format_percent, inconsistent_hints, no_hints
from .terminal import render_text

__all__ = ["advise_board", "LAYERS", "DrawOptions", "draw_hints", "hint_layers", "paint", "Explanation",
           "explain_cell", "Hints", "Mark", "compute_hints", "format_percent", "inconsistent_hints",
           "no_hints", "render_text"]
