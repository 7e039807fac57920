"""The Board: one snapshot of a Minesweeper position, and its text format.

Every part of minebot speaks Board: vision produces one from pixels, the engine produces one
from its hidden layout, the solver reads one, tests and fixtures store one as text. Cells are a
read-only ``int8`` numpy array so that whole-board work is vectorised; the revealed numbers are
stored as their own value (0-8) so arithmetic on them needs no lookup.

Text format (kept exactly; other tools depend on it)::

    {"rows": 3, "cols": 4, "mines": 2, "state": "playing"}     <- optional JSON header line
    01F-
    12?-
    -*XW

``-`` covered, ``F`` flag, ``?`` question mark, ``0``-``8`` revealed, ``*`` mine shown after a
loss, ``X`` the exploded mine, ``W`` a wrong flag, ``#`` revealed with a number nobody could
read (a safe cell that constrains nothing). Coordinates are ``(row, col)``, 0-based.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum, IntEnum
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from .errors import BadInputError, BoardFormatError


class Cell(IntEnum):
    """Cell codes. Values 0-8 are revealed numbers and equal the number itself."""

    COVERED = 9
    FLAG = 10
    QUESTION = 11
    MINE = 12
    EXPLODED = 13
    WRONG_FLAG = 14
    OPEN = 15          # revealed (so no mine), but its number is not known: a read in doubt


CELL_CHARS = "012345678-F?*XW#"
"""``CELL_CHARS[code]`` is the text character of a cell code."""

_CHAR_TO_CODE = {ch: code for code, ch in enumerate(CELL_CHARS)}
_LOOKUP = np.full(256, -1, dtype=np.int16)
for _ch, _code in _CHAR_TO_CODE.items():
    _LOOKUP[ord(_ch)] = _code


class GameState(str, Enum):
    """What the game as a whole is doing (as far as the screen or engine tells)."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    PAUSED = "paused"
    CHOOSER = "chooser"   # GNOME Mines' level chooser: no board on screen
    NONE = "none"         # no board found


NEIGHBOUR_OFFSETS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def neighbour_count(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its 8 neighbours are set in ``mask`` (vectorised)."""
    rows, cols = mask.shape
    m = np.zeros((rows + 2, cols + 2), dtype=np.int16)     # a zero border (np.pad costs more)
    m[1:-1, 1:-1] = mask
    total = np.zeros((rows, cols), dtype=np.int16)
    for dr, dc in NEIGHBOUR_OFFSETS:
        total += m[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return total


def neighbours(rows: int, cols: int, r: int, c: int) -> Iterator[tuple[int, int]]:
    """The in-bounds neighbours of ``(r, c)`` on a ``rows`` x ``cols`` board."""
    for dr, dc in NEIGHBOUR_OFFSETS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            yield rr, cc


def _check_numbers(codes: np.ndarray, source: str, first_line: int) -> None:
    """No number can exceed its cell's neighbours (an 8 in a corner): no board has it, so the
    file is wrong (a typo, or a misread screen); named by line and column like a format error."""
    room = neighbour_count(np.ones(codes.shape, dtype=bool))
    bad = np.argwhere((codes <= 8) & (codes > room))
    if bad.size:
        r, c = (int(v) for v in bad[0])
        raise BoardFormatError(source, first_line + r + 1, c + 1,
                               f"the number {int(codes[r, c])} at {r},{c}: the cell has only "
                               f"{int(room[r, c])} neighbours")


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable board. ``mines`` is the total mine count, or None when unknown."""

    cells: np.ndarray
    mines: int | None = None
    state: GameState | None = None

    def __post_init__(self) -> None:
        cells = np.array(self.cells, dtype=np.int8, copy=True)
        if cells.ndim != 2 or cells.size == 0:
            raise ValueError("a board needs a non-empty 2-D array of cells")
        if cells.min() < 0 or cells.max() > max(Cell):
            raise ValueError(f"cell codes must be in 0..{int(max(Cell))} (see Cell)")
        cells.setflags(write=False)
        object.__setattr__(self, "cells", cells)
        if self.state is not None and not isinstance(self.state, GameState):
            object.__setattr__(self, "state", GameState(self.state))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def covered(cls, rows: int, cols: int, mines: int | None = None) -> "Board":
        """A fresh board: every cell covered."""
        return cls(np.full((rows, cols), Cell.COVERED, dtype=np.int8), mines, GameState.PLAYING)

    @classmethod
    def parse(cls, text: str, source: str = "<board>") -> "Board":
        """Parse the text format. Errors name ``source``, the line and column."""
        lines = text.splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        header: dict = {}
        first = 0
        if lines and lines[0].lstrip().startswith("{"):
            try:
                header = json.loads(lines[0])
            except json.JSONDecodeError as exc:
                raise BoardFormatError(source, 1, exc.colno, f"bad JSON header: {exc.msg}") from None
            if not isinstance(header, dict):
                raise BoardFormatError(source, 1, 1, "the header line must be a JSON object")
            first = 1
        grid = [line.rstrip("\r") for line in lines[first:]]
        if not grid:
            raise BoardFormatError(source, first + 1, None, "expected board rows, found none")
        width = len(grid[0])
        codes = np.empty((len(grid), width), dtype=np.int8)
        for i, row in enumerate(grid):
            lineno = first + i + 1
            if len(row) != width:
                raise BoardFormatError(
                    source, lineno, min(len(row), width) + 1,
                    f"row has {len(row)} cells, expected {width} like the first row")
            raw = np.frombuffer(row.encode("utf-8", "replace"), dtype=np.uint8)
            if raw.size != width:  # non-ASCII characters
                bad = next(j for j, ch in enumerate(row) if ord(ch) > 127)
                raise BoardFormatError(source, lineno, bad + 1,
                                       f"unexpected {row[bad]!r}: expected one of {CELL_CHARS}")
            mapped = _LOOKUP[raw]
            if (mapped < 0).any():
                bad = int(np.argmax(mapped < 0))
                raise BoardFormatError(source, lineno, bad + 1,
                                       f"unexpected {row[bad]!r}: expected one of {CELL_CHARS}")
            codes[i] = mapped
        for key, actual in (("rows", codes.shape[0]), ("cols", codes.shape[1])):
            if key in header and header[key] != actual:
                raise BoardFormatError(source, 1, None,
                                       f"header says {key}={header[key]!r} but the grid has {actual}")
        mines = header.get("mines")
        if mines is not None and (not isinstance(mines, int) or isinstance(mines, bool) or mines < 0):
            raise BoardFormatError(source, 1, None, f"header 'mines' must be a whole number >= 0, got {mines!r}")
        if mines is not None and mines > codes.size:
            raise BoardFormatError(source, 1, None, f"header 'mines' is {mines} but the board has only "
                                                    f"{codes.size} cells")
        _check_numbers(codes, source, first)
        state = header.get("state")
        if state is not None:
            try:
                state = GameState(state)
            except ValueError:
                names = ", ".join(s.value for s in GameState)
                raise BoardFormatError(source, 1, None, f"header 'state' {state!r}: expected one of {names}") from None
        return cls(codes, mines, state)

    @classmethod
    def load(cls, path: str | Path) -> "Board":
        """Read a board file; a missing or unreadable file is a clear ``BadInputError``."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise BadInputError(f"{path}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise BadInputError(f"{path}: cannot read board file ({exc})") from None
        return cls.parse(text, str(path))

    # -- output -------------------------------------------------------------------------
    def header(self) -> dict:
        head: dict = {"rows": self.rows, "cols": self.cols}
        if self.mines is not None:
            head["mines"] = self.mines
        if self.state is not None:
            head["state"] = self.state.value
        return head

    def rows_text(self) -> list[str]:
        """One string per row, one character per cell."""
        table = np.frombuffer(CELL_CHARS.encode(), dtype=np.uint8)
        return [table[row].tobytes().decode() for row in self.cells]

    def to_text(self, header: bool = True) -> str:
        lines = ([json.dumps(self.header())] if header else []) + self.rows_text()
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_text(), encoding="utf-8")

    def __str__(self) -> str:
        return self.to_text(header=False)

    def __repr__(self) -> str:
        return f"Board.parse({self.to_text()!r})"

    # -- access -------------------------------------------------------------------------
    @property
    def rows(self) -> int:
        return int(self.cells.shape[0])

    @property
    def cols(self) -> int:
        return int(self.cells.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    def __getitem__(self, cell: tuple[int, int]) -> int:
        """The number 0-8 of a revealed cell, or its ``Cell`` member (COVERED, FLAG, ...)."""
        code = int(self.cells[cell])
        return code if code <= 8 else Cell(code)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.shape == other.shape and bool((self.cells == other.cells).all())
                and self.mines == other.mines and self.state == other.state)

    def __hash__(self) -> int:
        return hash((self.cells.tobytes(), self.shape, self.mines, self.state))

    def neighbours(self, r: int, c: int) -> Iterator[tuple[int, int]]:
        return neighbours(self.rows, self.cols, r, c)

    def replace(self, **changes) -> "Board":
        """A copy with ``cells``, ``mines`` or ``state`` replaced."""
        fields: dict[str, Any] = {"cells": self.cells, "mines": self.mines, "state": self.state}
        fields.update(changes)
        return Board(**fields)

    def with_cells(self, updates: dict[tuple[int, int], int]) -> "Board":
        """A copy with some cells changed."""
        cells = self.cells.copy()
        for cell, code in updates.items():
            cells[cell] = code
        return self.replace(cells=cells)

    # -- masks (boolean arrays, shape rows x cols) ---------------------------------------
    @property
    def revealed(self) -> np.ndarray:
        """Cells showing a number 0-8."""
        return self.cells <= 8

    @property
    def opened(self) -> np.ndarray:
        """Cells known to be open: a number, or open with its number unread (``#``)."""
        return (self.cells <= 8) | (self.cells == Cell.OPEN)

    @property
    def unknown(self) -> np.ndarray:
        """Cells whose content the numbers must decide: covered, flagged or question-marked.

        A player's flag may be wrong, so the solver treats flags as covered cells.
        """
        return (self.cells >= Cell.COVERED) & (self.cells <= Cell.QUESTION)

    @property
    def flags(self) -> np.ndarray:
        return self.cells == Cell.FLAG

    @property
    def is_over(self) -> bool:
        return self.state in (GameState.WON, GameState.LOST)
