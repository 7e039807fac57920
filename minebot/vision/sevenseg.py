"""Read a 7-segment mine counter (xdemineur: red segments on a black display above the board).

xdemineur shows "mines minus flags" as four red 7-segment digits on black at the top left of
its window, with no unlit segments drawn. The display is found as the black box around the red
pixels above the board's left half; it is split into equal digit slots, and each slot's seven
segments are sampled where a 7-segment digit has them (relative to the lit pixels' extent over
all slots, so the display's size does not matter). A pattern that is no digit gives no reading:
the counter is then simply not used.
"""

from __future__ import annotations

import numpy as np

SEGMENTS: dict[tuple[int, ...], int] = {
    # segments a (top), b (top right), c (bottom right), d (bottom), e (bottom left),
    # f (top left), g (middle) -> digit
    (1, 1, 1, 1, 1, 1, 0): 0, (0, 1, 1, 0, 0, 0, 0): 1, (1, 1, 0, 1, 1, 0, 1): 2,
    (1, 1, 1, 1, 0, 0, 1): 3, (0, 1, 1, 0, 0, 1, 1): 4, (1, 0, 1, 1, 0, 1, 1): 5,
    (1, 0, 1, 1, 1, 1, 1): 6, (1, 1, 1, 0, 0, 0, 0): 7, (1, 1, 1, 1, 1, 1, 1): 8,
    (1, 1, 1, 1, 0, 1, 1): 9, (1, 1, 1, 0, 0, 1, 0): 7, (0, 0, 1, 1, 1, 1, 1): 6,
    (1, 1, 1, 0, 0, 1, 1): 9,
}
MINUS = (0, 0, 0, 0, 0, 0, 1)

LIT_SHARE = 0.3
"""Share of a segment's sample box that must be lit."""


def lit_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels of a lit segment: strongly red (BGR)."""
    f = frame.astype(np.int16)
    return (f[..., 2] >= 160) & (f[..., 1] <= 90) & (f[..., 0] <= 90)


def _display(frame: np.ndarray, board_px: tuple[int, int, int, int]
             ) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) of the black display with red digits above the board's left half."""
    left, top, right, _ = board_px
    region = frame[:max(0, top), max(0, left - 8): (left + right) // 2]
    if region.size == 0:
        return None
    red = lit_mask(region)
    ys, xs = np.nonzero(red)
    if ys.size < 10:
        return None
    x_off = max(0, left - 8)
    y0, y1 = int(ys.min()), int(ys.max()) + 1
    mid = (y0 + y1) // 2
    row = region[mid].astype(np.int16)
    dark = (row.max(axis=1) <= 40) | red[mid]
    a, b = int(xs.min()), int(xs.max())
    while a > 0 and dark[a - 1]:
        a -= 1
    while b + 1 < dark.size and dark[b + 1]:
        b += 1
    return a + x_off, y0, b + 1 + x_off, y1


def read_seven_segment(frame: np.ndarray, board_px: tuple[int, int, int, int],
                       digits: int = 4) -> int | None:
    """The number on the display above the board, or None when there is none or it is not
    made of 7-segment digits."""
    box = _display(frame, board_px)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    red = lit_mask(frame[y0:y1, x0:x1])
    width = (x1 - x0) / digits
    if width < 4 or y1 - y0 < 7:
        return None
    slots = [red[:, int(round(i * width)): int(round((i + 1) * width))] for i in range(digits)]
    narrow = min(s.shape[1] for s in slots)
    union = np.zeros(narrow, bool)
    for s in slots:
        union |= s[:, :narrow].any(axis=0)
    cols = np.flatnonzero(union)
    if cols.size == 0:
        return None
    a, b = int(cols.min()), int(cols.max()) + 1
    h, w = red.shape[0], b - a
    t = max(1, round(h * 0.12))
    boxes = [  # (y0, y1, x0, x1) per segment a..g, relative to the digit box
        (0, t, a + w // 3, b - w // 3), (h // 6, h // 2 - t // 2, b - max(1, w // 5), b),
        (h // 2 + t // 2, h - h // 6, b - max(1, w // 5), b), (h - t, h, a + w // 3, b - w // 3),
        (h // 2 + t // 2, h - h // 6, a, a + max(1, w // 5)), (h // 6, h // 2 - t // 2, a, a + max(1, w // 5)),
        (h // 2 - t // 2, h // 2 + t // 2 + 1, a + w // 3, b - w // 3),
    ]
    value, sign, seen = 0, 1, False
    for s in slots:
        lit = tuple(int(s[y_a:y_b, x_a:x_b].mean() >= LIT_SHARE) if (y_b > y_a and x_b > x_a) else 0
                    for y_a, y_b, x_a, x_b in boxes)
        if not any(lit):
            continue          # a blank slot
        if lit == MINUS and not seen:
            sign = -1
            continue
        digit = SEGMENTS.get(lit)
        if digit is None:
            return None
        value, seen = value * 10 + digit, True
    return sign * value if seen else None
