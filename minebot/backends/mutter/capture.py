"""Frames of the monitor from mutter's screen cast, narrowed to the board's area once it is
known (``MonitorCapture.focus``): a ``Capture`` for the frame source."""

from __future__ import annotations

import numpy as np

from ...errors import DesktopError, NoGameError
from ..x11.window import Rect, WindowInfo
from .session import AreaCast, MutterSession, PipeWireFrames


def require_inside(rect: Rect, region: Rect) -> None:
    """``region`` must lie on the monitor: frames are never padded or guessed."""
    if region.intersect(rect) != region:
        raise NoGameError(f"the region {region} lies outside the screen {rect}")


FOCUS_MARGIN = 16
"""Pixels of screen kept around a focused area (``MonitorCapture.focus``): the ring of pixels
live play watches around the board (``backends.watch``) lies within them."""

class MonitorCapture:
    """Frames of the whole monitor from the session's stream: ``grab(region)`` crops the
    newest frame (a copy, BGR). ``rect`` is the monitor in stream pixels.

    ``focus(rect)`` says that from now on only ``rect`` (the board) is read and acted in: the
    monitor cast stops and an area cast of ``rect`` (and ``FOCUS_MARGIN``) feeds the grabs,
    several times cheaper for mutter. A grab inside the area is as live as before; a grab
    reaching beyond it gets the screen as last seen in full with the live area laid over it
    (outside the area nothing is read for a move, and nothing is ever clicked there).
    ``focus(None)`` goes back to the whole live monitor (its cast joined again, from a frame
    painted for the new consumer: never a stale one).
    """

    def __init__(self, session: MutterSession) -> None:
        self.session = session
        self.rect = session.rect
        self._seen = 0        # frames the active stream had sent at the last grab
        self._area: AreaCast | None = None
        self._still: np.ndarray | None = None   # the monitor (BGR) when the area cast began
        self._laid: tuple[int, np.ndarray] | None = None   # (area frame count, composite)
        self.can_focus = True   # False once mutter refused an area cast

    frame_clocked = False
    """A grab crops the newest frame of the stream: no wait."""

    @property
    def area(self) -> Rect | None:
        """The focused area (stream pixels), or None: the whole monitor."""
        return self._area.rect if self._area is not None else None

    def follow(self, window: WindowInfo) -> None:
        """No window to follow: the cast is of the whole monitor (or of ``focus``'s area)."""

    def focus(self, rect: Rect | None) -> None:
        """Read and act only in ``rect`` from now on (None: the whole screen again). An area
        that already covers ``rect`` (with its margin) is kept."""
        if rect is not None:
            want = Rect(rect.left - FOCUS_MARGIN, rect.top - FOCUS_MARGIN,
                        rect.width + 2 * FOCUS_MARGIN, rect.height + 2 * FOCUS_MARGIN)
            want = want.intersect(self.rect)
            if want is None or (self._area is not None and self._area.rect == want):
                return
        self._unfocus()
        if rect is None or want == self.rect or not self.can_focus:
            return
        import cv2
        self._still = cv2.cvtColor(self._monitor().latest(), cv2.COLOR_BGRA2BGR)
        try:
            self._area = AreaCast(self.session.bus, want, self.session.monitor_origin)
        except DesktopError:
            # A mutter without area casts (or one that refused this area): the monitor's
            # cast goes on, only slower.
            self._still, self.can_focus = None, False
            return
        self.session.stop_frames()

    def _unfocus(self) -> None:
        area, self._area = self._area, None
        self._laid = self._still = None
        if area is not None:
            area.close()
            self.session.restart_frames()

    def _monitor(self) -> PipeWireFrames:
        frames = self.session.frames
        if frames is None:
            raise DesktopError("the screen cast is closed")
        return frames

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = self.rect if region is None else region
        require_inside(self.rect, region)
        import cv2  # drops the x byte into a contiguous array many times faster than numpy
        area = self._area
        if area is None:
            frames = self._monitor()
            self._seen = frames.count
            frame = frames.latest()
            return cv2.cvtColor(frame[region.top:region.bottom, region.left:region.right],
                                cv2.COLOR_BGRA2BGR)
        if area.frames is None:
            raise DesktopError("the area screen cast is closed")
        a = area.rect
        self._seen = count = area.frames.count
        frame = area.frames.latest()
        if region.intersect(a) == region:   # all of it live
            return cv2.cvtColor(frame[region.top - a.top:region.bottom - a.top,
                                      region.left - a.left:region.right - a.left],
                                cv2.COLOR_BGRA2BGR)
        if self._laid is None or self._laid[0] != count:
            laid = self._still.copy()
            laid[a.top:a.bottom, a.left:a.right] = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
            self._laid = (count, laid)
        return self._laid[1][region.top:region.bottom, region.left:region.right].copy()

    def wait_next(self, timeout: float) -> None:
        """Until a frame newer than the last one grabbed comes (or ``timeout``): polling the
        stream in between would only convert the same frame again."""
        frames = self._area.frames if self._area is not None else self.session.frames
        if frames is not None:
            frames.wait_new(self._seen, timeout)

    def close(self) -> None:
        """Idempotent: the area cast (the monitor's stream belongs to the backend's session:
        joined again if the session is still open)."""
        area, self._area = self._area, None
        self._laid = self._still = None
        if area is not None:
            area.close()
            if self.session.is_open:
                self.session.restart_frames()

    def __enter__(self) -> "MonitorCapture":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
