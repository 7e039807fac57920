"""Shaped X windows that show the hint layers over the game, and read the game under them.

Why shaped windows: on a plain X server (Xvfb, window managers without a compositor) there is
no alpha, so a see-through overlay is a set of override-redirect windows, one per colour,
whose Bounding shape (X SHAPE extension) is that colour's mask cut into rectangles. Their
Input shape is empty, so every click falls through to the game underneath: the overlay can
never click, and never steals one.

The game under the marks is read from the window's own pixmap
(``minebot.backends.x11.capture.CompositeCapture``: what the game drew, whatever lies on top);
servers without Composite fall back to a screen capture with the overlay hidden
(``HiddenOverlayCapture``).

python-xlib is imported inside the classes: this module imports with no display.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..backends.capture import GrabbedCapture
from ..backends.x11.capture import Screen
from ..backends.x11.window import Rect, close_display, open_display
from ..errors import DesktopError
from .draw import LAYERS, wrap_to_width

LABEL_LAYERS: dict[str, tuple[int, int, int]] = {
    "label_bg": (40, 40, 40),
    "label_text": (255, 255, 255),
}
"""The caption beside the board: a dark box and its text (two more one-colour windows)."""

WINDOW_CLASS = ("minebot-hint", "minebot")


def mask_rectangles(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Cover the True pixels of ``mask`` exactly with (x, y, width, height) rectangles.

    Runs of True along each row are found at once with a diff; runs with the same left and
    right edge on consecutive rows are merged, so a frame of any thickness is 4 rectangles
    and a window shape stays a short request.
    """
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():
        return []
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    step = np.diff(padded, axis=1)
    ys, x0 = np.nonzero(step == 1)
    _, x1 = np.nonzero(step == -1)     # row-major order: the i-th end closes the i-th start
    order = np.lexsort((ys, x1, x0))
    ys, x0, x1 = ys[order], x0[order], x1[order]
    new = np.ones(ys.size, dtype=bool)
    new[1:] = (x0[1:] != x0[:-1]) | (x1[1:] != x1[:-1]) | (ys[1:] != ys[:-1] + 1)
    starts = np.nonzero(new)[0]
    ends = np.append(starts[1:], ys.size)
    return [(int(x0[s]), int(ys[s]), int(x1[s] - x0[s]), int(e - s))
            for s, e in zip(starts, ends)]


def rectangles_mask(rects: list[tuple[int, int, int, int]], shape: tuple[int, int]) -> np.ndarray:
    """The inverse of ``mask_rectangles`` (for tests and checks)."""
    mask = np.zeros(shape, dtype=bool)
    for x, y, w, h in rects:
        mask[y:y + h, x:x + w] = True
    return mask


class ShapedOverlay:
    """One override-redirect, click-through window per layer colour.

    ``show(layers, origin)`` places every layer's mask at screen position ``origin`` (x, y);
    an empty layer's window is unmapped. ``close()`` destroys every window (also done when the
    process ends and its X connection closes).
    """

    def __init__(self, display: str | None = None,
                 colours: dict[str, tuple[int, int, int]] | None = None) -> None:
        name = display or os.environ.get("DISPLAY")
        if not name:
            raise DesktopError("no X display for the overlay: set DISPLAY")
        try:
            self.d = open_display(name)
        except Exception as exc:  # noqa: BLE001 - Xlib raises several unrelated types here
            raise DesktopError(f"cannot open X display {name}: {exc}") from None
        if not self.d.has_extension("SHAPE"):
            self.d.close()
            raise DesktopError(f"X display {name} has no SHAPE extension: cannot draw an overlay")
        self.screen = self.d.screen()
        self.colours = dict(colours if colours is not None else {**LAYERS, **LABEL_LAYERS})
        self._windows: dict[str, Any] = {}   # python-xlib windows (untyped)
        self._mapped: set[str] = set()
        self._state: dict[str, tuple] = {}

    def pixel(self, bgr: tuple[int, int, int]) -> int:
        b, g, r = bgr
        return self.screen.default_colormap.alloc_color(r * 257, g * 257, b * 257).pixel

    def _window(self, name: str):
        win = self._windows.get(name)
        if win is not None:
            return win
        from Xlib import X
        from Xlib.ext import shape
        win = self.screen.root.create_window(
            0, 0, 1, 1, 0, self.screen.root_depth, X.InputOutput, X.CopyFromParent,
            background_pixel=self.pixel(self.colours[name]), override_redirect=True,
            event_mask=0)
        win.set_wm_name(f"minebot hint {name}")
        win.set_wm_class(*WINDOW_CLASS)
        # Empty Input shape: no pointer event ever lands on the overlay.
        win.shape_rectangles(shape.SO.Set, shape.SK.Input, X.Unsorted, 0, 0, [])
        self._windows[name] = win
        return win

    def show(self, layers: dict[str, np.ndarray], origin: tuple[int, int]) -> None:
        """Show every layer (bottom first) with its top-left pixel at screen ``origin``."""
        from Xlib import X
        from Xlib.ext import shape
        changed = False
        for name in self.colours:
            mask = layers.get(name)
            if mask is None:
                continue
            rects = mask_rectangles(mask)
            if not rects:
                if name in self._mapped:
                    self._windows[name].unmap()
                    self._mapped.discard(name)
                    self._state.pop(name, None)
                    changed = True
                continue
            key = (origin, mask.shape, tuple(rects))
            if self._state.get(name) == key and name in self._mapped:
                continue
            win = self._window(name)
            h, w = mask.shape
            win.configure(x=int(origin[0]), y=int(origin[1]), width=int(w), height=int(h))
            win.shape_rectangles(shape.SO.Set, shape.SK.Bounding, X.Unsorted, 0, 0, rects)
            if name not in self._mapped:
                win.map()
                self._mapped.add(name)
            self._state[name] = key
            changed = True
        if changed:
            self.raise_all()
        self.d.flush()

    def hide(self, names=None) -> None:
        for name in list(self._mapped):
            if names is None or name in names:
                self._windows[name].unmap()
                self._mapped.discard(name)
                self._state.pop(name, None)
        self.d.flush()

    def suspend(self) -> list[str]:
        """Unmap every shown layer for a moment (a screen capture without our marks)."""
        shown = [n for n in self.colours if n in self._mapped]
        for name in shown:
            self._windows[name].unmap()
        self.d.sync()
        return shown

    def resume(self, shown: list[str]) -> None:
        """Map again what ``suspend`` hid, shapes unchanged."""
        for name in shown:
            self._windows[name].map()
        self.raise_all()

    def raise_all(self) -> None:
        """Stack the mapped layers above everything, in layer order (the game may be raised)."""
        from Xlib import X
        for name in self.colours:
            if name in self._mapped:
                self._windows[name].configure(stack_mode=X.Above)
        self.d.flush()

    def on_top(self, game_id: int) -> bool:
        """Whether every mapped layer is stacked above the game window."""
        try:
            order = [w.id for w in self.screen.root.query_tree().children]
        except Exception:  # noqa: BLE001 - the stacking cannot be read: leave the layers where they are
            return True
        if game_id not in order:
            return True
        g = order.index(game_id)
        return all(order.index(self._windows[n].id) > g for n in self._mapped
                   if self._windows[n].id in order)

    def close(self) -> None:
        for win in self._windows.values():
            try:
                win.destroy()
            except Exception:  # noqa: BLE001, S110 - a layer the server already destroyed: nothing to free
                pass
        self._windows.clear()
        self._mapped.clear()
        close_display(self.d, sync=True)

    def __enter__(self) -> "ShapedOverlay":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class HiddenOverlayCapture(GrabbedCapture):
    """A screen capture taken with the overlay's layers unmapped for a moment (servers without
    Composite, where a capture of the board would contain our own marks): a ``Capture``."""

    def __init__(self, display: str, overlay: ShapedOverlay) -> None:
        self.screen, self.overlay = Screen(display), overlay

    def grab(self, region: Rect) -> np.ndarray:
        import time
        shown = self.overlay.suspend()
        try:
            time.sleep(0.03)       # let the game repaint what the overlay covered
            return self.screen.grab(region)
        finally:
            self.overlay.resume(shown)

    def close(self) -> None:
        self.screen.close()


def label_layers(lines: list[str], width: int) -> dict[str, np.ndarray]:
    """The caption as two masks (box, text) ``width`` pixels wide, sized to its lines."""
    import cv2
    font, scale, stroke, line_h = cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1, 20
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap_to_width(line, width - 16, font, scale, stroke))
    height = line_h * len(wrapped) + 10
    text = np.zeros((height, width), np.uint8)
    for i, line in enumerate(wrapped):
        cv2.putText(text, line, (8, 20 + i * line_h), font, scale, 255, stroke, cv2.LINE_8)
    return {"label_bg": np.ones((height, width), dtype=bool), "label_text": text > 0}


def label_origin(game: Rect, screen: Rect, height: int) -> tuple[int, int]:
    """Below the game window if it fits on screen, else above it, else over its bottom edge."""
    if game.bottom + height <= screen.bottom:
        return game.left, game.bottom
    if game.top - height >= screen.top:
        return game.left, game.top - height
    return game.left, max(screen.top, game.bottom - height)
