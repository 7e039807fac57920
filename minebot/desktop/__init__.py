"""The desktop side: a private X server, a private GNOME Mines, its window, and screen capture.

Nothing here touches X at import time (python-xlib and mss are imported when used), so the
package imports with no display at all.
"""

from .capture import Screen
from .mines import MIN_WINDOW, THEMES, GnomeMines, custom_mines_roundtrip
from .window import X11, Rect, WindowInfo
from .xvfb import DesktopError, Xvfb, stop_process_group

__all__ = ["Screen", "GnomeMines", "MIN_WINDOW", "THEMES", "custom_mines_roundtrip",
           "X11", "Rect", "WindowInfo", "DesktopError", "Xvfb",
           "stop_process_group", "find_window", "focus", "geometry"]


def find_window(display: str | None = None) -> WindowInfo | None:
    """The GNOME Mines window on ``display`` (or $DISPLAY), or None."""
    with X11(display) as x:
        return x.find_window()


def focus(window: WindowInfo | int, display: str | None = None) -> None:
    with X11(display) as x:
        x.focus(window if isinstance(window, int) else window.id)


def geometry(window: WindowInfo | int, display: str | None = None) -> Rect | None:
    """The window's current screen rectangle, or None when it is gone."""
    with X11(display) as x:
        info = x.info(window if isinstance(window, int) else window.id)
        return info.rect if info else None
