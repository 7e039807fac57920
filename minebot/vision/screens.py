"""Recognise the screens that show no board: the level chooser and the paused game.

Both matter to the live loop: the chooser means "pick a size", "Paused" means the window lost
focus (clicks are ignored until it gets it back). Neither has a tile lattice, so they are told
apart by coarse shapes that do not depend on the mine theme:

* chooser: four big square buttons in a 2 x 2 arrangement (GNOME Mines' size buttons);
* paused: one big flat rectangle where the board was (the "Paused" cover), much larger than
  any tile, mostly of a covered tile's colour, with light text ("Paused") in its middle.
"""

from __future__ import annotations

import numpy as np

from ..board import GameState
from .locate import components, frequent_colours

MIN_BUTTON = 60
MIN_COVER = 120


def _is_chooser(boxes: np.ndarray) -> bool:
    x, y, w, h = (boxes[:, i] for i in range(4))
    big = (w >= MIN_BUTTON) & (np.abs(w - h) <= 0.1 * w)
    idx = np.flatnonzero(big)
    for i in idx:
        same = idx[(np.abs(w[idx] - w[i]) <= 3) & (np.abs(h[idx] - h[i]) <= 3)]
        if len(same) < 4:
            continue
        xs = np.unique(np.round(x[same] / 4))
        ys = np.unique(np.round(y[same] / 4))
        if len(same) == 4 and len(xs) == 2 and len(ys) == 2:
            return True
    return False


def _is_paused(frame: np.ndarray, boxes: np.ndarray, covered: np.ndarray) -> bool:
    fh, fw = frame.shape[:2]
    for x, y, w, h, area in boxes:
        if w < MIN_COVER or h < MIN_COVER or area < 0.5 * w * h or w * h > 0.8 * fw * fh:
            continue
        inner = frame[y + 4:y + h - 4, x + 4:x + w - 4].reshape(-1, 3)
        step = max(1, len(inner) // 4000)
        sample = inner[::step].astype(np.int32)
        keys = (sample[:, 0] << 16) | (sample[:, 1] << 8) | sample[:, 2]
        values, counts = np.unique(keys, return_counts=True)
        if counts.max() < 0.6 * len(keys):
            continue
        k = int(values[np.argmax(counts)])
        colour = np.array([(k >> 16) & 255, (k >> 8) & 255, k & 255])
        if len(covered) and np.abs(covered - colour).max(axis=1).min() > 12:
            continue
        middle = frame[y + h // 3:y + 2 * h // 3, x + w // 4:x + 3 * w // 4]
        if (middle.min(axis=2) > colour.max() + 30).sum() >= 20:   # the light "Paused" text
            return True
    return False


DEFAULT_COVERED = np.array([[182, 189, 186]])
"""GNOME Mines' covered tile (#babdb6, BGR), used when no template set tells otherwise."""


def screen_state(frame: np.ndarray, covered: np.ndarray | None = None) -> GameState:
    """CHOOSER, PAUSED or NONE for a frame in which no board lattice was found.

    ``covered``: (K, 3) BGR colours of covered tiles in the known template sets.
    """
    covered = DEFAULT_COVERED if covered is None or not len(covered) else np.asarray(covered)
    for bg in frequent_colours(frame, count=3):
        boxes = components(frame, bg)
        if len(boxes) == 0:
            continue
        if _is_chooser(boxes):
            return GameState.CHOOSER
        if _is_paused(frame, boxes, covered):
            return GameState.PAUSED
    return GameState.NONE
