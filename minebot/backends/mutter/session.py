"""GNOME on Wayland: frames and input through mutter's own D-Bus interfaces.

Why: a native Wayland client cannot read another client's pixels or send it input, and there is
no window list to find the game in. mutter (GNOME's compositor) offers two session-bus APIs for
exactly this, with no permission dialog: ``org.gnome.Mutter.ScreenCast`` records a monitor as a
PipeWire stream, and ``org.gnome.Mutter.RemoteDesktop`` injects absolute pointer motion on that
stream, buttons and keysyms. One remote-desktop session owns one linked screen-cast session, so
the input coordinates are the stream's pixels. The stream is kept open (the first frame costs
~80 ms, each later one nothing: a reader keeps the newest frame mutter sent). Once the board
is known, ``MonitorCapture.focus`` swaps the monitor's cast for a cast of the board's area
alone (``AreaCast``): without a GPU, mutter's repaint of the recorded area for every frame is
a large part of what a click takes to show. ``PointerWatch`` is the fail-safe: it notices a
pointer that someone moved away from where minebot put it.

D-Bus goes through ``jeepney`` (pure Python; input events are sent without waiting for
mutter's answer, which takes one connection's calls in order, and ``flush`` waits for all);
frames through GStreamer's ``pipewiresrc`` with PyGObject. Both are imported only when a
session opens: this module imports with no display, no D-Bus and no GStreamer.

    with MutterSession(bus) as s:
        frame = s.frames.latest()          # BGRx, the whole monitor
        s.move(100, 200); s.button("left", True); s.button("left", False)
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np

from ...errors import DesktopError
from ..pointer import Button
from ..x11.window import Rect
from .dbus import REMOTE_DESKTOP, SCREENCAST, Bus, connect

BUTTONS = {Button.LEFT: 0x110, Button.RIGHT: 0x111, Button.MIDDLE: 0x112}
"""Linux evdev codes (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE): what NotifyPointerButton takes."""

DEVICE_SETTLE = 0.3
"""Seconds a new session's virtual devices are given before the first real event."""

CURSOR_HIDDEN = 0
"""ScreenCast ``cursor-mode``: leave the pointer out of the frames (a drawn pointer would
cover a cell)."""

CURSOR_EMBEDDED = 1
"""ScreenCast ``cursor-mode``: the pointer drawn into the frames (``PointerWatch``)."""

FRAME_TIMEOUT = 15.0


class PipeWireFrames:
    """The newest frame of one PipeWire video node, kept up to date by GStreamer.

    ``pipewiresrc`` only delivers a buffer when mutter paints a change, so ``latest()`` is the
    screen as it is now (a change shows up one compositor frame after it is painted).
    """

    def __init__(self, node: int, pipewire_dir: str, timeout: float = FRAME_TIMEOUT,
                 max_fps: int | None = None, remote: socket.socket | None = None,
                 prod: Callable[[], None] | None = None) -> None:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst
        Gst.init([])   # an empty argv: newer PyGObject refuses None
        self._gst = Gst
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._ended = ""
        self._count = 0
        self._arrived = threading.Condition(self._lock)
        # Connect to the compositor's PipeWire ourselves (its socket may not be this process's
        # default: a private desktop has its own runtime folder) and hand the fd over. A
        # ``remote`` already connected (the desktop portal's OpenPipeWireRemote, which only
        # shows the session's own nodes) is used as it is, and closed with the frames.
        if remote is not None:
            self._sock = remote
        else:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            path = os.path.join(pipewire_dir, os.environ.get("PIPEWIRE_REMOTE", "pipewire-0"))
            try:
                self._sock.connect(path)
            except OSError as exc:
                self._sock.close()
                raise DesktopError(f"cannot reach PipeWire at {path}: {exc.strerror}") from None
        # BGRx is the only raw format mutter offers (``meta-screen-cast-stream-src.c``): asked
        # for as it comes, no conversion runs.
        rate = f",max-framerate={max_fps}/1" if max_fps else ""
        desc = (f"pipewiresrc fd={self._sock.fileno()} path={node} "
                f"! video/x-raw,format=BGRx{rate} "
                "! appsink name=sink emit-signals=true max-buffers=1 drop=true sync=false")
        self._pipeline = Gst.parse_launch(desc)
        sink = self._pipeline.get_by_name("sink")
        sink.connect("new-sample", self._on_sample)
        self._pipeline.set_state(Gst.State.PLAYING)
        # A compositor that casts only what it repaints (KWin) sends nothing until something
        # changes: ``prod`` makes a change (twice a second) until the first frame comes.
        deadline = time.monotonic() + timeout
        while prod is not None and self.wait_new(0, 0.5) == 0 and time.monotonic() < deadline:
            prod()
        if self.wait_new(0, max(0.0, deadline - time.monotonic())) == 0:
            err = self._bus_error()
            self.close()
            raise DesktopError(f"no frame from PipeWire node {node} within {timeout:g} s"
                               + (f": {err}" if err else ""))

    def _bus_error(self) -> str:
        msg = self._pipeline.get_bus().pop_filtered(self._gst.MessageType.ERROR)
        return msg.parse_error()[0].message if msg is not None else ""

    def _on_sample(self, sink) -> int:
        sample = sink.emit("pull-sample")
        buf, caps = sample.get_buffer(), sample.get_caps().get_structure(0)
        width, height = caps.get_value("width"), caps.get_value("height")
        ok, info = buf.map(self._gst.MapFlags.READ)
        if ok:
            try:
                # PyGObject hands the mapped memory over as a bytes copy: keep it as it is
                # (BGRx rows); ``latest`` views it and a grab copies only its region.
                data = info.data
            finally:
                buf.unmap(info)
            if not data:
                # A buffer with no picture: KWin sends one when only the pointer moved (its
                # position goes as metadata). The screen has not changed.
                return int(self._gst.FlowReturn.OK)
            stride = len(data) // height
            frame = np.frombuffer(data, np.uint8).reshape(height, stride)[:, :width * 4] \
                .reshape(height, width, 4)
            with self._arrived:
                self._frame, self._count = frame, self._count + 1
                self._arrived.notify_all()
        return int(self._gst.FlowReturn.OK)

    @property
    def count(self) -> int:
        """Frames received so far (to wait for the next one)."""
        return self._count

    def wait_new(self, after: int, timeout: float) -> int:
        """Wait until more than ``after`` frames came (or ``timeout``); the count now."""
        with self._arrived:
            self._arrived.wait_for(lambda: self._count > after, timeout)
            return self._count

    def latest(self) -> np.ndarray:
        """The newest frame (the whole monitor, BGRx): a read-only view. Raises once the
        stream has ended or failed (mutter closed the session, PipeWire went away): a frame
        that can no longer change must not pass for the screen."""
        frame = self._frame
        pipeline = self._pipeline
        if pipeline is not None:
            msg = pipeline.get_bus().pop_filtered(self._gst.MessageType.ERROR |
                                                  self._gst.MessageType.EOS)
            if msg is not None:
                self._ended = (msg.parse_error()[0].message
                               if msg.type == self._gst.MessageType.ERROR else "end of stream")
        if self._ended or frame is None:
            raise DesktopError(f"the screen-cast stream has stopped ({self._ended or 'closed'})")
        return frame

    def close(self) -> None:
        pipeline, self._pipeline = getattr(self, "_pipeline", None), None
        if pipeline is not None:
            pipeline.set_state(self._gst.State.NULL)
        sock, self._sock = getattr(self, "_sock", None), None
        if sock is not None:
            sock.close()


def _start_stream(conn, stream_path: str, start, timeout: float) -> int:
    """Call ``start()`` (the session's Start) and return the PipeWire node mutter then
    announces for ``stream_path`` (its ``PipeWireStreamAdded`` signal)."""
    from jeepney import MatchRule, message_bus
    from jeepney.io.blocking import Proxy
    rule = MatchRule(type="signal", interface=SCREENCAST + ".Stream",
                     member="PipeWireStreamAdded", path=stream_path)
    Proxy(message_bus, conn).AddMatch(rule)
    with conn.filter(rule) as queue:
        start()
        signal = conn.recv_until_filtered(queue, timeout=timeout)
    return int(signal.body[0])


def _call(conn, address, method: str, signature: str, body: tuple, timeout: float = 5.0):
    """A D-Bus method call to mutter; its answer's body (an error answer raises)."""
    from jeepney import MessageType, new_method_call
    reply = conn.send_and_get_reply(new_method_call(address, method, signature or None, body),
                                    timeout=timeout)
    if reply.header.message_type is MessageType.error:
        detail = reply.body[0] if reply.body else reply.header.fields
        raise DesktopError(f"mutter refused {method}: {detail}")
    return reply.body


@contextmanager
def closed_on_failure(thing, what: str):
    """Set-up of ``thing`` (a session): on any failure it is closed; a D-Bus answer that did
    not come in time becomes a ``DesktopError`` naming ``what``."""
    try:
        yield
    except TimeoutError:
        thing.close()
        raise DesktopError(f"mutter did not start {what} in time") from None
    except BaseException:
        thing.close()
        raise


def _end(conn, session, frames: "PipeWireFrames | None") -> None:
    """Close ``frames``, ask mutter to stop ``session`` (a D-Bus address, or None) and close
    the connection: what every session here leaves behind, each part only if there."""
    if frames is not None:
        frames.close()
    if session is not None and conn is not None:
        try:
            _call(conn, session, "Stop", "", (), timeout=2.0)
        except Exception:  # noqa: BLE001, S110 - mutter already ended the session (or is gone): nothing to stop
            pass   # mutter already ended the session (or is gone): nothing to stop
    if conn is not None:
        conn.close()


class AreaCast:
    """A screen cast of one rectangle of the screen (``RecordArea``, in a ScreenCast session of
    its own): what is on screen there, windows on top included, as the monitor cast shows it.

    Why: for every frame of a cast mutter paints the recorded area again into the stream's
    buffer (``clutter_stage_paint_to_buffer`` in ``meta-screen-cast-{monitor,area}-stream-src.c``)
    and an area stream records only when a repaint touches its area. Without a GPU that
    paint is most of the time a click takes to show: a cast of the board alone is much
    cheaper than one of a 1600x1024 monitor (benchmarks/README.md).
    ``rect`` is in the monitor stream's pixels; ``origin`` the monitor's place on the stage.
    """

    def __init__(self, bus: Bus, rect: Rect, origin: tuple[int, int] = (0, 0),
                 timeout: float = 5.0, cursor: int = CURSOR_HIDDEN) -> None:
        from jeepney import DBusAddress
        self.rect = rect
        self.frames: PipeWireFrames | None = None
        self._conn = connect(bus.address)
        self._session = None
        with closed_on_failure(self, "the area screen cast"):
            sc = DBusAddress("/org/gnome/Mutter/ScreenCast", SCREENCAST, SCREENCAST)
            (path,) = _call(self._conn, sc, "CreateSession", "a{sv}", ({},))
            self._session = DBusAddress(path, SCREENCAST, SCREENCAST + ".Session")
            (stream,) = _call(self._conn, self._session, "RecordArea", "iiiia{sv}",
                              (rect.left + origin[0], rect.top + origin[1], rect.width,
                               rect.height, {"cursor-mode": ("u", cursor)}))
            node = _start_stream(self._conn, stream,
                                 lambda: _call(self._conn, self._session, "Start", "", ()), timeout)
            self.frames = PipeWireFrames(node, bus.pipewire_dir)
            if self.frames.latest().shape[:2] != (rect.height, rect.width):
                raise DesktopError(f"the area cast of {rect} came at another size "
                                   f"{self.frames.latest().shape[1::-1]} (a scaled monitor?)")

    def close(self) -> None:
        """Idempotent: the stream, mutter's session, the connection."""
        frames, self.frames = self.frames, None
        session, self._session = self._session, None
        conn, self._conn = getattr(self, "_conn", None), None
        _end(conn, session, frames)


class MutterSession:
    """One RemoteDesktop session with its linked ScreenCast of the primary monitor (with
    ``cast=False`` only the session: its virtual keyboard and pointer join the seat).

    ``rect`` is the monitor in stream pixels (where the pointer goes; None for a session
    without the cast), ``frames`` its live frames; ``move``/``press``/``key`` inject input.
    ``close()`` stops both (idempotent).
    """

    def __init__(self, bus: Bus, timeout: float = 5.0, cast: bool = True) -> None:
        from jeepney import DBusAddress, Properties, new_method_call
        self._call_new = new_method_call
        self._Address = DBusAddress
        self.bus = bus
        self.timeout = timeout   # for each D-Bus answer (a desktop still starting is slow)
        self._conn = connect(bus.address)
        self.frames: PipeWireFrames | None = None
        self.rect: Rect | None = None   # the cast's, once it runs
        self._rd_path: str | None = None
        with closed_on_failure(self, "the screen cast"):
            rd = DBusAddress("/org/gnome/Mutter/RemoteDesktop", REMOTE_DESKTOP, REMOTE_DESKTOP)
            (self._rd_path,) = self._call(rd, "CreateSession", "", ())
            self._rd = DBusAddress(self._rd_path, REMOTE_DESKTOP, REMOTE_DESKTOP + ".Session")
            if not cast:   # input devices only (a seat's keyboard and pointer)
                self._call(self._rd, "Start", "", ())
                self._prime_keyboard()
                return
            session_id = self._conn.send_and_get_reply(
                Properties(self._rd).get("SessionId"), timeout=timeout).body[0][1]
            sc = DBusAddress("/org/gnome/Mutter/ScreenCast", SCREENCAST, SCREENCAST)
            (sc_path,) = self._call(sc, "CreateSession", "a{sv}",
                                    ({"remote-desktop-session-id": ("s", session_id)},))
            sc_session = DBusAddress(sc_path, SCREENCAST, SCREENCAST + ".Session")
            # The monitor, not the game's window (RecordWindow): a window stream is ~2x cheaper
            # for mutter (measured 25 against 11 frames/s on a loaded 2-core machine) but shows
            # neither a window covering the game nor the game's own dialogs, and a click must
            # never go where something else is on top.
            (stream_path,) = self._call(sc_session, "RecordMonitor", "sa{sv}",
                                        ("", {"cursor-mode": ("u", CURSOR_HIDDEN)}))
            self.stream = stream_path
            node = _start_stream(self._conn, stream_path, lambda: self._call(self._rd, "Start", "", ()),
                                 timeout)
            stream = DBusAddress(stream_path, SCREENCAST, SCREENCAST + ".Stream")
            params = self._conn.send_and_get_reply(Properties(stream).get("Parameters"),
                                                   timeout=timeout).body[0][1]
            self._prime_keyboard()
            self.node = node
            self.frames = PipeWireFrames(node, bus.pipewire_dir)
            height, width = self.frames.latest().shape[:2]
            x, y = params.get("position", ("(ii)", (0, 0)))[1]
            # Input is in stream pixels: the frame's own size, whatever the monitor's position.
            self.rect = Rect(0, 0, width, height)
            self.monitor_origin = (int(x), int(y))

    def stop_frames(self) -> None:
        """Leave the monitor's stream (mutter then stops painting frames for it); the
        session, its input and the stream's coordinates stay."""
        frames, self.frames = self.frames, None
        if frames is not None:
            frames.close()

    def restart_frames(self, timeout: float = FRAME_TIMEOUT) -> PipeWireFrames:
        """Join the monitor's stream again (after ``stop_frames``): mutter repaints the
        whole screen for the new consumer, whose first frame is waited for."""
        if self.frames is None:
            self.frames = PipeWireFrames(self.node, self.bus.pipewire_dir, timeout)
        return self.frames

    def _prime_keyboard(self) -> None:
        """Press and release Shift once, then give the new devices ``DEVICE_SETTLE``.

        mutter 43 creates a session's virtual keyboard and pointer on its input thread,
        after ``Start`` has answered; events sent before they exist are dropped (measured:
        the first Ctrl+N of a new session did nothing, the next ones worked; the first click
        of a run was lost in 1 of 4 runs). A lone Shift does nothing in any window."""
        shift = 0xFFE1   # XK_Shift_L
        self.keysym(shift, True)
        self.keysym(shift, False)
        self.flush()
        time.sleep(DEVICE_SETTLE)

    def _call(self, address, method: str, signature: str, body: tuple,
              timeout: float | None = None):
        return _call(self._conn, address, method, signature, body,
                     self.timeout if timeout is None else timeout)

    def _send(self, *events: tuple[str, str, tuple]) -> None:
        """Input events (method, signature, arguments), sent in one write without waiting
        for mutter's answer: mutter handles a connection's calls in order, and ``flush`` waits
        for all of them. (Waiting on each one costs a round trip through mutter's main loop,
        which a busy compositor delays by tens of milliseconds; one write per click instead
        of three wakes the bus daemon once.)"""
        from jeepney.low_level import MessageFlag
        data = []
        for method, signature, body in events:
            msg = self._call_new(self._rd, method, signature, body)
            msg.header.flags |= MessageFlag.no_reply_expected
            data.append(msg.serialise(serial=next(self._conn.outgoing_serial)))
        self._conn.sock.sendall(b"".join(data))

    def flush(self) -> None:
        """Until mutter has handled every event sent before (one round trip on the session,
        which fails if mutter has ended it)."""
        from jeepney import MessageType, Properties
        reply = self._conn.send_and_get_reply(Properties(self._rd).get("SessionId"), timeout=5)
        if reply.header.message_type is MessageType.error:
            raise DesktopError(f"mutter's remote-desktop session ended: {reply.body}")

    def _motion(self, x: float, y: float) -> tuple[str, str, tuple]:
        return "NotifyPointerMotionAbsolute", "sdd", (self.stream, float(x), float(y))

    def move(self, x: float, y: float) -> None:
        """Absolute pointer motion to (x, y) in stream pixels."""
        self._send(self._motion(x, y))

    def click(self, x: float, y: float, button: Button) -> None:
        """Motion to (x, y), then ``button`` pressed and released, in one write."""
        code = BUTTONS[button]
        self._send(self._motion(x, y), ("NotifyPointerButton", "ib", (code, True)),
                   ("NotifyPointerButton", "ib", (code, False)))

    def move_by(self, dx: float, dy: float) -> None:
        """Relative pointer motion (as a mouse sends it; no stream needed)."""
        self._send(("NotifyPointerMotionRelative", "dd", (float(dx), float(dy))))

    def button(self, button: Button, pressed: bool) -> None:
        self._send(("NotifyPointerButton", "ib", (BUTTONS[button], pressed)))

    def keysym(self, keysym: int, pressed: bool) -> None:
        self._send(("NotifyKeyboardKeysym", "ub", (keysym, pressed)))

    @property
    def is_open(self) -> bool:
        """Whether the remote-desktop session still exists (``close`` not called yet)."""
        return self._rd_path is not None

    def close(self) -> None:
        frames, self.frames = self.frames, None
        path, self._rd_path = self._rd_path, None
        conn, self._conn = getattr(self, "_conn", None), None
        _end(conn, self._rd if path is not None else None, frames)

    def __enter__(self) -> "MutterSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


