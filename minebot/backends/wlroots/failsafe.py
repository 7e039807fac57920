"""The corner fail-safe on a wlroots compositor: the pointer thrown into a screen corner stops
the run, as on X11.

Why layer-shell corners: a Wayland client cannot ask where the pointer is, and on a headless
or software-cursor output a screen copy shows the cursor whether or not it is asked to (so
mutter's trick of comparing casts with and without the cursor does not apply). But a client
is told when the pointer enters one of its own surfaces. minebot puts four transparent 1x1
surfaces on the overlay layer (``zwlr_layer_shell_v1``), one in each corner of the output,
and listens on the seat's pointer: an ``enter`` on one of them means the pointer is in a
corner. minebot's own pointer never goes there (every point is inside the board read), so
it was the user. The surfaces are fully transparent and take no keyboard focus: the screen
looks the same and the game keeps its keys.
"""

from __future__ import annotations

import os

from ...errors import DesktopError
from . import protocol as p
from .client import Connection, Output

OVERLAY_LAYER = 3
ANCHOR_TOP, ANCHOR_BOTTOM, ANCHOR_LEFT, ANCHOR_RIGHT = 1, 2, 4, 8
CORNERS = {"top-left": ANCHOR_TOP | ANCHOR_LEFT, "top-right": ANCHOR_TOP | ANCHOR_RIGHT,
           "bottom-left": ANCHOR_BOTTOM | ANCHOR_LEFT, "bottom-right": ANCHOR_BOTTOM | ANCHOR_RIGHT}
"""Each corner's layer-surface anchor (two edges)."""


class CornerWatch:
    """Four 1x1 transparent overlay surfaces in the corners of ``output``; ``corner()`` names
    the corner the pointer is in (after reading what the compositor sent), or None."""

    def __init__(self, conn: Connection, seat: int, output: Output) -> None:
        if not conn.version(p.LAYER_SHELL):
            raise DesktopError("the compositor offers no zwlr_layer_shell_v1 (the corner "
                               "fail-safe's surfaces)")
        self.conn = conn
        self._inside: int | None = None
        self._configured: dict[int, bool] = {}
        compositor = conn.bind(p.WL_COMPOSITOR, 4)
        shell = conn.bind(p.LAYER_SHELL, 1)
        shm = conn.bind(p.WL_SHM, 1)
        self._pixel, self._pool, self._memfd = self._transparent_pixel(shm)
        self.surfaces: dict[int, str] = {}
        self._layers: dict[int, int] = {}
        for name, anchor in CORNERS.items():
            surface = conn.new(p.WL_SURFACE)
            conn.request(compositor, "create_surface", surface)
            layer = conn.new(p.LAYER_SURFACE, self._on_layer(surface))
            conn.request(shell, "get_layer_surface", layer, surface, output.object_id,
                         OVERLAY_LAYER, "minebot-fail-safe")
            conn.request(layer, "set_size", 1, 1)
            conn.request(layer, "set_anchor", anchor)
            conn.request(layer, "set_exclusive_zone", -1)   # over panels too, never moving them
            conn.request(layer, "set_keyboard_interactivity", 0)
            conn.request(surface, "commit")
            self.surfaces[surface] = name
            self._layers[surface] = layer
        self._pointer = conn.new(p.WL_POINTER, self._on_pointer)
        conn.request(seat, "get_pointer", self._pointer)
        conn.wait(lambda: len(self._configured) == len(CORNERS), what="corner surfaces' configure")
        conn.roundtrip()

    def _transparent_pixel(self, shm: int) -> tuple[int, int, int]:
        """A 1x1 ARGB buffer, all zero (transparent)."""
        fd = os.memfd_create("minebot-fail-safe", os.MFD_CLOEXEC)
        os.ftruncate(fd, 4)
        pool = self.conn.new(p.WL_SHM_POOL)
        self.conn.request(shm, "create_pool", pool, fd, 4)
        buffer = self.conn.new(p.WL_BUFFER)
        self.conn.request(pool, "create_buffer", buffer, 0, 1, 1, 4, p.WL_SHM_ARGB8888)
        return buffer, pool, fd

    def _on_layer(self, surface: int):
        def handle(name: str, args: tuple) -> None:
            # Acknowledged every time; committed (with the pixel) the first time only: sway
            # configures every layer surface again on each commit of one, so a commit for
            # each configure would never end.
            if name == "configure":
                self.conn.request(self._layers[surface], "ack_configure", args[0])
                if not self._configured.get(surface):
                    self.conn.request(surface, "attach", self._pixel, 0, 0)
                    self.conn.request(surface, "damage", 0, 0, 1, 1)
                    self.conn.request(surface, "commit")
                    self._configured[surface] = True
        return handle

    def _on_pointer(self, name: str, args: tuple) -> None:
        if name == "enter" and args[1] in self.surfaces:
            self._inside = args[1]
        elif name == "enter" or (name == "leave" and args[1] == self._inside):
            self._inside = None

    def corner(self) -> str | None:
        """The corner the pointer is in now (events read up to a round trip), or None."""
        self.conn.roundtrip()
        return self.surfaces.get(self._inside) if self._inside is not None else None

    def close(self) -> None:
        """Idempotent: the surfaces go (the connection may already be closed)."""
        layers, self._layers = self._layers, {}
        try:
            for surface, layer in layers.items():
                self.conn.request(layer, "destroy")
                self.conn.request(surface, "destroy")
        except DesktopError:
            pass   # the connection is gone, and the surfaces with it
        fd, self._memfd = self._memfd, -1
        if fd >= 0:
            os.close(fd)
