"""One frame source: the game's pixels, grabbed, waited on until they settle, and compared.

Why one: live play, the hint overlay and the fixture recorder all need the same three things
of the screen, whatever the desktop: a frame of the game's region, a frame taken once the game
stopped drawing (GTK paints a change in several pieces; a click shows ~10 ms after the button
comes up, and longer through a compositor), and whether the board changed since a given
frame (where there is no window list, whether the ring of pixels around it is still the same:
``minebot.backends.watch``). How the pixels are grabbed is the backend's ``Capture`` (XShm on
the window, Composite, mss on the root, mutter's screen cast); this class only uses it.

    frames = FrameSource(backend.capture(window), region)
    frame = frames.settled(area=board_px)          # BGR, region-sized
    frames.ring_same(frame, board_px)              # the board still where and what it was?
"""

from __future__ import annotations

import os
import sys
import time
from typing import Callable, Sequence

import numpy as np

from ..timing import Phase, phase, timed
from .capture import Capture
from .watch import ring_box, ring_strips, ring_unchanged
from .x11.window import Rect, WindowInfo

Box = tuple[int, int, int, int]
"""(left, top, right, bottom) in frame pixels."""

HOVER_GRACE = 0.06
"""Seconds after a click during which a cell in hover/pressed colour is not yet its result."""

NUDGE_EVERY = 0.15
"""Seconds the clicked cells may look unchanged before a ``nudge`` (and between two)."""

SETTLE_TIMEOUT = 2.0
"""Seconds a settling frame may take before the newest one is handed on as it is."""


def same_area(a: np.ndarray, b: np.ndarray, area: Box | None = None) -> bool:
    """Whether two frames agree on ``area`` (all of them when None; never across sizes)."""
    if a.shape != b.shape:
        return False
    if area is None:
        return bool(np.array_equal(a, b))
    x0, y0, x1, y1 = area
    return bool(np.array_equal(a[y0:y1, x0:x1], b[y0:y1, x0:x1]))


class FrameSource:
    """Frames of ``region`` (screen coordinates) through ``capture`` (a backend's ``Capture``).

    ``region`` is the part of the screen the game's frames cover (the window's visible part,
    or the whole screen); ``follow`` moves it with the window. ``settle_timeout``: the longest
    ``settled`` waits unless told otherwise. ``close()`` closes the capture (idempotent).
    """

    def __init__(self, capture: Capture, region: Rect, settle_timeout: float = SETTLE_TIMEOUT) -> None:
        self.capture = capture
        self.region = region
        self.settle_timeout = settle_timeout

    def follow(self, region: Rect, window: WindowInfo | None = None) -> None:
        """The game moved or was replaced: frames of ``region`` from now on (and, for a capture
        of one window, of ``window``)."""
        if window is not None:
            self.capture.follow(window)
        self.region = region

    def narrow(self, rect: Rect | None) -> None:
        """Watch only ``rect`` (screen coordinates; None: all of the region again) where the
        capture can cast less than the screen (mutter's ``focus``): fewer pixels per frame,
        so frames come sooner. Other captures always grab what is asked, so it is a no-op."""
        self.capture.focus(rect)

    @timed(Phase.GRAB)
    def grab(self) -> np.ndarray:
        """The region now, BGR."""
        return self.capture.grab(self.region)

    @timed(Phase.GRAB)
    def grab_box(self, box: Box) -> np.ndarray:
        """Just ``box`` (frame pixels) of the region now: cheaper than a whole frame."""
        x0, y0, x1, y1 = box
        r = self.region
        return self.capture.grab(Rect(r.left + x0, r.top + y0, x1 - x0, y1 - y0))

    def wait_next(self, timeout: float = 0.05) -> None:
        """Until the screen may have changed: a capture fed by a stream (mutter's screen cast)
        says when its next frame comes, an X11 window's capture when the X server reports
        drawing on it (DAMAGE), each at no cost; other grabbing ones are polled every 1 ms."""
        self.capture.wait_next(timeout)

    def settled(self, area: Box | None = None, *, before: np.ndarray | None = None,
                changed: Sequence[Box] = (), transient: Callable[[np.ndarray], bool] | None = None,
                hover_grace: float = HOVER_GRACE, quiet: float | None = None, hold: float = 0.0,
                timeout: float | None = None,
                nudge: Callable[[], None] | None = None) -> np.ndarray:
        """A frame taken once the game reacted and stopped drawing.

        With ``before`` and ``changed`` (boxes, e.g. the clicked cells): first wait until every
        box looks different from ``before`` and, within ``hover_grace`` of the start, none
        looks ``transient`` (hovered or pressed: the reveal follows ~10 ms later); ``nudge``
        is called every ``NUDGE_EVERY`` seconds meanwhile (a cast that stalls until the screen
        changes again: ``stalls_casts``). Then grab
        every ``quiet`` seconds until two grabs agree on ``area`` (the board: the clock is
        outside it) and have agreed for ``hold`` seconds. After ``timeout`` the newest frame.
        """
        deadline = time.monotonic() + (self.settle_timeout if timeout is None else timeout)
        r = self.region
        if before is not None and changed and before.shape[:2] == (r.height, r.width):
            with phase(Phase.DRAW):     # the game's time: until it shows the clicks' result
                self._await_changed(before, changed, deadline, transient, hover_grace, nudge)
            # GTK may paint a change in several pieces: one more grab a few ms later must
            # agree on the whole board before the frame is read.
            quiet = 0.004 if quiet is None else quiet
        elif quiet is None:
            quiet = 0.012
        frame = self.grab()
        with phase(Phase.SETTLE):       # the bot's check that the drawing is over
            still = time.monotonic()
            while time.monotonic() < deadline:
                time.sleep(quiet)
                nxt = self.grab()
                if same_area(nxt, frame, area):
                    if time.monotonic() - still >= hold:
                        return nxt
                else:
                    still = time.monotonic()
                frame = nxt
        return frame

    def _await_changed(self, before: np.ndarray, changed: Sequence[Box], deadline: float,
                       transient: Callable[[np.ndarray], bool] | None, hover_grace: float,
                       nudge: Callable[[], None] | None = None) -> None:
        """Until every box of ``changed`` has looked different from ``before`` and, within
        ``hover_grace`` of the start, not ``transient`` (see ``settled``), or ``deadline``.

        Only the boxes still waited for are looked at: one grab of the rectangle around them
        (where a grab is served at once, X11's: a few cells cost a fraction of the window, and
        a whole-window grab every millisecond competes with the game for the CPU and the
        X server it draws through). A box that showed its change is not waited for again: a
        revealed cell stays revealed, and the settling grabs that follow must agree on the
        whole board anyway. Where each grab waits for the compositor's next frame
        (``frame_clocked``) the whole region is grabbed, as one frame shows every box."""
        started = time.monotonic()
        nudge_at = started + NUDGE_EVERY
        pending = list(changed)
        while pending and time.monotonic() < deadline:
            if self.capture.frame_clocked:
                ox, oy, view = 0, 0, self.grab()
            else:
                ox, oy = min(b[0] for b in pending), min(b[1] for b in pending)
                view = self.grab_box((ox, oy, max(b[2] for b in pending), max(b[3] for b in pending)))
            graced = time.monotonic() - started > hover_grace or transient is None
            left = []
            for box in pending:
                x0, y0, x1, y1 = box
                now = view[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
                if np.array_equal(now, before[y0:y1, x0:x1]) or (not graced and transient(now)):
                    left.append(box)
            pending = left
            if pending and nudge is not None and time.monotonic() >= nudge_at:
                nudge()
                nudge_at = time.monotonic() + NUDGE_EVERY
            if pending:
                self.wait_next()
        if os.environ.get("MINEBOT_DEBUG"):
            print(f"minebot: {len(changed) - len(pending)} of {len(changed)} area(s) changed after "
                  f"{1000 * (time.monotonic() - started):.1f} ms", file=sys.stderr)

    def ring_same(self, before: np.ndarray, px: Box, inside: bool = False) -> bool:
        """Whether the ring of pixels around the board ``px`` (and with ``inside`` the board
        too) looks now as in ``before``. Only what is compared is grabbed: the four strips of
        the ring (``ring_strips``; this runs before every click where there is no window to
        ask), or with ``inside`` the board and its ring. Where each grab waits for the
        compositor's next frame (``frame_clocked``), the ring's whole box in one grab."""
        if not inside and self.capture.frame_clocked:
            x0, y0, x1, y1 = box = ring_box(px, before.shape)
            inner = (px[0] - x0, px[1] - y0, px[2] - x0, px[3] - y0)
            return ring_unchanged(before[y0:y1, x0:x1], self.grab_box(box), inner)
        if inside:
            x0, y0, x1, y1 = box = ring_box(px, before.shape)
            inner = (px[0] - x0, px[1] - y0, px[2] - x0, px[3] - y0)
            return ring_unchanged(before[y0:y1, x0:x1], self.grab_box(box), inner, inside=True)
        return all(np.array_equal(before[y0:y1, x0:x1], self.grab_box((x0, y0, x1, y1)))
                   for x0, y0, x1, y1 in ring_strips(px, before.shape))

    def await_change(self, before: np.ndarray, px: Box, timeout: float) -> bool:
        """Whether the board ``px`` (and the ring around it) stops looking as in ``before``
        within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with phase(Phase.DRAW):
            while time.monotonic() < deadline:
                if not self.ring_same(before, px, inside=True):
                    return True
                time.sleep(0.01)
        return False

    def close(self) -> None:
        capture, self.capture = self.capture, None
        if capture is not None:
            capture.close()

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
