"""The mutter backend: GNOME on Wayland, the game a native Wayland client, seen through
mutter's ScreenCast (``capture``) and played through its RemoteDesktop API (``pointer``, and
keys here); the session both share is ``session``."""

from __future__ import annotations

from ...errors import DesktopError, NoGameError
from ..keys import press_combo
from ..x11.window import X11, Rect
from .capture import MonitorCapture
from .dbus import Bus
from .pointer import MutterPointer
from .session import MutterSession


class MutterBackend:
    """GNOME on Wayland with the game a native Wayland client (see the module docstring).

    There is no window list: the board is found in the monitor's frame (``screen()``), and a
    board that is no longer where or what it was counts as a changed or covered window.
    """

    name = "mutter"
    wm = "Mutter"
    x11: X11 | None = None
    lists_windows = False
    window_list = None   # GNOME on Wayland lists no windows to clients
    hover_grace = 0.5
    """Seconds a clicked cell may show the hover look before its result: the motion, the
    press and the new frame each pass through mutter's main loop, which a loaded machine
    delays (measured 60-400 ms from click to changed frame under load)."""
    drops_clicks = True
    """The first click through a new session was now and then lost (1 in ~5 fresh runs, after
    the devices' settle time too), with no trace on screen."""
    stalls_casts = True
    """Measured with GNOME Mines 50 under headless mutter 50 (Debian testing): after 3 of 8
    right-clicks the area cast sent frames 20-60 ms later, none with the flag, and no more
    for 1.2 s (in play, 2 s and more); a 2 px motion of the parked pointer brought the flag's
    frame 19-50 ms later (2 of 2 tried)."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.session = MutterSession(bus)
        self.display = f"wayland (mutter on {bus.address.split(',')[0]})"

    @property
    def screen_rect(self) -> Rect:
        rect = self.session.rect
        if rect is None:   # this backend's session always casts the monitor
            raise DesktopError("the mutter session has no screen cast")
        return rect

    def capture(self, window) -> MonitorCapture:
        raise NoGameError("GNOME on Wayland has no window list for a client: the board is "
                          "found on the whole screen")

    def screen(self) -> MonitorCapture:
        """The monitor's frames: one capture per backend (its ``focus`` is the backend's)."""
        if self._screen is None:
            self._screen = MonitorCapture(self.session)
        return self._screen

    _screen: MonitorCapture | None = None

    def pointer(self, log_path: str | None = None) -> MutterPointer:
        return MutterPointer(self.session, log_path)

    def key(self, combo: str) -> None:
        """Press the keys of ``combo`` in order, release them in reverse (to the focused window)."""
        press_combo(self.session.keysym, combo)
        self.session.flush()

    def close(self) -> None:
        screen, self._screen = self._screen, None
        if screen is not None:
            screen.close()
        self.session.close()

    def __enter__(self) -> "MutterBackend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
