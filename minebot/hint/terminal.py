"""The hints as text: a board grid with marks and probabilities, for ``minebot hint --text``.

Each cell is three characters wide so a two-digit percentage fits: revealed numbers as
themselves (``.`` for zero), ``S`` certainly safe, ``M`` certainly a mine, ``W`` a wrong flag,
``F`` a flag, the best guess ``g`` with its percentage, and (with probabilities on) every other
uncertain cell's percentage. Colours are ANSI and only used on a terminal.
"""

from __future__ import annotations

import numpy as np

from ..board import CELL_CHARS, Cell
from .marks import Hints, Mark, short_percent

ANSI = {Mark.SAFE: "32;1", Mark.MINE: "31;1", Mark.WRONG: "35;1", Mark.GUESS: "33;1", Mark.PROOF: "34;1",
        Mark.TARGET: "36;1", Mark.PROBLEM: "41;37"}

LEGEND = ("S safe   M mine   W wrong flag   F flag   g best guess   NN mine %   "
          "- covered   . zero")


def _paint(text: str, kind: Mark | None, colour: bool) -> str:
    if not colour or kind is None:
        return text
    return f"\x1b[{ANSI[kind]}m{text}\x1b[0m"


def render_text(hints: Hints, probabilities: bool = False, colour: bool = False,
                explanation=None) -> str:
    """The board grid with marks (and percentages), a legend and the summary line."""
    board = hints.board
    prob = hints.probability if hints.probability is not None else np.full(board.shape, np.nan)
    kinds: dict[tuple[int, int], Mark] = {}
    if hints.ok:
        kinds.update({c: Mark.SAFE for c in hints.safe})
        kinds.update({c: Mark.MINE for c in hints.mines})
        kinds.update({c: Mark.WRONG for c in hints.wrong_flags})
        if hints.guess is not None:
            kinds[hints.guess] = Mark.GUESS
    else:
        kinds.update({c: Mark.PROBLEM for c in hints.problem_cells})
    colours = dict(kinds)
    if explanation is not None:
        colours.update({c: Mark.PROOF for c in explanation.numbers})
        colours[explanation.cell] = Mark.TARGET
    head = "    " + "".join(f"{c:>3}" for c in range(board.cols))
    lines = [head]
    for r in range(board.rows):
        row = [f"{r:>3} "]
        for c in range(board.cols):
            code = int(board.cells[r, c])
            kind = kinds.get((r, c))
            if code == 0:
                cell = "  ."
            elif code <= 8:
                cell = f"  {code}"
            elif kind == Mark.SAFE:
                cell = "  S"
            elif kind == Mark.MINE:
                cell = "  M"
            elif kind == Mark.WRONG:
                cell = "  W"
            elif kind == Mark.GUESS and hints.guess_p is not None:
                cell = "g" + short_percent(hints.guess_p).rjust(2)
            elif (hints.ok and probabilities and code in (Cell.COVERED, Cell.QUESTION)
                  and not np.isnan(prob[r, c]) and 0 < prob[r, c] < 1):
                cell = short_percent(float(prob[r, c])).rjust(3)
            else:
                cell = "  " + CELL_CHARS[code]
            row.append(_paint(cell, colours.get((r, c)), colour))
        lines.append("".join(row))
    lines.append(LEGEND)
    lines.append(hints.summary())
    if explanation is not None:
        lines.append(explanation.text())
    return "\n".join(lines) + "\n"
