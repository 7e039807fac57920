"""The mouse on GNOME on Wayland: RemoteDesktop's virtual pointer, and a fail-safe that notices
a pointer someone moved away from where minebot put it (``PointerWatch``)."""

from __future__ import annotations

import time

import numpy as np

from ...errors import DesktopError, Interrupted
from ..pointer import BasePointer, Button
from ..x11.window import Rect
from .dbus import Bus
from .session import CURSOR_EMBEDDED, AreaCast, MutterSession, closed_on_failure

FAIL_SAFE_WAIT = 1.0
"""Seconds the fail-safe waits for a frame showing the pointer where minebot put it before
it stops the run (a frame of a loaded compositor may come a few hundred ms late)."""

STALE_AFTER = 0.1
"""Seconds with no new frame after which the standing casts are asked no longer and a fresh
pair decides (``PointerWatch``): a fresh pair costs ~0.15-0.3 s, so only a silent stream is
worth replacing."""


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

    A standing cast can be stale: mutter 50 now and then paints the pointer leaving the
    square (when minebot clicks a cell) but not its coming back a few milliseconds later, so
    the pointer stays missing from the embedded cast while it sits where minebot put it. A
    "gone" verdict is therefore confirmed by a fresh pair of casts before it stops the run: a
    new area stream paints its whole area once when it starts (``clutter_actor_queue_redraw``
    in ``meta_screen_cast_area_stream_src_enable``), so its first frame shows the pointer as
    it is now. The fresh pair then replaces the standing one.
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
        self.confirmations = 0
        """How often a standing cast's "gone" was overruled by a fresh pair (for diagnosis)."""
        self._bus, self._origin = bus, origin
        self._bare: AreaCast | None = None
        self._drawn: AreaCast | None = None
        with closed_on_failure(self, "the fail-safe's casts"):
            self._open_casts()

    def _open_casts(self) -> None:
        self._bare = AreaCast(self._bus, self.box, self._origin)
        self._drawn = AreaCast(self._bus, self.box, self._origin, cursor=CURSOR_EMBEDDED)

    def _seen_here(self) -> bool:
        return not np.array_equal(self._drawn.frames.latest(), self._bare.frames.latest())

    def still_there(self, wait: float = FAIL_SAFE_WAIT) -> bool:
        """False only when the pointer, once seen here, has gone: the newest frames show it
        elsewhere, no newer frame within ``wait`` seconds shows it back, and a fresh pair of
        casts does not show it either."""
        if self._seen_here():
            self.armed = True
            return True
        if not self.armed:
            return True   # never seen here yet (its frame may still be on its way)
        deadline = time.monotonic() + wait
        frames = self._drawn.frames
        seen = frames.count
        while (left := deadline - time.monotonic()) > 0:
            count = frames.wait_new(seen, min(left, STALE_AFTER))
            if count == seen:
                break   # nothing painted: the standing casts may just be stale
            seen = count
            if self._seen_here():
                return True
        return self._seen_by_fresh_casts()

    def _seen_by_fresh_casts(self) -> bool:
        """Whether a new pair of casts, painted whole when they start, shows the pointer here;
        they replace the standing pair either way (a stale pair would only ask again)."""
        self.close()
        with closed_on_failure(self, "the fail-safe's casts"):
            self._open_casts()
        if self._seen_here():
            self.confirmations += 1
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
        if not self.fail_safe or at is None or self.session.rect is None:
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
