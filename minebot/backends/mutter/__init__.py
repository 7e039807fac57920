"""GNOME on Wayland: frames from mutter's ScreenCast (PipeWire), input through its
RemoteDesktop API, both over D-Bus."""
