"""mutter's D-Bus side: the session bus a desktop runs on, whether mutter's ScreenCast API is
there, and GNOME Shell's overview (left so that the game is on screen).

D-Bus goes through ``jeepney`` (pure Python), imported only when a call is made: this module
imports with no D-Bus at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import DesktopError

SCREENCAST = "org.gnome.Mutter.ScreenCast"
REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"

@dataclass(frozen=True)
class Bus:
    """Where mutter is: its D-Bus session bus address and PipeWire's socket folder."""

    address: str
    pipewire_dir: str

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Bus | None":
        """The session this process lives in ($DBUS_SESSION_BUS_ADDRESS, $PIPEWIRE_RUNTIME_DIR
        or $XDG_RUNTIME_DIR), or None without a session bus."""
        env = os.environ if env is None else env
        address = env.get("DBUS_SESSION_BUS_ADDRESS")
        if not address:
            runtime = env.get("XDG_RUNTIME_DIR")
            if runtime and Path(runtime, "bus").exists():
                address = f"unix:path={runtime}/bus"
        if not address:
            return None
        pw_dir = env.get("PIPEWIRE_RUNTIME_DIR") or env.get("XDG_RUNTIME_DIR") or ""
        return cls(address, pw_dir)


def connect(address: str, enable_fds: bool = False):
    """A blocking jeepney connection to ``address`` (``enable_fds``: file descriptors may pass,
    as the desktop portal's OpenPipeWireRemote answers with one)."""
    from jeepney.io.blocking import open_dbus_connection
    try:
        return open_dbus_connection(bus=address, enable_fds=enable_fds)
    except Exception as exc:  # noqa: BLE001 - jeepney fails with OS and protocol errors alike: no bus either way
        raise DesktopError(f"cannot connect to the D-Bus session bus {address}: {exc}") from None


def ask_bus(bus: Bus | None, question: Callable[[Any], Any]) -> bool:
    """Whether ``question`` (given a connection to ``bus``) answers true; False with no bus,
    no jeepney, or any failure to ask. Why never raising: it decides which backend to try, and
    a desktop that cannot be asked is one that backend cannot use."""
    if bus is None:
        return False
    try:
        conn = connect(bus.address)
    except (ImportError, DesktopError):
        return False
    try:
        return bool(question(conn))
    except Exception:  # noqa: BLE001 - any failure to ask means nothing there to use
        return False
    finally:
        conn.close()


def has_mutter(bus: Bus | None) -> bool:
    """Whether mutter's ScreenCast API is on that bus (mutter is the Wayland compositor)."""
    def question(conn: Any) -> bool:
        from jeepney import DBus
        return bool(conn.send_and_get_reply(DBus().NameHasOwner(SCREENCAST), timeout=2).body[0])
    return ask_bus(bus, question)


SHELL = "org.gnome.Shell"


def leave_overview(bus: Bus) -> bool:
    """Whether GNOME Shell is on ``bus`` with its overview closed (asking it to close it when
    open; its ``OverviewActive`` property). False while the shell is not there yet."""
    from jeepney import DBusAddress, MessageType, Properties
    conn = connect(bus.address)
    try:
        shell = Properties(DBusAddress("/org/gnome/Shell", SHELL, SHELL))
        reply = conn.send_and_get_reply(shell.get("OverviewActive"), timeout=2)
        if reply.header.message_type is MessageType.error:
            return False
        if not reply.body[0][1]:
            return True
        conn.send_and_get_reply(shell.set("OverviewActive", "b", False), timeout=2)
        return False   # asked: the next call sees whether it closed
    finally:
        conn.close()


# How long a new cast may take to deliver its first frame. mutter composites in software on a
# headless desktop; on a loaded 2-core machine the first frame of a cast took more than 5 s
# (the live tests failed so under load), so a missing frame is only an error after 15 s.
# D-Bus replies keep their own 5 s limit: only the first frame is slow.
