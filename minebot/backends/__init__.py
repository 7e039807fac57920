"""The display-server backends: how minebot sees and touches a game window, one sub-package
per display server, and the frame source play reads through.

- ``x11``: an X server (Xvfb or a desktop) or XWayland: window grabs (XShm), XTEST input.
- ``mutter``: GNOME on Wayland, through mutter's ScreenCast and RemoteDesktop D-Bus APIs.
- ``backend``: the ``Backend`` and ``Capture`` protocols and ``open_backend``, which picks one.
- ``keys``: key combinations as keysyms, shared by the backends.
- ``frames``, ``watch``, ``readings``: the one frame source over a backend's capture, the
  board's surroundings watched between frames, and the capture -> read loop.

Nothing here touches a display at import time (python-xlib, mss, jeepney and GStreamer are
imported when used), so the package imports with no display at all. The private desktops and
games of the tests live apart, in ``minebot.sandbox``.
"""
