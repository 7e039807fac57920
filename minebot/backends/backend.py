"""One desktop interface, one backend per display server, picked at start (like mss picks its
platform backend).

Why: how a bot may see and touch a game window depends on the display server. On X11 (Xvfb,
any X window manager) and on XWayland the game is an X window: its own pixels are grabbed
(XShm on the window, never the root: XWayland's root reads black, and a compositing WM's
root is not the game), input is XTEST, focus is asked of the WM. A native Wayland game under
GNOME is seen and played through mutter's ScreenCast and RemoteDesktop D-Bus APIs
(``minebot.backends.mutter``): no window list there, the board is found on the whole screen.

    backend = open_backend()              # $MINEBOT_BACKEND forces one of BACKENDS
    capture = backend.capture(window)     # frames of that window, in screen coordinates
    frames = FrameSource(capture, region) # what play reads (``minebot.backends.frames``)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import StrEnum
from typing import Protocol, Self

from ..errors import BadInputError, NoGameError
from .capture import Capture, ScreenCapture
from .listed import WindowList
from .mutter.backend import MutterBackend
from .mutter.dbus import Bus, has_mutter
from .portal.backend import PortalBackend
from .portal.session import offers_remote_desktop
from .portal.tokens import TokenStore
from .wlroots.backend import WlrootsBackend, offers_wlroots
from .x11.backend import X11Backend
from .x11.window import X11, Rect, WindowInfo

BACKENDS = {
    "x11": "an X server (Xvfb or a desktop), game window grabbed with XShm, input by XTEST",
    "xwayland": "an X11 game under XWayland (weston, mutter, KWin): window grab, XTEST input",
    "mutter": "GNOME on Wayland, the game a native Wayland client: frames from mutter's "
              "ScreenCast (PipeWire), input through its RemoteDesktop API",
    "wlroots": "sway and other wlroots compositors, the game a native Wayland client: frames "
               "by wlr-screencopy, input by a virtual pointer and keyboard",
    "portal": "KDE Plasma and other Wayland desktops with an xdg-desktop-portal, the game a "
              "native Wayland client: frames from the portal's ScreenCast (PipeWire), input "
              "through its RemoteDesktop (approved once, then a saved restore token)",
}
"""Every backend, with what it covers (``MINEBOT_BACKEND=list`` prints them)."""


class NativeDesktop(StrEnum):
    """A Wayland desktop whose game is a native Wayland client, by the backend that plays it
    (the value is that backend's name in ``BACKENDS``)."""

    MUTTER = "mutter"     # GNOME
    WLROOTS = "wlroots"   # sway and the like
    PORTAL = "portal"     # KDE Plasma and other desktops with a portal's RemoteDesktop


def native_desktop(display: str | None = None,
                   env: Mapping[str, str] | None = None) -> NativeDesktop | None:
    """Which native Wayland desktop this is, asked in order (mutter, then wlroots, then the
    portal: the portal exists on GNOME and sway too), or None: an X11 game (under X11 or
    XWayland) or no Wayland at all."""
    if native_wayland(display, env):
        return NativeDesktop.MUTTER
    if native_wlroots(display, env):
        return NativeDesktop.WLROOTS
    if native_portal(display, env):
        return NativeDesktop.PORTAL
    return None


class Backend(Protocol):
    """What live play needs of a display server (one implementation per server).

    ``name`` (one of ``BACKENDS``), ``display``, ``wm`` (the window manager's name or None),
    ``screen_rect``; ``capture(window)`` frames of the game window, ``screen()`` frames of the
    whole screen (for a board without its window; may refuse), ``pointer(log_path)`` guarded
    clicks (a ``minebot.backends.pointer.BasePointer``), ``key(combo)`` keys to the focused window,
    ``close()`` idempotent. ``x11`` is the X connection for window tracking, or None where
    clients cannot list windows (``lists_windows`` False: native Wayland).
    """

    # Read-only (properties), so that a backend may narrow them: X11's x11 is never None.
    @property
    def name(self) -> str: ...

    @property
    def display(self) -> str | None: ...

    @property
    def wm(self) -> str | None: ...

    @property
    def hover_grace(self) -> float:
        """Seconds a clicked cell may show a hovered or pressed look before its result."""

    @property
    def drops_clicks(self) -> bool:
        """Whether a click may be lost on its way (then a cell that shows no change is planned
        again instead of stopping the game)."""

    @property
    def stalls_casts(self) -> bool:
        """Whether the screen cast may leave the last change of a burst out until the screen
        changes again (mutter 50's area cast): then the wait for a click's result moves the
        parked pointer a little (``LiveGame.nudge``) while the clicked cells look unchanged."""

    @property
    def x11(self) -> X11 | None: ...

    @property
    def lists_windows(self) -> bool: ...

    @property
    def window_list(self) -> WindowList | None:
        """Where X11 windows cannot be asked for: the compositor's own list of windows (sway's
        IPC), or None."""

    @property
    def screen_rect(self) -> Rect: ...

    def capture(self, window: WindowInfo) -> Capture: ...

    def screen(self) -> ScreenCapture: ...

    def pointer(self, log_path: str | None = None): ...

    def key(self, combo: str) -> None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


def open_backend(display: str | None = None, force: str | None = None,
                 env: dict | None = None) -> Backend:
    """The backend for the desktop ``env`` describes (default: this process's environment;
    ``display``, an X display named by the caller, overrides its $DISPLAY and means X11).
    ``force`` or ``$MINEBOT_BACKEND`` picks one of ``BACKENDS`` by name; else it is detected:
    mutter on Wayland (its ScreenCast API on the session bus), else wlroots on a Wayland
    compositor that offers wlr-screencopy and a virtual pointer, else the desktop portal on
    any other Wayland desktop whose xdg-desktop-portal has RemoteDesktop (KDE Plasma), each
    unless a GNOME Mines X11 window is there (then XWayland), else X11/XWayland.
    """
    env = dict(os.environ if env is None else env)
    force = force or os.environ.get("MINEBOT_BACKEND") or None
    if force is not None and force not in BACKENDS:
        listing = "; ".join(f"{name}: {what}" for name, what in BACKENDS.items())
        raise BadInputError(f"unknown backend {force!r} (MINEBOT_BACKEND); available: {listing}")
    explicit = display is not None   # an X display asked for by name: X11 it is
    display = display or env.get("DISPLAY") or None
    if force is not None:
        native = NativeDesktop(force) if force in {d.value for d in NativeDesktop} else None
    else:
        native = None if explicit else native_desktop(display, env)
    if native is NativeDesktop.MUTTER:
        bus = Bus.from_env(env)
        if bus is None or force == "mutter" and not native_wayland(display, env, game=False):
            raise NoGameError("backend mutter: no mutter ScreenCast API on the D-Bus session bus "
                              f"({bus.address if bus else 'no DBUS_SESSION_BUS_ADDRESS'})")
        return MutterBackend(bus)
    if native is NativeDesktop.WLROOTS:
        return WlrootsBackend(env)
    if native is NativeDesktop.PORTAL:
        bus = Bus.from_env(env)
        if bus is None:
            raise NoGameError("backend portal: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS "
                              "unset): run minebot from inside the desktop session")
        return PortalBackend(bus, TokenStore.for_env(env),
                             desktop=env.get("XDG_CURRENT_DESKTOP") or None)
    if display is None:
        if env.get("WAYLAND_DISPLAY"):
            raise NoGameError("a Wayland session without XWayland, without mutter's ScreenCast "
                              "API, without the wlroots protocols (screencopy, virtual "
                              "pointer) and without a desktop portal's RemoteDesktop: minebot "
                              "plays GNOME (mutter), sway and other wlroots compositors, KDE "
                              "Plasma (xdg-desktop-portal-kde), and X11 windows (start GNOME "
                              "Mines with GDK_BACKEND=x11)")
    return X11Backend(display, force)


def native_wayland(display: str | None = None, env: Mapping[str, str] | None = None,
                   game: bool = True) -> bool:
    """Whether this is GNOME on Wayland (mutter's ScreenCast API on the session bus of a
    Wayland session) and, with ``game``, the game is not an X11 window under its XWayland:
    then only the mutter backend can see and play it. Opens nothing but a D-Bus query."""
    env = os.environ if env is None else env
    display = display or env.get("DISPLAY") or None
    if not env.get("WAYLAND_DISPLAY") or not has_mutter(Bus.from_env(env)):
        return False
    return not game or display is None or not _x11_game_on(display)


def native_wlroots(display: str | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Whether this is a Wayland session of a compositor with the wlroots protocols (sway and
    the like; not GNOME, whose mutter offers none of them) and no GNOME Mines X11 window is on
    its XWayland (that one is played through ``xwayland``). Opens one Wayland connection."""
    env = os.environ if env is None else env
    display = display or env.get("DISPLAY") or None
    if not env.get("WAYLAND_DISPLAY") or "GNOME" in env.get("XDG_CURRENT_DESKTOP", "").upper():
        return False
    return offers_wlroots(env) and (display is None or not _x11_game_on(display))


def native_portal(display: str | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Whether this is a Wayland session (neither GNOME's nor a wlroots compositor's: those
    are asked first) whose xdg-desktop-portal offers RemoteDesktop with a pointer, and no
    GNOME Mines X11 window is on its XWayland. Asks the session bus (which may start the
    portal)."""
    env = os.environ if env is None else env
    display = display or env.get("DISPLAY") or None
    if not env.get("WAYLAND_DISPLAY") or "GNOME" in env.get("XDG_CURRENT_DESKTOP", "").upper():
        return False
    return offers_remote_desktop(Bus.from_env(env)) and (display is None
                                                         or not _x11_game_on(display))


def _x11_game_on(display: str) -> bool:
    """Whether a GNOME Mines X11 window is on ``display`` (an X11 game under XWayland)."""
    try:
        with X11(display) as x:
            return x.find_window() is not None
    except Exception:  # noqa: BLE001 - any failure to ask this X server means no X11 game known there
        return False
