"""GNOME on Wayland: frames from mutter's ScreenCast (PipeWire), input through its
RemoteDesktop API, both over D-Bus.

- ``dbus``: the session bus, whether mutter's ScreenCast API is there, GNOME Shell's overview;
- ``session``: one RemoteDesktop session with its linked screen cast (frames, input events);
- ``capture``: the monitor's frames, narrowed to the board (``MonitorCapture``);
- ``pointer``: the virtual pointer and its fail-safe (``MutterPointer``, ``PointerWatch``);
- ``backend``: ``MutterBackend``, what live play uses (keys go through the session).
"""
