"""The X11 backend: an X server (Xvfb or a desktop) or XWayland, the game an X window.

Its own pixels are grabbed (XShm on the window, never the root: XWayland's root reads black,
and a compositing WM's root is not the game), input is XTEST, focus is asked of the WM.
"""

from __future__ import annotations

from ...errors import NoGameError
from ..frames import HOVER_GRACE
from .capture import Screen, WindowCapture
from .keys import send_keys
from .pointer import Pointer
from .window import X11, Rect, WindowInfo


class X11Backend:
    """X11 or XWayland (``name``): window grabs, XTEST input, focus through the WM."""

    lists_windows = True
    window_list = None   # the X server itself lists the windows (``x11``)
    hover_grace = HOVER_GRACE
    drops_clicks = False   # XTEST input reaches the server, in order
    stalls_casts = False   # grabs read the X server's pixels as they are

    def __init__(self, display: str | None = None, force: str | None = None) -> None:
        self.x11 = X11(display)
        self.display = self.x11.name
        self.xwayland = self.x11.is_xwayland() if force is None else force == "xwayland"
        self.name = "xwayland" if self.xwayland else "x11"
        self.wm = self.x11.wm_name()

    @property
    def screen_rect(self) -> Rect:
        return self.x11.screen_rect

    def capture(self, window: WindowInfo) -> WindowCapture:
        return WindowCapture(self.display, window)

    def screen(self):
        """The whole screen (root window), for finding a board without its window. Not
        under XWayland, whose root window reads black."""
        if self.xwayland:
            raise NoGameError(f"display {self.display} is XWayland: its screen reads black, so "
                              "minebot needs the GNOME Mines window itself (window search on)")
        return Screen(self.display)

    def pointer(self, log_path: str | None = None):
        return Pointer(self.display, log_path=log_path)

    def key(self, combo: str) -> None:
        send_keys(self.x11, combo)

    def close(self) -> None:
        self.x11.close()

    def __enter__(self) -> "X11Backend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
