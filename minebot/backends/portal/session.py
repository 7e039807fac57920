"""One RemoteDesktop session of the xdg-desktop-portal, with its screen cast.

Why the portal: on a Wayland desktop that is neither GNOME (mutter's own D-Bus API, no dialog)
nor wlroots (the compositor's protocols), a client can see another client's pixels and move the
pointer only through ``org.freedesktop.portal.Desktop`` (KDE Plasma: xdg-desktop-portal-kde).
The steps are the portal's: ``CreateSession``, ``SelectDevices`` (keyboard and pointer;
``persist_mode`` 2 and the saved ``restore_token``), ScreenCast's ``SelectSources`` on the same
session (one monitor, pointer not drawn), ``Start`` (where the desktop may ask the user), then
``OpenPipeWireRemote`` for a PipeWire connection that sees only this session's stream. Each
step answers through a ``Request`` object's ``Response`` signal. Input goes through
``NotifyPointerMotionAbsolute`` (in the stream's coordinates), ``NotifyPointerButton`` and
``NotifyKeyboardKeysym``, sent without waiting for their answers (the portal forwards a
connection's calls in order).

D-Bus goes through ``jeepney``, frames through the mutter backend's GStreamer reader
(``PipeWireFrames``) on the portal's PipeWire fd. Both are imported only when a session opens.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping
from enum import IntEnum, IntFlag
from typing import Any

from ...errors import DeclinedError, DesktopError, UnsupportedDesktopError
from ..mutter.dbus import Bus, ask_bus, connect
from ..mutter.session import BUTTONS, FRAME_TIMEOUT, PipeWireFrames
from ..pointer import Button
from ..x11.window import Rect
from .tokens import TokenStore

PORTAL = "org.freedesktop.portal.Desktop"
PORTAL_PATH = "/org/freedesktop/portal/desktop"
REMOTE_DESKTOP = "org.freedesktop.portal.RemoteDesktop"
SCREENCAST = "org.freedesktop.portal.ScreenCast"
REQUEST = "org.freedesktop.portal.Request"
SESSION = "org.freedesktop.portal.Session"

DIALOG_TIMEOUT = 120.0
"""Seconds ``Start`` may wait for the user to answer the desktop's dialog."""

CALL_TIMEOUT = 10.0
"""Seconds any other portal request may take (the first call also starts the portal)."""


class DeviceType(IntFlag):
    """RemoteDesktop's device types."""

    KEYBOARD = 1
    POINTER = 2
    TOUCHSCREEN = 4


class SourceType(IntFlag):
    """ScreenCast's source types."""

    MONITOR = 1
    WINDOW = 2
    VIRTUAL = 4


class CursorMode(IntFlag):
    """ScreenCast's cursor modes (``AvailableCursorModes`` says which the desktop has)."""

    HIDDEN = 1
    EMBEDDED = 2
    METADATA = 4


class PersistMode(IntEnum):
    """How long the user's choice is kept: not, while the portal runs, until revoked."""

    NONE = 0
    TRANSIENT = 1
    PERSISTENT = 2


class Response(IntEnum):
    """A request's outcome (the ``Response`` signal's first value)."""

    SUCCESS = 0
    CANCELLED = 1   # the user declined
    OTHER = 2       # the portal's backend failed or refused



_tokens = itertools.count(1)


def _portal(interface: str):
    from jeepney import DBusAddress
    return DBusAddress(PORTAL_PATH, PORTAL, interface)


def _reply(conn, msg, timeout: float, what: str):
    """Send ``msg``; its answer's body. A D-Bus error answer becomes a one-line error: the
    portal missing (nothing owns or can start its name) or an interface it lacks."""
    from jeepney import MessageType
    reply = conn.send_and_get_reply(msg, timeout=timeout)
    if reply.header.message_type is MessageType.error:
        from jeepney import HeaderFields
        name = reply.header.fields.get(HeaderFields.error_name, "")
        detail = reply.body[0] if reply.body else name
        if name == "org.freedesktop.DBus.Error.ServiceUnknown":
            raise UnsupportedDesktopError(
                "backend portal: no xdg-desktop-portal on the D-Bus session bus (install "
                "xdg-desktop-portal and the one of your desktop, e.g. xdg-desktop-portal-kde)")
        if name in ("org.freedesktop.DBus.Error.UnknownMethod",
                    "org.freedesktop.DBus.Error.UnknownInterface"):
            raise UnsupportedDesktopError(
                f"backend portal: this desktop's xdg-desktop-portal has no {what} (its backend "
                "for this desktop offers no RemoteDesktop: KDE Plasma's xdg-desktop-portal-kde "
                "and GNOME's have it, xdg-desktop-portal-wlr and -gtk do not)")
        raise DesktopError(f"backend portal: {what} failed: {detail}")
    return reply.body


def portal_version(conn, interface: str = REMOTE_DESKTOP, timeout: float = CALL_TIMEOUT) -> int:
    """The ``version`` property of a portal interface (raises ``UnsupportedDesktopError``
    where the portal or the interface is missing)."""
    from jeepney import Properties
    body = _reply(conn, Properties(_portal(interface)).get("version"), timeout,
                  f"{interface.rsplit('.', 1)[1]} portal")
    return int(body[0][1])


def offers_remote_desktop(bus: Bus | None, timeout: float = 5.0) -> bool:
    """Whether the session bus has an xdg-desktop-portal whose RemoteDesktop offers a pointer
    (asking starts the portal if D-Bus can activate it). Never raises."""
    def question(conn: Any) -> bool:
        from jeepney import Properties
        body = _reply(conn, Properties(_portal(REMOTE_DESKTOP)).get("AvailableDeviceTypes"),
                      timeout, "RemoteDesktop portal")
        return bool(int(body[0][1]) & DeviceType.POINTER)
    return ask_bus(bus, question)


class PortalSession:
    """A RemoteDesktop session with one monitor's screen cast, started (see the module
    docstring). ``rect`` is the stream in its own pixels (where input goes), ``frames`` its
    live frames, ``restored`` whether the saved token spared the dialog. ``close()`` ends the
    session (idempotent)."""

    def __init__(self, bus: Bus, tokens: TokenStore | None = None,
                 dialog_timeout: float = DIALOG_TIMEOUT,
                 cursor: CursorMode = CursorMode.HIDDEN) -> None:
        self.bus = bus
        self.tokens = tokens
        self.frames: PipeWireFrames | None = None
        self._handle: str | None = None
        self._closed_filter = None
        self._conn = connect(bus.address, enable_fds=True)
        try:
            self._open(dialog_timeout, cursor)
        except TimeoutError:
            self.close()
            raise DesktopError("backend portal: the portal did not answer in time (with no "
                               "one at the desktop, its permission dialog waits forever: "
                               "approve it once, later runs ask nothing)") from None
        except BaseException:
            self.close()
            raise

    def _open(self, dialog_timeout: float, cursor: CursorMode) -> None:
        from jeepney import MatchRule, Properties, message_bus
        from jeepney.io.blocking import Proxy
        version = portal_version(self._conn)
        types = int(_reply(self._conn, Properties(_portal(REMOTE_DESKTOP)).get(
            "AvailableDeviceTypes"), CALL_TIMEOUT, "RemoteDesktop portal")[0][1])
        if not types & DeviceType.POINTER:
            raise UnsupportedDesktopError("backend portal: this desktop's RemoteDesktop portal "
                                          "offers no pointer")
        self.keyboard = bool(types & DeviceType.KEYBOARD)
        results = self._request(REMOTE_DESKTOP, "CreateSession", "a{sv}", (), {
            "session_handle_token": ("s", f"minebot_{os.getpid()}_{next(_tokens)}")})
        self._handle = str(results["session_handle"][1])
        # The portal (or the user in its dialog) may end the session at any time: its Closed
        # signal is kept in a queue of its own (``ended``).
        rule = MatchRule(type="signal", interface=SESSION, member="Closed", path=self._handle)
        Proxy(message_bus, self._conn).AddMatch(rule)
        self._closed_filter = self._conn.filter(rule)
        devices = DeviceType.POINTER | (DeviceType.KEYBOARD if self.keyboard else 0)
        options: dict[str, tuple[str, Any]] = {"types": ("u", int(devices))}
        saved = self.tokens.load() if self.tokens is not None else None
        if version >= 2:   # persistence came with RemoteDesktop version 2
            options["persist_mode"] = ("u", int(PersistMode.PERSISTENT))
            if saved:
                options["restore_token"] = ("s", saved)
        self._request(REMOTE_DESKTOP, "SelectDevices", "oa{sv}", (self._handle,), options)
        self._request(SCREENCAST, "SelectSources", "oa{sv}", (self._handle,), {
            "types": ("u", int(SourceType.MONITOR)), "multiple": ("b", False),
            "cursor_mode": ("u", int(cursor))})
        results = self._request(REMOTE_DESKTOP, "Start", "osa{sv}", (self._handle, ""), {},
                                timeout=dialog_timeout)
        token = results.get("restore_token", (None, None))[1]
        self.restored = bool(saved) and token == saved
        if token and self.tokens is not None:
            self.tokens.save(str(token))
        streams = results.get("streams", (None, []))[1]
        if not streams:
            raise DesktopError("backend portal: the session started with no screen-cast stream")
        node, props = streams[0]
        self.stream = int(node)
        (fd,) = _reply(self._conn, self._call(SCREENCAST, "OpenPipeWireRemote", "oa{sv}",
                                              (self._handle, {})), CALL_TIMEOUT,
                       "ScreenCast portal")
        # KWin casts a monitor only when it repaints it: a still screen sends no first frame.
        # A one-pixel pointer motion there and back makes it repaint (the pointer ends where it
        # was, over whatever it was over).
        self.frames = PipeWireFrames(self.stream, "", FRAME_TIMEOUT, remote=fd.to_socket(),
                                     prod=self.nudge)
        height, width = self.frames.latest().shape[:2]
        size = props.get("size", ("(ii)", (width, height)))[1]
        if tuple(size) != (width, height):
            raise UnsupportedDesktopError(
                f"backend portal: the stream is {width}x{height} pixels for a monitor of "
                f"{size[0]}x{size[1]} (a scaled monitor): not supported yet")
        self.rect = Rect(0, 0, width, height)

    def _call(self, interface: str, method: str, signature: str, body: tuple):
        from jeepney import new_method_call
        return new_method_call(_portal(interface), method, signature, body)

    def _request(self, interface: str, method: str, signature: str, args: tuple,
                 options: Mapping[str, tuple[str, Any]], timeout: float = CALL_TIMEOUT) -> dict:
        """A portal method that answers through a Request: its results once the Response
        signal came. Declined (by the user) and failed (by the portal's backend) each raise
        their own one-line error."""
        from jeepney import MatchRule, message_bus
        from jeepney.io.blocking import Proxy
        token = f"minebot_{os.getpid()}_{next(_tokens)}"
        sender = self._conn.unique_name.lstrip(":").replace(".", "_")
        path = f"{PORTAL_PATH}/request/{sender}/{token}"
        rule = MatchRule(type="signal", interface=REQUEST, member="Response", path=path)
        Proxy(message_bus, self._conn).AddMatch(rule)
        what = f"{interface.rsplit('.', 1)[1]}.{method}"
        with self._conn.filter(rule) as queue:
            body = (*args, {**options, "handle_token": ("s", token)})
            _reply(self._conn, self._call(interface, method, signature, body), CALL_TIMEOUT, what)
            signal = self._conn.recv_until_filtered(queue, timeout=timeout)
        code, results = signal.body
        if code == Response.CANCELLED:
            raise DeclinedError("backend portal: the desktop's request to see the screen and "
                                "control the pointer was declined: nothing was seen or clicked")
        if code != Response.SUCCESS:
            raise DesktopError(f"backend portal: {what} failed in the desktop's portal backend "
                               f"(response {code})")
        return dict(results)

    # -- input -------------------------------------------------------------------------------
    def _send(self, *events: tuple[str, str, tuple]) -> None:
        """Input events (method, signature, arguments after the session and options), in one
        write with no answer asked for."""
        from jeepney.low_level import MessageFlag
        data = []
        for method, signature, args in events:
            msg = self._call(REMOTE_DESKTOP, method, "oa{sv}" + signature,
                             (self._handle, {}, *args))
            msg.header.flags |= MessageFlag.no_reply_expected
            data.append(msg.serialise(serial=next(self._conn.outgoing_serial)))
        self._conn.sock.sendall(b"".join(data))

    def _motion(self, x: float, y: float) -> tuple[str, str, tuple]:
        return "NotifyPointerMotionAbsolute", "udd", (self.stream, float(x), float(y))

    def move(self, x: float, y: float) -> None:
        """Absolute pointer motion to (x, y) in stream pixels."""
        self._send(self._motion(x, y))

    def click(self, x: float, y: float, button: Button) -> None:
        """Motion to (x, y), then ``button`` pressed and released, in one write."""
        code = BUTTONS[button]
        self._send(self._motion(x, y), ("NotifyPointerButton", "iu", (code, 1)),
                   ("NotifyPointerButton", "iu", (code, 0)))

    def nudge(self) -> None:
        """Relative pointer motion by one pixel and back: the compositor repaints the
        pointer (a new frame), the pointer ends where it was."""
        self._send(("NotifyPointerMotion", "dd", (1.0, 0.0)),
                   ("NotifyPointerMotion", "dd", (-1.0, 0.0)))

    def keysym(self, keysym: int, pressed: bool) -> None:
        if not self.keyboard:
            raise UnsupportedDesktopError("backend portal: this desktop's RemoteDesktop portal "
                                          "offers no keyboard")
        self._send(("NotifyKeyboardKeysym", "iu", (keysym, int(pressed))))

    def ended(self) -> bool:
        """Whether the desktop has ended the session (its ``Closed`` signal came: the user
        stopped the sharing from the desktop, or the portal went away). Reads what is
        waiting on the connection without blocking."""
        handle = self._closed_filter
        if handle is None:
            return True
        try:
            self._conn.recv_messages(timeout=0)
        except (TimeoutError, BlockingIOError):
            pass   # nothing waiting
        except OSError:
            return True   # the bus connection itself is gone
        return bool(handle.queue)

    def flush(self) -> None:
        """One round trip through the portal: the events sent before have left it."""
        from jeepney import Properties
        _reply(self._conn, Properties(_portal(REMOTE_DESKTOP)).get("version"), 5.0,
               "RemoteDesktop portal")

    def stop_frames(self) -> None:
        """Stop reading the stream (keys and clicks still go through the session): a session
        kept only for input costs no decoding of frames."""
        frames, self.frames = self.frames, None
        if frames is not None:
            frames.close()

    @property
    def is_open(self) -> bool:
        return self._handle is not None

    def close(self) -> None:
        """Idempotent: the frames, the portal's session, the connection."""
        frames, self.frames = self.frames, None
        if frames is not None:
            frames.close()
        handle, self._handle = self._handle, None
        conn, self._conn = getattr(self, "_conn", None), None
        filt, self._closed_filter = self._closed_filter, None
        if filt is not None:
            filt.close()
        if conn is None:
            return
        if handle is not None:
            try:
                from jeepney import DBusAddress, new_method_call
                conn.send_and_get_reply(new_method_call(
                    DBusAddress(handle, PORTAL, SESSION), "Close"), timeout=2.0)
            except Exception:  # noqa: BLE001, S110 - the portal already ended it (or is gone)
                pass
        conn.close()

    def __enter__(self) -> "PortalSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
