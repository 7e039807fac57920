"""Turn every cell of a located grid into a fixed-size colour patch, all cells at once.

Cells differ by 1 px across a board and by 7x between the smallest and the largest window,
so each tile is area-averaged onto an ``N x N`` patch of whole-pixel boxes (box sums from the
integral image: four exact integer lookups per box). That is one gather over the whole grid,
with no Python loop over cells or pixels, and it keeps both the colour (needed for flat cells,
where correlation is meaningless) and the glyph shape.
"""

from __future__ import annotations

import cv2
import numpy as np

PATCH = 16
"""Side of the normalised patch every tile is averaged onto."""

INSET = 0.0
"""Fraction of the tile trimmed on each side before averaging (0: the whole tile)."""


def _edges(start: np.ndarray, stop: np.ndarray, size: int) -> np.ndarray:
    """Integer box edges splitting each [start, stop) into ``size`` boxes of near-equal width.

    Whole-pixel boxes keep the integral-image lookups exact integers (no interpolation), and
    the same rounding is applied to templates, so cells and templates are averaged alike.
    Boxes are at least one pixel wide even for tiles smaller than ``size``.
    """
    steps = np.linspace(0.0, 1.0, size + 1)
    # offsets from the tile's own start, rounded half up: a tile is split the same way
    # wherever it sits (np.round rounds half to even, which depends on the absolute position)
    offsets = np.floor((stop - start)[:, None] * steps[None, :] + 0.5).astype(np.intp)
    edges = start[:, None] + offsets
    for k in range(1, size + 1):          # strictly increasing (only bites on tiny tiles)
        edges[:, k] = np.maximum(edges[:, k], edges[:, k - 1] + 1)
    return edges


def grid_patches(frame: np.ndarray, x0: np.ndarray, x1: np.ndarray, y0: np.ndarray,
                 y1: np.ndarray, size: int = PATCH, inset: float = INSET) -> np.ndarray:
    """Area-averaged patches of every tile: float32 array (rows, cols, size, size, 3).

    ``x0``/``x1`` (per column) and ``y0``/``y1`` (per row) are tile edges in frame pixels,
    exclusive ends. Each tile is split into ``size`` x ``size`` whole-pixel boxes; the box sums
    come from four lookups in the integral image of the board's bounding box (opencv, exact
    integers), gathered for all cells at once.
    """
    left, top = int(x0.min()), int(y0.min())
    right, bottom = int(x1.max()), int(y1.max())
    region = np.ascontiguousarray(frame[top:bottom + size, left:right + size])
    ii = cv2.integral(region, sdepth=cv2.CV_32S)            # (H+1, W+1, 3), exact
    ix = np.asarray(x0) - left
    iy = np.asarray(y0) - top
    wx = np.asarray(x1) - np.asarray(x0)
    wy = np.asarray(y1) - np.asarray(y0)
    cut_x = np.round(wx * inset).astype(np.intp)
    cut_y = np.round(wy * inset).astype(np.intp)
    xe = _edges(ix + cut_x, ix + wx - cut_x, size)            # (cols, size+1)
    ye = _edges(iy + cut_y, iy + wy - cut_y, size)            # (rows, size+1)
    rows, cols = len(y0), len(x0)
    if (wx - 2 * cut_x).min() >= size and (wy - 2 * cut_y).min() >= size:
        # two takes (whole rows, then columns), not one 2-D fancy index: same values, ~4x faster
        s = ii.take(ye.reshape(-1), axis=0).take(xe.reshape(-1), axis=1)  # (rows*(size+1), cols*(size+1), 3)
        s = s.reshape(rows, size + 1, cols, size + 1, 3)
        sums = s[:, 1:, :, 1:] - s[:, :-1, :, 1:] - s[:, 1:, :, :-1] + s[:, :-1, :, :-1]
        area = (np.diff(ye, axis=1)[:, :, None, None] * np.diff(xe, axis=1)[None, None, :, :])
    else:
        sums, area = _small_tile_sums(ii, ix + cut_x, ix + wx - cut_x, iy + cut_y, iy + wy - cut_y, size)
    patches = sums.astype(np.float32) / area[..., None].astype(np.float32)
    return np.ascontiguousarray(patches.transpose(0, 2, 1, 3, 4))


def _small_tile_sums(ii: np.ndarray, xs: np.ndarray, xe: np.ndarray, ys: np.ndarray, ye: np.ndarray,
                     size: int) -> tuple[np.ndarray, np.ndarray]:
    """Box sums and areas for tiles narrower than ``size`` pixels inside their inset (Ace of
    Penguins' 12 px cells): box k starts at the k-th of ``size`` even steps and is at least one
    pixel wide, so pixels repeat but no box reaches past its tile. (Forcing the edges strictly
    apart, as ``_edges`` does, would run the last boxes into the next cell, making a cell's
    patch depend on its neighbour and a template crop, which has none, fail.)"""
    steps = np.linspace(0.0, 1.0, size + 1)[:-1]

    def boxes(start: np.ndarray, stop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lo = start[:, None] + np.floor((stop - start)[:, None] * steps[None, :] + 0.5).astype(np.intp)
        lo = np.minimum(lo, (stop - 1)[:, None])
        hi = np.maximum(np.append(lo[:, 1:], stop[:, None], axis=1), lo + 1)
        return lo, hi

    x_lo, x_hi = boxes(xs, xe)
    y_lo, y_hi = boxes(ys, ye)
    rows, cols = len(ys), len(xs)
    top, bottom = ii.take(y_lo.reshape(-1), axis=0), ii.take(y_hi.reshape(-1), axis=0)

    def corner(part: np.ndarray, x: np.ndarray) -> np.ndarray:
        return part.take(x.reshape(-1), axis=1).reshape(rows, size, cols, size, 3)

    sums = corner(bottom, x_hi) - corner(top, x_hi) - corner(bottom, x_lo) + corner(top, x_lo)
    area = (y_hi - y_lo)[:, :, None, None] * (x_hi - x_lo)[None, None, :, :]
    return sums, area


def tile_patch(tile: np.ndarray, size: int = PATCH, inset: float = INSET) -> np.ndarray:
    """The patch of one tile image (a template crop): float32 (size, size, 3)."""
    h, w = tile.shape[:2]
    return grid_patches(tile, np.array([0]), np.array([w]), np.array([0]), np.array([h]),
                        size, inset)[0, 0]
