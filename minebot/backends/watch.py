"""Is the board still where and what it was? Asked of the pixels when there is no window to ask.

Why: on GNOME on Wayland a client has no window list (and the whole-screen fallback has no
window either), so the only witness of a moved, resized or covered game is the frame itself.
The board's own cells change with every move, but the few pixels just around it do not: a
ring of them, compared with the frame a move was planned on, tells a board that is still in
place from one that moved or got something on top of it. Pure numpy, no display.
"""

from __future__ import annotations

import numpy as np

RING_GAP = 5
"""Pixels between the board's cells and the ring watched around them: a hovered or opened
edge cell paints up to 2 px beyond the cell rectangle the reader gives (its border)."""


def ring_box(px: tuple[int, int, int, int], shape: tuple[int, ...],
             width: int = 3) -> tuple[int, int, int, int]:
    """The board ``px`` and the ring ``ring_unchanged`` watches, clipped to a frame of
    ``shape``: (left, top, right, bottom)."""
    left, top, right, bottom = px
    reach = RING_GAP + width
    return (max(left - reach, 0), max(top - reach, 0), min(right + reach, shape[1]),
            min(bottom + reach, shape[0]))


def ring_unchanged(before: np.ndarray, now: np.ndarray, px: tuple[int, int, int, int],
                   width: int = 3, inside: bool = False) -> bool:
    """Whether a ``width``-pixel ring around the board ``px`` (left, top, right, bottom in
    frame pixels; ``RING_GAP`` away from its cells) looks the same in both frames; with
    ``inside``, the whole board within the ring too. It is how a board without a window to
    watch is known to be where it was: a moved window, or another window over the board's
    edge, changes that ring."""
    if before.shape != now.shape:
        return False
    if inside:
        x0, y0, x1, y1 = ring_box(px, before.shape, width)
        return bool(np.array_equal(before[y0:y1, x0:x1], now[y0:y1, x0:x1]))
    return all(np.array_equal(before[y0:y1, x0:x1], now[y0:y1, x0:x1])
               for x0, y0, x1, y1 in ring_strips(px, before.shape, width))


def ring_strips(px: tuple[int, int, int, int], shape: tuple[int, ...],
                width: int = 3) -> list[tuple[int, int, int, int]]:
    """The four strips of the ring around the board ``px`` (above, below, left and right of
    it, ``RING_GAP`` away), clipped to a frame of ``shape``, as (left, top, right, bottom);
    empty strips (the board at the frame's edge) left out. Grabbing just these before each
    click costs a fraction of grabbing the whole board."""
    left, top, right, bottom = px
    x0, y0, x1, y1 = ring_box(px, shape, width)
    gl, gt = max(left - RING_GAP, x0), max(top - RING_GAP, y0)
    gr, gb = min(right + RING_GAP, x1), min(bottom + RING_GAP, y1)
    strips = ((x0, y0, x1, gt), (x0, gb, x1, y1), (x0, gt, gl, gb), (gr, gt, x1, gb))
    return [b for b in strips if b[2] > b[0] and b[3] > b[1]]
