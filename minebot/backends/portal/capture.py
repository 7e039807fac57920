"""Frames of the monitor from the portal's screen cast: a ``Capture`` for the frame source."""

from __future__ import annotations

import numpy as np

from ...errors import DesktopError
from ..mutter.capture import require_inside
from ..x11.window import Rect, WindowInfo
from .session import PortalSession


class StreamCapture:
    """The newest frame of the session's stream, cropped to the region asked for (BGR copy).
    ``rect`` is the monitor in stream pixels, which is where input goes too.

    Unlike mutter's, a portal offers no cast of an area: the whole monitor's stream is read
    all the time (``focus`` has nothing to narrow)."""

    frame_clocked = False
    """A grab crops the newest frame of the stream: no wait."""

    def __init__(self, session: PortalSession) -> None:
        self.session = session
        self.rect = session.rect
        self._seen = 0

    def follow(self, window: WindowInfo) -> None:
        """No window to follow: the cast is of the whole monitor."""

    def focus(self, rect: Rect | None) -> None:
        """Nothing to narrow: the portal casts the whole monitor."""

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = self.rect if region is None else region
        require_inside(self.rect, region)
        frames = self.session.frames
        if frames is None:
            raise DesktopError("the screen cast is closed")
        import cv2  # drops the x byte into a contiguous array many times faster than numpy
        self._seen = frames.count
        frame = frames.latest()
        return cv2.cvtColor(frame[region.top:region.bottom, region.left:region.right],
                            cv2.COLOR_BGRA2BGR)

    def wait_next(self, timeout: float) -> None:
        """Until a frame newer than the last one grabbed comes (or ``timeout``)."""
        frames = self.session.frames
        if frames is not None:
            frames.wait_new(self._seen, timeout)

    def close(self) -> None:
        """Nothing of its own: the stream belongs to the backend's session."""
