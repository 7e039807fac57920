"""Find the grid of a Minesweeper board in a frame, from the real tile edges.

GNOME Mines draws every cell as a filled square tile (2 px border, rounded corners) on the
window's background colour, and shares leftover pixels out so that tiles differ by 1 px. A
fixed pitch would drift by several pixels across a 30-column board, so the locator measures
every column's and every row's edges instead: the tiles are the square connected components
of "not background" pixels, and the columns/rows are the clusters of their left/top edges.

The background colour is not assumed: the most frequent colours of the frame are tried in
turn (the screen's root colour usually comes first, the window's background next), and the
first one that yields a complete lattice of tiles wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import NoGameError

MIN_TILE = 12
"""Smallest tile side accepted (GNOME Mines' minimum cell is 20 px, its tile 16 px)."""

BACKGROUND_TOLERANCE = 6
"""Per-channel difference under which a pixel counts as background (anti-aliasing margin)."""


@dataclass(frozen=True)
class Grid:
    """A located grid: per-column and per-row tile edges in frame pixels.

    ``x0[c]``/``x1[c]`` are the first and one-past-last pixel of column ``c``'s tiles, likewise
    ``y0``/``y1`` for rows; ``background`` is the BGR colour around the tiles.
    """

    x0: np.ndarray
    x1: np.ndarray
    y0: np.ndarray
    y1: np.ndarray
    background: tuple[int, int, int]
    frame_shape: tuple[int, int]

    @property
    def rows(self) -> int:
        return int(self.y0.size)

    @property
    def cols(self) -> int:
        return int(self.x0.size)

    @property
    def board_px(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of the tiles, right/bottom exclusive."""
        return int(self.x0[0]), int(self.y0[0]), int(self.x1[-1]), int(self.y1[-1])

    @property
    def pitch(self) -> float:
        """Mean distance between neighbouring tiles (the cell size)."""
        px = (self.x0[-1] - self.x0[0]) / max(1, self.cols - 1)
        py = (self.y0[-1] - self.y0[0]) / max(1, self.rows - 1)
        return float((px + py) / 2) if self.cols > 1 and self.rows > 1 else float(self.x1[0] - self.x0[0])

    def cell_rects(self) -> np.ndarray:
        """(rows, cols, 4) int array of x0, y0, x1, y1 (exclusive ends) of every tile."""
        rects = np.empty((self.rows, self.cols, 4), dtype=np.int32)
        rects[..., 0] = self.x0[None, :]
        rects[..., 1] = self.y0[:, None]
        rects[..., 2] = self.x1[None, :]
        rects[..., 3] = self.y1[:, None]
        return rects

    def still_valid(self, frame: np.ndarray) -> bool:
        """Cheap check that the grid is still where it was in ``frame``.

        Samples the gap pixels just outside each tile's left and top edge (must be background)
        and the pixel just inside (must not be background at the tile's middle). A moved or
        resized window fails this almost surely, so the caller re-locates.
        """
        if frame.shape[:2] != self.frame_shape:
            return False
        bg = np.array(self.background, dtype=np.int16)
        ym = ((self.y0 + self.y1) // 2)
        xm = ((self.x0 + self.x1) // 2)
        h, w = self.frame_shape
        # gap pixels: one left of every column at each row middle, one above every row at
        # each column middle, and the right/bottom outer edges
        gx = np.concatenate([self.x0 - 1, [self.x1[-1]]])
        gy = np.concatenate([self.y0 - 1, [self.y1[-1]]])
        if gx.min() < 0 or gy.min() < 0 or gx.max() >= w or gy.max() >= h:
            return False
        gaps = np.concatenate([frame[ym[:, None], gx[None, :]].reshape(-1, 3),
                               frame[gy[:, None], xm[None, :]].reshape(-1, 3)]).astype(np.int16)
        if (np.abs(gaps - bg).max(axis=1) > BACKGROUND_TOLERANCE).any():
            return False
        inside = np.concatenate([frame[ym[:, None], self.x0[None, :]].reshape(-1, 3),
                                 frame[self.y0[:, None], xm[None, :]].reshape(-1, 3),
                                 frame[ym[:, None], self.x1[None, :] - 1].reshape(-1, 3),
                                 frame[self.y1[:, None] - 1, xm[None, :]].reshape(-1, 3)]).astype(np.int16)
        return not (np.abs(inside - bg).max(axis=1) <= BACKGROUND_TOLERANCE).any()


def frequent_colours(frame: np.ndarray, count: int = 4, step: int = 4) -> list[tuple[int, int, int]]:
    """The ``count`` most frequent BGR colours of a subsampled frame, most frequent first."""
    small = np.ascontiguousarray(frame[::step, ::step]).reshape(-1, 3).astype(np.int32)
    keys = (small[:, 0] << 16) | (small[:, 1] << 8) | small[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    top = values[np.argsort(-counts, kind="stable")[:count]]
    return [(int(k >> 16) & 255, int(k >> 8) & 255, int(k) & 255) for k in top]


def _cluster(values: np.ndarray, tolerance: int = 2) -> list[np.ndarray]:
    """Group sorted-able integers into runs whose neighbours differ by at most ``tolerance``."""
    order = np.argsort(values, kind="stable")
    sorted_v = values[order]
    breaks = np.flatnonzero(np.diff(sorted_v) > tolerance) + 1
    return np.split(order, breaks)


def _lattice(stats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """From component stats (x, y, w, h, area), the biggest complete lattice of equal tiles."""
    if len(stats) < 4:
        return None
    x, y, w, h, area = (stats[:, i] for i in range(5))
    square = ((w >= MIN_TILE) & (h >= MIN_TILE) & (np.abs(w - h) <= 2)
              & (area >= 0.8 * w * h))
    if square.sum() < 4:
        return None
    sizes = w[square]
    values, counts = np.unique(sizes, return_counts=True)
    best = None
    # try the most common tile sizes (a board's tiles differ by at most 1 px)
    for size in values[np.argsort(-counts)][:3]:
        keep = square & (np.abs(w - size) <= 1) & (np.abs(h - size) <= 1)
        idx = np.flatnonzero(keep)
        if idx.size < 4:
            continue
        found = _complete_lattice(x[idx], y[idx], w[idx], h[idx], int(size))
        if found is not None and (best is None or found[0].size * found[2].size > best[0].size * best[2].size):
            best = found
    return best


def _runs(starts: np.ndarray, size: int) -> list[list[int]]:
    """Split sorted cluster start positions into runs with a regular pitch (~ size + gap)."""
    runs: list[list[int]] = [[0]]
    for i in range(1, len(starts)):
        step = starts[i] - starts[i - 1]
        prev_step = starts[runs[-1][-1]] - starts[runs[-1][-2]] if len(runs[-1]) > 1 else None
        ok = size < step <= size * 1.5 + 4 and (prev_step is None or abs(step - prev_step) <= 2)
        if ok:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _complete_lattice(x, y, w, h, size):
    col_groups = _cluster(x)
    row_groups = _cluster(y)
    col_start = np.array([int(np.median(x[g])) for g in col_groups])
    row_start = np.array([int(np.median(y[g])) for g in row_groups])
    col_order = np.argsort(col_start)
    row_order = np.argsort(row_start)
    best = None
    for crun in _runs(col_start[col_order], size):
        for rrun in _runs(row_start[row_order], size):
            if len(crun) < 2 or len(rrun) < 2:
                continue
            cols = [col_groups[col_order[i]] for i in crun]
            rows = [row_groups[row_order[i]] for i in rrun]
            col_of = np.full(len(x), -1)
            row_of = np.full(len(x), -1)
            for ci, g in enumerate(cols):
                col_of[g] = ci
            for ri, g in enumerate(rows):
                row_of[g] = ri
            inside = (col_of >= 0) & (row_of >= 0)
            slots = np.zeros((len(rows), len(cols)), dtype=np.int32)
            np.add.at(slots, (row_of[inside], col_of[inside]), 1)
            if (slots != 1).any():
                continue
            if best is not None and len(rows) * len(cols) <= best[0].size * best[2].size:
                continue
            sel = np.flatnonzero(inside)
            cx0 = np.zeros(len(cols), int); cx1 = np.zeros(len(cols), int)
            ry0 = np.zeros(len(rows), int); ry1 = np.zeros(len(rows), int)
            for ci in range(len(cols)):
                m = sel[col_of[sel] == ci]
                cx0[ci] = int(np.median(x[m])); cx1[ci] = int(np.median(x[m] + w[m]))
            for ri in range(len(rows)):
                m = sel[row_of[sel] == ri]
                ry0[ri] = int(np.median(y[m])); ry1[ri] = int(np.median(y[m] + h[m]))
            best = (cx0, cx1, ry0, ry1)
    return best


def locate(frame: np.ndarray, min_cells: int = 2) -> Grid:
    """Locate the board grid in a BGR frame, or raise ``NoGameError``.

    ``min_cells``: the fewest rows and columns accepted (GNOME Mines boards have at least 4;
    the level chooser's 2x2 buttons are found with ``min_cells=2``).
    """
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise NoGameError("the frame is not a colour image")
    best: Grid | None = None
    for bg in frequent_colours(frame):
        lo = np.clip(np.array(bg) - BACKGROUND_TOLERANCE, 0, 255).astype(np.uint8)
        hi = np.clip(np.array(bg) + BACKGROUND_TOLERANCE, 0, 255).astype(np.uint8)
        mask = cv2.bitwise_not(cv2.inRange(frame, lo, hi))
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
        found = _lattice(stats[1:])
        if found is None:
            continue
        x0, x1, y0, y1 = found
        if len(x0) < min_cells or len(y0) < min_cells:
            continue
        grid = Grid(x0, x1, y0, y1, bg, frame.shape[:2])
        if best is None or grid.rows * grid.cols > best.rows * best.cols:
            best = grid
        if grid.rows >= 4 and grid.cols >= 4:
            break
    if best is None:
        raise NoGameError("no Minesweeper board found in the image")
    return best
