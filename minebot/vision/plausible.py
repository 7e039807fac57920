"""Whether the cells read from a frame make a board any Minesweeper game can show.

Why: a look (template set or number look) that is not the frame's own can still put a label
on every cell within its distance limit: the number look finds "ink" of a number's colour in
another game's bevels and shades, a flat open-cell look fits another game's plain covered
tile. Read with the wrong game or set forced, a fresh GNOME Mines board came out as twenty
rows of 8s (a "won" game) or of 0s. Such a board breaks rules every real frame obeys, in
every game and theme, whatever its looks; checking them is independent of any one look:

* a number never exceeds the neighbours that may hold a mine (covered, flagged, "?", shown
  mines, wrong flags): the game counted real mines among them;
* at least one cell may hold a mine: every game has at least one mine, and its mines stay
  covered, flagged or shown until the end.

A number read with several candidate digits (``unsure``) is held to its smallest candidate.
The check is cheap (whole-array counts) and runs on every read.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Cell, neighbour_count

MINE_HOLDERS = (Cell.COVERED, Cell.FLAG, Cell.QUESTION, Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)
"""Cells that may hide or show a mine; every other cell is revealed and mine-free."""


@dataclass(frozen=True)
class Implausible:
    """Why a board read cannot be a real frame: a sentence, and the cells that show it."""

    reason: str
    cells: list[tuple[int, int]]


def implausible(codes: np.ndarray, unsure: dict[tuple[int, int], tuple[int, ...]] | None = None
                ) -> Implausible | None:
    """The first rule of the module docstring that ``codes`` ((rows, cols) cell codes) breaks,
    or None when the board is one a game can show."""
    holders = np.isin(codes, MINE_HOLDERS)
    if not holders.any():
        return Implausible("no cell could hold a mine (every game has at least one)", [])
    numbers = codes.astype(np.int16)
    for (r, c), candidates in (unsure or {}).items():
        if candidates and 1 <= numbers[r, c] <= 8:
            numbers[r, c] = min(candidates)
    is_number = (numbers >= 1) & (numbers <= 8)
    over = is_number & (numbers > neighbour_count(holders))
    if over.any():
        cells = [(int(r), int(c)) for r, c in np.argwhere(over)]
        return Implausible(f"{len(cells)} number(s) exceed the covered, flagged or mine cells "
                           "around them", cells)
    return None


__all__ = ["Implausible", "implausible", "MINE_HOLDERS"]
