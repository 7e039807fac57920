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
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import DesktopError, Interrupted, NoGameError
from ..keys import keysyms
from ..pointer import BasePointer, Button
from ..x11.window import X11, Rect, WindowInfo

SCREENCAST = "org.gnome.Mutter.ScreenCast"
REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"

BUTTONS = {Button.LEFT: 0x110, Button.RIGHT: 0x111, Button.MIDDLE: 0x112}
"""Linux evdev codes (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE): what NotifyPointerButton takes."""

DEVICE_SETTLE = 0.3
"""Seconds a new session's virtual devices are given before the first real event."""

CURSOR_HIDDEN = 0
"""ScreenCast ``cursor-mode``: leave the pointer out of the frames (a drawn pointer would
cover a cell)."""

CURSOR_EMBEDDED = 1
"""ScreenCast ``cursor-mode``: the pointer drawn into the frames (``PointerWatch``)."""

FAIL_SAFE_WAIT = 1.0
"""Seconds the fail-safe waits for a frame showing the pointer where minebot put it before
it stops the run (a frame of a loaded compositor may come a few hundred ms late)."""


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


def _connect(address: str):
    from jeepney.io.blocking import open_dbus_connection
    try:
        return open_dbus_connection(bus=address)
    except Exception as exc:  # noqa: BLE001 - jeepney fails with OS and protocol errors alike: no bus either way
        raise DesktopError(f"cannot connect to the D-Bus session bus {address}: {exc}") from None


def has_mutter(bus: Bus | None) -> bool:
    """Whether mutter's ScreenCast API is on that bus (mutter is the Wayland compositor)."""
    if bus is None:
        return False
    try:
        from jeepney import DBus
        conn = _connect(bus.address)
    except (ImportError, DesktopError):
        return False
    try:
        return bool(conn.send_and_get_reply(DBus().NameHasOwner(SCREENCAST), timeout=2).body[0])
    except Exception:  # noqa: BLE001 - any failure to ask the bus means no ScreenCast API to use
        return False
    finally:
        conn.close()


SHELL = "org.gnome.Shell"


def leave_overview(bus: Bus) -> bool:
    """Whether GNOME Shell is on ``bus`` with its overview closed (asking it to close it when
    open; its ``OverviewActive`` property). False while the shell is not there yet."""
    from jeepney import DBusAddress, MessageType, Properties
    conn = _connect(bus.address)
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
FRAME_TIMEOUT = 15.0


class PipeWireFrames:
    """The newest frame of one PipeWire video node, kept up to date by GStreamer.

    ``pipewiresrc`` only delivers a buffer when mutter paints a change, so ``latest()`` is the
    screen as it is now (a change shows up one compositor frame after it is painted).
    """

    def __init__(self, node: int, pipewire_dir: str, timeout: float = FRAME_TIMEOUT,
                 max_fps: int | None = None) -> None:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst
        Gst.init(None)
        self._gst = Gst
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._ended = ""
        self._count = 0
        self._arrived = threading.Condition(self._lock)
        # Connect to the compositor's PipeWire ourselves (its socket may not be this process's
        # default: a private desktop has its own runtime folder) and hand the fd over.
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
        if self.wait_new(0, timeout) == 0:
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
def _closed_on_failure(thing, what: str):
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
        self._conn = _connect(bus.address)
        self._session = None
        with _closed_on_failure(self, "the area screen cast"):
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

    ``rect`` is the monitor in stream pixels (where the pointer goes), ``frames`` its live
    frames; ``move``/``press``/``key`` inject input. ``close()`` stops both (idempotent).
    """

    def __init__(self, bus: Bus, timeout: float = 5.0, cast: bool = True) -> None:
        from jeepney import DBusAddress, Properties, new_method_call
        self._call_new = new_method_call
        self._Address = DBusAddress
        self.bus = bus
        self._conn = _connect(bus.address)
        self.frames: PipeWireFrames | None = None
        self._rd_path: str | None = None
        with _closed_on_failure(self, "the screen cast"):
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

    def _call(self, address, method: str, signature: str, body: tuple, timeout: float = 5.0):
        return _call(self._conn, address, method, signature, body, timeout)

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


def require_inside(rect: Rect, region: Rect) -> None:
    """``region`` must lie on the monitor: frames are never padded or guessed."""
    if region.intersect(rect) != region:
        raise NoGameError(f"the region {region} lies outside the screen {rect}")


class PointerWatch:
    """Whether the pointer is still where minebot put it: the fail-safe on GNOME on Wayland.

    Why: the X11 fail-safe (throw the pointer into a screen corner) asks X11 where the
    pointer is; a Wayland client cannot ask, and mutter's pointer position (cursor-mode
    metadata) does not pass through GStreamer's ``pipewiresrc``. But mutter can draw the
    pointer into a cast: two casts of a few pixels around the place minebot last put the
    pointer, one with the pointer drawn (``CURSOR_EMBEDDED``) and one without, differ exactly
    while the pointer is there. Once it has been seen there (``armed``), a pointer that is no
    longer there was moved by someone else (a person's mouse, or a pointer thrown into a
    corner, which is also not where minebot put it). Both casts are tiny and mutter paints
    them only when something is drawn over them.
    """

    SIZE = 16
    """Side of the watched square, the pointer's hot spot 4 px in: an arrow's tip is drawn
    down and right of the hot spot."""

    def __init__(self, bus: Bus, at: tuple[int, int], screen: Rect,
                 origin: tuple[int, int] = (0, 0)) -> None:
        self.at = at
        box = Rect(at[0] - 4, at[1] - 4, self.SIZE, self.SIZE).intersect(screen)
        if box is None:
            raise DesktopError(f"the point {at} lies outside the screen {screen}")
        self.box = box
        self.armed = False
        self._bare: AreaCast | None = None
        self._drawn: AreaCast | None = None
        with _closed_on_failure(self, "the fail-safe's casts"):
            self._bare = AreaCast(bus, box, origin)
            self._drawn = AreaCast(bus, box, origin, cursor=CURSOR_EMBEDDED)

    def _seen_here(self) -> bool:
        return not np.array_equal(self._drawn.frames.latest(), self._bare.frames.latest())

    def still_there(self, wait: float = FAIL_SAFE_WAIT) -> bool:
        """False only when the pointer, once seen here, has gone: the newest frames show it
        elsewhere, and no newer frame within ``wait`` seconds shows it back."""
        if self._seen_here():
            self.armed = True
            return True
        if not self.armed:
            return True   # never seen here yet (its frame may still be on its way)
        deadline = time.monotonic() + wait
        frames = self._drawn.frames
        seen = frames.count
        while (left := deadline - time.monotonic()) > 0:
            seen = frames.wait_new(seen, min(left, 0.05))
            if self._seen_here():
                return True
        return False

    def close(self) -> None:
        """Idempotent: both casts."""
        for name in ("_bare", "_drawn"):
            cast = getattr(self, name, None)
            setattr(self, name, None)
            if cast is not None:
                cast.close()


class MutterPointer(BasePointer):
    """Clicks through a RemoteDesktop session: absolute motion on the screen-cast stream, then
    the button, each sent without waiting for mutter's answer (mutter takes one connection's
    calls in order). No gap is left between the motion and the press: of 1440 right-clicks
    sent at once after their motion, and 1 ms and 5 ms after it, none was lost (mutter 43,
    GNOME Mines 40.1); a click that is lost all the same is planned again (the backend's
    ``drops_clicks``). That holds for a pointer already over the window: a press sent right
    after the motion that first brings the pointer into the window was lost every time
    (``tests/test_calibrate_live.py`` needs a 0.1 s pause there). Live play never clicks so:
    every read parks the pointer inside the window, off the board, first.

    With ``fail_safe`` (the default) a ``PointerWatch`` stands in for the X11 corner fail-safe:
    before each batch of clicks (and each parking move) the pointer must still be where
    minebot last put it, else the run stops (``Interrupted``, exit 130)."""

    def __init__(self, session: MutterSession, log_path: str | None = None,
                 fail_safe: bool = True) -> None:
        super().__init__(log_path)
        self.session = session
        self.fail_safe = fail_safe
        self._at: tuple[int, int] | None = None   # where minebot last put the pointer
        self._watch: PointerWatch | None = None

    def _fail_safe(self) -> None:
        at = self._at
        if not self.fail_safe or at is None or getattr(self.session, "rect", None) is None:
            return
        watch = self._watch
        if watch is None or watch.at != at:   # a new resting place: watch it from now on
            self._watch = None
            if watch is not None:
                watch.close()
            self._watch = PointerWatch(self.session.bus, at, self.session.rect,
                                       self.session.monitor_origin)
            return
        if not watch.still_there():
            raise Interrupted(f"stopped by the fail-safe: the pointer was moved away from "
                              f"{at[0]},{at[1]}, where minebot had put it (on GNOME on Wayland "
                              "moving the mouse stops a run, as throwing it into a screen "
                              "corner does on X11)")

    def _motion(self, x: int, y: int) -> None:
        self.session.move(x, y)
        self._at = (x, y)

    def _press_release(self, x: int, y: int, button: Button) -> None:
        self.session.click(x, y, button)
        self._at = (x, y)

    def _flush(self) -> None:
        """Nothing to wait for: mutter takes a connection's events in order, and the caller
        watches the screen for their result (a round trip through mutter's main loop costs
        ~50 ms on a loaded machine, once per move it would double an expert game)."""

    def close(self) -> None:
        """Idempotent: the fail-safe's casts and the click log."""
        watch, self._watch = self._watch, None
        if watch is not None:
            watch.close()
        super().close()


FOCUS_MARGIN = 16
"""Pixels of screen kept around a focused area (``MonitorCapture.focus``): the ring of pixels
live play watches around the board (``backends.watch``) lies within them."""

class MonitorCapture:
    """Frames of the whole monitor from the session's stream: ``grab(region)`` crops the
    newest frame (a copy, BGR). ``rect`` is the monitor in stream pixels.

    ``focus(rect)`` says that from now on only ``rect`` (the board) is read and acted in: the
    monitor cast stops and an area cast of ``rect`` (and ``FOCUS_MARGIN``) feeds the grabs,
    several times cheaper for mutter. A grab inside the area is as live as before; a grab
    reaching beyond it gets the screen as last seen in full with the live area laid over it
    (outside the area nothing is read for a move, and nothing is ever clicked there).
    ``focus(None)`` goes back to the whole live monitor (its cast joined again, from a frame
    painted for the new consumer: never a stale one).
    """

    def __init__(self, session: MutterSession) -> None:
        self.session = session
        self.rect = session.rect
        self._seen = 0        # frames the active stream had sent at the last grab
        self._area: AreaCast | None = None
        self._still: np.ndarray | None = None   # the monitor (BGR) when the area cast began
        self._laid: tuple[int, np.ndarray] | None = None   # (area frame count, composite)
        self.can_focus = True   # False once mutter refused an area cast

    @property
    def area(self) -> Rect | None:
        """The focused area (stream pixels), or None: the whole monitor."""
        return self._area.rect if self._area is not None else None

    def follow(self, window: WindowInfo) -> None:
        """No window to follow: the cast is of the whole monitor (or of ``focus``'s area)."""

    def focus(self, rect: Rect | None) -> None:
        """Read and act only in ``rect`` from now on (None: the whole screen again). An area
        that already covers ``rect`` (with its margin) is kept."""
        if rect is not None:
            want = Rect(rect.left - FOCUS_MARGIN, rect.top - FOCUS_MARGIN,
                        rect.width + 2 * FOCUS_MARGIN, rect.height + 2 * FOCUS_MARGIN)
            want = want.intersect(self.rect)
            if want is None or (self._area is not None and self._area.rect == want):
                return
        self._unfocus()
        if rect is None or want == self.rect or not self.can_focus:
            return
        import cv2
        self._still = cv2.cvtColor(self._monitor().latest(), cv2.COLOR_BGRA2BGR)
        try:
            self._area = AreaCast(self.session.bus, want, self.session.monitor_origin)
        except DesktopError:
            # A mutter without area casts (or one that refused this area): the monitor's
            # cast goes on, only slower.
            self._still, self.can_focus = None, False
            return
        self.session.stop_frames()

    def _unfocus(self) -> None:
        area, self._area = self._area, None
        self._laid = self._still = None
        if area is not None:
            area.close()
            self.session.restart_frames()

    def _monitor(self) -> PipeWireFrames:
        frames = self.session.frames
        if frames is None:
            raise DesktopError("the screen cast is closed")
        return frames

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = self.rect if region is None else region
        require_inside(self.rect, region)
        import cv2  # drops the x byte into a contiguous array many times faster than numpy
        area = self._area
        if area is None:
            frames = self._monitor()
            self._seen = frames.count
            frame = frames.latest()
            return cv2.cvtColor(frame[region.top:region.bottom, region.left:region.right],
                                cv2.COLOR_BGRA2BGR)
        if area.frames is None:
            raise DesktopError("the area screen cast is closed")
        a = area.rect
        self._seen = count = area.frames.count
        frame = area.frames.latest()
        if region.intersect(a) == region:   # all of it live
            return cv2.cvtColor(frame[region.top - a.top:region.bottom - a.top,
                                      region.left - a.left:region.right - a.left],
                                cv2.COLOR_BGRA2BGR)
        if self._laid is None or self._laid[0] != count:
            laid = self._still.copy()
            laid[a.top:a.bottom, a.left:a.right] = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
            self._laid = (count, laid)
        return self._laid[1][region.top:region.bottom, region.left:region.right].copy()

    def wait_next(self, timeout: float) -> None:
        """Until a frame newer than the last one grabbed comes (or ``timeout``): polling the
        stream in between would only convert the same frame again."""
        frames = self._area.frames if self._area is not None else self.session.frames
        if frames is not None:
            frames.wait_new(self._seen, timeout)

    def close(self) -> None:
        """Idempotent: the area cast (the monitor's stream belongs to the backend's session:
        joined again if the session is still open)."""
        area, self._area = self._area, None
        self._laid = self._still = None
        if area is not None:
            area.close()
            if self.session.is_open:
                self.session.restart_frames()

    def __enter__(self) -> "MonitorCapture":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class MutterBackend:
    """GNOME on Wayland with the game a native Wayland client (see the module docstring).

    There is no window list: the board is found in the monitor's frame (``screen()``), and a
    board that is no longer where or what it was counts as a changed or covered window.
    """

    name = "mutter"
    wm = "Mutter"
    x11: X11 | None = None
    lists_windows = False
    hover_grace = 0.5
    """Seconds a clicked cell may show the hover look before its result: the motion, the
    press and the new frame each pass through mutter's main loop, which a loaded machine
    delays (measured 60-400 ms from click to changed frame under load)."""
    drops_clicks = True
    """The first click through a new session was now and then lost (1 in ~5 fresh runs, after
    the devices' settle time too), with no trace on screen."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self.session = MutterSession(bus)
        self.display = f"wayland (mutter on {bus.address.split(',')[0]})"

    @property
    def screen_rect(self) -> Rect:
        return self.session.rect

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
        syms = keysyms(combo)
        for sym in syms:
            self.session.keysym(sym, True)
        for sym in reversed(syms):
            self.session.keysym(sym, False)
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
