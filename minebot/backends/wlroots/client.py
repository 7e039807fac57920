"""One connection to a Wayland compositor: its globals, objects, requests and events.

Why its own small client (see ``wire.py``): minebot needs a handful of requests and events
and nothing of a toolkit. Everything is synchronous and on the caller's thread: a request is
written at once, and ``roundtrip`` reads events until the compositor has answered a
``wl_display.sync``, which is also how minebot knows that everything it sent has been handled.
A ``wl_display.error`` event (a protocol error: the compositor closes the connection after it)
becomes a ``DesktopError`` naming the interface and message.
"""

from __future__ import annotations

import array
import os
import select
import socket
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ...errors import DesktopError
from . import protocol as p
from .wire import Message, decode, encode, split

Handler = Callable[[str, tuple], None]
"""Called with an event's name and arguments, for the object it was registered on."""


def socket_path(env: Mapping[str, str]) -> Path | None:
    """Where the compositor of ``env`` listens: ``$WAYLAND_DISPLAY`` (a name in
    ``$XDG_RUNTIME_DIR``, or an absolute path), or None in no Wayland session."""
    name = env.get("WAYLAND_DISPLAY")
    if not name:
        return None
    if name.startswith("/"):
        return Path(name)
    runtime = env.get("XDG_RUNTIME_DIR")
    return Path(runtime, name) if runtime else None


class ProtocolError(DesktopError):
    """The compositor reported a protocol error (and closed the connection)."""


@dataclass
class Global:
    """A global the compositor announced: its registry name, interface and version."""

    name: int
    interface: str
    version: int


@dataclass
class Output:
    """A ``wl_output`` as announced: where it lies in the layout and its mode's size."""

    object_id: int
    x: int = 0
    y: int = 0
    width: int = 0
    height: int = 0
    scale: int = 1
    name: str = ""


class Connection:
    """A client connection (``Connection(env)``): ``globals`` by interface name, ``bind``,
    ``new``/``request`` for objects, ``roundtrip``, ``dispatch_pending``; ``close()``."""

    def __init__(self, env: Mapping[str, str] | None = None, timeout: float = 5.0) -> None:
        env = os.environ if env is None else env
        path = socket_path(env)
        if path is None:
            raise DesktopError("no Wayland session: WAYLAND_DISPLAY (and XDG_RUNTIME_DIR) unset")
        self.path, self.timeout = path, timeout
        self._sock: socket.socket | None = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(str(path))
        except OSError as exc:
            self._sock.close()
            self._sock = None
            raise DesktopError(f"cannot connect to the Wayland compositor at {path}: "
                               f"{exc.strerror or exc}") from None
        self._lock = threading.RLock()
        self._interfaces: dict[int, p.Interface] = {1: p.WL_DISPLAY}
        self._handlers: dict[int, Handler] = {}
        self._free: list[int] = []
        self._next_id = 2
        self._pending = b""
        self.globals: dict[str, Global] = {}
        self.outputs: list[Output] = []
        self._registry = self.new(p.WL_REGISTRY, self._on_global)
        self.request(1, "get_registry", self._registry)
        self.roundtrip()   # the globals
        self.roundtrip()   # the outputs' geometry and mode, bound on the first

    # -- objects ------------------------------------------------------------------------
    def new(self, interface: p.Interface, handler: Handler | None = None) -> int:
        """A new object id of ``interface`` (for a request that creates it), whose events go
        to ``handler``. Ids the compositor has released are used again, as it expects."""
        with self._lock:
            if self._free:
                object_id = self._free.pop()
            else:
                object_id, self._next_id = self._next_id, self._next_id + 1
            self._interfaces[object_id] = interface
            if handler is not None:
                self._handlers[object_id] = handler
            return object_id

    def bind(self, interface: p.Interface, version: int, handler: Handler | None = None) -> int:
        """Bind the global of ``interface`` at ``version`` (at most what it offers)."""
        found = self.globals.get(interface.name)
        if found is None:
            raise DesktopError(f"the compositor offers no {interface.name}")
        object_id = self.new(interface, handler)
        self.request(self._registry, "bind", found.name, interface.name,
                     min(version, found.version), object_id)
        return object_id

    def version(self, interface: p.Interface) -> int:
        """The version of ``interface``'s global (0: not offered)."""
        found = self.globals.get(interface.name)
        return found.version if found else 0

    def forget(self, object_id: int) -> None:
        """Drop what is known of an object the client destroyed (its id comes back through
        ``delete_id``)."""
        with self._lock:
            self._handlers.pop(object_id, None)

    # -- requests -----------------------------------------------------------------------
    def request(self, object_id: int, name: str, *args) -> None:
        """Send request ``name`` of the object's interface with ``args``."""
        with self._lock:
            interface = self._interfaces[object_id]
            opcode, signature = interface.requests[name]
            data, fds = encode(object_id, opcode, signature, args)
            sock = self._socket()
            try:
                if fds:
                    sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                           array.array("i", fds).tobytes())])
                else:
                    sock.sendall(data)
            except OSError as exc:
                self._read_error()   # the compositor's error event, when it sent one
                raise DesktopError(f"the Wayland compositor closed the connection "
                                   f"({exc.strerror or exc})") from None

    def _read_error(self) -> None:
        """Read what is left on a connection the compositor closed: a protocol error there
        raises with its message."""
        try:
            for _ in range(16):
                self._read(0.0)
        except ProtocolError:
            raise
        except DesktopError:
            pass   # closed with no error event: the caller says so

    def _socket(self) -> socket.socket:
        if self._sock is None:
            raise DesktopError("the Wayland connection is closed")
        return self._sock

    # -- events -------------------------------------------------------------------------
    def roundtrip(self, timeout: float | None = None) -> None:
        """Until the compositor has handled every request sent before, and every event it
        sent before has been dispatched."""
        done = threading.Event()
        with self._lock:
            callback = self.new(p.WL_CALLBACK, lambda name, args: done.set())
            self.request(1, "sync", callback)
            self.wait(done.is_set, timeout)
            self.forget(callback)

    def wait(self, ready: Callable[[], bool], timeout: float | None = None,
             what: str = "the compositor's answer") -> None:
        """Read and dispatch events until ``ready()`` (at most ``timeout`` seconds)."""
        import time
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._lock:
            while not ready():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DesktopError(f"no {what} from the Wayland compositor within "
                                       f"{self.timeout if timeout is None else timeout:g} s")
                self._read(left)

    def dispatch_pending(self) -> None:
        """Dispatch the events already waiting on the socket, without blocking."""
        with self._lock:
            self._read(0.0)

    def _read(self, timeout: float) -> None:
        sock = self._socket()
        ready, _, _ = select.select([sock], [], [], timeout)
        if not ready:
            return
        fds = array.array("i")
        try:
            data, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(28 * fds.itemsize))
        except OSError as exc:
            raise DesktopError(f"the Wayland connection failed: {exc.strerror or exc}") from None
        if not data:
            raise DesktopError("the Wayland compositor closed the connection")
        for level, kind, raw in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(raw[:len(raw) - len(raw) % fds.itemsize])
        received = list(fds)
        messages, self._pending = split(self._pending + data)
        for message in messages:   # a protocol error first: what follows it is moot
            if message.object_id == 1 and message.opcode == 0:
                self._on_display("error", decode("ous", message.body))
        try:
            for message in messages:
                self._dispatch(message, received)
        finally:
            for fd in received:   # no event minebot reads keeps a descriptor
                os.close(fd)

    def _dispatch(self, message: Message, fds: list[int]) -> None:
        interface = self._interfaces.get(message.object_id)
        if interface is None or message.opcode not in interface.events:
            return
        name, signature = interface.events[message.opcode]
        args = decode(signature, message.body, fds)
        if message.object_id == 1:
            self._on_display(name, args)
            return
        handler = self._handlers.get(message.object_id)
        if handler is not None:
            handler(name, args)

    def _on_display(self, name: str, args: tuple) -> None:
        if name == "delete_id":
            (object_id,) = args
            self._interfaces.pop(object_id, None)
            self._handlers.pop(object_id, None)
            self._free.append(object_id)
            return
        object_id, code, text = args
        what = self._interfaces.get(object_id)
        raise ProtocolError(f"the Wayland compositor refused a request to "
                           f"{what.name if what else object_id} (error {code}: {text})")

    def _on_global(self, name: str, args: tuple) -> None:
        if name == "global":
            number, interface, version = args
            self.globals.setdefault(interface, Global(number, interface, version))
            if interface == p.WL_OUTPUT.name:
                output = Output(0)
                output.object_id = self.bind(p.WL_OUTPUT, 3,
                                             lambda ev, a: _on_output(output, ev, a))
                self.globals.pop(interface, None)   # one global per output: keep them apart
                self.outputs.append(output)
        elif name == "global_remove":
            (number,) = args
            for key, found in list(self.globals.items()):
                if found.name == number:
                    del self.globals[key]

    def close(self) -> None:
        """Idempotent: the compositor frees every object of this client with it."""
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _on_output(output: Output, name: str, args: tuple) -> None:
    if name == "geometry":
        output.x, output.y = args[0], args[1]
    elif name == "mode" and args[0] & 1:   # the current mode
        output.width, output.height = args[1], args[2]
    elif name == "scale":
        output.scale = args[0]
    elif name == "name":
        output.name = args[0] or ""
