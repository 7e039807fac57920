"""The wlroots backend: sway and other wlroots compositors, the game a native Wayland client.

Frames come through ``wlr-screencopy-unstable-v1`` (``capture``), clicks through a virtual
pointer and keys through a virtual keyboard of minebot's own (``devices``), and the user stops
a run by throwing the pointer into a screen corner (``failsafe``), as on X11. All of it goes
over one Wayland connection of minebot's (``client``). A client has no window list in these
protocols: the board is found on the whole output and watched by its pixels (as under GNOME on
Wayland); sway's IPC, where there is one, says which game is open and gives it the focus
(``sway``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import DesktopError, NoGameError, UnsupportedDesktopError
from ..x11.window import X11, Rect
from . import protocol as p
from .capture import OutputCapture
from .client import Connection, socket_path
from .devices import VirtualKeyboard, VirtualPointer
from .failsafe import CornerWatch
from .overlay import offers_layer_shell
from .pointer import WlrootsPointer
from .sway import SwayWindows, ipc_socket


def offers_wlroots(env: Mapping[str, str]) -> bool:
    """Whether the Wayland compositor of ``env`` offers what this backend needs (screencopy and
    a virtual pointer): one connection, its registry read, closed."""
    if socket_path(env) is None:
        return False
    try:
        with Connection(env, timeout=2.0) as conn:
            return all(name in conn.globals for name in p.NEEDED)
    except DesktopError:
        return False


class WlrootsBackend:
    """A wlroots compositor (see the module docstring). ``output`` picks one output by index
    (the first by default)."""

    name = "wlroots"
    x11: X11 | None = None
    lists_windows = False
    window_list: SwayWindows | None
    """sway's window list (its IPC, ``$SWAYSOCK``), or None: other wlroots compositors offer
    clients none."""
    draws_overlay: bool
    """Whether ``minebot hint`` can draw over the game here: the compositor offers layer-shell
    (``overlay.LayerOverlay``, on its overlay layer)."""
    hover_grace = 0.3
    """Seconds a clicked cell may still show its hover look: input and frames pass through the
    compositor's frame clock (a grab waits for its next frame, ~16 ms at 60 Hz)."""
    drops_clicks = False
    stalls_casts = False   # each grab is a screen copy made for it
    """Each click ends with a round trip: the compositor has handled it when it returns."""

    def __init__(self, env: Mapping[str, str], output: int = 0, fail_safe: bool = True) -> None:
        self.env = dict(env)
        if socket_path(self.env) is None:
            raise UnsupportedDesktopError("backend wlroots: no Wayland session here "
                                          "(WAYLAND_DISPLAY unset)")
        self.conn = Connection(self.env)
        self._screen: OutputCapture | None = None
        self._keyboard: VirtualKeyboard | None = None
        try:
            missing = [name for name in p.NEEDED if name not in self.conn.globals]
            if missing:
                raise UnsupportedDesktopError(
                    f"backend wlroots: the Wayland compositor at {self.conn.path} offers no "
                    f"{' and no '.join(missing)} (sway and other wlroots compositors do; on "
                    "GNOME use the mutter backend)")
            if not self.conn.outputs or output >= len(self.conn.outputs):
                raise NoGameError(f"backend wlroots: the compositor at {self.conn.path} "
                                  "has no such output")
            self.output = self.conn.outputs[output]
            if self.output.scale != 1:
                raise UnsupportedDesktopError(
                    f"backend wlroots: output scale {self.output.scale} is not supported yet "
                    "(minebot reads screen copies pixel for pixel)")
            self.seat = self.conn.bind(p.WL_SEAT, 1) if p.WL_SEAT.name in self.conn.globals \
                else None
            self.fail_safe = fail_safe
            ipc = ipc_socket(self.env)
            self.window_list = SwayWindows(ipc) if ipc else None
            self.wm = "sway" if ipc else None
            self.draws_overlay = offers_layer_shell(self.conn)
            self.display = f"wayland ({self.wm or 'wlroots'} on {self.conn.path})"
        except BaseException:
            self.conn.close()
            raise

    @property
    def screen_rect(self) -> Rect:
        out = self.output
        return Rect(out.x, out.y, out.width, out.height)

    def capture(self, window) -> OutputCapture:
        raise NoGameError("a wlroots compositor gives clients no window to capture: the board "
                          "is found on the whole screen")

    def screen(self) -> OutputCapture:
        """The output's frames: one capture per backend."""
        if self._screen is None:
            self._screen = OutputCapture(self.conn, self.output)
        return self._screen

    def pointer(self, log_path: str | None = None) -> WlrootsPointer:
        """minebot's virtual pointer, with the corner fail-safe. The device comes first: a
        seat with no mouse at all (a headless compositor) has a pointer only once it exists,
        and before that the compositor refuses to let a client watch one."""
        device = VirtualPointer(self.conn, self.seat, self.output)
        watch = None
        if self.fail_safe:
            if self.seat is None:
                device.close()
                raise UnsupportedDesktopError("backend wlroots: no seat to watch the pointer "
                                              "on, so no fail-safe")
            self.conn.roundtrip()
            watch = CornerWatch(self.conn, self.seat, self.output)
        return WlrootsPointer(device, watch, log_path)

    def key(self, combo: str) -> None:
        """Press ``combo`` on minebot's virtual keyboard (to the window with the focus)."""
        if self._keyboard is None:
            if self.seat is None:
                raise UnsupportedDesktopError("backend wlroots: no seat for a keyboard")
            self._keyboard = VirtualKeyboard(self.conn, self.seat)
        self._keyboard.combo(combo)
        self.conn.roundtrip()

    def close(self) -> None:
        """Idempotent: the capture's buffers, then the connection (the compositor removes
        minebot's devices and surfaces with it)."""
        screen, self._screen = self._screen, None
        if screen is not None:
            screen.close()
        self.conn.close()

    def __enter__(self) -> "WlrootsBackend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
