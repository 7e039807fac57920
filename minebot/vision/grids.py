"""Locate a game's board by the kind of lattice its profile says it draws.

One entry point for every layer that needs the grid (the reader, calibrate, the interactive
labeller): GNOME Mines' separate tiles are found as regions on a background
(``locate.locate``), touching cells from the periodic structure of their edges
(``lattice.locate_lattice``). With no profile the tile method is tried first, then the lattice.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import NoGameError
from ..games import GameProfile, GridKind
from .lattice import locate_lattice
from .locate import Grid, locate

ALIGN_REACH = 2
"""Pixels a lattice may be moved each way to fit a template set (``align``)."""


def locate_board(frame: np.ndarray, profile: GameProfile | None = None, min_cells: int = 4) -> Grid:
    """The board's grid in ``frame`` as ``profile``'s game draws it, or ``NoGameError``.

    A lattice of touching cells comes back with the pixels around it recorded
    (``Grid.with_ring``), which is how ``Grid.still_valid`` checks it later.
    """
    kinds = [profile.grid.kind] if profile is not None else [GridKind.TILES, GridKind.LINES]
    error: NoGameError | None = None
    for kind in kinds:
        try:
            if kind is GridKind.TILES:
                return locate(frame, min_cells=min_cells)
            line = profile.grid.line if profile is not None else 0
            cells = max(min_cells, min(profile.grid.min_cols, profile.grid.min_rows)) if profile else min_cells
            return locate_lattice(frame, min_cells=cells, line=line).with_ring(frame)
        except NoGameError as exc:
            error = exc
    assert error is not None
    raise error


def touching(grid: Grid) -> bool:
    """Whether the grid's cells touch (a lattice), rather than stand apart on a background."""
    return grid.ring is not None


def align(frame: np.ndarray, grid: Grid, cost: Callable[[Grid], float], reach: int = ALIGN_REACH) -> Grid:
    """The lattice moved by up to ``reach`` pixels each way to where ``cost`` is lowest.

    Where exactly a boundary of touching cells lies (which edge of a bevel or of a 1 px line)
    is a matter of convention; the looks a set was cut with fix it. ``cost`` is e.g. the mean
    distance of every cell to its best template.
    """
    best, best_cost = grid, cost(grid)
    h, w = grid.frame_shape
    # one axis after the other: the two offsets are independent (columns vs rows of pixels)
    for axis in (0, 1):
        start = best
        for step in range(-reach, reach + 1):
            if step == 0:
                continue
            moved = start.shifted(step, 0) if axis == 0 else start.shifted(0, step)
            left, top, right, bottom = moved.board_px
            if left < 1 or top < 1 or right > w - 1 or bottom > h - 1:
                continue
            c = cost(moved)
            if c < best_cost:
                best, best_cost = moved, c
    return best.with_ring(frame) if best is not grid else grid
