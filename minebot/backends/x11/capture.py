"""The ways pixels are grabbed on X11, each a ``Capture`` (``grab(region)`` in screen
coordinates -> BGR array, ``close()``): the backends of ``minebot.backends.frames.FrameSource``,
which is how the rest of minebot gets a frame of the game.

- ``Screen``: the root window through mss (the whole screen of a plain X server; a board
  found without its window). One ``Screen`` keeps one mss connection open: opening X for
  every frame would cost more than the grab itself. mss objects are not thread-safe.
- ``WindowCapture``: one X window's own drawable through XShm (never the root: XWayland's
  root reads black, and a compositing WM's root is not the game).
- ``CompositeCapture``: one X window's own pixmap through the Composite extension: what the
  game drew even where another window (the hint overlay) lies on top of it.

The GNOME-on-Wayland capture (mutter's screen cast) is ``minebot.backends.mutter.capture.MonitorCapture``.
Every X library is imported when a capture opens: this module imports with no display.
"""

from __future__ import annotations

import os

import numpy as np

from ...errors import DesktopError, NoGameError
from ..capture import GrabbedCapture
from .damage import DamageWatch
from .window import Rect, WindowInfo, close_display, ensure_xauthority, open_display
from .xshm import WindowGrabber


class Screen(GrabbedCapture):
    """``Screen(":5").grab(Rect(...)) -> (h, w, 3) uint8 BGR`` of the root window."""

    def __init__(self, display: str | None = None) -> None:
        import mss  # imported here: the package must import with no display
        ensure_xauthority()
        self.display = display or os.environ.get("DISPLAY")
        if not self.display:
            raise DesktopError("no X display to capture: set DISPLAY or use `minebot demo --virtual`")
        try:
            factory = getattr(mss, "MSS", None) or mss.mss
            self._sct = factory(display=self.display)
        except Exception as exc:  # noqa: BLE001 - mss fails with its own and OS errors alike: no capture either way
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
        except Exception:  # noqa: BLE001, S110 - the display may already be gone; nothing more to free
            pass

    def __enter__(self) -> "Screen":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _inside(region: Rect, window: Rect) -> None:
    """``region`` must lie inside the window: a frame is never padded or guessed."""
    if region.intersect(window) != region:
        raise NoGameError(f"the region {region} lies outside the game window {window}")


class WindowCapture(GrabbedCapture):
    """Frames of one X window through XShm, asked for in screen coordinates.

    The window's pixels are read from its own drawable, so a frame never shows the root or
    another client's pixels except where an overlapping window covers ours without a
    compositor (the caller checks the stacking before it trusts a frame).
    """

    DAMAGE_WAIT = 0.01
    """The longest ``wait_next`` sleeps on the window's damage reports before the caller looks
    again anyway (a report missed costs at most this)."""

    def __init__(self, display: str, window: WindowInfo) -> None:
        self.display = display
        self.window = window
        self._grabber = WindowGrabber(display, window.id)
        self._damage: DamageWatch | None = DamageWatch(display, window.id)

    def follow(self, window: WindowInfo) -> None:
        """The window moved or was replaced: grab the new place (or the new window)."""
        if window.id != self.window.id:
            self.close()
            self._grabber = WindowGrabber(self.display, window.id)
            self._damage = DamageWatch(self.display, window.id)
        self.window = window

    def wait_next(self, timeout: float) -> None:
        """Until the game drew on its window (the X server's damage report), at most
        ``timeout`` or ``DAMAGE_WAIT``: no grab while nothing was drawn."""
        if self._damage is None:
            super().wait_next(timeout)
            return
        self._damage.wait(min(timeout, self.DAMAGE_WAIT))

    def grab(self, region: Rect | None = None) -> np.ndarray:
        """The pixels of ``region`` (screen coordinates, inside the window; None: all of it)."""
        region = self.window.rect if region is None else region
        _inside(region, self.window.rect)
        left, top = self.window.rect.left, self.window.rect.top
        return self._grabber.grab(region.left - left, region.top - top, region.width, region.height)

    def close(self) -> None:
        grabber, self._grabber = getattr(self, "_grabber", None), None
        if grabber is not None:
            grabber.close()
        damage, self._damage = getattr(self, "_damage", None), None
        if damage is not None:
            damage.close()

    def __enter__(self) -> "WindowCapture":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class CompositeCapture(GrabbedCapture):
    """One X window's own pixmap, through the Composite extension, in screen coordinates.

    Why: a screen capture of the board would contain whatever lies on top (the hint overlay's
    marks). With the window redirected (``RedirectAutomatic``: the server still paints it on
    screen, no compositing manager needed) its pixmap holds exactly what the game drew.
    ``available`` is False when the server lacks Composite: callers then capture the screen.
    """

    def __init__(self, display: str | None, window: WindowInfo) -> None:
        name = display or os.environ.get("DISPLAY")
        try:
            self.d = open_display(name)
        except Exception as exc:  # noqa: BLE001 - Xlib raises several unrelated types here
            raise DesktopError(f"cannot open X display {name}: {exc}") from None
        self.window = window
        self.available = self.d.has_extension("Composite")
        self.win = self.d.create_resource_object("window", window.id)
        if self.available:
            from Xlib.ext import composite
            self.d.composite_query_version()
            self.win.composite_redirect_window(composite.RedirectAutomatic)
            self.d.sync()

    def follow(self, window: WindowInfo) -> None:
        """The window moved (same window): crop at its new place."""
        self.window = window

    def grab(self, region: Rect | None = None) -> np.ndarray:
        """``region`` of the window (screen coordinates; None: all of it as it is now), BGR."""
        from Xlib import X
        from Xlib import error as xerror
        if not self.available:
            raise DesktopError("no Composite extension")
        try:
            geom = self.win.get_geometry()
            pixmap = self.win.composite_name_window_pixmap()
            try:
                img = pixmap.get_image(0, 0, geom.width, geom.height, X.ZPixmap, 0xFFFFFFFF)
            finally:
                pixmap.free()
        except xerror.XError as exc:
            raise DesktopError(f"cannot read the game window's pixels: {exc}") from None
        data = np.frombuffer(img.data, np.uint8)
        bpp = data.size // (geom.width * geom.height)
        if bpp != 4:
            raise DesktopError(f"unsupported window pixel format ({bpp} bytes per pixel)")
        whole = data.reshape(geom.height, geom.width, 4)
        if region is not None:
            here = Rect(self.window.rect.left, self.window.rect.top, geom.width, geom.height)
            _inside(region, here)
            x, y = region.left - here.left, region.top - here.top
            whole = whole[y:y + region.height, x:x + region.width]
        return np.ascontiguousarray(whole[:, :, :3])

    def close(self) -> None:
        close_display(self.d)   # closing the connection also ends the redirection

    def __enter__(self) -> "CompositeCapture":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
