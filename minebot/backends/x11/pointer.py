"""The mouse on an X display (X11 and XWayland): XTest events on a connection of its own.

Every click goes through ``BasePointer`` (``minebot.backends.pointer``), which refuses any
point outside the rectangle it is given and logs each press; this says only how a motion and a
click reach the X server, and how the user stops a run (the pointer in a screen corner).
"""

from __future__ import annotations

import os

from ...errors import Interrupted, MinebotError
from ..pointer import BasePointer, Button
from .window import Rect, close_display, open_display, window_rect

X_BUTTONS = {Button.LEFT: 1, Button.MIDDLE: 2, Button.RIGHT: 3}
"""The X button number of each button."""


class Pointer(BasePointer):
    """The mouse on one X display: XTest events on a python-xlib connection of its own.

    Its fail-safe is the classic one: the pointer thrown into a corner of the screen by the
    user stops the run before the next click. (Until recently this went through pyautogui;
    pyautogui only lent its X connection and this corner check, and it imports mouseinfo,
    which ends the whole process when Python has no tkinter, as Debian's own python3 has
    not. Sending XTest ourselves removes that trap and four indirect dependencies.)
    """

    holds_window = True   # each held click re-reads the window's geometry under a server grab

    def __init__(self, display: str | None = None, log_path: str | None = None) -> None:
        name = display or os.environ.get("DISPLAY")
        if not name:
            raise MinebotError("no X display for mouse input: set DISPLAY or use `minebot demo`")
        self.display = display
        self.connection = open_display(name)
        super().__init__(log_path)

    def _fail_safe(self) -> None:
        root = self.connection.screen().root
        where = root.query_pointer()
        geometry = root.get_geometry()
        if (where.root_x in (0, geometry.width - 1)
                and where.root_y in (0, geometry.height - 1)):
            raise Interrupted("stopped by the fail-safe (pointer moved to a screen corner)")

    def _motion(self, x: int, y: int) -> None:
        from Xlib import X
        from Xlib.ext.xtest import fake_input
        fake_input(self.connection, X.MotionNotify, x=x, y=y)

    def _press_release(self, x: int, y: int, button: Button) -> None:
        # Exactly motion + press + release, nothing else in between.
        from Xlib import X
        from Xlib.ext.xtest import fake_input
        code = X_BUTTONS[button]
        fake_input(self.connection, X.MotionNotify, x=x, y=y)
        fake_input(self.connection, X.ButtonPress, code)
        fake_input(self.connection, X.ButtonRelease, code)

    def _flush(self) -> None:
        self.connection.sync()

    def _press_release_held(self, x: int, y: int, button: Button,
                            hold: tuple[int, Rect]) -> bool:
        # GrabServer, the window's geometry, the three XTest events, UngrabServer, all on this
        # one connection: while the server is grabbed no other client (the window manager, a
        # user dragging the window) is served, so the geometry read is the geometry clicked.
        wid, planned = hold
        self.connection.grab_server()
        try:
            if window_rect(self.connection, wid) != planned:
                return False
            self._press_release(x, y, button)
            return True
        finally:
            self.connection.ungrab_server()
            self.connection.flush()

    def _press_release_all_held(self, clicks, hold: tuple[int, Rect]) -> bool:
        # One server grab for the whole batch: the geometry read under it is the geometry of
        # every click (no other client, the window manager included, is served until the
        # ungrab), and a batch costs the three round trips of one geometry read, not three
        # per click. The game sees the clicks only after the ungrab, in order.
        wid, planned = hold
        self.connection.grab_server()
        try:
            if window_rect(self.connection, wid) != planned:
                return False
            for x, y, button in clicks:
                self._press_release(x, y, button)
            return True
        finally:
            self.connection.ungrab_server()
            self.connection.flush()

    def close(self) -> None:
        """Idempotent: the click log and the X connection."""
        super().close()
        if self.connection is not None:
            close_display(self.connection)
            self.connection = None
