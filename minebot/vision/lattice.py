"""Find a lattice of touching cells from the periodic structure of its edges.

GNOME Mines' tiles stand apart on a background (``locate.py`` finds them as separate
regions), but other clones draw cells that touch: xdemineur's 20 px cells between 1 px black
lines, KMines' bevelled cells scaled to the window. What every such board has is edges that
repeat at one pitch in both directions, over the whole board and nowhere else:

1. per column (row) of the frame, the share of pixels with a strong horizontal (vertical)
   colour step: a profile whose peaks are the lattice lines;
2. the pitch: the lag with the highest autocorrelation of both profiles at once (cells are
   square), the smallest of its harmonics that is nearly as strong;
3. the phase: the offset where the profile, folded at that pitch, has most edge;
4. the extent: the longest run of lattice lines that stand out from the cells' insides,
   measured again over the rows (columns) found, until it settles.

A lattice whose run of lines reaches the frame's edge may go on past it: refused, never a
part of a board. The exact offset of the cell boundaries (which of a bevel's two edges is
"the" line) is left to the caller that knows the looks (``Reader`` nudges the grid by a
pixel or two to fit its templates).
"""

from __future__ import annotations

import cv2
import numpy as np

from ..errors import NoGameError
from .locate import Grid

EDGE = 10
"""Per-channel step (0-255) between neighbouring pixels that counts as an edge."""

MIN_PITCH = 12
"""Smallest cell pitch accepted, in pixels."""

BAND = 2
"""Pixels either side of a lattice position where a boundary's edges may lie."""


def _steps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Boolean map of pixels where two aligned BGR images differ by more than ``EDGE`` in
    some channel (opencv: several times faster than numpy's reductions over the channels)."""
    d = cv2.absdiff(np.ascontiguousarray(a), np.ascontiguousarray(b))
    blue, green, red = cv2.split(d)
    return cv2.max(cv2.max(blue, green), red) > EDGE


def _autocorrelation(profile: np.ndarray, max_lag: int) -> np.ndarray:
    """Normalised autocorrelation of a profile for lags 0..max_lag (zero-mean)."""
    a = profile - profile.mean()
    n = a.size
    spec = np.fft.rfft(a, 2 * n)
    ac = np.fft.irfft(spec * np.conj(spec))[: max_lag + 1]
    return ac / ac[0] if ac[0] > 0 else np.zeros(max_lag + 1)


def find_pitch(col_profile: np.ndarray, row_profile: np.ndarray, min_cells: int) -> int | None:
    """The cell pitch both profiles repeat at, or None."""
    max_lag = min(col_profile.size, row_profile.size) // max(2, min_cells)
    if max_lag <= MIN_PITCH:
        return None
    ac = _autocorrelation(col_profile, max_lag) + _autocorrelation(row_profile, max_lag)
    lags = np.arange(max_lag + 1)
    score = np.where(lags >= MIN_PITCH, ac, -np.inf)
    best = int(np.argmax(score))
    if not np.isfinite(score[best]) or score[best] <= 0.2:
        return None
    # a lattice also correlates at 2, 3 ... pitches: prefer the smallest nearly as strong
    for k in (4, 3, 2):
        lag = round(best / k)
        if lag >= MIN_PITCH:
            near = score[max(MIN_PITCH, lag - 1): lag + 2]
            if near.size and near.max() >= 0.7 * score[best]:
                return int(max(MIN_PITCH, lag - 1) + np.argmax(near))
    return best


def _phase(profile: np.ndarray, pitch: int) -> int:
    """Offset (0..pitch-1) of the lattice lines: the middle of the strongest band of edge in
    the profile folded at the pitch.

    A boundary is often two or three edges a pixel or two apart (a black line has one on each
    side, a bevel one per shade); the middle of the band is the same wherever the strongest of
    them happens to be in one frame.
    """
    folded = np.array([profile[p::pitch].mean() for p in range(pitch)])
    band = np.array([folded[np.arange(p - BAND, p + BAND + 1) % pitch].sum() for p in range(pitch)])
    centre = int(np.argmax(band))
    offsets = np.arange(centre - BAND, centre + BAND + 1)
    weights = folded[offsets % pitch]
    mid = float((offsets * weights).sum() / weights.sum()) if weights.sum() > 0 else float(centre)
    return int(np.floor(mid + 0.5)) % pitch


def _sides(edges: np.ndarray, lines: np.ndarray, across: np.ndarray) -> np.ndarray:
    """Share of each cell side with an edge near its lattice line.

    ``edges`` is a boolean edge map whose axis 1 runs across the lines (lines at positions
    ``lines`` on that axis), axis 0 along them; ``across`` the lattice positions on axis 0.
    Returns (len(across) - 1, len(lines)): for every span between two neighbouring positions
    of ``across`` and every line, the share of the span's middle with an edge within ``BAND``
    pixels of the line.
    """
    n = edges.shape[1]
    near = np.zeros((edges.shape[0], lines.size), bool)
    for d in range(-BAND, BAND + 1):
        idx = np.clip(lines + d, 0, n - 1)
        near |= edges[:, idx]
    csum = np.concatenate([np.zeros((1, lines.size)), np.cumsum(near, axis=0)])
    pitch = int(across[1] - across[0]) if across.size > 1 else 1
    margin = max(1, pitch // 5)      # the corners, where the other lines cross, left out
    lo = np.clip(across[:-1] + 1 + margin, 0, edges.shape[0])
    hi = np.clip(across[1:] + 1 - margin, 0, edges.shape[0])
    return (csum[hi] - csum[lo]) / np.maximum(hi - lo, 1)[:, None]


def largest_rectangle(ok: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, left, rows, cols) of the largest all-true rectangle of a boolean matrix."""
    best, best_area = None, 0
    heights = np.zeros(ok.shape[1], int)
    for r in range(ok.shape[0]):
        heights = np.where(ok[r], heights + 1, 0)
        stack: list[int] = []
        for c in range(ok.shape[1] + 1):
            h = heights[c] if c < ok.shape[1] else 0
            while stack and heights[stack[-1]] >= h:
                top_h = heights[stack.pop()]
                left = stack[-1] + 1 if stack else 0
                if top_h * (c - left) > best_area:
                    best_area = top_h * (c - left)
                    best = (r - top_h + 1, left, int(top_h), c - left)
            stack.append(c)
    return best


def _refined(profile: np.ndarray, pitch: int, near: int) -> int:
    """The lattice line of ``profile``'s own phase closest to position ``near``."""
    phase = _phase(profile, pitch)
    return int(phase + round((near - phase) / pitch) * pitch)


OPEN_ROW = 0.5
"""Share of a row's (column's) inner cells with three sides drawn that lets it join the board
when its end cells have three (``_board_rectangle``)."""


def _board_rectangle(sides: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, left, rows, cols) of the board in a matrix of drawn sides per would-be cell.

    Inside a board every cell has its four sides drawn; on its rim the outer side may be
    faint (a light bevel against a light frame), so: the largest rectangle of cells with at
    least three sides, grown by whole rows and columns of such cells whose two end cells (the
    new corners) have at least two. Outside a board a would-be cell has at most the board's
    edge and one stray line. A row (column) that crosses open cells drawn flat (KMines' Oxygen
    theme at small cells draws an open cell with no edge against its open neighbours) is grown
    by too when both its end cells have three sides and at least ``OPEN_ROW`` of the others do:
    else an open area reaching the board's rim cut the board short there.
    """
    found = largest_rectangle(sides >= 3)
    if found is None:
        return None
    top, left, rows, cols = found
    n_rows, n_cols = sides.shape

    def fits(cells: np.ndarray) -> bool:
        return cells.size > 1 and bool((cells[[0, -1]] >= 2).all()) and (
            bool((cells[1:-1] >= 3).all())
            or (bool((cells[[0, -1]] >= 3).all()) and float((cells[1:-1] >= 3).mean()) >= OPEN_ROW))

    grew = True
    while grew:
        grew = False
        if top > 0 and fits(sides[top - 1, left:left + cols]):
            top, rows, grew = top - 1, rows + 1, True
        if top + rows < n_rows and fits(sides[top + rows, left:left + cols]):
            rows, grew = rows + 1, True
        if left > 0 and fits(sides[top:top + rows, left - 1]):
            left, cols, grew = left - 1, cols + 1, True
        if left + cols < n_cols and fits(sides[top:top + rows, left + cols]):
            cols, grew = cols + 1, True
    return top, left, rows, cols


CONTINUED_SHARE = 0.6
"""Share of a board's inner lines that, drawn on past one edge, make it part of a board."""


def _continues(dx: np.ndarray, dy: np.ndarray, xs: np.ndarray, ys: np.ndarray,
               found: tuple[int, int, int, int]) -> str | None:
    """Which edge of the board the lattice visibly goes on past (None: none).

    Beyond a whole board is its frame or the window: the lines between its rows (columns) stop
    at its edge. When most of them run on into the next cell's width (or up to the frame's
    edge, when that is closer), the lattice was cut there: by the image's edge, or by a window
    over it.
    """
    top, left, rows, cols = found
    pitch = int(xs[1] - xs[0])
    x_a, x_b = int(xs[left]) + 1, int(xs[left + cols]) + 1
    y_a, y_b = int(ys[top]) + 1, int(ys[top + rows]) + 1
    inner_rows = ys[top + 1: top + rows]
    inner_cols = xs[left + 1: left + cols]

    def runs_on(edges: np.ndarray, lines: np.ndarray, lo: int, hi: int) -> bool:
        """Most ``lines`` (positions on axis 0 of ``edges``) have edges along [lo, hi)."""
        lo, hi = max(0, lo), min(edges.shape[1], hi)
        if hi - lo < 3 or lines.size == 0:
            return False
        near = np.zeros((lines.size, hi - lo), bool)
        for d in range(-BAND, BAND + 1):
            near |= edges[np.clip(lines + d, 0, edges.shape[0] - 1), lo:hi]
        return float((near.mean(axis=1) >= SIDE_SHARE).mean()) >= CONTINUED_SHARE

    margin = max(2, pitch // 6)   # the frame's own first pixels are left out
    checks = {
        "left": (dy, inner_rows, x_a - pitch + margin, x_a - margin),
        "right": (dy, inner_rows, x_b + margin, x_b + pitch - margin),
        "top": (dx.T, inner_cols, y_a - pitch + margin, y_a - margin),
        "bottom": (dx.T, inner_cols, y_b + margin, y_b + pitch - margin),
    }
    for side, (edges, lines, lo, hi) in checks.items():
        if runs_on(edges, lines, lo, hi):
            return side
    return None


SIDE_SHARE = 0.5
"""A cell side is drawn when edges run along at least this share of it."""


def locate_lattice(frame: np.ndarray, min_cells: int = 4, line: int = 0, dotted: int = 0) -> Grid:
    """The lattice of touching cells in a BGR frame, or ``NoGameError``.

    After the pitch and the phases, every would-be cell of the lattice is checked on its own:
    it counts when edges run along all four of its sides. The board is the largest rectangle
    of such cells (a toolbar's edge that happens to lie on a lattice line has no cell sides
    across it, so it adds no row). ``line``: width of the lines between cells that belong to
    no cell (xdemineur: 1), trimmed from each cell's right and bottom. ``dotted``: the game
    draws some cell sides as dotted lines (Ace of Penguins' open cells: one dot every 2 to 4
    px), so edges are spread this many pixels along each line before the sides are measured,
    joining the dots into the solid side they stand for.
    """
    h, w = frame.shape[:2]
    dx = _steps(frame[:, 1:], frame[:, :-1])          # (h, w-1): steps x -> x+1
    dy = _steps(frame[1:], frame[:-1])                # (h-1, w)
    if dotted:
        dx = cv2.dilate(dx.view(np.uint8), np.ones((dotted, 1), np.uint8)).view(bool)
        dy = cv2.dilate(dy.view(np.uint8), np.ones((1, dotted), np.uint8)).view(bool)
    col_p, row_p = dx.mean(axis=0), dy.mean(axis=1)
    pitch = find_pitch(col_p, row_p, min_cells)
    if pitch is None:
        raise NoGameError("no lattice of cells found in the image")
    xs = np.arange(_phase(col_p, pitch), w - 1, pitch)     # boundary i: between pixel i and i+1
    ys = np.arange(_phase(row_p, pitch), h - 1, pitch)
    if xs.size < 2 or ys.size < 2:
        raise NoGameError("no lattice of cells found in the image")
    vertical = _sides(dx, xs, ys) >= SIDE_SHARE          # (len(ys)-1, len(xs)): left/right sides
    horizontal = _sides(dy.T, ys, xs).T >= SIDE_SHARE    # (len(ys), len(xs)-1): top/bottom sides
    sides = (vertical[:, :-1].astype(int) + vertical[:, 1:] + horizontal[:-1] + horizontal[1:])
    found = _board_rectangle(sides)
    if found is None or found[2] < min_cells or found[3] < min_cells:
        raise NoGameError(f"no lattice of at least {min_cells}x{min_cells} cells found in the image")
    side = _continues(dx, dy, xs, ys, found)
    if side is not None:
        raise NoGameError(f"found a {found[3]}x{found[2]} lattice of cells whose lines go on past its "
                          f"{side} edge: part of a board, not read")
    r0, c0, nrows, ncols = found
    # the phases again, from the board alone (the rest of the window has edges of its own)
    band_y = slice(int(ys[r0]) + 1, int(ys[r0 + nrows]) + 1)
    band_x = slice(int(xs[c0]) + 1, int(xs[c0 + ncols]) + 1)
    x_lo, y_lo = max(0, int(xs[c0]) - pitch // 2), max(0, int(ys[r0]) - pitch // 2)
    left = _refined(dx[band_y, x_lo:int(xs[c0 + ncols]) + pitch // 2].mean(axis=0), pitch,
                    int(xs[c0]) - x_lo) + x_lo + 1
    top = _refined(dy[y_lo:int(ys[r0 + nrows]) + pitch // 2, band_x].mean(axis=1), pitch,
                   int(ys[r0]) - y_lo) + y_lo + 1
    right, bottom = left + ncols * pitch, top + nrows * pitch
    if left < 2 or top < 2 or right > w - 2 or bottom > h - 2:
        raise NoGameError(f"found a {ncols}x{nrows} lattice of cells that reaches the image's edge: "
                          "part of a board, not read")
    x0 = left + pitch * np.arange(ncols)
    y0 = top + pitch * np.arange(nrows)
    return Grid(x0, x0 + pitch - line, y0, y0 + pitch - line, (0, 0, 0), (h, w))
