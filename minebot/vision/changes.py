"""Which cells of a located board show other pixels than at the last read, and their patches.

Why: in live play a turn changes a few cells (the clicked ones and what a zero opens). Every
per-cell step of a read (the area-averaged patch, the tile's colour, the number drawn on it)
depends on the pixels inside that cell's tile alone, so a cell whose pixels are byte for byte
those of the last read gives the same result. Telling which cells changed is one comparison
of the board's pixels; averaging and classifying every cell again costs several times that
on an expert board. The rest of a read (the counter, the plausibility of the whole board, the
suspects) still looks at every cell.

    memo = CellMemo.start(frame, grid)          # a first read: every cell is new
    delta = memo.next(frame2, grid)             # later: ``delta.changed`` (rows, cols) bool
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from .features import grid_patches
from .locate import Grid
from .numbers import NumberReader, tile_colours


def board_pixels(frame: np.ndarray, grid: Grid) -> np.ndarray:
    """The pixels of ``grid``'s board box on ``frame`` (a view)."""
    left, top, right, bottom = grid.board_px
    return frame[top:bottom, left:right]


def changed_cells(before: np.ndarray, now: np.ndarray, grid: Grid) -> np.ndarray:
    """Boolean (rows, cols): the cells of ``grid`` with a pixel inside their tile box
    (``x0..x1`` by ``y0..y1``) that differs between ``before`` and ``now``, two
    ``board_pixels`` of it.

    Exactly the tile's own pixels count, as in every per-cell step of a read: a change in the
    gap between tiles changes no cell, and where the boxes of touching cells overlap (a
    lattice that gives the shared line to both) a change there counts for both."""
    left, top = grid.board_px[:2]
    diff = cv2.absdiff(before, now)
    h = diff.shape[0]
    channels = diff.shape[2] if diff.ndim == 3 else 1
    diff = diff.reshape(h, -1)                                   # (H, W * channels)
    moved = np.concatenate([[0], np.cumsum(diff.max(axis=1) > 0)])   # changed pixel rows so far
    ys = np.asarray(grid.y0, np.intp) - top
    ye = np.asarray(grid.y1, np.intp) - top
    xs = (np.asarray(grid.x0, np.intp) - left) * channels
    xe = (np.asarray(grid.x1, np.intp) - left) * channels
    out = np.zeros((grid.rows, grid.cols), bool)
    for row in np.flatnonzero(moved[ye] > moved[ys]):   # the few rows a turn changes
        columns = np.concatenate([[0], np.cumsum(diff[ys[row]:ye[row]].max(axis=0) > 0)])
        out[row] = columns[xe] > columns[xs]
    return out


@dataclass
class NumbersSeen:
    """What one number reader made of the cells at a read: each tile's colour (before
    ``grounds``) and the numbers found, by cell."""

    reader: NumberReader
    colours: np.ndarray
    found: dict


@dataclass
class CellMemo:
    """The cells of one grid at the last read: that frame's board pixels, every cell's patch,
    and per number reader what it read (``numbers``, filled by the reader's classification)."""

    grid: Grid
    frame_shape: tuple[int, ...]
    pixels: np.ndarray
    patches: np.ndarray
    numbers: dict[str, NumbersSeen] = field(default_factory=dict)

    @staticmethod
    def start(frame: np.ndarray, grid: Grid) -> "CellDelta":
        """Every cell of ``grid`` read afresh (no earlier read to compare with)."""
        patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
        return CellDelta(_keep(frame, grid, patches), None, {})

    def next(self, frame: np.ndarray, grid: Grid) -> "CellDelta":
        """The cells of ``grid`` on ``frame``: only those whose pixels changed since this
        memo's read are averaged again. A new grid (found afresh) or frame size reads all."""
        if grid is not self.grid or frame.shape != self.frame_shape:
            return CellMemo.start(frame, grid)
        changed = changed_cells(self.pixels, board_pixels(frame, grid), grid)
        patches = _refreshed(self.patches, changed, frame, grid, grid_patches)
        return CellDelta(_keep(frame, grid, patches), changed, self.numbers)


@dataclass
class CellDelta:
    """One read's cells: the new memo (its patches are this frame's), which cells changed
    since the memo before it (None: unknown, all read afresh), and that memo's numbers."""

    memo: CellMemo
    changed: np.ndarray | None
    before: dict[str, NumbersSeen]

    @property
    def patches(self) -> np.ndarray:
        return self.memo.patches

    def colours(self, frame: np.ndarray, name: str, reader: NumberReader) -> np.ndarray:
        """Every tile's colour (``tile_colours``), sampled again only in changed cells when
        the same number reader saw the frame before."""
        grid = self.memo.grid
        seen = self._seen(name, reader)
        if seen is None or self.changed is None:
            return tile_colours(frame, grid.x0, grid.x1, grid.y0, grid.y1)
        return _refreshed(seen.colours, self.changed, frame, grid, tile_colours)

    def unchanged_numbers(self, name: str, reader: NumberReader) -> tuple[dict, np.ndarray] | None:
        """The numbers the same reader found at the last read in cells that have not changed,
        and the mask of the cells still to read; None when every cell must be read."""
        seen = self._seen(name, reader)
        if seen is None or self.changed is None:
            return None
        changed = self.changed
        return {cell: n for cell, n in seen.found.items() if not changed[cell]}, changed

    def _seen(self, name: str, reader: NumberReader) -> NumbersSeen | None:
        """What the same number reader read at the last read, when this read knows what
        changed since (else every cell is read afresh)."""
        seen = self.before.get(name)
        if self.changed is None or seen is None or seen.reader is not reader:
            return None
        return seen

    def keep_numbers(self, name: str, reader: NumberReader, colours: np.ndarray, found: dict) -> None:
        """What ``reader`` read on this frame, for the next read to reuse."""
        self.memo.numbers[name] = NumbersSeen(reader, colours, dict(found))


def _refreshed(values: np.ndarray, changed: np.ndarray, frame: np.ndarray, grid: Grid,
               per_cell: Callable[..., np.ndarray]) -> np.ndarray:
    """A copy of ``values`` (rows, cols, ...) with ``per_cell(frame, x0, x1, y0, y1)`` taken
    again over the rows and columns that hold a ``changed`` cell (``grid_patches`` and
    ``tile_colours`` take any subset of a grid's columns and rows: only their tiles' pixels)."""
    out = values.copy()
    rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
    if rows.size:
        out[np.ix_(rows, cols)] = per_cell(frame, grid.x0[cols], grid.x1[cols],
                                           grid.y0[rows], grid.y1[rows])
    return out


def _keep(frame: np.ndarray, grid: Grid, patches: np.ndarray) -> CellMemo:
    """A memo of ``frame``'s board: its pixels copied (the caller's frame may change)."""
    return CellMemo(grid, frame.shape, board_pixels(frame, grid).copy(), patches)
