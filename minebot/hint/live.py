"""``minebot hint``: watch the live game and keep the overlay on its board.

Every tick (default 50 ms): look the game window up again (it may have moved, been resized or
closed), grab its own pixels (``backends.frames.FrameSource`` over the window's Composite
pixmap, so our marks never enter the reading), read them when the board's pixels changed
(``backends.readings.readings``), and when the board or the geometry changed, recompute the
hints and reshape the overlay windows. The loop
never sends input to the game. It ends when the game window disappears, on Ctrl-C, or when
``stop()`` returns True; the overlay windows are destroyed in every case.

On sway and other wlroots compositors (``run_layer_overlay``) the overlay is one layer-shell
surface (``backends.wlroots.overlay``), the board is read on the whole output, and each screen
copy is taken with the marks off the screen, so reads come at most every 0.5 s there.
"""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..backends.capture import Capture
from ..backends.frames import FrameSource
from ..backends.listed import WindowList
from ..backends.readings import readings
from ..backends.wlroots.backend import WlrootsBackend
from ..backends.x11.capture import CompositeCapture
from ..backends.x11.window import X11, Rect
from ..errors import DesktopError, NoGameError
from ..vision import Reader
from .advise import advise
from .draw import LAYERS, DrawOptions, cell_at, hint_layers
from .explain import Explanation
from .marks import Hints, no_hints
from .overlay import (
    LABEL_LAYERS,
    HiddenOverlayCapture,
    ShapedOverlay,
    label_layers,
    label_origin,
)

Coord = tuple[int, int]

ERROR_GRACE = 0.3
"""Seconds a read may keep failing (a frame mid-redraw) before the overlay says so."""


@dataclass(frozen=True)
class LiveOptions:
    probabilities: bool = False
    explain: Coord | None = None
    explain_pointer: bool = False     # explain whichever cell the mouse pointer is over
    mines: int | None = None
    templates: str | None = None
    interval: float = 0.05
    label: bool = True


def run_overlay(display: str | None, options: LiveOptions = LiveOptions(),
                stop: Callable[[], bool] = lambda: False,
                log: Callable[[str], None] = print) -> int:
    """Run the overlay until the game closes (returns 0) or ``stop()``/Ctrl-C."""
    from ..solver import Solver

    with ExitStack() as cleanup:   # closed in reverse: the frames, the overlay, the connection
        x = X11(display)
        cleanup.callback(x.close)
        game = x.find_window()
        if game is None:
            raise NoGameError(f"no GNOME Mines window on display {x.name}")
        overlay = ShapedOverlay(display or x.name)
        cleanup.callback(overlay.close)
        composite = CompositeCapture(display or x.name, game)
        cleanup.callback(composite.close)
        interval = options.interval
        pixels: Capture = composite
        if not composite.available:
            # Each read must hide the marks for a moment: read less often to limit flicker.
            composite.close()
            pixels = HiddenOverlayCapture(display or x.name, overlay)
            interval = max(interval, 0.5)
            log("minebot hint: no Composite extension; the marks blink when the board is read")
        frames = FrameSource(pixels, game.rect)
        cleanup.callback(frames.close)
        reader = _reader(options)
        log(f"minebot hint: watching window 0x{game.id:x} on {x.name} (Ctrl-C to stop)")
        watch = _Watch(x, game.id, frames, overlay, Solver(), options, interval, stop, log)
        _follow(frames, reader, watch)
        if watch.closed:
            log("minebot hint: the game window closed; stopping")
        return 0


LAYER_INTERVAL = 0.5
"""Seconds between reads under a wlroots compositor at least: each read takes the marks off
the screen for about a frame (``backends.wlroots.overlay.HiddenLayerCapture``)."""


def run_layer_overlay(backend: WlrootsBackend, options: LiveOptions = LiveOptions(),
                      stop: Callable[[], bool] = lambda: False,
                      log: Callable[[str], None] = print) -> int:
    """The overlay on a wlroots compositor (sway): one layer-shell surface over ``backend``'s
    output, the board found and read on the whole output with the marks taken out of each
    screen copy. Runs until ``stop()`` or Ctrl-C, or until the game's window closes where the
    compositor lists its windows (sway's IPC; returns 0); the surface goes in every case.
    Elsewhere a Wayland client is told nothing of other windows, so the overlay does not end
    by itself when the game closes: it says the board is gone."""
    from ..backends.wlroots.overlay import HiddenLayerCapture, LayerOverlay
    from ..solver import Solver

    with ExitStack() as cleanup:   # closed in reverse: the frames, then the surface
        overlay = LayerOverlay(backend.conn, backend.output, {**LAYERS, **LABEL_LAYERS})
        cleanup.callback(overlay.close)
        frames = FrameSource(HiddenLayerCapture(backend.screen(), overlay), backend.screen_rect)
        cleanup.callback(frames.close)
        reader = _reader(options)
        interval = max(options.interval, LAYER_INTERVAL)
        log(f"minebot hint: drawing on the overlay layer of {backend.display}, reading every "
            f"{interval:g} s (Ctrl-C to stop)")
        watch = _LayerWatch(frames, overlay, Solver(), options, interval, stop, log,
                            backend.screen_rect, backend.window_list)
        _follow(frames, reader, watch)
        listing = backend.window_list
        if watch.closed and listing is not None:
            log(f"minebot hint: the game window closed (gone from {listing.source}); stopping")
        return 0


def _reader(options: LiveOptions) -> Reader:
    """The hint's reader; unmatched-cell crops of a long run go to one folder, overwritten,
    not one per frame."""
    crops = Path(tempfile.gettempdir()) / f"minebot-hint-{os.getpid()}-unmatched"
    return Reader(options.templates, mines=options.mines, crops_dir=crops)


def _follow(frames: FrameSource, reader: Reader, watch: "_Watch") -> None:
    """Read the game whenever its board changed and hand each reading (or why it failed) to
    ``watch``, until ``watch.before`` ends it."""
    for seen in readings(frames, reader.read, settle=False, changes_only=True,
                         before=watch.before):
        if seen.error is not None:
            watch.error(seen.error)
        else:
            watch.show(seen.reading)


class _Watch:
    """The overlay's side of the readings: before each look, wait a tick and follow the
    window (hide the marks while it is not viewable; end when it closed or ``stop()``); after
    it, show the marks and caption of the reading, or the error, redrawn only when what they
    show changed, and kept above the game."""

    def __init__(self, x, game_id: int, frames, overlay, solver, options: LiveOptions,
                 interval: float, stop: Callable[[], bool], log: Callable[[str], None]) -> None:
        self.x, self.game_id, self.frames, self.overlay = x, game_id, frames, overlay
        self.solver, self.options, self.interval, self.stop, self.log = \
            solver, options, interval, stop, log
        self.closed = False
        self.key: tuple | None = None        # what the overlay shows now
        self.message: str | None = None
        self.last_raise = self.last_good = 0.0

    def before(self, n: int) -> bool:
        if n:
            time.sleep(self.interval)
        while not self.stop():
            info = self.x.info(self.game_id)
            if info is None:
                self.closed = True
                return False
            if info.viewable:
                self.frames.follow(info.rect, info)
                return True
            self.overlay.hide()
            self.key = None
            time.sleep(self.interval)
        return False

    def error(self, exc: Exception) -> None:
        # A read can fail for a frame mid-redraw: only a failure that lasts is shown.
        if time.monotonic() - self.last_good < ERROR_GRACE:
            return
        rect = self.frames.region
        key = ("error", str(exc), rect)
        if key != self.key:
            self.overlay.hide([n for n in self.overlay.colours if not n.startswith("label")])
            self._label([f"minebot hint: {exc}"], rect)
            self.key = key

    def show(self, reading) -> None:
        from ..solver.doubts import sure_board
        options, rect = self.options, self.frames.region
        self.last_good = time.monotonic()
        board = sure_board(reading.board, reading.unsure)
        explain = options.explain
        if options.explain_pointer:
            explain = _pointer_cell(self.x, rect, reading.cell_rects)
            if explain is not None and not board.unknown[explain]:
                explain = None       # a revealed number needs no explanation
        key = (rect, reading.board_px, board.cells.tobytes(), board.mines, board.state, explain)
        if key != self.key:
            hints, explanation = _advise(board, self.solver, options, explain)
            left, top, right, bottom = reading.board_px
            layers = hint_layers(hints, reading.cell_rects, (bottom - top, right - left),
                                 DrawOptions(probabilities=options.probabilities), explanation,
                                 offset=(left, top))
            self.overlay.show(layers, (rect.left + left, rect.top + top))
            lines = [hints.summary()]
            if explanation is not None:
                lines.append(explanation.sentence)
            self._label(lines, rect)
            if lines[0] != self.message:
                self.log(lines[0])
                self.message = lines[0]
            self.key = key
        elif time.monotonic() - self.last_raise > 0.5:
            if not self.overlay.on_top(self.game_id):
                self.overlay.raise_all()
            self.last_raise = time.monotonic()

    def _label(self, lines: list[str], rect) -> None:
        _show_label(self.overlay, lines, rect, self.x.screen_rect, self.options.label,
                    label_layers, label_origin)


class _LayerWatch(_Watch):
    """``_Watch`` on a wlroots compositor: no window to follow (the frames are the whole
    output), so ``before`` waits a tick and, where the compositor lists its windows, ends
    when the window the board was read in has left the list; the caption goes under the board
    (the last one read), not under a window."""

    def __init__(self, frames, overlay, solver, options: LiveOptions, interval: float,
                 stop: Callable[[], bool], log: Callable[[str], None], screen: Rect,
                 windows: WindowList | None = None) -> None:
        super().__init__(None, 0, frames, overlay, solver, options, interval, stop, log)
        self.screen, self.windows = screen, windows
        self.board: Rect | None = None   # the board on screen, as last read
        self.game_window: int | None = None   # the listed window the board was read in

    def before(self, n: int) -> bool:
        if n:
            time.sleep(self.interval)
        if self.game_window is not None and self.windows is not None and \
                self._listed(self.windows) is False:
            self.closed = True
            return False
        return not self.stop()

    def _listed(self, windows: WindowList) -> bool | None:
        """Whether the game's window is still in the compositor's list (None: cannot tell)."""
        try:
            return any(w.id == self.game_window for w in windows.windows())
        except DesktopError:
            return None

    def show(self, reading) -> None:
        left, top, right, bottom = reading.board_px
        region = self.frames.region
        self.board = Rect(region.left + left, region.top + top, right - left, bottom - top)
        if self.windows is not None and self.game_window is None:
            self.game_window = _window_under(self.windows, self.board)
        super().show(reading)

    def _label(self, lines: list[str], rect) -> None:
        _show_label(self.overlay, lines, self.board or rect, self.screen, self.options.label,
                    label_layers, label_origin)


def _window_under(windows: WindowList, board: Rect) -> int | None:
    """The id of the visible listed window that holds the middle of ``board``, if one does."""
    x, y = board.left + board.width // 2, board.top + board.height // 2
    try:
        listed = windows.windows()
    except DesktopError:
        return None
    holding = [w for w in listed if w.visible and w.rect.left <= x < w.rect.right
               and w.rect.top <= y < w.rect.bottom]
    return holding[0].id if len(holding) == 1 else None


def _pointer_cell(x, game_rect, cell_rects) -> Coord | None:
    """The board cell under the mouse pointer, if any (frame coordinates of the window)."""
    try:
        p = x.root.query_pointer()
    except Exception:  # noqa: BLE001 - the pointer cannot be asked (window gone, server busy): no cell under it
        return None
    return cell_at(cell_rects, p.root_x - game_rect.left, p.root_y - game_rect.top)


def _advise(board, solver, options: LiveOptions,
            explain: Coord | None) -> tuple[Hints, Explanation | None]:
    if explain is not None and not (0 <= explain[0] < board.rows and 0 <= explain[1] < board.cols):
        return no_hints(board, f"cell {explain} is outside the {board.rows}x{board.cols} board"), None
    return advise(board, solver, options.mines, explain)


def _show_label(overlay, lines, game_rect, screen_rect, enabled, label_layers, label_origin) -> None:
    if not enabled:
        return
    layers = label_layers(lines, max(300, game_rect.width))
    height = layers["label_bg"].shape[0]
    overlay.show(layers, label_origin(game_rect, screen_rect, height))
