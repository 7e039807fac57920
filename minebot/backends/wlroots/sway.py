"""sway's window list, through its IPC socket (``$SWAYSOCK``, the i3 IPC protocol, JSON).

Why: the Wayland protocols minebot speaks say nothing of windows, and a wlroots compositor
need not offer any list of them. sway does, in its IPC: every window's ``app_id`` (or X11
class), title, place on screen and whether it is visible. minebot asks it which windows are
the game's, and says so when the compositor has no such list (then the board is found on the
whole screen, as under GNOME on Wayland).
"""

from __future__ import annotations

import json
import os
import socket
import struct
from collections.abc import Iterator, Mapping

from ...errors import DesktopError
from ..listed import ListedWindow
from ..x11.window import Rect

MAGIC = b"i3-ipc"
RUN_COMMAND, GET_TREE = 0, 4


def ipc_socket(env: Mapping[str, str] | None = None) -> str | None:
    """sway's IPC socket for ``env`` (``$SWAYSOCK``), or None when there is none."""
    env = os.environ if env is None else env
    path = env.get("SWAYSOCK")
    return path if path and os.path.exists(path) else None


def ask(path: str, kind: int, payload: bytes = b"", timeout: float = 5.0):
    """One IPC message of ``kind`` to sway at ``path``; its JSON answer."""
    header = struct.Struct("<6sII")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(path)
            sock.sendall(header.pack(MAGIC, len(payload), kind) + payload)
            head = _read(sock, header.size)
            magic, length, _ = header.unpack(head)
            if magic != MAGIC:
                raise DesktopError(f"{path} does not speak sway's IPC")
            return json.loads(_read(sock, length))
        except (OSError, ValueError) as exc:
            raise DesktopError(f"sway's IPC at {path} failed: {exc}") from None


def _read(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise DesktopError("sway closed its IPC connection")
        data += chunk
    return data


class SwayWindows:
    """sway's window list (a ``WindowList``) through the IPC socket at ``path``."""

    source = "sway's window list"

    def __init__(self, path: str) -> None:
        self.path = path

    def windows(self) -> list[ListedWindow]:
        """Every window in sway's tree (``swaymsg -t get_tree``), floating ones too."""
        return list(_walk(ask(self.path, GET_TREE)))

    def focus(self, window: ListedWindow) -> None:
        """Give ``window`` the focus (and so the keyboard), as a click on it would."""
        (answer,) = ask(self.path, RUN_COMMAND, f"[con_id={window.id}] focus".encode())
        if not answer.get("success"):
            raise DesktopError(f"sway would not focus {window.title!r}: {answer.get('error')}")


def _walk(node: dict) -> Iterator[ListedWindow]:
    if node.get("type") in ("con", "floating_con") and node.get("pid"):
        props = node.get("window_properties") or {}
        r = node.get("rect", {})
        yield ListedWindow(node.get("id", 0), node.get("app_id") or props.get("class") or "",
                           node.get("name") or "",
                           Rect(r.get("x", 0), r.get("y", 0), r.get("width", 0),
                                r.get("height", 0)),
                           bool(node.get("visible")), bool(node.get("focused")))
    for child in node.get("nodes", []) + node.get("floating_nodes", []):
        yield from _walk(child)
