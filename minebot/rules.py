"""Rule sets: where mines may go, relative to the player's first click.

- ``zero``: the first click and its 8 neighbours are never mines, so the first click always
  opens an area (GNOME Mines 40.1 ``minefield.vala`` place_mines; KMines).
- ``safe``: only the first clicked cell is guaranteed (Windows Minesweeper).
- ``preopened``: the game opens a random zero area itself before the player moves and the
  player's first click is not protected (xdemineur).
- ``unprotected``: the mines are placed when the game starts, uniformly over every cell, and
  nothing is opened: the first click can lose (Ace of Penguins' minesweeper,
  ``fixtures/CLONES.md``).
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from .errors import BadInputError


class Rules(StrEnum):
    """A rule set. A ``StrEnum`` so that it is its own name wherever text is wanted: in JSON,
    on the command line (``--rules zero``), in messages, and compared with a plain string."""

    ZERO = "zero"
    SAFE = "safe"
    PREOPENED = "preopened"
    UNPROTECTED = "unprotected"


RULES = tuple(rules.value for rules in Rules)
"""The rule sets' names, for command-line choices."""


def check_rules(rules: str) -> Rules:
    """The rule set named ``rules`` (a ``Rules`` or its name); bad input names the known ones."""
    if rules not in RULES:
        raise BadInputError(f"unknown rule set {rules!r}: expected one of {', '.join(RULES)}")
    return Rules(rules)


def allowed_cells(rows: int, cols: int, rules: str, first: tuple[int, int] | None) -> np.ndarray:
    """Boolean mask of the cells a mine may be placed on."""
    allowed = np.ones((rows, cols), dtype=bool)
    if first is not None and rules not in (Rules.PREOPENED, Rules.UNPROTECTED):
        r, c = first
        if rules == Rules.ZERO:
            allowed[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = False
        else:
            allowed[r, c] = False
    return allowed


def place_mines(rng: np.random.Generator, rows: int, cols: int, mines: int, rules: str,
                first: tuple[int, int] | None) -> np.ndarray:
    """Place ``mines`` uniformly over the allowed cells; returns a boolean mask."""
    allowed = allowed_cells(rows, cols, check_rules(rules), first)
    spots = np.flatnonzero(allowed)
    if mines > spots.size or mines < 0:
        raise ValueError(f"cannot place {mines} mines on a {cols}x{rows} board under rule {rules!r}")
    mask = np.zeros(rows * cols, dtype=bool)
    mask[rng.choice(spots, size=mines, replace=False)] = True
    return mask.reshape(rows, cols)
