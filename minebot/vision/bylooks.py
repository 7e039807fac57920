"""Find a board by what its cells look like, when its lattice draws no lines.

Some looks have no edge between cells: KMines' "Gardens of Danger" theme paints seamless grass
over the whole board, so neither the tile locator (no background between cells) nor the edge
lattice (``lattice.py``) sees a grid. What still marks the cells is their content: every
covered cell is the same grass, every number the same signpost. Two ways in:

* ``fit_known(frame, board)``: the true board is known (``minebot calibrate --example``): the
  lattice of its size where cells with the same label look most alike and cells with different
  labels most different (between- over within-label variance);
* ``locate_by_looks(frame, tset)``: a set of looks is known (after calibrating): the lattice
  where the largest rectangle of cells each looks like one of the set's templates.

Both compare cells coarsely first, by the mean colour of each quarter of a cell, for every
origin at once (box filters: one pass per pitch), then exactly (16x16 patches) for the few
best. The pitch is searched among the peaks of the picture's own autocorrelation (the cells
repeat) and the sizes the looks were cut at.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..board import Board
from ..errors import NoGameError
from .features import grid_patches
from .lattice import MIN_PITCH, largest_rectangle
from .locate import Grid
from .templates import MAX_STORED, TemplateSet

PITCHES = 6
"""Pitches tried: this many peaks of the autocorrelation (and each neighbour)."""

COARSE_MATCH = 20.0
"""Quarter-mean RMS distance under which a cell may be a template's look (checked exactly later)."""

FINE_MATCH = 14.0
"""Patch RMS distance under which a cell is one of the set's looks (the reader's MAX_DISTANCE)."""


def _quarters(frame: np.ndarray, pitch: int) -> np.ndarray:
    """(H, W, 12): at every pixel, the mean colours of the four quarters of a cell of side
    ``pitch`` whose top-left corner is that pixel (replicated past the frame's edge)."""
    q = max(1, pitch // 2)
    f = frame.astype(np.float32)
    box = cv2.boxFilter(f, -1, (q, q), anchor=(0, 0), normalize=True, borderType=cv2.BORDER_REPLICATE)
    h, w = f.shape[:2]
    pad = cv2.copyMakeBorder(box, 0, q, 0, q, cv2.BORDER_REPLICATE)
    return np.concatenate([pad[:h, :w], pad[:h, q:q + w], pad[q:q + h, :w], pad[q:q + h, q:q + w]],
                          axis=2)


def _patch_quarters(patches: np.ndarray) -> np.ndarray:
    """(N, 12) quarter means of (N, 16, 16, 3) patches, in ``_quarters``' order."""
    n, s = patches.shape[0], patches.shape[1] // 2
    quads = [patches[:, :s, :s], patches[:, :s, s:], patches[:, s:, :s], patches[:, s:, s:]]
    return np.concatenate([qd.reshape(n, -1, 3).mean(axis=1) for qd in quads], axis=1)


def pitch_candidates(frame: np.ndarray, largest: int, extra: tuple[int, ...] = ()) -> list[int]:
    """Likely cell pitches: peaks of the picture's autocorrelation along both axes, with
    their neighbours, and ``extra`` sizes; at most ``largest``."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    found: list[int] = [p for p in extra if MIN_PITCH <= p <= largest]
    if largest > MIN_PITCH:
        ac = np.zeros(largest + 1)
        for axis in (0, 1):
            a = grey - grey.mean(axis=axis, keepdims=True)
            n = a.shape[axis]
            spec = np.fft.rfft(a, 2 * n, axis=axis)
            full = np.fft.irfft(spec * np.conj(spec), axis=axis)
            line = full.sum(axis=1 - axis)[: largest + 1]
            ac[: line.size] += line / max(line[0], 1e-9)
        peaks = [k for k in range(MIN_PITCH + 1, largest) if ac[k] >= ac[k - 1] and ac[k] >= ac[k + 1]]
        for k in sorted(peaks, key=lambda k: -ac[k])[:PITCHES]:
            found += [k - 1, k, k + 1]
    out: list[int] = []
    for p in found:
        if MIN_PITCH <= p <= largest and p not in out:
            out.append(p)
    return out


def _fisher(frame: np.ndarray, grid: Grid, labels: np.ndarray) -> float:
    """Between-label over within-label variance of the cells' 16x16 patches."""
    patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1).reshape(labels.size, -1)
    return _separation(patches, labels)


def _separation(x: np.ndarray, labels: np.ndarray) -> float:
    mean = x.mean(axis=0)
    within = between = 0.0
    for label in np.unique(labels):
        part = x[labels == label]
        m = part.mean(axis=0)
        within += float(((part - m) ** 2).sum())
        between += float(part.shape[0] * ((m - mean) ** 2).sum())
    return between / (within + x.shape[1] * labels.size)


def _grid(left: int, top: int, pitch: int, rows: int, cols: int, shape) -> Grid:
    x0 = left + pitch * np.arange(cols)
    y0 = top + pitch * np.arange(rows)
    return Grid(x0, x0 + pitch, y0, y0 + pitch, (0, 0, 0), tuple(shape[:2]))


def fit_known(frame: np.ndarray, board: Board, keep: int = 8) -> Grid:
    """The lattice of ``board``'s size that fits its labels best (see the module docstring)."""
    h, w = frame.shape[:2]
    rows, cols = board.shape
    largest = min(w // cols, h // rows)
    if largest < MIN_PITCH:
        raise NoGameError(f"a {cols}x{rows} board does not fit in a {w}x{h} image")
    codes = board.cells.reshape(-1).astype(np.int32)
    labels = np.unique(codes, return_inverse=True)[1]
    if labels.max() == 0:
        raise NoGameError("the board shows one look only: nothing tells its cells apart")
    best: tuple[float, Grid] | None = None
    for pitch in pitch_candidates(frame, largest):
        quarters = _quarters(frame, pitch)
        ny, nx = h - rows * pitch + 1, w - cols * pitch + 1
        sums = np.zeros((labels.max() + 1, ny, nx, 12), np.float32)
        squares = np.zeros((ny, nx), np.float32)
        counts = np.bincount(labels)
        for i, label in enumerate(labels):
            r, c = divmod(i, cols)
            cell = quarters[r * pitch: r * pitch + ny, c * pitch: c * pitch + nx]
            sums[label] += cell
            squares += (cell * cell).sum(axis=2)
        total = sums.sum(axis=0)
        # within = sum x^2 - sum_label |S_l|^2 / n_l; between = sum_label |S_l|^2 / n_l - |S|^2 / n
        explained = ((sums * sums).sum(axis=3) / counts[:, None, None]).sum(axis=0)
        within = squares - explained
        between = explained - (total * total).sum(axis=2) / labels.size
        score = between / (within + 12 * labels.size)
        for flat in np.argsort(score, axis=None)[::-1][:keep]:
            top, left = divmod(int(flat), nx)
            grid = _grid(left, top, pitch, rows, cols, frame.shape)
            fine = _fisher(frame, grid, labels)
            if best is None or fine > best[0]:
                best = (fine, grid)
    if best is None:
        raise NoGameError(f"no {cols}x{rows} lattice found in the image")
    return best[1]


def locate_by_looks(frame: np.ndarray, tset: TemplateSet, min_cells: int = 4) -> Grid:
    """The largest lattice whose cells look like ``tset``'s templates.

    The pitches the looks were cut at are tried first (the window kept its size), and the
    first lattice whose every cell matches is taken; else the picture's own periodicities.
    Rows and columns of which at least half the cells match belong to the board too (a look
    the set has not learned yet): the reader then names those cells as unmatched, rather than
    reading part of a board.
    """
    h, w = frame.shape[:2]
    largest = min(w, h) // max(1, min_cells)
    sizes = tuple(sorted({int(s) for s in tset.sizes})) if tset.sizes is not None else ()
    looks = _patch_quarters(tset.patches)
    best: tuple[tuple[int, float], Grid] | None = None
    for pitch in pitch_candidates(frame, min(largest, 4 * MAX_STORED), sizes):
        quarters = _quarters(frame, pitch)
        ni, nj = h // pitch, w // pitch
        if ni < min_cells or nj < min_cells:
            continue
        cells = quarters[: ni * pitch, : nj * pitch].reshape(ni, pitch, nj, pitch, 12)
        flat = cells.transpose(1, 3, 0, 2, 4).reshape(-1, 12)        # (phase y, phase x, i, j)
        d2 = ((flat * flat).sum(1)[:, None] + (looks * looks).sum(1)[None, :] - 2 * flat @ looks.T)
        near = np.sqrt(np.maximum(d2, 0).min(axis=1) / 12).reshape(pitch, pitch, ni, nj)
        ok = near <= COARSE_MATCH
        counts = ok.sum(axis=(2, 3))
        # how well, not only how many: a plain look (grass) fits at every phase, the others
        # (numbers, flags) only at the right one
        fit = np.where(ok, COARSE_MATCH - near, 0.0).sum(axis=(2, 3))
        for flat_phase in np.argsort(fit, axis=None)[::-1][:3]:
            py, px = divmod(int(flat_phase), pitch)
            if counts[py, px] < min_cells * min_cells:
                continue
            found = largest_rectangle(ok[py, px])
            if found is None:
                continue
            top, left, rows, cols = found
            grid = _exact(frame, tset, _grid(px + left * pitch, py + top * pitch, pitch, rows, cols,
                                             frame.shape), min_cells)
            if grid is None:
                continue
            d = _distances(frame, grid, tset)
            key = (grid.rows * grid.cols, -float(np.mean(d)))
            if best is None or key > best[0]:
                best = (key, grid)
            if pitch in sizes and (d <= FINE_MATCH).all():
                return grid
    if best is None:
        raise NoGameError("no board of these looks found in the image")
    return best[1]


def _distances(frame: np.ndarray, grid: Grid, tset: TemplateSet) -> np.ndarray:
    patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
    d = tset.distances(patches.reshape(grid.rows * grid.cols, *patches.shape[2:]))
    return d.min(axis=1).reshape(grid.rows, grid.cols)


GROW_SHARE = 0.5
"""A row or column beside the board belongs to it when this share of its cells match."""


def _exact(frame: np.ndarray, tset: TemplateSet, grid: Grid, min_cells: int, reach: int = 2
           ) -> Grid | None:
    """The grid nudged by up to ``reach`` pixels to where its cells match best, cut to the
    largest rectangle of cells that match, grown by the rows and columns beside it that mostly
    match; None when too small."""
    pitch = int(grid.x1[0] - grid.x0[0])
    h, w = frame.shape[:2]
    best: tuple[float, Grid] | None = None
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            moved = grid.shifted(dx, dy)
            left, top, right, bottom = moved.board_px
            if left < 0 or top < 0 or right > w or bottom > h:
                continue
            cost = float(np.mean(_distances(frame, moved, tset)))
            if best is None or cost < best[0]:
                best = (cost, moved)
    if best is None:
        return None
    grid = best[1]
    # the whole lattice through this grid, as far as the frame goes
    x_first = int(grid.x0[0]) % pitch
    y_first = int(grid.y0[0]) % pitch
    cols_all, rows_all = (w - x_first) // pitch, (h - y_first) // pitch
    whole = _grid(x_first, y_first, pitch, rows_all, cols_all, frame.shape)
    ok = _distances(frame, whole, tset) <= FINE_MATCH
    found = largest_rectangle(ok)
    if found is None or found[2] < min_cells or found[3] < min_cells:
        return None
    top, left, rows, cols = found
    grew = True
    while grew:
        grew = False
        if top > 0 and ok[top - 1, left:left + cols].mean() >= GROW_SHARE:
            top, rows, grew = top - 1, rows + 1, True
        if top + rows < rows_all and ok[top + rows, left:left + cols].mean() >= GROW_SHARE:
            rows, grew = rows + 1, True
        if left > 0 and ok[top:top + rows, left - 1].mean() >= GROW_SHARE:
            left, cols, grew = left - 1, cols + 1, True
        if left + cols < cols_all and ok[top:top + rows, left + cols].mean() >= GROW_SHARE:
            cols, grew = cols + 1, True
    return _grid(x_first + left * pitch, y_first + top * pitch, pitch, rows, cols, frame.shape)
