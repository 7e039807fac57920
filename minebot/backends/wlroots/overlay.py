"""The hint overlay on a wlroots compositor: one layer-shell surface over the whole output.

Why layer-shell: a Wayland client cannot place a window of its own over another client's, but
``zwlr_layer_shell_v1`` gives it surfaces on the compositor's *overlay* layer, above every
window. minebot makes one such surface, anchored to the four edges of the output (so the
compositor sizes it to the output), with an exclusive zone of -1 (drawn over panels, moving
nothing), no keyboard interactivity (the game keeps its keys) and an empty input region
(``wl_surface.set_input_region`` with a region that has nothing in it): the pointer never
enters it, so every click lands on the game underneath.

Its pixels are one ``wl_shm`` ARGB8888 buffer the size of the output: transparent (all zero)
everywhere but under the hint's one-colour layers (``minebot.hint.draw``), opaque there. A new
buffer is made each time what is shown changes, and the one before is destroyed once the new
one is committed; an all-transparent buffer is kept for ``suspend``.

Reading the game under it: a screen copy (``wlr-screencopy``) shows the output as composited,
marks included, and that protocol has no way to leave one surface out. ``HiddenLayerCapture``
therefore commits the transparent buffer, waits for the compositor to have handled it, grabs,
and commits the marks again: the copy is of the frame after the commit, which holds no mark.
The marks blink for about one frame on each read, so the hint reads less often here (see
``minebot.hint.live``).
"""

from __future__ import annotations

import numpy as np

from ...errors import DesktopError, UnsupportedDesktopError
from ..capture import GrabbedCapture
from ..x11.window import Rect
from . import protocol as p
from .capture import OutputCapture, ShmBuffer, make_buffer
from .client import Connection, Output
from .failsafe import ANCHOR_BOTTOM, ANCHOR_LEFT, ANCHOR_RIGHT, ANCHOR_TOP, OVERLAY_LAYER

NAMESPACE = "minebot-hint"
"""The layer surface's namespace (what ``swaymsg -t get_outputs`` and layer rules see)."""

CONFIGURE_TIMEOUT = 5.0


def offers_layer_shell(conn: Connection) -> bool:
    """Whether the compositor of ``conn`` offers ``zwlr_layer_shell_v1`` (and the rest the
    overlay needs: a compositor and shared memory)."""
    return all(conn.version(i) for i in (p.LAYER_SHELL, p.WL_COMPOSITOR, p.WL_SHM))


class LayerOverlay:
    """The hint's marks over ``output`` (see the module docstring).

    Same calls as ``minebot.hint.overlay.ShapedOverlay``: ``show(layers, origin)`` places each
    named boolean mask with its top-left pixel at layout position ``origin`` (an empty mask
    removes that layer), ``hide(names)``, ``suspend``/``resume`` around a screen copy,
    ``close()`` (idempotent). ``colours`` maps each layer name to its BGR colour, bottom first.
    """

    def __init__(self, conn: Connection, output: Output,
                 colours: dict[str, tuple[int, int, int]]) -> None:
        if not offers_layer_shell(conn):
            raise UnsupportedDesktopError(
                f"the Wayland compositor at {conn.path} offers no zwlr_layer_shell_v1, so "
                "minebot cannot draw its hint over the game there")
        self.conn, self.output = conn, output
        self.colours = dict(colours)
        self._shown: dict[str, tuple[np.ndarray, tuple[int, int]]] = {}
        self._buffer: ShmBuffer | None = None      # what the surface shows when not suspended
        self._clear: ShmBuffer | None = None       # all transparent
        self._size: tuple[int, int] | None = None  # the configured width, height
        self._configured = False
        self.closed_by_compositor = False
        self._suspended = False
        self._shm = conn.bind(p.WL_SHM, 1)
        compositor = conn.bind(p.WL_COMPOSITOR, 4)
        shell = conn.bind(p.LAYER_SHELL, 1)
        self._surface: int | None = conn.new(p.WL_SURFACE)
        conn.request(compositor, "create_surface", self._surface)
        region = conn.new(p.WL_REGION)
        conn.request(compositor, "create_region", region)   # nothing added: empty
        conn.request(self._surface, "set_input_region", region)
        conn.request(region, "destroy")
        self._layer: int | None = conn.new(p.LAYER_SURFACE, self._on_layer)
        conn.request(shell, "get_layer_surface", self._layer, self._surface, output.object_id,
                     OVERLAY_LAYER, NAMESPACE)
        conn.request(self._layer, "set_size", 0, 0)   # 0 on both axes: the anchored edges'
        conn.request(self._layer, "set_anchor",
                     ANCHOR_TOP | ANCHOR_BOTTOM | ANCHOR_LEFT | ANCHOR_RIGHT)
        conn.request(self._layer, "set_exclusive_zone", -1)
        conn.request(self._layer, "set_keyboard_interactivity", 0)
        conn.request(self._surface, "commit")   # no buffer: asks for the first configure
        try:
            conn.wait(lambda: self._size is not None or self.closed_by_compositor,
                      CONFIGURE_TIMEOUT, "configure of the hint's layer surface")
            if self._size is None:
                raise DesktopError("the compositor closed the hint's layer surface at once")
            width, height = self._size
            self._clear = self._new_buffer(np.zeros((height, width, 4), np.uint8))
            self._attach(self._clear)
            self._configured = True
            conn.roundtrip()
        except BaseException:
            self.close()
            raise

    # -- compositor events ------------------------------------------------------------------
    def _on_layer(self, name: str, args: tuple) -> None:
        # Acknowledged each time; sway configures every layer surface again when one commits,
        # so a configure is not answered with a commit (that would never end): the next
        # commit carries the acknowledgement.
        if name == "configure":
            serial, width, height = args
            if self._layer is not None:
                self.conn.request(self._layer, "ack_configure", serial)
            if self._size is None:
                self._size = (width or self.output.width, height or self.output.height)
        elif name == "closed":
            self.closed_by_compositor = True

    # -- buffers ----------------------------------------------------------------------------
    def _new_buffer(self, argb: np.ndarray) -> ShmBuffer:
        height, width = argb.shape[:2]
        buffer = make_buffer(self.conn, self._shm, width, height, width * 4, p.WL_SHM_ARGB8888)
        buffer.pixels[:] = argb.reshape(height, width * 4)
        return buffer

    def _attach(self, buffer: ShmBuffer) -> None:
        if self._surface is None:
            return
        self.conn.request(self._surface, "attach", buffer.buffer, 0, 0)
        self.conn.request(self._surface, "damage", 0, 0, 2 ** 31 - 1, 2 ** 31 - 1)
        self.conn.request(self._surface, "commit")

    def canvas(self) -> np.ndarray:
        """The surface's pixels for what is shown: B, G, R, A bytes (ARGB8888 in memory, alpha
        premultiplied: an opaque mark is its colour, the rest all zero)."""
        assert self._size is not None
        width, height = self._size
        out = np.zeros((height, width, 4), np.uint8)
        for name, colour in self.colours.items():   # bottom layer first
            if name not in self._shown:
                continue
            mask, (x, y) = self._shown[name]
            x, y = x - self.output.x, y - self.output.y
            h, w = mask.shape
            x0, y0, x1, y1 = max(0, x), max(0, y), min(width, x + w), min(height, y + h)
            if x0 >= x1 or y0 >= y1:
                continue
            part = mask[y0 - y:y1 - y, x0 - x:x1 - x]
            out[y0:y1, x0:x1][part] = (*colour, 255)
        return out

    def _redraw(self) -> None:
        if self._surface is None or self.closed_by_compositor:
            return
        old, self._buffer = self._buffer, (self._new_buffer(self.canvas()) if self._shown
                                           else None)
        if not self._suspended:
            self._attach(self._buffer or self._clear)   # type: ignore[arg-type]
        if old is not None:
            old.destroy(self.conn)   # replaced by a committed buffer (or the clear one)
        self.conn.roundtrip()

    # -- what ShapedOverlay offers ----------------------------------------------------------
    @property
    def empty(self) -> bool:
        """Nothing is drawn (then a screen copy needs no hiding)."""
        return not self._shown

    def show(self, layers: dict[str, np.ndarray], origin: tuple[int, int]) -> None:
        """Every layer of ``layers`` with its top-left pixel at layout position ``origin``."""
        changed = False
        for name in self.colours:
            mask = layers.get(name)
            if mask is None:
                continue
            if not mask.any():
                changed |= self._shown.pop(name, None) is not None
                continue
            now = self._shown.get(name)
            if now is not None and now[1] == tuple(origin) and np.array_equal(now[0], mask):
                continue
            self._shown[name] = (np.array(mask, dtype=bool), (int(origin[0]), int(origin[1])))
            changed = True
        if changed:
            self._redraw()

    def hide(self, names=None) -> None:
        """Take the named layers (every layer: None) off the screen."""
        gone = [n for n in list(self._shown) if names is None or n in names]
        for name in gone:
            del self._shown[name]
        if gone:
            self._redraw()

    def suspend(self) -> bool:
        """The transparent buffer, handled by the compositor before this returns (so the next
        frame it draws has no mark); True when something was hidden."""
        if self._suspended or self._buffer is None or self._clear is None:
            return False
        self._suspended = True
        self._attach(self._clear)
        self.conn.roundtrip()
        return True

    def resume(self, hidden: bool) -> None:
        """The marks again, after ``suspend`` returned ``hidden``."""
        if not hidden:
            return
        self._suspended = False
        if self._buffer is not None:
            self._attach(self._buffer)
        self.conn.dispatch_pending()

    def on_top(self, game_id: int) -> bool:
        """Always: the overlay layer is above every window."""
        return True

    def raise_all(self) -> None:
        """Nothing to raise: the overlay layer is above every window."""

    def close(self) -> None:
        """Idempotent: the surface and its buffers (the connection may already be closed; the
        compositor then freed them with it)."""
        layer, surface = self._layer, self._surface
        self._layer = self._surface = None
        buffers = [b for b in (self._buffer, self._clear) if b is not None]
        self._buffer = self._clear = None
        self._shown.clear()
        try:
            if layer is not None:
                self.conn.request(layer, "destroy")
            if surface is not None:
                self.conn.request(surface, "destroy")
            for buffer in buffers:
                buffer.destroy(self.conn)
            if layer is not None:
                self.conn.roundtrip()
        except DesktopError:   # the connection is gone: only our side of the memory is left
            for buffer in buffers:
                buffer.pixels = np.empty((0, 0), np.uint8)
                buffer.memory.close()

    def __enter__(self) -> "LayerOverlay":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class HiddenLayerCapture(GrabbedCapture):
    """Screen copies of the output with the overlay's marks out of them (a ``Capture``): each
    grab commits the transparent buffer first and the marks again after (module docstring)."""

    frame_clocked = True

    def __init__(self, screen: OutputCapture, overlay: LayerOverlay) -> None:
        self.screen, self.overlay = screen, overlay

    def grab(self, region: Rect | None = None) -> np.ndarray:
        hidden = self.overlay.suspend()
        try:
            return self.screen.grab(region)
        finally:
            self.overlay.resume(hidden)

    def close(self) -> None:
        """The screen capture is the backend's: it closes it."""
