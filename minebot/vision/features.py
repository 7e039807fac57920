"""Turn every cell of a located grid into a fixed-size colour patch, all cells at once.

Cells differ by 1 px across a board and by 7x between the smallest and the largest window,
so each tile is area-averaged onto an ``N x N`` patch. The averaging is exact for fractional
boxes: the frame's integral image is bilinear inside each pixel, so sampling it at fractional
box corners and differencing gives the true box sums. That is a few numpy gathers over the
whole grid, with no Python loop over cells or pixels, and it keeps both the colour (needed for
flat cells, where correlation is meaningless) and the glyph shape.
"""

from __future__ import annotations

import cv2
import numpy as np

PATCH = 16
"""Side of the normalised patch every tile is averaged onto."""

INSET = 0.0
"""Fraction of the tile trimmed on each side before averaging (0: the whole tile)."""


def _sample_integral(ii: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Bilinear samples of integral image ``ii`` at every (ys[a, i], xs[b, j]).

    ``ys``: (A, K) fractional rows, ``xs``: (B, K) fractional columns, in pixel units of the
    image the integral was taken of. Returns (A, K, B, K, channels).
    """
    y0 = np.floor(ys).astype(np.intp)
    x0 = np.floor(xs).astype(np.intp)
    y0 = np.clip(y0, 0, ii.shape[0] - 2)
    x0 = np.clip(x0, 0, ii.shape[1] - 2)
    fy = (ys - y0)[:, :, None, None, None]
    fx = (xs - x0)[None, None, :, :, None]
    Y0 = y0[:, :, None, None]
    X0 = x0[None, None, :, :]
    a = ii[Y0, X0]
    b = ii[Y0, X0 + 1]
    c = ii[Y0 + 1, X0]
    d = ii[Y0 + 1, X0 + 1]
    top = a + (b - a) * fx
    bottom = c + (d - c) * fx
    return top + (bottom - top) * fy


def grid_patches(frame: np.ndarray, x0: np.ndarray, x1: np.ndarray, y0: np.ndarray,
                 y1: np.ndarray, size: int = PATCH, inset: float = INSET) -> np.ndarray:
    """Area-averaged patches of every tile: float32 array (rows, cols, size, size, 3).

    ``x0``/``x1`` (per column) and ``y0``/``y1`` (per row) are tile edges in frame pixels,
    exclusive ends. Only the board's bounding box is integrated, so the cost does not grow
    with the screen size.
    """
    left, top = int(x0.min()), int(y0.min())
    right, bottom = int(x1.max()), int(y1.max())
    region = np.ascontiguousarray(frame[top:bottom, left:right])
    ii = cv2.integral(region, sdepth=cv2.CV_64F)  # (H+1, W+1, 3), ii[y, x] = sum above-left
    steps = np.linspace(0.0, 1.0, size + 1)
    cx0 = x0 - left + (x1 - x0) * inset
    cx1 = x1 - left - (x1 - x0) * inset
    cy0 = y0 - top + (y1 - y0) * inset
    cy1 = y1 - top - (y1 - y0) * inset
    xs = cx0[:, None] + (cx1 - cx0)[:, None] * steps[None, :]   # (cols, size+1)
    ys = cy0[:, None] + (cy1 - cy0)[:, None] * steps[None, :]   # (rows, size+1)
    s = _sample_integral(ii, ys, xs)                              # (rows, K, cols, K, 3)
    sums = s[:, 1:, :, 1:] - s[:, :-1, :, 1:] - s[:, 1:, :, :-1] + s[:, :-1, :, :-1]
    area = (np.diff(ys, axis=1)[:, :, None, None] * np.diff(xs, axis=1)[None, None, :, :])
    patches = sums / area[..., None]
    return patches.transpose(0, 2, 1, 3, 4).astype(np.float32)


def tile_patch(tile: np.ndarray, size: int = PATCH, inset: float = INSET) -> np.ndarray:
    """The patch of one tile image (a template crop): float32 (size, size, 3)."""
    h, w = tile.shape[:2]
    return grid_patches(tile, np.array([0]), np.array([w]), np.array([0]), np.array([h]),
                        size, inset)[0, 0]
