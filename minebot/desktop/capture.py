"""Screen capture with mss into BGR numpy arrays (what opencv and the vision reader expect).

One ``Screen`` keeps one mss connection open: opening X for every frame would cost more than
the grab itself. mss objects are not thread-safe, so use one ``Screen`` per thread.
"""

from __future__ import annotations

import os

import numpy as np

from .window import Rect
from .xvfb import DesktopError


class Screen:
    """``Screen(":5").grab(Rect(...)) -> (h, w, 3) uint8 BGR``."""

    def __init__(self, display: str | None = None) -> None:
        import mss  # imported here: the package must import with no display
        from .window import _ensure_xauthority
        _ensure_xauthority()
        self.display = display or os.environ.get("DISPLAY")
        if not self.display:
            raise DesktopError("no X display to capture: set DISPLAY or use `minebot demo --virtual`")
        try:
            factory = getattr(mss, "MSS", None) or mss.mss
            self._sct = factory(display=self.display)
        except Exception as exc:
            raise DesktopError(f"cannot capture display {self.display}: {exc}") from None
        mon = self._sct.monitors[0]
        self.rect = Rect(mon["left"], mon["top"], mon["width"], mon["height"])

    def grab(self, region: Rect | None = None) -> np.ndarray:
        """The pixels of ``region`` (clipped to the screen), BGR, C-contiguous."""
        region = self.rect if region is None else region.intersect(self.rect)
        if region is None:
            raise DesktopError("the region to capture is entirely off screen")
        shot = self._sct.grab(region.as_mss())
        # mss gives BGRA; cvtColor drops alpha into a contiguous array several times faster
        # than a numpy slice-and-copy.
        import cv2
        bgra = np.frombuffer(shot.bgra, np.uint8).reshape(shot.height, shot.width, 4)
        return cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR)

    def close(self) -> None:
        try:
            self._sct.close()
        except Exception:
            pass

    def __enter__(self) -> "Screen":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def capture(region: Rect | None = None, display: str | None = None) -> np.ndarray:
    """One-shot capture (opens and closes a connection; use ``Screen`` in loops)."""
    with Screen(display) as screen:
        return screen.grab(region)
