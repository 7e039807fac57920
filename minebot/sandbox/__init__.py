"""The test sandbox: private desktops, virtual displays and private copies of the games.

Why apart from the backends (``minebot.backends``): these start an X server, a window manager
or a whole GNOME session, and games with their own home and D-Bus session, so that tests, the
``demo`` command and the benchmarks neither read nor change anything of the user's. Live play
(play, hint, read, solve, calibrate) never imports this package; a test proves it.

Nothing here touches X at import time (python-xlib and mss are imported when used), so the
package imports with no display at all.
"""

from .mines import MIN_WINDOW, THEMES, GnomeMines
from .xvfb import Xvfb, stop_process_group

__all__ = ["GnomeMines", "MIN_WINDOW", "THEMES", "Xvfb", "stop_process_group"]
