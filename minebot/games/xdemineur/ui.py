"""xdemineur 2.1.1 through its own interface: the smiley button.

Why the smiley is found on the frame: xdemineur has no keyboard shortcut and no menu; a click
on the smiley above the board starts a new game (man page). Its place depends on the window
width, so it is located on the frame just read (the largest yellow face above the board) and
clicked at its centre with the click bounded to that face, never to the board.

The game opens a random zero area by itself, so a fresh board is not all covered: it is a
board in play with no mark on it that differs from the one shown before the new game was
asked for. It declares a win only when every mine is flagged (``flags_to_win``); the solver
flags the mines left once every safe cell is open.

From xdemineur 2.1.1's ``demineur.c`` (facts, read for the rules): the mines are placed
uniformly when the game starts, then one cell is chosen uniformly among the safe cells with no
mine around and opened (``demineur_initialize``) - the engine's ``preopened``; a layout with no
such cell starts all covered (none in 20,000 draws of 30x16/99 or 16x16/40, so the engine's
redraw changes nothing there). A flag can be placed only while flags < mines, and the game is
won once no covered or "?" cell is left and the flags equal the mines (``demineur_won``). The
flood opens only covered cells, never flags or "?".
"""

from __future__ import annotations

import time

import numpy as np

from ...board import Board, Cell, GameState
from ...errors import NoGameError
from ...game.ui import GameHost, GameUI

MIN_FACE = 12
"""Pixels: a yellow blob narrower or lower than this is not the smiley."""


def yellow_mask(image: np.ndarray) -> np.ndarray:
    """Saturated yellow pixels (BGR): the smiley's face in every mood."""
    b, g, r = (image[..., i].astype(np.int16) for i in range(3))
    return (r > 180) & (g > 180) & (b < 100)


def find_smiley(frame: np.ndarray, board_px: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """The smiley's box (left, top, right, bottom) in ``frame``: the largest yellow blob
    above the board and within its columns, roughly square; None if there is none."""
    import cv2
    left, top, right, _ = board_px
    strip = frame[:max(top, 0), max(left, 0):right]
    if strip.size == 0:
        return None
    mask = yellow_mask(strip).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    best = None
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if w < MIN_FACE or h < MIN_FACE or not 0.6 <= w / h <= 1.6:
            continue
        if best is None or area > best[0]:
            best = (area, (x + left, y, x + left + w, y + h))
    return None if best is None else best[1]


def longest_run(mask: np.ndarray) -> int:
    """The longest horizontal stretch of True in any row of ``mask``."""
    if mask.size == 0:
        return 0
    padded = np.pad(mask.astype(np.int8), ((0, 0), (1, 1)))
    edges = np.diff(padded, axis=1)
    starts, ends = np.nonzero(edges == 1), np.nonzero(edges == -1)
    return int((ends[1] - starts[1]).max()) if starts[1].size else 0


def face_mood(face: np.ndarray) -> GameState:
    """The smiley's mood from its dark strokes inside the outline: sunglasses (a row of the
    upper half dark along more than half the width at a stretch: one band, where eyes are two
    blobs) = won; otherwise the mouth: a smile (its ends higher than its middle) =
    playing, a frown = lost. Measured on shapes, not on one picture, so a scaled face works too."""
    h, w = face.shape[:2]
    inner = face[h // 7: h - h // 7, w // 7: w - w // 7]
    dark = (inner.max(axis=2) < 90)
    ih, iw = dark.shape
    if longest_run(dark[: ih // 2]) > 0.5 * iw:
        return GameState.WON   # one dark band across the face: sunglasses, not two eyes
    ys, xs = np.nonzero(dark[int(ih * 0.55):])
    if xs.size < 3:
        return GameState.PLAYING
    left, right = xs.min(), xs.max()
    span = max(right - left, 1)
    if ys.max() - ys.min() + 1 > 0.6 * (span + 1):
        return GameState.PLAYING   # a round "oh" mouth (a button held on the board): no verdict
    ends = ys[(xs <= left + span // 4) | (xs >= right - span // 4)]
    middle = ys[np.abs(xs - (left + right) / 2) <= span * 0.15]
    if ends.size and middle.size and ends.mean() > middle.mean() + 1:
        return GameState.LOST
    return GameState.PLAYING


class XdemineurUI(GameUI):
    """xdemineur: new game by its smiley; no dialogs, no pause, no levels."""

    game = "xdemineur"
    flags_to_win = True

    def is_fresh(self, board: Board, before: Board | None = None) -> bool:
        """In play, nothing marked or shown as a mine, some cells opened by the game itself,
        and not the board shown before the new game was asked for."""
        cells = board.cells
        if board.state not in (GameState.PLAYING, None):
            return False
        if np.isin(cells, (Cell.FLAG, Cell.QUESTION, Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)).any():
            return False
        if not (cells <= 8).any():
            return False
        return before is None or before.shape != board.shape or not np.array_equal(before.cells, cells)

    def shown_state(self, frame: np.ndarray, board_px: tuple[int, int, int, int]) -> GameState | None:
        """The smiley's verdict: won (sunglasses) or lost (a frown); None while playing."""
        box = find_smiley(frame, board_px)
        if box is None:
            return None
        x0, y0, x1, y1 = box
        mood = face_mood(frame[y0:y1, x0:x1])
        return None if mood is GameState.PLAYING else mood

    def request_new_game(self, live: GameHost, board: Board | None) -> None:
        """Click the smiley, located on a fresh capture of the window: above the board last
        read, or (when the board could not be read: a game stopped) anywhere in the window,
        where the face is the only yellow thing."""
        frame = live.settled_frame()
        height, width = frame.shape[:2]
        area = live.reading.board_px if live.reading is not None else (0, height, width, height)
        box = find_smiley(frame, area)
        if box is None:
            path = live.save_frame("no-smiley")
            raise NoGameError(f"no xdemineur smiley above the board; frame saved to {path}", path)
        x0, y0, x1, y1 = box
        region = live.region
        bounds = (region.left + x0, region.top + y0, region.left + x1, region.top + y1)
        live.click_control(region.left + (x0 + x1 - 1) / 2, region.top + (y0 + y1 - 1) / 2, bounds)
        time.sleep(0.05)
