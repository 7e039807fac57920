"""The capture -> read loop, written once: grab a frame (settled), read it, hand the reading on.

Why one loop: live play, the hint overlay, ``minebot hint --once`` and the fixture recorder
all look at the game the same way: a frame from the ``FrameSource`` (settled, so a half-drawn
change is never read), read by some reader (the vision ``Reader``, the recorder's colour
sampler), and, where frames come often, not read again while the board's pixels are the same
(the clock ticks outside the board; reading a large board costs far more than comparing
it). What each caller does between reads (park the pointer, close a dialog, follow the window)
goes in ``before``, which may also end the readings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Iterator, Protocol, TypeVar

import numpy as np

from ..errors import MinebotError
from .frames import Box, FrameSource, same_area


class Located(Protocol):
    """A reading that knows where the board is in its frame: the area a settled frame must
    hold still on, and the pixels compared for ``changes_only``."""

    @property
    def board_px(self) -> Box: ...


R = TypeVar("R", bound=Located)


@dataclass
class Seen(Generic[R]):
    """One look at the game: the frame, and its reading or why it could not be read."""

    frame: np.ndarray | None
    """None when the frame itself could not be grabbed (then ``error`` says why)."""
    reading: R | None
    error: MinebotError | None = None
    fresh: bool = True
    """Read from this frame (False: the board's pixels were those of the last reading)."""


def board_area(reading: Located | None) -> Box | None:
    """The last reading's board, or None (the whole frame) before the first."""
    return None if reading is None else reading.board_px


def readings(frames: FrameSource, read: Callable[[np.ndarray], R], *, settle: bool = True,
             changes_only: bool = False,
             before: Callable[[int], bool] | None = None,
             area: Callable[[R | None], Box | None] = board_area) -> Iterator[Seen[R]]:
    """Endless looks at the game through ``frames``, each frame read with ``read``.

    ``before(n)`` runs before the n-th grab (0 first); False ends the readings. ``settle``:
    each frame is ``FrameSource.settled`` on the board area (``area`` of the last reading,
    default its ``board_px``). ``changes_only``: a frame whose board area equals the last
    reading's frame hands that reading on unread (``fresh`` False). A grab or a read that
    fails with a ``MinebotError`` is handed on as ``error``; the caller decides what it means.
    """
    last_frame: np.ndarray | None = None
    last: R | None = None
    n = 0
    while before is None or before(n):
        n += 1
        box = area(last)
        try:
            frame = frames.settled(box) if settle else frames.grab()
        except MinebotError as exc:   # the window changed under the grab (resized, gone)
            last_frame = last = None
            yield Seen(None, None, exc)
            continue
        if changes_only and last is not None and same_area(frame, last_frame, box):
            yield Seen(frame, last, fresh=False)
            continue
        try:
            reading = read(frame)
        except MinebotError as exc:
            last_frame = last = None
            yield Seen(frame, None, exc)
            continue
        last_frame, last = frame, reading
        yield Seen(frame, reading)


def read_once(frames: FrameSource, read: Callable[[np.ndarray], R],
              area: Box | None = None) -> tuple[np.ndarray, R]:
    """One settled frame (on ``area``) and its reading; a failed read raises its error."""
    seen = next(readings(frames, read, area=lambda _last: area))
    if seen.error is not None:
        raise seen.error
    return seen.frame, seen.reading
