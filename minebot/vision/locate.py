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
    ring: np.ndarray | None = None
    """For cells that touch (no background between them): the pixels just outside the board
    when it was located, (N, 3), which ``still_valid`` compares instead of the gaps."""

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

    def ring_points(self, away: int = 3, step: int = 3) -> tuple[np.ndarray, np.ndarray]:
        """(ys, xs) of pixels ``away`` pixels outside the board all round, every ``step``."""
        left, top, right, bottom = self.board_px
        h, w = self.frame_shape
        a, b = max(0, left - away), min(w - 1, right - 1 + away)
        c, d = max(0, top - away), min(h - 1, bottom - 1 + away)
        xs = np.arange(a, b + 1, step)
        ys = np.arange(c, d + 1, step)
        return (np.concatenate([np.full(xs.size, c), np.full(xs.size, d), ys, ys]),
                np.concatenate([xs, xs, np.full(ys.size, a), np.full(ys.size, b)]))

    def with_ring(self, frame: np.ndarray) -> "Grid":
        """This grid, validated from now on by the pixels around it in ``frame``."""
        ring = frame[tuple(self.ring_points())].astype(np.int16)
        return Grid(self.x0, self.x1, self.y0, self.y1, self.background, self.frame_shape, ring)

    def shifted(self, dx: int, dy: int) -> "Grid":
        """The same lattice moved by (dx, dy) pixels (no ring: take one again)."""
        return Grid(self.x0 + dx, self.x1 + dx, self.y0 + dy, self.y1 + dy, self.background,
                    self.frame_shape)

    def still_valid(self, frame: np.ndarray) -> bool:
        """Cheap check that the grid is still where it was in ``frame``.

        Samples the gap pixels just outside each tile's left and top edge (must be background)
        and the pixel just inside (must not be background at the tile's middle). A moved or
        resized window fails this almost surely, so the caller re-locates.
        """
        if frame.shape[:2] != self.frame_shape:
            return False
        if self.ring is not None:
            now = frame[tuple(self.ring_points())].astype(np.int16)
            return bool((np.abs(now - self.ring).max(axis=1) <= BACKGROUND_TOLERANCE).all())
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


def _lattice(stats: np.ndarray, min_tile: int = MIN_TILE, size_tol: int = 1
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """From component stats (x, y, w, h, area), the biggest complete lattice of equal tiles."""
    if len(stats) < 4:
        return None
    x, y, w, h, area = (stats[:, i] for i in range(5))
    # tiles differ by 1 px (the game shares leftover pixels out), by 2 px when the desktop
    # scales every logical pixel by 2 (GDK_SCALE=2): allow more on larger tiles
    slack = np.maximum(size_tol, 1 + np.maximum(w, h) // 40)
    square = ((w >= min_tile) & (h >= min_tile) & (np.abs(w - h) <= 1 + 2 * slack)
              & (area >= 0.8 * w * h))
    if square.sum() < 4:
        return None
    sizes = w[square]
    values, counts = np.unique(sizes, return_counts=True)
    best = None
    # try the most common tile sizes
    for size in values[np.argsort(-counts)][:3]:
        tol = max(size_tol, 1 + int(size) // 40)
        keep = square & (np.abs(w - size) <= tol) & (np.abs(h - size) <= tol)
        idx = np.flatnonzero(keep)
        if idx.size < 4:
            continue
        found = _complete_lattice(x[idx], y[idx], w[idx], h[idx], int(size), tol)
        if found is not None and (best is None or found[0].size * found[2].size > best[0].size * best[2].size):
            best = found
    return best


def _runs(starts: np.ndarray, size: int, size_tol: int = 1) -> list[list[int]]:
    """Split sorted cluster start positions into runs with a regular pitch (~ size + gap)."""
    runs: list[list[int]] = [[0]]
    for i in range(1, len(starts)):
        step = starts[i] - starts[i - 1]
        prev_step = starts[runs[-1][-1]] - starts[runs[-1][-2]] if len(runs[-1]) > 1 else None
        ok = (size - size_tol < step <= size * 1.5 + 4
              and (prev_step is None or abs(step - prev_step) <= 1 + size_tol))
        if ok:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _complete_lattice(x, y, w, h, size, size_tol=1):
    col_groups = _cluster(x)
    row_groups = _cluster(y)
    col_start = np.array([int(np.median(x[g])) for g in col_groups])
    row_start = np.array([int(np.median(y[g])) for g in row_groups])
    col_order = np.argsort(col_start)
    row_order = np.argsort(row_start)
    best = None
    for crun in _runs(col_start[col_order], size, size_tol):
        for rrun in _runs(row_start[row_order], size, size_tol):
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
            cx0, cx1 = np.zeros(len(cols), int), np.zeros(len(cols), int)
            ry0, ry1 = np.zeros(len(rows), int), np.zeros(len(rows), int)
            for ci in range(len(cols)):
                m = sel[col_of[sel] == ci]
                cx0[ci], cx1[ci] = int(np.median(x[m])), int(np.median(x[m] + w[m]))
            for ri in range(len(rows)):
                m = sel[row_of[sel] == ri]
                ry0[ri], ry1[ri] = int(np.median(y[m])), int(np.median(y[m] + h[m]))
            best = (cx0, cx1, ry0, ry1)
    return best


def components(frame: np.ndarray, bg) -> np.ndarray:
    """Stats (x, y, w, h, area) of the 4-connected regions of pixels that are not ``bg``."""
    lo = np.clip(np.array(bg) - BACKGROUND_TOLERANCE, 0, 255).astype(np.uint8)
    hi = np.clip(np.array(bg) + BACKGROUND_TOLERANCE, 0, 255).astype(np.uint8)
    mask = cv2.bitwise_not(cv2.inRange(frame, lo, hi))
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    return stats[1:]


def _search(frame: np.ndarray, backgrounds, min_tile: int, min_cells: int,
            size_tol: int = 1) -> Grid | None:
    """The largest lattice over all candidate background colours.

    Every candidate is tried: with a wrong "background" (say the covered-tile colour) a part of
    the board can still look like a lattice, but never one as large as the real board.
    """
    best: Grid | None = None
    for bg in backgrounds:
        found = _lattice(components(frame, bg), min_tile, size_tol)
        if found is None:
            continue
        x0, x1, y0, y1 = found
        if len(x0) < min_cells or len(y0) < min_cells:
            continue
        grid = Grid(x0, x1, y0, y1, tuple(bg), frame.shape[:2])
        if best is None or grid.rows * grid.cols > best.rows * best.cols:
            best = grid
    return best


CONTINUED_SHARE = 0.6
"""Share of an outer row or column's neighbours that must look like tiles to call it cut."""


def continues(frame: np.ndarray, grid: Grid) -> str | None:
    """Which side of ``grid`` the lattice visibly goes on past (None: all four are clear).

    A lattice found on part of a board (two rows and columns dropped from a lost classic
    board were once read as a "consistent" smaller board) has more tiles right beyond its
    edge: one gap further, a region that starts exactly where the next tile would, is not
    background, and has the colour of a tile of the board. A real board's outer tiles have
    only the window's background (or unrelated widgets) beyond them.
    """
    bg = np.array(grid.background, np.int16)
    h, w = frame.shape[:2]
    tiles = frame[((grid.y0 + grid.y1) // 2)[:, None], ((grid.x0 + grid.x1) // 2)[None, :]]
    tile_colours = np.unique(tiles.reshape(-1, 3), axis=0).astype(np.int16)
    ym, xm = (grid.y0 + grid.y1) // 2, (grid.x0 + grid.x1) // 2
    gap_x = int(np.median(grid.x0[1:] - grid.x1[:-1])) if grid.cols > 1 else 4
    gap_y = int(np.median(grid.y0[1:] - grid.y1[:-1])) if grid.rows > 1 else 4
    tw, th = int(np.median(grid.x1 - grid.x0)), int(np.median(grid.y1 - grid.y0))

    def tile_like(edge_before: np.ndarray, first: np.ndarray, centre: np.ndarray) -> bool:
        """Per sample: background just before, not background at the would-be tile's first
        pixel and centre, centre coloured like a tile; enough samples -> the lattice goes on."""
        def off(p):
            return np.abs(p.astype(np.int16) - bg).max(axis=-1) > BACKGROUND_TOLERANCE
        centre16 = centre.astype(np.int16)
        like = (np.abs(centre16[:, None, :] - tile_colours[None]).max(axis=-1) <= 3).any(axis=1)
        hits = ~off(edge_before) & off(first) & off(centre) & like
        return hits.mean() >= CONTINUED_SHARE

    sides = {
        "right": (int(grid.x1[-1]) + gap_x, lambda x: frame[ym, x]),
        "left": (int(grid.x0[0]) - gap_x - 1, lambda x: frame[ym, x]),
        "bottom": (int(grid.y1[-1]) + gap_y, lambda y: frame[y, xm]),
        "top": (int(grid.y0[0]) - gap_y - 1, lambda y: frame[y, xm]),
    }
    for side, (first, take) in sides.items():
        step = 1 if side in ("right", "bottom") else -1
        size = tw if side in ("right", "left") else th
        limit = w if side in ("right", "left") else h
        centre = first + step * (size // 2)
        before = first - step
        if not (0 <= min(first, centre, before) and max(first, centre, before) < limit):
            continue
        if tile_like(take(before), take(first), take(centre)):
            return side
    return None


COARSE_ABOVE = 1_000_000
"""Frames with more pixels than this are searched at half resolution first."""


def locate(frame: np.ndarray, min_cells: int = 2) -> Grid:
    """Locate the board grid in a BGR frame, or raise ``NoGameError``.

    ``min_cells``: the fewest rows and columns accepted (GNOME Mines boards have at least 4).
    Large frames (a whole screen) are first searched at half resolution, which keeps every
    4 px gap visible; the exact edges are then measured at full resolution around the board.
    """
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise NoGameError("the frame is not a colour image")
    backgrounds = frequent_colours(frame, step=8 if frame.size > 3 * COARSE_ABOVE else 4)
    grid: Grid | None = None
    if frame.shape[0] * frame.shape[1] > COARSE_ABOVE:
        half = np.ascontiguousarray(frame[::2, ::2])
        coarse = _search(half, backgrounds, MIN_TILE // 2, min_cells, size_tol=2)
        if coarse is not None:
            left, top, right, bottom = coarse.board_px
            pad = int(coarse.pitch) + 4
            x_a, y_a = max(0, 2 * left - pad), max(0, 2 * top - pad)
            x_b, y_b = min(frame.shape[1], 2 * right + pad), min(frame.shape[0], 2 * bottom + pad)
            crop = np.ascontiguousarray(frame[y_a:y_b, x_a:x_b])
            fine = _search(crop, [coarse.background], MIN_TILE, min_cells)
            if fine is not None and (fine.rows, fine.cols) == (coarse.rows, coarse.cols):
                grid = Grid(fine.x0 + x_a, fine.x1 + x_a, fine.y0 + y_a, fine.y1 + y_a,
                            fine.background, frame.shape[:2])
    if grid is None:
        grid = _search(frame, backgrounds, MIN_TILE, min_cells)
    if grid is None:
        raise NoGameError("no Minesweeper board found in the image")
    side = continues(frame, grid)
    if side is not None:
        raise NoGameError(f"found a {grid.cols}x{grid.rows} lattice of tiles, but more tiles go "
                          f"on past its {side} edge: part of a board, not read")
    return grid
