"""Read GNOME Mines' "flags/total" counter next to the board (the total mine count).

The counter is a GTK label in the window's font (not the mine theme), drawn dark on the light
window background to the right of the board, under a flag icon; the clock ("00:12") sits
below it. The label's size does not change with the window, so glyphs are matched at their
own size: dark pixels are split into connected components, grouped into text lines, and each
glyph is compared with the set's glyph templates (binary masks on a fixed grid). The line
that reads ``digits/digits`` is the counter.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

GLYPH_W, GLYPH_H = 10, 14
"""Grid each glyph mask is resized onto before comparison."""

DARK = 150
"""Grey level under which a pixel belongs to text."""

MAX_GLYPH_DISTANCE = 0.16
"""Mean absolute mask difference above which a glyph is unknown."""

_COUNTER = re.compile(r"^(\d{1,4})/(\d{1,4})$")

COUNTER_BANK = Path(__file__).resolve().parents[2] / "templates" / "digits" / "counter.npz"
"""Glyph masks of "0"-"9" and "/" in many interface fonts (``tools/make_counter_bank.py``):
the label is drawn in the desktop's font, which a template set recorded on one machine
cannot know."""


@lru_cache(maxsize=1)
def counter_bank() -> tuple[np.ndarray, tuple[str, ...]]:
    """(masks (G, GLYPH_H, GLYPH_W) float, chars) of the counter bank; empty when missing."""
    path = COUNTER_BANK if COUNTER_BANK.is_file() else (
        Path(sys.prefix) / "share" / "minebot" / "templates" / "digits" / "counter.npz")
    try:
        with np.load(path, allow_pickle=False) as data:
            return data["masks"].astype(np.float32) / 255.0, tuple(str(c) for c in data["chars"])
    except (OSError, KeyError, ValueError):
        return np.empty((0, GLYPH_H, GLYPH_W), np.float32), ()


def glyph_mask(image: np.ndarray) -> np.ndarray:
    """A glyph crop (grey or BGR) as a float mask on the fixed grid (1 = ink)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ink = np.clip((255.0 - grey.astype(np.float32)) / 200.0, 0.0, 1.0)
    return cv2.resize(ink, (GLYPH_W, GLYPH_H), interpolation=cv2.INTER_AREA)


def text_lines(frame: np.ndarray, region: tuple[int, int, int, int]) -> list[list[tuple[int, int, int, int]]]:
    """Glyph boxes (x, y, w, h in frame pixels) of the dark text in ``region``, by line."""
    left, top, right, bottom = region
    grey = cv2.cvtColor(np.ascontiguousarray(frame[top:bottom, left:right]), cv2.COLOR_BGR2GRAY)
    mask = (grey < DARK).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    boxes = [(int(s[0]), int(s[1]), int(s[2]), int(s[3])) for s in stats[1:]]
    boxes = [b for b in boxes if 5 <= b[3] <= 48 and b[2] <= 40]    # up to a 2x-scaled label
    lines: list[list[tuple[int, int, int, int]]] = []
    for b in sorted(boxes, key=lambda b: (b[0], b[1] + b[3] / 2)):   # left to right, then top down
        cy = b[1] + b[3] / 2
        for line in lines:
            last = line[-1]
            lcy = sum(g[1] + g[3] / 2 for g in line) / len(line)   # half-pixels: exact
            if abs(cy - lcy) <= 5 and 0 <= b[0] - (last[0] + last[2]) <= 8:
                line.append(b)
                break
        else:
            lines.append([b])
    return [[(x + left, y + top, w, h) for x, y, w, h in line] for line in lines]


def classify_glyphs(frame: np.ndarray, boxes, masks: np.ndarray, chars: list[str]) -> str | None:
    """The text of one line, or None if any glyph matches no template.

    Each glyph's crop is turned grey on its own (``glyph_mask``), not the whole frame: a
    screen-sized conversion per line cost more than all the rest of the counter read.
    """
    if not boxes:
        return None
    out = []
    for x, y, w, h in boxes:
        g = glyph_mask(frame[y:y + h, x:x + w])
        d = np.abs(masks - g[None]).mean(axis=(1, 2))
        i = int(np.argmin(d))
        if d[i] > MAX_GLYPH_DISTANCE:
            return None
        out.append(chars[i])
    return "".join(out)


def find_counter(frame: np.ndarray, grid, tset):
    """((flags, total), (left, top, right, bottom) of the label) or None."""
    bank, bank_chars = counter_bank()
    masks = np.concatenate([tset.glyph_masks, bank]) if tset.glyph_images else bank
    chars = list(tset.glyph_chars) + list(bank_chars)
    if not chars:
        return None
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = grid.board_px
    region = (x1, max(0, y0 - 200), min(w, x1 + 360), min(h, y1))
    if region[2] - region[0] < 10 or region[3] - region[1] < 10:
        return None
    for line in text_lines(frame, region):
        if len(line) < 3:
            continue
        text = classify_glyphs(frame, line, masks, chars)
        if text is None:
            continue
        m = _COUNTER.match(text)
        if m:
            box = (min(b[0] for b in line), min(b[1] for b in line),
                   max(b[0] + b[2] for b in line), max(b[1] + b[3] for b in line))
            return (int(m.group(1)), int(m.group(2))), box
    return None


STATUS_GLYPH_DISTANCE = 0.22
"""Looser glyph limit for a status bar's small text (9 px digits), taken only when the best
character is clearly ahead of every other character (``STATUS_MARGIN``)."""

STATUS_MARGIN = 0.03

_FLAGS_OF_TOTAL = re.compile(r"(?<![\d/])(\d{1,4})/(\d{1,4})(?![\d/])")
_SPACED_SLASH = re.compile(r"(?<=\d) ?/ ?(?=\d)")


def find_status_counter(frame: np.ndarray, board_px: tuple[int, int, int, int],
                        below: int = 160) -> tuple[int, int] | None:
    """(flags, total) from a status bar under the board that shows "...: F/T" (KMines' "Mines:
    2/10") or "...: F / T" (Simon Tatham's Mines' "Marked: 2 / 10"), or None.

    The bar's words are in the desktop's font; only the digits and the slash are read (the
    other glyphs are unknown, not errors), from the same multi-font bank as GNOME Mines'
    counter, and the first ``digits/digits`` run is taken.
    """
    bank, chars = counter_bank()
    if not chars:
        return None
    h, w = frame.shape[:2]
    _, _, _, bottom = board_px
    region = (0, bottom, w, min(h, bottom + below))
    if region[3] - region[1] < 8:
        return None
    for line in text_lines(frame, region):
        height = float(np.median([b[3] for b in line]))
        text = []
        for k, (x, y, gw, gh) in enumerate(line):
            if k and x - (line[k - 1][0] + line[k - 1][2]) > max(2.0, 0.35 * height):
                text.append(" ")          # a space between words ("Mines:" and "2/10")
            g = glyph_mask(frame[y:y + gh, x:x + gw])
            d = np.abs(bank - g[None]).mean(axis=(1, 2))
            i = int(np.argmin(d))
            others = d[np.array([c != chars[i] for c in chars])]
            sure = d[i] <= STATUS_GLYPH_DISTANCE and (others.size == 0 or others.min() >= d[i] + STATUS_MARGIN)
            text.append(chars[i] if sure else "?")
        # "2 / 10" (Simon Tatham's Mines) is read as "2/10" (KMines)
        for word in _SPACED_SLASH.sub("/", "".join(text)).split():
            m = _FLAGS_OF_TOTAL.fullmatch(word)
            if m:
                return int(m.group(1)), int(m.group(2))
    return None
