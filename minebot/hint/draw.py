"""Hints as one-colour layers: boolean masks that an image or a shaped X window can show.

A shaped X window (no compositor, no alpha) has exactly one colour, so the overlay is one
window per colour whose shape is that colour's mask. Drawing the PNG from the very same
masks means what a test checks on a screenshot is what the player sees on screen.

Per cell: a frame inside the tile (green safe, red mine, orange best guess, magenta wrong
flag, blue proof number, cyan explained cell, red contradicting number); optionally the mine
probability as digits (white with a black outline, two layers) on covered cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .marks import Hints, Mark, short_percent

Coord = tuple[int, int]

# BGR colours, bottom layer first (later layers are drawn, and stacked, on top).
LAYERS: dict[str, tuple[int, int, int]] = {
    Mark.PROOF: (255, 120, 0),        # blue: the numbers proving the explained cell
    Mark.TARGET: (255, 255, 0),       # cyan: the explained cell
    Mark.PROBLEM: (0, 0, 255),        # red: numbers that contradict each other
    Mark.SAFE: (0, 200, 0),           # green: certainly safe
    Mark.MINE: (0, 0, 230),           # red: certainly a mine
    Mark.WRONG: (255, 0, 255),        # magenta: a flag the numbers prove wrong
    Mark.GUESS: (0, 160, 255),        # orange: the best guess
    "outline": (0, 0, 0),          # black halo under the probability digits
    "text": (255, 255, 255),       # white probability digits
}


@dataclass(frozen=True)
class DrawOptions:
    """``probabilities``: digits on every uncertain covered cell, not only the best guess."""

    probabilities: bool = False
    guess_digits: bool = True


def frame_thickness(cell_rects: np.ndarray) -> int:
    """Frame width: about a tenth of a cell, at least 2 px, so it reads at every size."""
    sizes = (cell_rects[..., 2] - cell_rects[..., 0]).astype(float)
    return max(2, int(round(float(np.median(sizes)) * 0.1)))


def _frame(mask: np.ndarray, rect: np.ndarray, t: int) -> None:
    x0, y0, x1, y1 = (int(v) for v in rect)
    mask[y0:y1, x0:x0 + t] = True
    mask[y0:y1, x1 - t:x1] = True
    mask[y0:y0 + t, x0:x1] = True
    mask[y1 - t:y1, x0:x1] = True


def _text_fit(text: str, width: int, height: int) -> tuple[float, int]:
    """Largest Hershey font scale (and stroke) at which ``text`` fits in width x height."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    (w, h), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = min(width / max(w, 1), height / max(h, 1))
    stroke = max(1, int(round(scale * 1.6)))
    return scale, stroke


def _digits(text_mask: np.ndarray, outline_mask: np.ndarray, rect: np.ndarray, text: str) -> None:
    """Write ``text`` centred in ``rect`` into the text mask, its 1 px halo into the outline."""
    x0, y0, x1, y1 = (int(v) for v in rect)
    w, h = x1 - x0, y1 - y0
    scale, stroke = _text_fit(text, int(w * 0.62), int(h * 0.42))
    font = cv2.FONT_HERSHEY_SIMPLEX
    (tw, th), _ = cv2.getTextSize(text, font, scale, stroke)
    org = (x0 + (w - tw) // 2, y0 + (h + th) // 2)
    canvas = np.zeros((h + 4, w + 4), np.uint8)
    cv2.putText(canvas, text, (org[0] - x0 + 2, org[1] - y0 + 2), font, scale, 255, stroke,
                cv2.LINE_8)
    glyph = canvas > 0
    halo = cv2.dilate(canvas, np.ones((3, 3), np.uint8)) > 0
    H, W = text_mask.shape
    ys, xs = slice(max(0, y0 - 2), min(H, y1 + 2)), slice(max(0, x0 - 2), min(W, x1 + 2))
    gy = slice(ys.start - (y0 - 2), ys.stop - (y0 - 2))
    gx = slice(xs.start - (x0 - 2), xs.stop - (x0 - 2))
    text_mask[ys, xs] |= glyph[gy, gx]
    outline_mask[ys, xs] |= halo[gy, gx] & ~glyph[gy, gx]


def hint_layers(hints: Hints, cell_rects: np.ndarray, size: tuple[int, int],
                options: DrawOptions = DrawOptions(), explanation=None,
                offset: tuple[int, int] = (0, 0)) -> dict[str, np.ndarray]:
    """One boolean mask (height x width = ``size``) per layer name in ``LAYERS``.

    ``cell_rects`` are tile rectangles (x0, y0, x1, y1) in the same pixel space minus
    ``offset`` (x, y): the overlay draws in board-local pixels, the PNG in frame pixels.
    ``explanation`` (an ``Explanation``) adds the proof and target frames.
    """
    height, width = size
    rects = np.asarray(cell_rects, dtype=np.int64).copy()
    rects[..., [0, 2]] -= offset[0]
    rects[..., [1, 3]] -= offset[1]
    masks = {name: np.zeros((height, width), dtype=bool) for name in LAYERS}
    t = frame_thickness(rects)

    def frames(name: Mark, cells) -> None:
        for r, c in cells:
            _frame(masks[name], rects[r, c], t)

    if not hints.ok:
        frames(Mark.PROBLEM, hints.problem_cells)
        return masks
    frames(Mark.SAFE, hints.safe)
    frames(Mark.MINE, hints.mines)
    frames(Mark.WRONG, hints.wrong_flags)
    if hints.guess is not None:
        frames(Mark.GUESS, [hints.guess])
    if explanation is not None:
        inner = max(2, t // 2)
        for r, c in explanation.numbers:
            _frame(masks[Mark.PROOF], rects[r, c], inner)
        # The explained cell: a frame inset inside whatever mark it already carries.
        r, c = explanation.cell
        x0, y0, x1, y1 = rects[r, c]
        _frame(masks[Mark.TARGET], np.array([x0 + t, y0 + t, x1 - t, y1 - t]), inner)
    prob = hints.probability
    digit_cells: list[Coord] = []
    if prob is not None and options.probabilities:
        certain = set(hints.safe) | set(hints.mines)
        covered = hints.board.unknown & ~hints.board.flags & ~np.isnan(prob)
        digit_cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(covered))
                       if (int(r), int(c)) not in certain]
    elif hints.guess is not None and hints.guess_p is not None and options.guess_digits:
        digit_cells = [hints.guess]
    for r, c in digit_cells:
        p = hints.guess_p if (r, c) == hints.guess and hints.guess_p is not None else float(prob[r, c])
        _digits(masks["text"], masks["outline"], rects[r, c], short_percent(p))
    return masks


def cell_at(cell_rects: np.ndarray, x: float, y: float) -> Coord | None:
    """The cell whose tile contains pixel (x, y), or None (between tiles, off the board)."""
    rects = np.asarray(cell_rects)
    inside = ((rects[..., 0] <= x) & (x < rects[..., 2]) & (rects[..., 1] <= y) & (y < rects[..., 3]))
    hits = np.argwhere(inside)
    return (int(hits[0][0]), int(hits[0][1])) if len(hits) else None


def paint(image: np.ndarray, masks: dict[str, np.ndarray]) -> np.ndarray:
    """A copy of the BGR ``image`` with every layer painted in its colour, in stacking order."""
    out = image.copy()
    for name, colour in LAYERS.items():
        mask = masks.get(name)
        if mask is not None and mask.any():
            out[mask] = colour
    return out


def caption(image: np.ndarray, lines: list[str]) -> np.ndarray:
    """``image`` with a dark strip of text lines added below it (cells keep their pixels)."""
    if not lines:
        return image
    font, scale, stroke = cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1
    line_h = 20
    width = image.shape[1]
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap_to_width(line, width - 16, font, scale, stroke))
    strip = np.full((line_h * len(wrapped) + 10, width, 3), 40, np.uint8)
    for i, line in enumerate(wrapped):
        cv2.putText(strip, line, (8, 20 + i * line_h), font, scale, (255, 255, 255), stroke,
                    cv2.LINE_AA)
    return np.vstack([image, strip])


def wrap_to_width(text: str, width: int, font=cv2.FONT_HERSHEY_SIMPLEX, scale: float = 0.5,
                  stroke: int = 1) -> list[str]:
    """Greedy word wrap so every line's rendered width fits ``width`` pixels."""
    words, lines, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if line and cv2.getTextSize(trial, font, scale, stroke)[0][0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines or [""]


def draw_hints(image: np.ndarray, hints: Hints, cell_rects: np.ndarray,
               options: DrawOptions = DrawOptions(), explanation=None,
               with_caption: bool = True) -> np.ndarray:
    """The screenshot ``image`` with the hint marks drawn at ``cell_rects`` (frame pixels)."""
    masks = hint_layers(hints, cell_rects, image.shape[:2], options, explanation)
    out = paint(image, masks)
    if not with_caption:
        return out
    lines = [hints.summary()]
    if explanation is not None:
        lines.append(explanation.sentence)
    return caption(out, lines)
