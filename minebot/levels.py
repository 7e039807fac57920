"""Named board sizes and the ``COLSxROWS`` size syntax used on the command line.

The games show sizes as width x height (expert is ``30x16``), while every coordinate inside
minebot is ``[row, col]``; this module is the one place that converts between the two.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BadInputError


@dataclass(frozen=True)
class Level:
    rows: int
    cols: int
    mines: int

    @property
    def size(self) -> str:
        return f"{self.cols}x{self.rows}"


LEVELS: dict[str, Level] = {
    "beginner": Level(8, 8, 10),
    "intermediate": Level(16, 16, 40),
    "expert": Level(16, 30, 99),
}


def parse_size(text: str) -> tuple[int, int]:
    """Parse ``COLSxROWS`` (e.g. ``30x16``) into ``(rows, cols)``."""
    parts = text.lower().replace(" ", "").split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise BadInputError(f"size {text!r}: expected COLSxROWS, e.g. 30x16")
    cols, rows = int(parts[0]), int(parts[1])
    if not (1 <= rows <= 1000 and 1 <= cols <= 1000):
        raise BadInputError(f"size {text!r}: rows and columns must be between 1 and 1000")
    return rows, cols


def parse_cell(text: str) -> tuple[int, int]:
    """Parse ``ROW,COL`` (0-based) into a tuple."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise BadInputError(f"cell {text!r}: expected ROW,COL, e.g. 3,3")
    return int(parts[0]), int(parts[1])
