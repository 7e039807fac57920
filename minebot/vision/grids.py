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
"""Pixels a lattice may be moved each way to fit a template set, per round (``align``)."""

ALIGN_ROUNDS = 3
"""Rounds of ``align``: a lattice whose best place lies on the edge of one round's reach is
searched again around it."""


def locate_board(frame: np.ndarray, profile: GameProfile | None = None, min_cells: int = 4,
                 cache: dict | None = None) -> Grid:
    """The board's grid in ``frame`` as ``profile``'s game draws it, or ``NoGameError``.

    A lattice of touching cells comes back with the pixels around it recorded
    (``Grid.with_ring``), which is how ``Grid.still_valid`` checks it later. ``cache`` (a dict
    kept for one frame) shares the lattice between games that both draw one, so trying
    several games on a frame finds it once.
    """
    kinds = [profile.grid.kind] if profile is not None else [GridKind.TILES, GridKind.LINES]
    error: NoGameError | None = None
    for kind in kinds:
        try:
            if kind is GridKind.TILES:
                return locate(frame, min_cells=min_cells)
            lattice = _lattice(frame, min_cells, cache, profile.grid.dotted if profile is not None else 0)
            if profile is not None and (lattice.cols < profile.grid.min_cols
                                        or lattice.rows < profile.grid.min_rows):
                raise NoGameError(f"a {lattice.cols}x{lattice.rows} lattice is smaller than any "
                                  f"{profile.title} board")
            line = profile.grid.line if profile is not None else 0
            if line:
                lattice = Grid(lattice.x0, lattice.x1 - line, lattice.y0, lattice.y1 - line,
                               lattice.background, lattice.frame_shape)
            return lattice.with_ring(frame)
        except NoGameError as exc:
            error = exc
    assert error is not None
    raise error


def _lattice(frame: np.ndarray, min_cells: int, cache: dict | None, dotted: int = 0) -> Grid:
    """``locate_lattice`` once per frame, ``min_cells`` and ``dotted`` when a cache is given."""
    key = ("lattice", min_cells, dotted)
    if cache is not None and key in cache:
        found = cache[key]
    else:
        try:
            found = locate_lattice(frame, min_cells=min_cells, dotted=dotted)
        except NoGameError as exc:
            found = exc
        if cache is not None:
            cache[key] = found
    if isinstance(found, NoGameError):
        raise found
    return found


def touching(grid: Grid) -> bool:
    """Whether the grid's cells touch (a lattice), rather than stand apart on a background."""
    return grid.ring is not None


def align(frame: np.ndarray, grid: Grid, cost: Callable[[Grid], float], reach: int = ALIGN_REACH) -> Grid:
    """The lattice moved by up to ``reach`` pixels each way to where ``cost`` is lowest, and on
    from there while the lowest lies on the edge of that reach (``ALIGN_ROUNDS`` rounds at most).

    Where exactly a boundary of touching cells lies (which edge of a bevel or of a 1 px line)
    is a matter of convention; the looks a set was cut with fix it. ``cost`` is e.g. the mean
    distance of every cell to its best template. Both offsets are tried together: they are not
    independent (Simon Tatham's Mines' open cells have a line on their top and left only, so a
    lattice one pixel low fits best one pixel right of its place, and one axis searched after
    the other stays there). KMines' Oxygen cells at 36 px put the edges the lattice is found
    by 3 px inside the cell the looks were cut with: one round of 2 px stops short of it.
    """
    best, best_cost = grid, cost(grid)
    h, w = grid.frame_shape
    for _ in range(ALIGN_ROUNDS):
        centre, moved_to = best, (0, 0)
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                if dx == 0 and dy == 0:
                    continue
                moved = centre.shifted(dx, dy)
                left, top, right, bottom = moved.board_px
                if left < 1 or top < 1 or right > w - 1 or bottom > h - 1:
                    continue
                c = cost(moved)
                if c < best_cost:
                    best, best_cost, moved_to = moved, c, (dx, dy)
        if max(abs(moved_to[0]), abs(moved_to[1])) < reach:
            break
    return best.with_ring(frame) if best is not grid else grid
