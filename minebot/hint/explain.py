"""Why a cell is what the hint says: the proof of a certain cell, the arithmetic of a guess.

The solver finds a minimal set of revealed numbers that forces a cell (an UNSAT core); this
module turns it into the sentence a teacher would say, plus one line per number listing the
unknown cells it touches, so the player can redo the reasoning. For an uncertain cell the
sentence gives the exact fraction of layouts with a mine there and how the total mine count
changed it (when a second analysis without the total is supplied).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..bignum import count_text, fraction_text
from ..board import Board, Cell, neighbour_count
from .marks import ExplainableAnalysis, format_percent

Coord = tuple[int, int]


@dataclass(frozen=True)
class Explanation:
    """``kind`` is "safe", "mine", "guess", "revealed" or "unknown" (no probability known)."""

    cell: Coord
    kind: str
    numbers: tuple[Coord, ...]
    uses_total: bool
    probability: float | None
    sentence: str
    steps: tuple[str, ...] = ()

    def text(self) -> str:
        return "\n".join((self.sentence,) + tuple(f"  - {s}" for s in self.steps))


def _fmt(cell: Coord) -> str:
    return f"({cell[0]},{cell[1]})"


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _proof(analysis: ExplainableAnalysis, cell: Coord) -> tuple[list[Coord], bool]:
    """(numbers, uses_total) from the solver."""
    numbers, total = analysis.explanation(cell)
    return sorted((int(r), int(c)) for r, c in numbers), bool(total)


def _number_step(board: Board, number: Coord) -> str:
    """"the 2 at (3,4) touches 3 unknown cells (..) and 1 flag" — the facts of one number."""
    r, c = number
    value = int(board.cells[r, c])
    unknown = [n for n in board.neighbours(r, c) if board.unknown[n]]
    shown = [n for n in board.neighbours(r, c)
             if board.cells[n] in (Cell.MINE, Cell.EXPLODED)]
    text = f"the {value} at {_fmt(number)} needs {value - len(shown)} mine(s) among " \
           f"{len(unknown)} unknown neighbour(s): " + " ".join(_fmt(n) for n in unknown)
    flagged = [n for n in unknown if board.cells[n] == Cell.FLAG]
    if flagged:
        text += f" (flags, not trusted: {' '.join(_fmt(n) for n in flagged)})"
    return text


def background_cells(board: Board) -> np.ndarray:
    """Unknown cells no revealed number touches: only the mine total speaks about them."""
    return board.unknown & (neighbour_count(board.revealed) == 0)


def explain_cell(board: Board, analysis: ExplainableAnalysis, cell: Coord, mines: int | None = None,
                 without_total: ExplainableAnalysis | None = None) -> Explanation:
    """Explain ``cell`` on ``board`` with the solver's ``analysis``.

    ``mines`` is the total used for the analysis (defaults to ``board.mines``);
    ``without_total`` is an optional analysis of the same board with no mine total, used to
    show how much the total moved a guess's probability.
    """
    r, c = int(cell[0]), int(cell[1])
    if not (0 <= r < board.rows and 0 <= c < board.cols):
        raise ValueError(f"cell {_fmt((r, c))} is outside the {board.rows}x{board.cols} board")
    cell = (r, c)
    total = mines if mines is not None else board.mines
    if not board.unknown[cell]:
        value = board[cell]
        what = f"a revealed {value}" if isinstance(value, int) else f"shown as {Cell(value).name.lower()}"
        return Explanation(cell, "revealed", (), False, None,
                           f"{_fmt(cell)} is {what}: nothing to decide.")
    safe, mines_ = set(map(tuple, analysis.safe)), set(map(tuple, analysis.mines))
    if cell in safe or cell in mines_:
        is_safe = cell in safe
        numbers, uses_total = _proof(analysis, cell)
        flag_note = ""
        if board.cells[cell] == Cell.FLAG and is_safe:
            flag_note = " Your flag there is wrong."
        listed = [f"the {int(board.cells[n])} at {_fmt(n)}" for n in numbers]
        if numbers:
            because = "because of " + _join(listed)
            if uses_total:
                because += f" together with the total of {total} mines"
        else:
            because = f"because of the total of {total} mines alone"
        if is_safe:
            sentence = (f"{_fmt(cell)} is certainly safe {because}: every layout that fits "
                        f"{'them' if len(numbers) != 1 or uses_total else 'it'} leaves it empty.")
        else:
            sentence = (f"{_fmt(cell)} is certainly a mine {because}: every layout that fits "
                        f"{'them' if len(numbers) != 1 or uses_total else 'it'} puts a mine there.")
        steps = [_number_step(board, n) for n in numbers]
        if uses_total and total is not None:
            bg = int(background_cells(board).sum())
            steps.append(f"the game has {total} mines in all; {bg} unknown cell(s) touch no number")
        return Explanation(cell, "safe" if is_safe else "mine", tuple(numbers), uses_total,
                           0.0 if is_safe else 1.0, sentence + flag_note, tuple(steps))
    return _explain_guess(board, analysis, cell, total, without_total)


def _explain_guess(board: Board, analysis: ExplainableAnalysis, cell: Coord, total: int | None,
                   without_total: ExplainableAnalysis | None) -> Explanation:
    frac = analysis.fraction(cell)
    touching = sorted(n for n in board.neighbours(*cell) if board.revealed[n])
    bg_cells = int(background_cells(board).sum())
    if frac is None:
        return Explanation(cell, "unknown", (), False, None,
                           f"{_fmt(cell)} touches no revealed number and the mine total is "
                           "unknown, so no probability can be given.")
    p = float(frac)
    layouts = analysis.layouts
    steps: list[str] = []
    if layouts:
        with_mine = frac.numerator * layouts // frac.denominator
        if total is not None:
            how = (f"{count_text(with_mine)} of the {count_text(layouts)} mine layouts that fit every revealed number "
                   f"and the total of {total} mines put a mine there")
        else:
            how = (f"{count_text(with_mine)} of the {count_text(layouts)} ways to place mines around the revealed numbers "
                   "put a mine there (mine total unknown)")
    else:
        how = "computed exactly over every layout that fits the revealed numbers"
    sentence = f"{_fmt(cell)} is a guess: {format_percent(p)} chance of a mine ({fraction_text(frac)}); {how}."
    if touching:
        steps.append("numbers touching it: " + ", ".join(
            f"the {int(board.cells[n])} at {_fmt(n)}" for n in touching))
    else:
        steps.append(f"no number touches it: it is one of {bg_cells} untouched cell(s) that "
                     "share the mines the numbers leave over")
    if total is not None:
        if without_total is not None and touching:
            base = without_total.fraction(cell)
            base_layouts = without_total.layouts
            if base is not None:
                count = f" ({count_text(base_layouts)} layouts around the numbers)" if base_layouts else ""
                steps.append(
                    f"the numbers alone give {format_percent(float(base))}{count}; weighting each "
                    f"layout by the ways the remaining mines of the {total} fit into the "
                    f"{bg_cells} untouched cell(s) gives {format_percent(p)}")
        else:
            steps.append(f"each layout is weighted by the ways the remaining mines of the {total} "
                         f"fit into the {bg_cells} untouched cell(s)")
    return Explanation(cell, "guess", tuple(touching), total is not None, p, sentence, tuple(steps))
