"""What every capture of the game's pixels offers the frame source, declared once.

Why declared: the frame source (``minebot.backends.frames.FrameSource``) follows a moved
window, narrows a screen cast to the board and waits for the next frame; a capture that has
nothing to do for one of these says so with a method that does nothing, instead of the frame
source asking each capture which methods it happens to have.
"""

from __future__ import annotations

import time
from typing import Protocol

import numpy as np

from .x11.window import Rect, WindowInfo


class Capture(Protocol):
    """Pixels of the game: ``grab(region)`` in screen coordinates -> BGR array (the ways are in
    ``minebot.backends.x11.capture`` and ``mutter.MonitorCapture``; play, the overlay and the
    recorder use them through ``minebot.backends.frames.FrameSource``).

    ``follow(window)``: the game's window moved or was replaced; ``focus(rect)``: only
    ``rect`` will be read for a while (None: all again); ``wait_next(timeout)``: return once
    the screen may have changed (at most ``timeout`` seconds). ``frame_clocked``: each grab
    waits for the compositor's next frame (wlroots' screen copies), so several regions are
    better asked for as one that covers them."""

    frame_clocked: bool

    def grab(self, region: Rect) -> np.ndarray: ...

    def follow(self, window: WindowInfo) -> None: ...

    def focus(self, rect: Rect | None) -> None: ...

    def wait_next(self, timeout: float) -> None: ...

    def close(self) -> None: ...


class ScreenCapture(Capture, Protocol):
    """A capture of the whole screen (or monitor): ``rect`` is the screen's rectangle."""

    rect: Rect


class GrabbedCapture:
    """What a capture that grabs on demand (X11's) does for the frame source's other calls: no
    window to follow (a window capture overrides ``follow``), nothing to narrow (it grabs just
    what is asked anyway), and no word of the next frame: it is polled every 1 ms."""

    frame_clocked = False
    """A grab is served at once (X11): small regions cost less than one that covers them."""

    def follow(self, window: WindowInfo) -> None:
        """Nothing to follow: the region asked for says where to grab."""

    def focus(self, rect: Rect | None) -> None:
        """Nothing to narrow: each grab is of the region asked for only."""

    def wait_next(self, timeout: float) -> None:
        """No stream to wait on: a millisecond, then grab again."""
        time.sleep(0.001)
